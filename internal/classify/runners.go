package classify

import (
	"encoding/json"
	"errors"
	"github.com/airlock-dev/airlock/internal/firstuse"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/classify/interp"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file follows task runners to the commands they run: package.json
// scripts (npm, yarn, pnpm, bun, with their pre- and post-scripts and the
// install lifecycle), make targets (recipes and prerequisites, with
// variables expanded statically as far as they can be), just recipes and
// Taskfile tasks. Without a filesystem, a task named after a release
// (make release, npm run deploy) is opaque: what it runs cannot be read.

// runner rates what a task runner would run from its file. It adds to the
// runner's own spec, which rates the runner's built-in commands.
func (c *Classifier) runner(inv *shell.Invocation) Effect {
	switch inv.Name() {
	case "turbo", "nx", "lerna":
		// Monorepo runners run a task as the packages' package.json
		// scripts of that name: the root's is followed as npm run's is
		// (the workspace packages' are not read).
		if task := monorepoTask(inv); task != "" {
			return c.scriptsNamed(inv, []string{task})
		}
		return nothing
	case "npm", "yarn", "yarnpkg", "pnpm", "bun":
		e := c.packageScripts(inv)
		e.Add(c.pnpmfileRun(inv))         // buildconfig.go
		e.Add(c.packageBinRun(inv))       // runnerfiles.go
		e.Add(c.localPackageInstall(inv)) // rundir.go
		e.Add(c.workspaceRuns(inv))       // workspaces.go
		return e
	case "make", "gmake":
		return c.makeRun(inv)
	case "just":
		return c.justRun(inv)
	case "ninja", "samu":
		return c.ninjaRun(inv)
	case "mage":
		return c.mageRun(inv)
	case "task", "go-task":
		return c.taskRun(inv)
	case "rake":
		return c.rakeRun(inv)
	case "pre-commit":
		return c.preCommitRun(inv)
	case "tox":
		return c.toxRun(inv)
	case "nox":
		return c.noxRun(inv)
	case "cargo":
		e := c.cargoBuildScripts(inv)
		e.Add(c.cargoConfigRun(inv)) // buildconfig.go
		return e
	case "go", "tcc", "java":
		// go run FILE.go… (or the .go files the command writes in the
		// package it runs), tcc -run, java X.java: the source goes to
		// self-protection like an interpreter script's (carry.go).
		return c.builtRunCode(inv)
	}
	// Build tools whose project files are code airlock has no reader
	// for are read by keepProjectCode (buildtools.go).
	return nothing
}

// keepTaskCode reads the task files that exist and keeps their text for
// self-protection. One the same command writes in a way airlock cannot
// read (cp, a download, a program's output) is held: the tool runs what
// the write leaves there. One that cannot be read for another reason
// (too large, unreadable) adds nothing: these tools are ordinary builds,
// and their text is only checked for mentions.
func (c *Classifier) keepTaskCode(inv *shell.Invocation, files []string) Effect {
	if c.FS == nil || c.code == nil {
		return nothing
	}
	var e Effect
	for _, f := range files {
		data, failed, ok := c.readScript(inv, f, false)
		switch {
		case ok:
			c.keepCode(inv.Name()+" (its "+f+")", f, data)
			c.keepNamedScripts(inv, f, data)
		case len(failed.Reasons) > 0 && failed.Reasons[0].Rule == "script.written":
			if c.keepEdited(inv, f) {
				continue
			}
			e.Add(failed.through("build.file", inv.Name()+" runs "+clip(f)+" as code"))
		}
	}
	return e
}

// ---- package.json scripts ----

// npmLifecycle lists the scripts npm runs around its own commands.
var npmLifecycle = firstuse.Table[map[string][]string]{Build: func() map[string][]string {
	return map[string][]string{
		"install":         {"preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare", "postprepare"},
		"ci":              {"preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare", "postprepare"},
		"pack":            {"prepack", "prepare", "postpack"},
		"publish":         {"prepublishOnly", "prepack", "prepare", "postpack", "publish", "postpublish"},
		"test":            {"pretest", "test", "posttest"},
		"start":           {"prestart", "start", "poststart"},
		"stop":            {"prestop", "stop", "poststop"},
		"restart":         {"prerestart", "restart", "postrestart"},
		"rebuild":         {"preinstall", "install", "postinstall", "prepare"},
		"install-ci-test": {"preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare", "postprepare", "pretest", "test", "posttest"},
		"install-test":    {"preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare", "postprepare", "pretest", "test", "posttest"},
	}
}}

// yarnBuiltins are yarn and pnpm commands that are not scripts.
func yarnBuiltins(name string) bool {
	switch name {
	case "add", "remove", "install", "up", "upgrade", "why", "info", "init", "config", "cache", "dlx",
		"exec", "link", "unlink", "npm", "pack", "plugin", "set", "version", "workspaces", "workspace",
		"publish", "login", "logout", "outdated", "list", "ls", "audit", "bin", "dedupe", "import", "patch",
		"patch-commit", "rebuild", "store", "why-not", "node", "global", "owner", "tag", "team", "create",
		"i", "rm", "update", "prune", "fetch", "setup", "env", "help", "licenses", "root", "server",
		"explain", "constraints", "x":
		return true
	}
	return false
}

// scriptNames returns the package.json scripts a run would start, in
// order, or nil.
func scriptNames(inv *shell.Invocation) []string {
	tool := inv.Name()
	p := argv.Spec{Short: "wC", Long: []string{"--prefix", "--workspace", "--filter", "--dir", "--cwd", "--reporter", "--loglevel"}}.Parse(inv.Args[1:])
	ops := p.Operands
	if len(ops) == 0 {
		if tool == "yarn" || tool == "yarnpkg" {
			return npmLifecycle.Get()["install"]
		}
		return nil
	}
	cmd := ops[0]
	if (tool == "yarn" || tool == "yarnpkg") && cmd == "workspaces" && len(ops) > 2 && ops[1] == "foreach" {
		// yarn workspaces foreach [-A] run X runs the script X of each
		// workspace, the root's included.
		for k := 2; k+1 < len(ops); k++ {
			if ops[k] == "run" {
				return []string{"pre" + ops[k+1], ops[k+1], "post" + ops[k+1]}
			}
		}
		return nil // foreach of one of yarn's own commands
	}
	if tool == "npm" {
		if a, ok := npmAlias.Get()[cmd]; ok {
			cmd = a
		} else {
			cmd = npmPrefix(cmd)
		}
	}
	switch cmd {
	case "run", "run-script", "rum", "urn":
		if len(ops) < 2 {
			return nil
		}
		return []string{"pre" + ops[1], ops[1], "post" + ops[1]}
	case "t", "tst":
		cmd = "test"
	case "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal", "isntall", "add", "install-test", "it", "cit", "clean-install", "install-clean":
		if tool == "npm" || cmd == "i" || cmd == "install" {
			cmd = "install"
		}
	}
	if tool == "bun" && cmd == "test" {
		return nil // bun's own test runner
	}
	if l, ok := npmLifecycle.Get()[cmd]; ok {
		if tool != "npm" && cmd == "install" && len(ops) > 1 {
			return nil // yarn add / pnpm install pkg: the root's scripts do not run
		}
		if tool == "npm" && cmd == "install" && len(ops) > 1 {
			return nil
		}
		return l
	}
	if tool == "pnpm" && cmd == "deploy" {
		return nil // pnpm's own deploy copies a workspace package
	}
	if tool != "npm" && (!yarnBuiltins(cmd) || cmd == "x") {
		// yarn X, pnpm X, bun X run the script X. "x" is a builtin of
		// some versions only (bun x, pnpm's alias of dlx), so a script
		// of that name is followed too.
		return []string{"pre" + cmd, cmd, "post" + cmd}
	}
	return nil
}

func (c *Classifier) packageScripts(inv *shell.Invocation) Effect {
	return c.scriptsNamed(inv, scriptNames(inv))
}

// scriptsNamed follows the package.json scripts names, in order.
func (c *Classifier) scriptsNamed(inv *shell.Invocation, names []string) Effect {
	if len(names) == 0 {
		return nothing
	}
	main := names[len(names)/2]
	if c.FS == nil {
		if releaseName(main) {
			return unreadRelease(inv.Name()+" run", main)
		}
		return nothing
	}
	data, failed, ok := c.readScript(inv, "package.json", false)
	if !ok {
		return failed
	}
	var pkg struct {
		Scripts map[string]json.RawMessage `json:"scripts"`
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		return opaque("script.unreadable", "package.json cannot be read as JSON ("+err.Error()+"), so what "+inv.Name()+" runs cannot be known")
	}
	var e Effect
	for _, n := range names {
		raw, ok := pkg.Scripts[n]
		if !ok {
			continue
		}
		var text string
		if err := json.Unmarshal(raw, &text); err != nil {
			e.Add(opaque("script.unreadable", "package.json script "+n+" is not a string"))
			continue
		}
		e.Add(c.shellFile("package.json", text, jsonKeyLine(data, n)))
	}
	return e
}

// jsonKeyLine returns the line of the first `"key":` in a JSON file.
func jsonKeyLine(data []byte, key string) int {
	s := string(data)
	i := strings.Index(s, `"`+key+`"`)
	if i < 0 {
		return 1
	}
	return 1 + strings.Count(s[:i], "\n")
}

// ---- make ----

// makefile is what airlock reads of a Makefile: variables, rules with
// their prerequisites and recipe lines.
type makefile struct {
	name  string
	vars  map[string]string
	rules map[string]*makeRule
	first string
	// includes are the words of include, -include and sinclude lines,
	// read by makeIncludes (taskrunners.go).
	includes []makeLine
	// parseTime are the lines make evaluates while it reads the file,
	// whatever target runs: every line outside a recipe that has a
	// reference in it (assignments of any kind, conditionals, rule lines,
	// export, vpath, define bodies, top-level function calls). Only the
	// commands their $(shell …) and $(file …) run are read of them; a
	// $(shell …) in a variable that is never expanded counts too.
	parseTime []makeLine
	// incDirs are the directories of -I, where an include's relative
	// name is looked for when it is not in make's directory.
	incDirs []string
	// shells are the values the file gives SHELL, .SHELLFLAGS and
	// MAKESHELL (text holds NAME=VALUE): the program make runs every
	// recipe line with (makeShells).
	shells []makeLine
	// alts are the other values a variable is given (an earlier
	// assignment, a conditional's other branch, an included file's, the
	// command line's beside an override): a recipe line is read with
	// each of them too.
	alts map[string][]string
	// override are the variables set with override (the command line
	// does not change them); exports the names export gives the
	// recipes; exportAll is a bare export or .EXPORT_ALL_VARIABLES.
	override  map[string]bool
	exports   []string
	exportAll bool
	// opaque are the lines make evaluates ($(eval) of text airlock
	// cannot know, $(eval) in a recipe) that airlock does not read.
	opaque []makeLine
	// env is the run's environment (make takes a variable the files do
	// not set from it, and every one with -e); force the values of
	// $(foreach) and $(call) while they are expanded; stem is $*.
	env         func(string) (string, bool)
	envOverride bool
	force       map[string]string
	stem        string
	// evalMode says what $(eval TEXT) does while expanding: 0 records it
	// as opaque, 1 parses TEXT into the makefile when it is static
	// (parse time), 2 ignores it (a line already evaluated), 3 expands
	// it to nothing (a rule line's text, already evaluated).
	evalMode int
	// read reads a file make's $(file <NAME) names (makeRun's): its
	// text, or why it cannot be known ("" and "" for a missing file,
	// which make reads as empty).
	read func(name string) (text, why string)
	// valueOnly is set while a rule line's text is expanded for its
	// value (ruleText): a function gives what make makes of it, not the
	// commands its arguments run (those are read from parseTime).
	valueOnly bool
	// dry is make -n: $(MAKE) is make -n.
	dry bool
	// goals are the command line's targets (MAKECMDGOALS).
	goals string
	// marking is set while an $(eval)'s text is expanded: $(shell …)
	// gives \x01(…) instead of $(…).
	marking bool
	// dynamic is set when an expansion met a value known only at run
	// time ($(shell …), $(wildcard …), a function airlock does not
	// evaluate).
	dynamic bool
	depth   int
	// dynTargets are the targets whose names are known only at run
	// time (or not at all while make reads the line): any goal may be
	// one of them.
	dynTargets []string
}

type makeRule struct {
	prereqs []string
	recipe  []makeLine
}

type makeLine struct {
	line int
	text string
	// file is the file the line comes from when it is not the one being
	// read (a recipe from an included makefile).
	file string
	// done says a top-level line was evaluated while the file was read
	// (its $(eval)s parsed).
	done bool
}

var makeAssign = firstuse.Table[*regexp.Regexp]{Build: func() *regexp.Regexp {
	return regexp.MustCompile(`^((?:(?:export|override|private)\s+)*)([^\s:#=$(){}]+|\$[({][^\s)}]+[)}])\s*(:::=|::=|:=|\?=|\+=|!=|=)\s*(.*)$`)
}}

// parseMakefile reads the variables and rules of a Makefile. Conditionals
// are read through (every branch counts; a variable a branch sets keeps
// the other branches' values as alternatives), define blocks are
// variables.
func parseMakefile(name, text string) *makefile {
	m := newMakefile(name)
	m.parse(name, text, 0)
	return m
}

func newMakefile(name string) *makefile {
	return &makefile{name: name, vars: map[string]string{}, rules: map[string]*makeRule{}, alts: map[string][]string{}, override: map[string]bool{}}
}

// set gives a variable a value, keeping the one it replaces as an
// alternative.
func (m *makefile) set(k, v string) {
	if old, ok := m.vars[k]; ok && old != v && len(m.alts[k]) < 8 {
		m.alts[k] = append(m.alts[k], old)
	}
	m.vars[k] = v
}

func (m *makefile) parse(name, text string, depth int) {
	if depth > 8 {
		m.opaque = append(m.opaque, makeLine{text: "$(eval …) nested too deep", file: name})
		return
	}
	lines := strings.Split(text, "\n")
	var cur []*makeRule
	prefix := "\t"
	for i := 0; i < len(lines); i++ {
		n := i + 1
		l := strings.TrimRight(lines[i], "\r")
		isRecipe := strings.HasPrefix(l, prefix)
		for strings.HasSuffix(l, `\`) && i+1 < len(lines) {
			i++
			if isRecipe {
				l = l + "\n" + strings.TrimPrefix(strings.TrimRight(lines[i], "\r"), prefix)
			} else {
				l = strings.TrimSuffix(l, `\`) + " " + strings.TrimSpace(lines[i])
			}
		}
		if isRecipe && cur != nil {
			for _, r := range cur {
				r.recipe = append(r.recipe, makeLine{line: n, text: strings.ReplaceAll(l[len(prefix):], "\\\n", " ")})
			}
			continue
		}
		if isRecipe && depth > 0 && strings.TrimSpace(l) != "" {
			// A recipe line before any rule in an $(eval)'s text.
			m.opaque = append(m.opaque, makeLine{text: "make evaluates " + clip(strings.TrimSpace(l)) + " ($(eval)), a recipe line with no rule before it"})
			continue
		}
		// A line with the recipe prefix and no rule before it (at the
		// top, or after an assignment) is read as any other line:
		// <TAB>X := $(shell …) runs while make reads.
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		fields := strings.Fields(t)
		word := fields[0]
		defOver, defExport := false, false
		if (word == "override" || word == "export" || word == "private") && len(fields) > 1 && fields[1] == "define" {
			defOver, defExport = word == "override", word == "export"
			word = "define"
			t = strings.TrimSpace(t[strings.Index(t, "define"):])
			fields = strings.Fields(t)
		}
		switch word {
		case "define":
			// define NAME [op]: the body is the variable's value; an
			// immediate one is expanded while make reads.
			vname, op := "", "="
			if len(fields) > 1 {
				vname = fields[1]
			}
			if len(fields) > 2 {
				op = fields[2]
			}
			for _, o := range []string{":::=", "::=", ":=", "!=", "?=", "+=", "="} {
				if strings.HasSuffix(vname, o) {
					vname, op = strings.TrimSuffix(vname, o), o
					break
				}
			}
			var body []string
			level := 1
			start := n
			for i+1 < len(lines) {
				i++
				b := strings.TrimRight(lines[i], "\r")
				bt := strings.TrimSpace(b)
				if bt == "endef" || strings.HasPrefix(bt, "endef ") || strings.HasPrefix(bt, "endef\t") {
					level--
					if level == 0 {
						break
					}
				} else if f := strings.Fields(bt); len(f) > 0 && (f[0] == "define" || len(f) > 1 && f[1] == "define") {
					level++
				}
				body = append(body, b)
			}
			v := strings.Join(body, "\n")
			if strings.Contains(v, "$") {
				m.parseTime = append(m.parseTime, makeLine{line: start, text: v, file: name})
			}
			if op == "!=" {
				m.parseTime = append(m.parseTime, makeLine{line: start, text: "$(shell " + v + ")", file: name})
				v = "$(shell " + v + ")"
			}
			if op == "+=" {
				v = m.vars[vname] + " " + v
			}
			if defOver {
				m.override[vname] = true
			}
			if defExport {
				m.exports = append(m.exports, vname)
			}
			if vname != "" && (op != "?=" || m.vars[vname] == "") {
				m.set(vname, v)
			}
			cur = nil
			continue
		case "include", "-include", "sinclude":
			m.includes = append(m.includes, makeLine{line: n, text: strings.TrimSpace(strings.TrimPrefix(t, word)), file: name})
			if strings.Contains(t, "$") {
				m.parseTime = append(m.parseTime, makeLine{line: n, text: t, file: name})
			}
			continue
		case "load", "-load":
			// load runs a shared object's code while make reads, and
			// the functions it defines are not make's.
			m.opaque = append(m.opaque, makeLine{line: n, text: "make loads " + clip(strings.TrimSpace(strings.TrimPrefix(t, word))) + " (load), a program airlock does not read", file: name})
			continue
		case "ifeq", "ifneq", "ifdef", "ifndef", "else", "endif", "vpath", "unexport":
			if strings.Contains(t, "$") {
				m.parseTime = append(m.parseTime, makeLine{line: n, text: t, file: name})
			}
			continue
		case "export":
			if len(fields) == 1 {
				m.exportAll = true
				continue
			}
			if !strings.ContainsAny(t, "=") {
				// export NAME…: those variables go to the recipes.
				if strings.Contains(t, "$") {
					m.parseTime = append(m.parseTime, makeLine{line: n, text: t, file: name})
				}
				m.exports = append(m.exports, fields[1:]...)
				continue
			}
		}
		if mm := makeAssign.Get().FindStringSubmatch(t); mm != nil && !strings.Contains(strings.SplitN(t, "=", 2)[0], ": ") {
			k, op, v := mm[2], mm[3], mm[4]
			if strings.HasPrefix(k, "$") {
				k = strings.TrimSpace(m.expand(k, "", nil, 0))
			}
			if strings.Contains(t, "$") {
				m.parseTime = append(m.parseTime, makeLine{line: n, text: t, file: name})
			}
			if strings.Contains(mm[1], "export") {
				m.exports = append(m.exports, k)
			}
			over := strings.Contains(mm[1], "override")
			if over {
				m.override[k] = true
			}
			if op == "+=" {
				v = strings.TrimSpace(m.vars[k] + " " + v)
			}
			_, inEnv := m.getenv(k)
			switch {
			case op == "?=" && (m.vars[k] != "" || inEnv):
				// set already, or by the environment: make keeps that.
				if m.vars[k] != v && len(m.alts[k]) < 8 {
					m.alts[k] = append(m.alts[k], v)
				}
			default:
				if op == "!=" {
					m.parseTime = append(m.parseTime, makeLine{line: n, text: "$(shell " + v + ")", file: name})
					v = "$(shell " + v + ")"
				}
				if op == ":=" || op == "::=" || op == ":::=" {
					v = m.selfRef(k, v)
				}
				m.set(k, v)
			}
			switch k {
			case "SHELL", ".SHELLFLAGS", "MAKESHELL":
				m.shells = append(m.shells, makeLine{line: n, text: k + "=" + v, file: name})
			case ".RECIPEPREFIX":
				prefix = "\t"
				if x := m.expand(v, "", nil, 0); x != "" {
					prefix = x[:1]
				}
			}
			cur = nil
			continue
		}
		// A rule line, or a function called at the top level: make
		// expands the text before a ; outside references, evaluating
		// its $(eval)s, and looks for the colon in what it expanded to
		// ($(T): ; …, or $(RULE) with RULE = build: ; …); the targets
		// are the expanded words before it.
		head, inline, hasInline := t, "", false
		if semi := makeTopIndex(t, ';'); semi >= 0 {
			head, inline, hasInline = t[:semi], t[semi+1:], true
		}
		evaluated := false
		if strings.Contains(head, "$") && strings.Contains(head, "eval") {
			m.evalTop(name, n, head, depth)
			evaluated = true
		}
		if strings.Contains(t, "$") {
			m.parseTime = append(m.parseTime, makeLine{line: n, text: t, file: name, done: evaluated})
		}
		var targetText, rest string
		if colon := makeTopIndex(head, ':'); colon >= 0 {
			targetText, rest = head[:colon], head[colon+1:]
			if strings.Contains(targetText, "$") {
				targetText = m.ruleText(targetText)
				if c := strings.IndexByte(targetText, ':'); c >= 0 {
					// T := build: then $(T) x: …: make's colon is the
					// expansion's first.
					targetText, rest = targetText[:c], targetText[c+1:]+":"+rest
				}
			}
			if !hasInline && strings.Contains(rest, "$") && makeAssign.Get().FindStringSubmatch(strings.TrimSpace(rest)) == nil {
				// S := ; then build: $(S) cmd: with no ; in the line,
				// make looks for one in what it expanded.
				if x := m.ruleText(rest); strings.Contains(x, ";") {
					semi := strings.IndexByte(x, ';')
					rest, inline, hasInline = x[:semi], x[semi+1:], true
				}
			}
		} else {
			x := head
			if strings.Contains(x, "$") {
				x = m.ruleText(x)
			}
			// A top-level line's expansion is make text: what a
			// command prints there may be a rule ($(shell cat r.txt)
			// with build: ; … in it). A command that prints nothing or
			// one known word ($(shell mkdir -p build), git describe) is
			// left out; any other makes the line opaque.
			if subs := shellSubList(x); len(subs) > 0 {
				loud := ""
				for _, sub := range subs {
					if !makeQuietCommand(strings.TrimSuffix(strings.TrimPrefix(sub[1:], "("), ")")) {
						loud = sub
						break
					}
					x = strings.Replace(x, sub, "", 1)
				}
				if loud != "" {
					m.opaque = append(m.opaque, makeLine{line: n, file: name, text: "make reads what " + clip(loud) + " prints as make text (a top-level line), which may be a rule airlock cannot know"})
					cur = nil
					continue
				}
			}
			if !hasInline {
				if semi := strings.IndexByte(x, ';'); semi >= 0 {
					x, inline, hasInline = x[:semi], x[semi+1:], true
				}
			}
			colon := strings.IndexByte(x, ':')
			if colon < 0 {
				// $(eval …), $(info …): no rule.
				cur = nil
				continue
			}
			targetText, rest = x[:colon], x[colon+1:]
		}
		targets := makeFields(targetText)
		if len(targets) == 0 && (strings.TrimSpace(inline) != "" || strings.Contains(t[:len(t)-len(inline)], "$")) {
			// No target known now (a variable set later, or by the
			// environment at run time): ": FILE:LINE", a name the
			// shell expands to nothing, as make's $@ would be.
			targets = []string{"$(: " + name + ":" + strconv.Itoa(n) + ")"}
		}
		for _, tg := range targets {
			if strings.ContainsAny(tg, "$`\x01") && !slices.Contains(m.dynTargets, tg) {
				// A target computed at run time ($(shell …)) may be
				// any goal: its rule is followed whatever the goals.
				m.dynTargets = append(m.dynTargets, tg)
			}
		}
		rest = strings.TrimLeft(rest, ":")
		// target-specific variable: "target: VAR = value" (a shell
		// for that target's recipes counts as one for all; another
		// value is one of the variable's).
		if mm := makeAssign.Get().FindStringSubmatch(strings.TrimSpace(rest)); mm != nil {
			switch mm[2] {
			case "SHELL", ".SHELLFLAGS", "MAKESHELL":
				m.shells = append(m.shells, makeLine{line: n, text: mm[2] + "=" + mm[4], file: name})
			}
			if strings.Contains(mm[1], "export") {
				m.exports = append(m.exports, mm[2])
			}
			if len(m.alts[mm[2]]) < 8 {
				m.alts[mm[2]] = append(m.alts[mm[2]], mm[4])
			}
			cur = nil
			continue
		}
		prereqs := makeFields(strings.ReplaceAll(rest, "|", " "))
		cur = cur[:0:0]
		for _, tg := range targets {
			if tg == ".EXPORT_ALL_VARIABLES" {
				m.exportAll = true
			}
			r := m.rules[tg]
			if r == nil {
				r = &makeRule{}
				m.rules[tg] = r
				if m.first == "" && !strings.HasPrefix(tg, ".") && !strings.Contains(tg, "%") {
					m.first = tg
				}
			}
			r.prereqs = append(r.prereqs, prereqs...)
			if strings.TrimSpace(inline) != "" {
				r.recipe = append(r.recipe, makeLine{line: n, text: inline})
			}
			cur = append(cur, r)
		}
	}
}

// makeTopIndex returns the index of the first c in s outside make
// references ($(…), ${…}), or -1.
func makeTopIndex(s string, c byte) int {
	level := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '$':
			if i+1 < len(s) && (s[i+1] == '(' || s[i+1] == '{') {
				level++
				i++
			} else if i+1 < len(s) {
				i++ // $$, $@, $x
			}
		case '(', '{':
			if level > 0 {
				level++
			}
		case ')', '}':
			if level > 0 {
				level--
			}
		case c:
			if level == 0 {
				return i
			}
		}
	}
	return -1
}

// ruleText expands a rule line's text as make does while it reads it:
// its $(eval)s were evaluated (evalTop) and expand to nothing.
func (m *makefile) ruleText(s string) string {
	saved, value := m.evalMode, m.valueOnly
	m.evalMode, m.valueOnly = 3, true
	x := m.expand(s, "", nil, 0)
	m.evalMode, m.valueOnly = saved, value
	return x
}

// evalTop expands a top-level function call while the file is read, so
// that $(eval $(call RULE,…)) and $(foreach …,$(eval …)) add their rules
// and variables; text airlock cannot know is recorded as opaque.
func (m *makefile) evalTop(name string, n int, t string, depth int) {
	if !strings.Contains(t, "eval") {
		return
	}
	saved := m.evalMode
	m.evalMode = 1
	m.depth = depth
	before := len(m.opaque)
	m.expand(t, "", nil, 0)
	m.evalMode = saved
	for i := before; i < len(m.opaque); i++ {
		if m.opaque[i].line == 0 {
			m.opaque[i].line, m.opaque[i].file = n, name
		}
	}
}

// selfRef replaces, in an immediate assignment's value, the variable's
// own references by the value it had (PATH := $(CURDIR)/bin:$(PATH)
// takes the environment's PATH).
func (m *makefile) selfRef(k, v string) string {
	if !strings.Contains(v, "$("+k+")") && !strings.Contains(v, "${"+k+"}") {
		return v
	}
	old, ok := m.vars[k]
	if !ok {
		switch k {
		case "PATH", "HOME", "USER", "TMPDIR", "PWD":
			old = "$$" + k
		default:
			old, _ = m.lookup(k)
		}
	}
	return strings.NewReplacer("$("+k+")", old, "${"+k+"}", old).Replace(v)
}

// getenv is the run's environment.
func (m *makefile) getenv(k string) (string, bool) {
	if m.env == nil {
		return "", false
	}
	return m.env(k)
}

// lookup returns a variable's value as make would expand it.
func (m *makefile) lookup(name string) (string, bool) {
	if v, ok := m.force[name]; ok {
		return v, true
	}
	if m.envOverride && !m.override[name] {
		if v, ok := m.getenv(name); ok && shellName(name) {
			return strings.ReplaceAll(v, "$", "$$"), true
		}
	}
	if v, ok := m.vars[name]; ok {
		return v, true
	}
	if v, ok := m.getenv(name); ok && shellName(name) && name != "SHELL" && name != "MAKEFLAGS" {
		return strings.ReplaceAll(v, "$", "$$"), true
	}
	return "", false
}

// expand expands make variables in s as far as they are known: $(VAR),
// ${VAR}, $V, automatic variables, $(MAKE), $$, $(shell …) (as the
// shell's $(…)) and make's functions; unknown variables expand to
// nothing, as in make.
func (m *makefile) expand(s, target string, r *makeRule, depth int) string {
	if depth > 8 || !strings.Contains(s, "$") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch ch := s[i]; ch {
		case '$':
			b.WriteByte('$')
		case '@':
			b.WriteString(target)
		case '*':
			b.WriteString(m.stem)
		case '<':
			if r != nil && len(r.prereqs) > 0 {
				b.WriteString(m.expand(r.prereqs[0], target, nil, depth+1))
			}
		case '^', '+', '?':
			if r != nil {
				b.WriteString(m.expand(strings.Join(r.prereqs, " "), target, nil, depth+1))
			}
		case '(', '{':
			closer := byte(')')
			if ch == '{' {
				closer = '}'
			}
			j, level := i+1, 1
			for ; j < len(s) && level > 0; j++ {
				switch s[j] {
				case ch:
					level++
				case closer:
					level--
				}
			}
			if level > 0 {
				b.WriteString(s[i-1:])
				return b.String()
			}
			inner := s[i+1 : j-1]
			i = j - 1
			b.WriteString(m.ref(inner, target, r, depth))
		default:
			b.WriteString(m.ref(string(ch), target, r, depth))
		}
	}
	return b.String()
}

// makeDefault is the value make gives a variable of its built-in rules
// when no makefile sets it ($(RM) -r build is rm -f -r build).
func makeDefault(name string) string {
	switch name {
	case "RM":
		return "rm -f"
	case "CC":
		return "cc"
	case "CXX":
		return "g++"
	case "CPP":
		return "cc -E"
	case "AR":
		return "ar"
	case "AS":
		return "as"
	case "LEX":
		return "lex"
	case "YACC":
		return "yacc"
	case "FC":
		return "f77"
	case "ARFLAGS":
		return "rv"
	}
	return ""
}

// makeFields splits make text into words at the blanks outside
// references ($(addprefix bin/, $(BINS)) is one word).
func makeFields(s string) []string {
	var out []string
	level, start := 0, -1
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '(' || c == '{':
			level++
		case c == ')' || c == '}':
			level--
		case (c == ' ' || c == '\t') && level <= 0:
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// makeArgsSplit splits a function's arguments at the commas outside
// parentheses and braces.
func makeArgsSplit(s string) []string {
	var out []string
	level, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '{':
			level++
		case ')', '}':
			level--
		case ',':
			if level == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// makePattern matches a word against a make pattern (one %), returning
// the stem.
func makePattern(pat, w string) (string, bool) {
	pre, suf, ok := strings.Cut(pat, "%")
	if !ok {
		return "", pat == w
	}
	if len(w) >= len(pre)+len(suf) && strings.HasPrefix(w, pre) && strings.HasSuffix(w, suf) {
		return w[len(pre) : len(w)-len(suf)], true
	}
	return "", false
}

// ref expands the inside of one $(…) reference.
func (m *makefile) ref(inner, target string, r *makeRule, depth int) string {
	if depth > 8 {
		return ""
	}
	if fn, args, ok := strings.Cut(inner, " "); ok || strings.ContainsAny(inner, "\t") {
		if i := strings.IndexAny(inner, " \t"); i >= 0 {
			fn, args, ok = inner[:i], inner[i+1:], true
		}
		if out, known := m.function(fn, args, target, r, depth); known {
			return out
		}
	}
	name := inner
	kept := ""
	if strings.Contains(name, "$") {
		// a computed name: $($(Y)), $(FLAGS_$(OS)); the commands that
		// compute it run whatever it names ($(X$(shell …)),
		// $(V:$(shell …)=x)).
		name = m.expand(name, target, r, depth+1)
		kept = shellSubs(name)
	}
	if kept != "" {
		out := m.refName(name, target, r, depth)
		if !strings.Contains(out, kept) {
			out = strings.TrimSpace(out + " " + kept)
		}
		return out
	}
	return m.refName(name, target, r, depth)
}

// refName expands a reference to the variable name (a substitution
// reference $(VAR:.c=.o) is read as VAR's value).
func (m *makefile) refName(name, target string, r *makeRule, depth int) string {
	if i := strings.IndexByte(name, ':'); i >= 0 {
		name = name[:i] // substitution reference $(VAR:.c=.o)
	}
	switch name {
	case "MAKE":
		if m.dry {
			// make -n passes -n on to the makes its recipes run.
			return "make -n"
		}
		return "make"
	case "CURDIR":
		return "."
	case "MAKECMDGOALS":
		if _, set := m.vars[name]; !set {
			return m.goals
		}
	case "SHELL":
		if _, set := m.vars["SHELL"]; !set {
			return "sh"
		}
	}
	if v, set := m.lookup(name); set {
		return m.expand(v, target, r, depth+1)
	}
	if v := makeDefault(name); v != "" {
		return v
	}
	switch name {
	case "HOME", "USER", "LOGNAME", "TMPDIR", "PWD", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR", "PATH":
		// make takes them from the environment, as the recipe's shell
		// does: $(HOME)/.claude is $HOME/.claude.
		return "$" + name
	}
	return ""
}

// function evaluates one of make's functions; known is false when fn is
// not a function's name (then inner is a variable's).
func (m *makefile) function(fn, args, target string, r *makeRule, depth int) (string, bool) {
	x := func(s string) string { return m.expand(s, target, r, depth+1) }
	a := makeArgsSplit(args)
	arg := func(i int) string {
		if i < len(a) {
			return a[i]
		}
		return ""
	}
	// keep adds to out the commands the expanded arguments run that out
	// lost (a $(shell …) in a $(filter …)'s list still runs).
	keep := func(out string, expanded ...string) string {
		if m.valueOnly {
			return out
		}
		for _, e := range expanded {
			if subs := shellSubs(e); subs != "" && !strings.Contains(out, subs) {
				out = strings.TrimSpace(out + " " + subs)
			}
		}
		return out
	}
	switch fn {
	case "shell":
		if !m.marking || !makeValueCommand(args) {
			m.dynamic = true
		}
		if m.marking {
			return "\x01(" + x(strings.TrimLeft(args, " \t")) + ")", true
		}
		return "$(" + x(strings.TrimLeft(args, " \t")) + ")", true
	case "file":
		return m.fileFunc(args, target, r, depth), true
	case "strip":
		return strings.Join(strings.Fields(x(args)), " "), true
	case "if":
		c := strings.TrimSpace(x(arg(0)))
		if m.valueOnly && strings.ContainsAny(c, "$\x01") {
			// a condition known at run time: either part may be the
			// value
			return strings.TrimSpace(x(arg(1)) + " " + x(arg(2))), true
		}
		if c != "" {
			return keep(x(arg(1)), c, x(arg(2))), true
		}
		return keep(x(arg(2)), x(arg(1))), true
	case "or":
		for _, v := range a {
			if e := strings.TrimSpace(x(v)); e != "" {
				return e, true
			}
		}
		return "", true
	case "and":
		// make stops at the first empty argument; the commands of the
		// arguments it expanded have run (and $(shell airlock …),).
		out := ""
		var seen []string
		for _, v := range a {
			out = strings.TrimSpace(x(v))
			seen = append(seen, out)
			if out == "" {
				return keep("", seen...), true
			}
		}
		return out, true
	case "foreach":
		v := strings.TrimSpace(x(arg(0)))
		list := x(arg(1))
		body := strings.Join(a[min(2, len(a)):], ",")
		var out []string
		old, had := m.force[v]
		if m.force == nil {
			m.force = map[string]string{}
		}
		for k, w := range strings.Fields(list) {
			if k > 64 {
				break
			}
			m.force[v] = w
			out = append(out, x(body))
		}
		if had {
			m.force[v] = old
		} else {
			delete(m.force, v)
		}
		return keep(strings.Join(out, " "), list, v), true
	case "call":
		name := strings.TrimSpace(x(arg(0)))
		saved := m.force
		force := map[string]string{}
		for k, v := range saved {
			force[k] = v
		}
		force["0"] = name
		for i := 1; i < 10; i++ {
			if i < len(a) {
				force[strconv.Itoa(i)] = strings.ReplaceAll(x(a[i]), "$", "$$")
			} else {
				delete(force, strconv.Itoa(i))
			}
		}
		body, set := m.lookup(name)
		if !set {
			m.force = saved
			return keep("", x(args)), true
		}
		m.force = force
		out := x(body)
		m.force = saved
		// make expands every argument before the call, whether the
		// body uses it or not: their commands run.
		var expanded []string
		for i := 1; i < len(a) && i < 10; i++ {
			expanded = append(expanded, force[strconv.Itoa(i)])
		}
		return keep(out, append(expanded, name)...), true
	case "eval":
		if m.evalMode == 3 {
			return "", true // evaluated already (ruleText)
		}
		// The text is expanded once; the commands of its $(shell …)s
		// run then (they are marked, so that a $( left by a $$ escape,
		// a make reference the text's own lines expand again, is not
		// taken for one).
		was, marking := m.dynamic, m.marking
		m.dynamic, m.marking = false, true
		text := x(args)
		dyn := m.dynamic
		m.dynamic, m.marking = was || dyn, marking
		subs := shellSubs(strings.ReplaceAll(strings.ReplaceAll(text, "$(", "\x02("), "\x01(", "$("))
		plain := strings.ReplaceAll(text, "\x01(", "$(")
		if marking {
			// an $(eval) in an $(eval)'s text: the outer one reads it
			subs, plain = "", text
		}
		switch m.evalMode {
		case 1:
			// A value computed at run time is make text too (make
			// expands the evaluated lines again), so that text is not
			// known.
			if dyn {
				m.opaque = append(m.opaque, makeLine{text: "make evaluates " + clip(plain) + " ($(eval)), text computed at run time"})
			} else {
				d := m.depth
				m.parse(m.name, plain, d+1)
				m.depth = d
			}
		case 0:
			// In a recipe: setting a variable ($(eval Y := $(shell …)),
			// whose commands are read) changes no recipe already
			// expanded; other text (rules) is not read.
			if !makeAssignOnly(plain) {
				m.opaque = append(m.opaque, makeLine{text: "make evaluates " + clip(plain) + " ($(eval)), which airlock does not read"})
			}
		}
		return subs, true
	case "value":
		n := x(args)
		v, _ := m.lookup(strings.TrimSpace(n))
		return keep(v, n), true
	case "origin", "flavor":
		// The variable's name is expanded: $(origin $(shell …)) runs
		// the command (FINDINGS-9 M9).
		n := x(args)
		out := "undefined"
		if _, set := m.lookup(strings.TrimSpace(n)); set {
			out = "file"
			if fn == "flavor" {
				out = "recursive"
			}
		}
		return keep(out, n), true
	case "info", "warning", "error":
		return keep("", x(args)), true
	case "subst":
		return keep(strings.ReplaceAll(x(arg(2)), x(arg(0)), x(arg(1))), x(arg(0)), x(arg(1))), true
	case "patsubst":
		from, to := x(arg(0)), x(arg(1))
		var out []string
		for _, w := range strings.Fields(x(arg(2))) {
			if stem, ok := makePattern(from, w); ok {
				w = strings.Replace(to, "%", stem, 1)
			}
			out = append(out, w)
		}
		return keep(strings.Join(out, " "), x(arg(2))), true
	case "addprefix", "addsuffix":
		p := x(arg(0))
		var out []string
		for _, w := range strings.Fields(x(arg(1))) {
			if fn == "addprefix" {
				out = append(out, p+w)
			} else {
				out = append(out, w+p)
			}
		}
		return keep(strings.Join(out, " "), p), true
	case "filter", "filter-out":
		pats := strings.Fields(x(arg(0)))
		var out []string
		for _, w := range strings.Fields(x(arg(1))) {
			hit := false
			for _, p := range pats {
				if _, ok := makePattern(p, w); ok {
					hit = true
				}
			}
			if hit == (fn == "filter") {
				out = append(out, w)
			}
		}
		return keep(strings.Join(out, " "), x(arg(0)), x(arg(1))), true
	case "sort", "words", "firstword", "lastword", "dir", "notdir", "basename", "suffix", "abspath", "realpath", "wildcard", "word", "wordlist", "findstring", "join":
		// Functions of the words, evaluated; wildcard keeps its
		// patterns (the names are known only at run time).
		var out []string
		words := strings.Fields(x(a[len(a)-1]))
		each := func(f func(string) string) string {
			for _, w := range words {
				out = append(out, f(w))
			}
			return strings.Join(out, " ")
		}
		var r string
		switch fn {
		case "sort":
			ws := slices.Clone(words)
			sort.Strings(ws)
			r = strings.Join(slices.Compact(ws), " ")
		case "words":
			r = strconv.Itoa(len(words))
		case "firstword":
			if len(words) > 0 {
				r = words[0]
			}
		case "lastword":
			if len(words) > 0 {
				r = words[len(words)-1]
			}
		case "dir":
			r = each(func(w string) string {
				if i := strings.LastIndexByte(w, '/'); i >= 0 {
					return w[:i+1]
				}
				return "./"
			})
		case "notdir":
			r = each(func(w string) string { return w[strings.LastIndexByte(w, '/')+1:] })
		case "basename", "suffix":
			r = each(func(w string) string {
				i := strings.LastIndexByte(w, '.')
				if i < 0 || i < strings.LastIndexByte(w, '/') {
					if fn == "suffix" {
						return ""
					}
					return w
				}
				if fn == "suffix" {
					return w[i:]
				}
				return w[:i]
			})
		case "abspath", "realpath":
			r = each(func(w string) string {
				if path.IsAbs(w) || strings.HasPrefix(w, "$") {
					return path.Clean(w)
				}
				return "./" + path.Clean(w)
			})
		case "wildcard":
			r = strings.Join(words, " ")
		case "word", "wordlist":
			n, _ := strconv.Atoi(strings.TrimSpace(x(arg(0))))
			e := n
			if fn == "wordlist" {
				e, _ = strconv.Atoi(strings.TrimSpace(x(arg(1))))
			}
			if n >= 1 && n <= len(words) {
				r = strings.Join(words[n-1:min(max(e, n), len(words))], " ")
			}
		case "findstring":
			if f := x(arg(0)); strings.Contains(x(arg(1)), f) {
				r = f
			}
		case "join":
			l1, l2 := strings.Fields(x(arg(0))), strings.Fields(x(arg(1)))
			for i := 0; i < max(len(l1), len(l2)); i++ {
				w := ""
				if i < len(l1) {
					w = l1[i]
				}
				if i < len(l2) {
					w += l2[i]
				}
				out = append(out, w)
			}
			r = strings.Join(out, " ")
		}
		return keep(r, x(args)), true
	case "let":
		// $(let A B,LIST,TEXT): A is LIST's first word, B the rest,
		// while TEXT is expanded (simply: a value is not expanded
		// again).
		names, list := x(arg(0)), x(arg(1))
		words := strings.Fields(list)
		saved := m.force
		force := map[string]string{}
		for k, v := range saved {
			force[k] = v
		}
		fs := strings.Fields(names)
		for i, n := range fs {
			v := ""
			if i < len(words) {
				v = words[i]
				if i == len(fs)-1 {
					v = strings.Join(words[i:], " ")
				}
			}
			force[n] = strings.ReplaceAll(v, "$", "$$")
		}
		m.force = force
		out := x(strings.Join(a[min(2, len(a)):], ","))
		m.force = saved
		return keep(out, names, list), true
	case "intcmp":
		// $(intcmp L,R,LT,EQ,GT): the part the comparison picks, with
		// what the other parts run kept (as $(if)); a side that is not
		// a number known now makes every part possible.
		l, r := strings.TrimSpace(x(arg(0))), strings.TrimSpace(x(arg(1)))
		parts := make([]string, 0, 3)
		for i := 2; i < len(a) && i < 5; i++ {
			parts = append(parts, x(a[i]))
		}
		li, lerr := strconv.ParseInt(l, 10, 64)
		ri, rerr := strconv.ParseInt(r, 10, 64)
		if lerr != nil || rerr != nil {
			m.dynamic = true
			return keep(strings.Join(parts, " "), l, r), true
		}
		pick := func(i int) string {
			if i < len(parts) {
				return parts[i]
			}
			return ""
		}
		var out string
		switch {
		case len(parts) == 0:
			if li == ri {
				out = l
			}
		case li < ri:
			out = pick(0)
		case li == ri:
			out = pick(1)
		default:
			out = pick(2)
			if len(parts) < 3 {
				out = pick(1) // GT defaults to EQ
			}
		}
		return keep(out, append(parts, l, r)...), true
	case "guile":
		// Guile code runs programs of its own (system): not read.
		m.dynamic = true
		e := x(args)
		m.opaque = append(m.opaque, makeLine{text: "make runs the Guile code " + clip(e) + " ($(guile …)), which airlock does not read"})
		return keep("", e), true
	}
	return "", false
}

// parseTimeSubs returns the commands a line outside the recipes runs
// while make reads it: the $(shell …) and $(file …) of its expansion. A
// $$ is make's escaped $, not a reference (define bodies for $(eval),
// bin/$(1): $$(SRCS)), unless .SECONDEXPANSION expands prerequisites
// twice.
func (m *makefile) parseTimeSubs(text string) string {
	if m.rules[".SECONDEXPANSION"] == nil {
		text = strings.ReplaceAll(text, "$$", "\x00")
	}
	return shellSubs(m.expand(text, "", nil, 0))
}

// makeValueCommand reports a $(shell …) whose output cannot call a make
// function when an $(eval) expands it again: a function's name needs a
// blank after it, and these print one word with no blank (git describe,
// git rev-parse, uname -s, date +%Y%m%d, whoami, command -v NAME), or
// the literal words of echo (VERSION ?= $(shell git describe --tags
// 2>/dev/null || echo dev)).
func makeValueCommand(cmd string) bool {
	if strings.ContainsAny(cmd, "$`'\"\\\n(){}<") {
		return false
	}
	parts := strings.FieldsFunc(strings.NewReplacer("||", ";", "&&", ";").Replace(cmd), func(r rune) bool { return r == ';' })
	if len(parts) == 0 {
		return false
	}
	for _, p := range parts {
		var f []string
		for _, w := range strings.Fields(p) {
			switch w {
			case "2>/dev/null", ">/dev/null", "2>&1":
				continue
			}
			if strings.Contains(w, ">") || strings.Contains(w, "|") {
				return false
			}
			f = append(f, w)
		}
		if len(f) == 0 {
			return false
		}
		ok := false
		switch f[0] {
		case "git":
			ok = len(f) > 1 && (f[1] == "describe" || f[1] == "rev-parse")
		case "uname", "whoami", "id", "nproc", "hostname", "arch", "echo":
			ok = true
		case "date":
			ok = len(f) < 3 && (len(f) == 1 || strings.HasPrefix(f[1], "+") || f[1] == "-u")
		case "command", "which":
			ok = len(f) == 3 && f[1] == "-v" || f[0] == "which" && len(f) == 2
		}
		if !ok {
			return false
		}
	}
	return true
}

// makeAssignOnly reports make text that only assigns variables (a
// recipe's $(eval X := $(shell …)): what runs is the $(shell …), which is
// read, and no rule changes).
func makeAssignOnly(text string) bool {
	for _, l := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(l); t != "" && makeAssign.Get().FindStringSubmatch(t) == nil {
			return false
		}
	}
	return true
}

// fileFunc stands for make's $(file OP NAME[,TEXT]) as the shell command
// that does the same to NAME: $(file >P,…) and $(file >>P,…) write P
// (: >P, : >>P), $(file <P) reads it (cat P). The result is a command
// substitution, as $(shell …) is, so that the file's role is checked
// where the line is read; the commands TEXT runs come after it.
func (m *makefile) fileFunc(args, target string, r *makeRule, depth int) string {
	a := strings.TrimSpace(args)
	op := ""
	for _, o := range []string{">>", ">", "<"} {
		if strings.HasPrefix(a, o) {
			op, a = o, strings.TrimSpace(a[len(o):])
			break
		}
	}
	name, text, _ := strings.Cut(a, ",")
	name = strings.TrimSpace(m.expand(name, target, r, depth+1))
	subs := shellSubs(m.expand(text, target, r, depth+1))
	if m.valueOnly && op != "<" {
		return "" // a write's value is empty
	}
	if op == "" || name == "" {
		return subs
	}
	if op == "<" {
		// While make reads ($(eval $(file <y.mk))), the file's text is
		// what is on disk before any recipe runs: it is read, and
		// evaluated as the $(eval)'s text. Elsewhere, or for a name
		// known only at run time, its text is a value computed at run
		// time (an $(eval) of it is opaque).
		if m.evalMode == 1 && m.read != nil && !strings.ContainsAny(name, "$`\x01") {
			text, why := m.read(name)
			if why == "" {
				return strings.TrimSuffix(text, "\n")
			}
			m.opaque = append(m.opaque, makeLine{text: "make reads " + clip(name) + " ($(file <…)), which " + why})
		}
		m.dynamic = true
	}
	cmd := ": " + op + " "
	if op == "<" {
		cmd = "cat "
	}
	return strings.TrimSpace("$(" + cmd + makeShellWord(name) + ") " + subs)
}

// makeShellWord quotes a file name make computed for the shell: a name
// with a substitution left in it stays as it is (built at run time), and
// a leading ~/ is kept outside the quotes (airlock reads it as the home
// directory, the stricter reading).
func makeShellWord(name string) string {
	if strings.Contains(name, "$") {
		return name
	}
	if rest, ok := strings.CutPrefix(name, "~/"); ok {
		return "~/" + shQuote(rest)
	}
	return shQuote(name)
}

// shQuote quotes s as one shell word.
func shQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// shellSubs returns the command substitutions ($(…), balanced) of
// expanded make text, joined by spaces: the commands that run when make
// expands it.
func shellSubs(s string) string {
	return strings.Join(shellSubList(s), " ")
}

// makeQuietCommand reports a command whose output is known not to be
// make text: nothing (mkdir -p build, touch x, git config …, a command
// whose output goes to a file) or one word (makeValueCommand).
func makeQuietCommand(cmd string) bool {
	if makeValueCommand(cmd) {
		return true
	}
	if strings.ContainsAny(cmd, "`$(){}") {
		return false
	}
	for _, p := range strings.FieldsFunc(strings.NewReplacer("||", ";", "&&", ";").Replace(cmd), func(r rune) bool { return r == ';' }) {
		f := strings.Fields(p)
		if len(f) == 0 || strings.Contains(p, "|") {
			return false
		}
		redirected := false
		for i, w := range f {
			if w == "-v" || strings.HasPrefix(w, "--verbose") || strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.Contains(w, "v") && f[0] != "test" && f[0] != "[" {
				return false
			}
			if (w == ">" || w == "&>" || w == "1>") && i+1 < len(f) || strings.HasPrefix(w, ">") && len(w) > 1 && w[1] != '&' || strings.HasPrefix(w, "&>") && len(w) > 2 {
				redirected = true
			}
		}
		if redirected {
			continue
		}
		switch f[0] {
		case "mkdir", "touch", "chmod", "ln", "cp", "rm", "true", ":", "test", "[":
		case "git":
			if len(f) < 2 || f[1] != "config" || len(f) < 4 {
				return false // git config NAME VALUE sets; reading prints
			}
		default:
			return false
		}
	}
	return true
}

// shellSubList returns the command substitutions ($(…), balanced) of
// expanded make text.
func shellSubList(s string) []string {
	var out []string
	for i := 0; i+1 < len(s); i++ {
		// \x01( is a $(shell …) marked inside an $(eval)'s text.
		if s[i] != '$' && s[i] != '\x01' || s[i+1] != '(' {
			continue
		}
		level := 0
		j := i + 1
		for ; j < len(s); j++ {
			if s[j] == '(' {
				level++
			} else if s[j] == ')' {
				level--
				if level == 0 {
					break
				}
			}
		}
		if j >= len(s) {
			out = append(out, s[i:]+")")
			break
		}
		out = append(out, s[i:j+1])
		i = j
	}
	return out
}

// makeShells returns the programs make runs its recipe lines with, as
// shell words to put before a line (SHELL's words, then .SHELLFLAGS's),
// one for each value SHELL, MAKESHELL and .SHELLFLAGS may have: the
// command line's, else every value a makefile make reads gives them
// (MAKESHELL and .SHELLFLAGS also from the environment; GNU make never
// takes SHELL from it, so SHELL=./x.sh make build runs /bin/sh). None
// when make runs /bin/sh -c, or a standard shell named by its path, as
// it does unless told. A value make cannot know from the text (it names
// a variable computed at run time) makes the run opaque.
func makeShells(inv *shell.Invocation, m *makefile, vars map[string]string) ([]string, Effect, bool) {
	values := func(k string) []string {
		if v, set := vars[k]; set {
			return []string{v}
		}
		var out []string
		for _, l := range m.shells {
			if name, v, _ := strings.Cut(l.text, "="); name == k {
				out = append(out, v)
			}
		}
		if k != "SHELL" {
			if v, set := inv.Getenv(k); set {
				out = append(out, v)
			}
		}
		return out
	}
	expand := func(k string, vs []string, def string) ([]string, Effect, bool) {
		if len(vs) == 0 {
			return []string{def}, Effect{}, true
		}
		var out []string
		for _, v := range vs {
			x := strings.TrimSpace(m.expand(v, "", nil, 0))
			// SHELL := $(shell which bash), $(shell command -v bash):
			// the program of that name, as running it by name is.
			for _, p := range []string{"$(which ", "$(command -v "} {
				if n, ok := strings.CutPrefix(x, p); ok && strings.HasSuffix(n, ")") && programName(n[:len(n)-1]) {
					x = n[:len(n)-1]
				}
			}
			if strings.ContainsAny(x, "$`") {
				return nil, opaque("make.shell", "make runs its recipes with "+k+"="+clip(v)+", a value known only at run time"), false
			}
			if x == "" {
				x = def
			}
			out = append(out, x)
		}
		return out, Effect{}, true
	}
	shells, e, ok := expand("SHELL", append(values("SHELL"), values("MAKESHELL")...), "/bin/sh")
	if !ok {
		return nil, e, false
	}
	flags, e, ok := expand(".SHELLFLAGS", values(".SHELLFLAGS"), "-c")
	if !ok {
		return nil, e, false
	}
	standard := true
	for _, s := range shells {
		switch s {
		case "/bin/sh", "/bin/bash", "/usr/bin/bash", "/usr/bin/env bash", "sh", "bash", "/bin/dash", "/usr/bin/sh":
		default:
			standard = false
		}
	}
	for _, f := range flags {
		switch f {
		case "-c", "-ec", "-eu -o pipefail -c", "-euo pipefail -c", "-e -c", "-eu -c", "-o pipefail -c", "-e -o pipefail -c", "-eo pipefail -c", "-euc":
		default:
			standard = false
		}
	}
	if standard {
		return nil, Effect{}, true
	}
	var wraps []string
	for _, s := range shells[:min(len(shells), 4)] {
		for _, f := range flags[:min(len(flags), 4)] {
			var words []string
			for _, w := range append(strings.Fields(s), strings.Fields(f)...) {
				words = append(words, shQuote(w))
			}
			wraps = append(wraps, strings.Join(words, " "))
		}
	}
	return wraps, Effect{}, true
}

// makeCall is what a make command line says: its makefiles (-f, in
// order), directory, targets, variables and whether it only prints.
type makeCall struct {
	files   []string
	dir     string
	incDirs []string
	targets []string
	// vars are the command-line variables as make text; order is their
	// names in the order given.
	vars  map[string]string
	order []string
	// shellText holds, for a variable whose word the shell computes
	// (PREFIX=$HOME/.local), the value's shell text: make gets what the
	// shell made of it, so vars holds it with make's $ escaped ($$), and
	// the recipes that use it read the shell's text.
	shellText map[string]string
	// dry is -n or -q: make still reads its makefiles and runs the
	// recipe lines marked + and those with $(MAKE) in them.
	dry bool
	// envOverride is -e: the environment's variables beat the files'.
	envOverride bool
}

// makeLongOptions are GNU make's long options: getopt takes any
// unambiguous beginning of one (--fil=x.mk is --file=x.mk).
var makeLongOptions = []string{"--file", "--makefile", "--directory", "--include-dir", "--jobs", "--load-average", "--old-file", "--assume-old", "--what-if", "--new-file", "--assume-new", "--eval",
	"--dry-run", "--just-print", "--recon", "--question", "--touch", "--print-data-base", "--environment-overrides", "--always-make", "--debug", "--ignore-errors", "--keep-going",
	"--no-keep-going", "--stop", "--silent", "--quiet", "--no-silent", "--warn-undefined-variables", "--no-builtin-rules", "--no-builtin-variables", "--print-directory",
	"--no-print-directory", "--check-symlink-times", "--trace", "--output-sync", "--help", "--version", "--shuffle", "--jobserver-style", "--jobserver-fds", "--jobserver-auth", "--license"}

// makeLongOption returns the long option an abbreviation names, or w.
func makeLongOption(w string) string {
	if !strings.HasPrefix(w, "--") || w == "--" {
		return w
	}
	name, val, hasVal := strings.Cut(w, "=")
	found := ""
	for _, o := range makeLongOptions {
		if o == name {
			return w
		}
		if strings.HasPrefix(o, name) {
			if found != "" {
				return w // ambiguous: make refuses it
			}
			found = o
		}
	}
	if found == "" {
		return w
	}
	if hasVal {
		return found + "=" + val
	}
	return found
}

// makeOperandVar matches a command-line variable (X=v, 'X := v', X!=cmd).
var makeOperandVar = firstuse.Table[*regexp.Regexp]{Build: func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*([^\s=:#]+)\s*(:::=|::=|:=|\?=|\+=|!=|=)([\s\S]*)$`)
}}

// makeInDir is a file make names from its directory: an absolute name
// stays as it is.
func makeInDir(dir, f string) string {
	if path.IsAbs(f) || strings.HasPrefix(f, "~") {
		return f
	}
	return path.Join(dir, f)
}

// makeArgs reads a make command line.
func makeArgs(inv *shell.Invocation) makeCall {
	dyn := map[string]bool{}
	for i := 1; i < len(inv.Args); i++ {
		if inv.IsDynamic(i) {
			dyn[inv.Args[i]] = true
		}
	}
	args := make([]string, 0, len(inv.Args))
	for _, a := range inv.Args[1:] {
		args = append(args, makeLongOption(a))
	}
	p := argv.Spec{Short: "fCIjloW", Long: []string{"--file", "--makefile", "--directory", "--include-dir", "--jobs", "--load-average", "--old-file", "--assume-old", "--what-if", "--new-file", "--assume-new", "--eval"}}.Parse(args)
	mc := makeCall{vars: map[string]string{}, shellText: map[string]string{}}
	for _, f := range p.Flags {
		switch f.Name {
		case "-f", "--file", "--makefile":
			mc.files = append(mc.files, f.Value)
		case "-C", "--directory":
			mc.dir = makeInDir(mc.dir, f.Value)
		case "-I", "--include-dir":
			mc.incDirs = append(mc.incDirs, f.Value)
		case "-n", "--dry-run", "--just-print", "--recon", "-q", "--question":
			mc.dry = true
		case "-e", "--environment-overrides":
			mc.envOverride = true
		}
	}
	for _, o := range p.Operands {
		if mm := makeOperandVar.Get().FindStringSubmatch(o); mm != nil && !strings.Contains(mm[1], "/") {
			k, v := mm[1], strings.TrimLeft(mm[3], " \t")
			if mm[2] == "!=" {
				k += "!"
			}
			if _, seen := mc.vars[k]; !seen {
				mc.order = append(mc.order, k)
			}
			mc.vars[k] = v
			delete(mc.shellText, k)
			if dyn[o] {
				mc.vars[k] = strings.ReplaceAll(v, "$", "$$")
				mc.shellText[k] = v
			}
			continue
		}
		mc.targets = append(mc.targets, o)
	}
	return mc
}

// flagsVars reads MAKEFLAGS and GNUMAKEFLAGS, on the command line or in
// the environment: make takes options and variables from them as from
// its command line (MAKEFLAGS=SHELL=./x.sh make build runs x.sh for each
// recipe line). A variable there is one of the command line's, unless
// the command line sets it; --eval (-E) is make text airlock does not
// read, and a word it cannot place (computed at run time) makes the run
// opaque.
func (mc *makeCall) flagsVars(inv *shell.Invocation) (Effect, bool) {
	for _, k := range []string{"MAKEFLAGS", "GNUMAKEFLAGS"} {
		v, set := mc.vars[k]
		if _, dyn := mc.shellText[k]; dyn {
			return opaque("make.flags", "make takes options and variables from "+k+"="+clip(mc.shellText[k])+", known only at run time"), false
		}
		if !set {
			v, set = inv.Getenv(k)
		}
		if !set {
			continue
		}
		for i, w := range strings.Fields(v) {
			switch {
			case w == "--":
			case strings.HasPrefix(w, "--eval") || strings.HasPrefix(w, "-E"):
				return opaque("option.code", "make --eval in "+k+" runs make text airlock does not read ("+clip(v)+")"), false
			case makeVariable(w):
				name, val, _ := strings.Cut(w, "=")
				name = strings.TrimSuffix(name, ":")
				if _, set := mc.vars[name]; !set {
					mc.vars[name] = val
					mc.order = append(mc.order, name)
				}
			case strings.HasPrefix(w, "-") && !strings.ContainsAny(w, "$`"):
			case i == 0 && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") == "":
				// the first word holds the short options without "-"
			default:
				return opaque("make.flags", "make takes options and variables from "+k+"="+clip(v)+", which airlock cannot place ("+clip(w)+")"), false
			}
		}
	}
	return Effect{}, true
}

// programName reports a program's name, to be found on PATH (bash,
// python3.12, clang-18).
func programName(n string) bool {
	return n != "" && n[0] != '-' && strings.Trim(n, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-") == ""
}

// shellName reports a name the shell can export.
func shellName(k string) bool {
	if k == "" || k[0] >= '0' && k[0] <= '9' {
		return false
	}
	for i := 0; i < len(k); i++ {
		if c := k[i]; !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// makeImplicitProgram reports a variable of make's built-in rules that
// names a program (make -p -f /dev/null): make ok CC=./x.sh, with ok.c
// and no rule for ok, runs ./x.sh through the rule for %: %.c.
func makeImplicitProgram(k string) bool {
	switch k {
	case "AR", "AS", "CC", "CXX", "CPP", "FC", "F77", "LD", "LEX", "YACC", "LINT", "M2C", "PC", "CO", "GET", "RM",
		"MAKEINFO", "TEX", "TEXI2DVI", "WEAVE", "CWEAVE", "TANGLE", "CTANGLE", "OBJC", "OUTPUT_OPTION":
		return true
	}
	for _, p := range []string{"COMPILE.", "LINK.", "PREPROCESS.", "LEX.", "YACC.", "LINT."} {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}

// makeImplicitFlags reports a variable of make's built-in rules that
// holds a program's arguments: its value is put into a shell line
// (make ok CFLAGS='; ./x.sh' runs x.sh).
func makeImplicitFlags(k string) bool {
	switch k {
	case "LDLIBS", "LOADLIBES", "TARGET_ARCH", "TARGET_MACH", "SCCS_OUTPUT_OPTION":
		return true
	}
	return strings.HasSuffix(k, "FLAGS") && k != "MAKEFLAGS" && k != "MFLAGS" && k != "GNUMAKEFLAGS"
}

// maxRecipeLines bounds how many recipe lines one make run follows.
const maxRecipeLines = 2000

// makeRun follows what a make run executes: every makefile it reads
// (-f, MAKEFILES, include lines, recursively), what those files run while
// make reads them (immediate assignments, top-level $(shell …) and
// $(file …)), the recipes of the targets with the shell make runs them
// with (SHELL, .SHELLFLAGS) and the environment it gives them (the
// command line's variables, which make exports), and the programs its
// built-in rules run when the command line names them (CC=…).
func (c *Classifier) makeRun(inv *shell.Invocation) Effect {
	mc := makeArgs(inv)
	dir := mc.dir
	if c.FS == nil {
		for _, t := range mc.targets {
			if releaseName(t) {
				return unreadRelease("make", t)
			}
		}
		return nothing
	}
	if makeDynamic(inv) {
		return opaque("script.dynamic", "make is given words computed at run time, so which targets run cannot be known")
	}
	names := []string{path.Join(dir, "GNUmakefile"), path.Join(dir, "makefile"), path.Join(dir, "Makefile")}
	if len(mc.files) > 0 && (mc.files[0] == "-" || mc.files[0] == "/dev/stdin") {
		return nothing // the makefile on make's input: makeStdin reads it
	}
	if len(mc.files) > 0 {
		names = []string{makeInDir(dir, mc.files[0])}
	}
	file, data, failed, ok := c.readRunnerFile(inv, names...)
	if !ok {
		return failed
	}
	if e, ok := mc.flagsVars(inv); !ok {
		return e
	}
	inner, deeperOK := c.deeper()
	if !deeperOK {
		return fileLimit(file)
	}
	m := newMakefile(file)
	m.env = inv.Getenv
	m.read = func(name string) (string, string) {
		data, failed, ok := c.readScript(inv, makeInDir(dir, name), false)
		if ok {
			return string(data), ""
		}
		if len(failed.Reasons) > 0 {
			return "", "cannot be read beforehand (" + failed.Reasons[0].Message + ")"
		}
		return "", ""
	}
	m.envOverride = mc.envOverride
	m.dry = mc.dry
	m.goals = strings.Join(mc.targets, " ")
	for k, v := range mc.vars {
		// Command-line variables are set before make reads the files
		// (include $(CONF).mk).
		m.vars[k] = v
	}
	m.parse(file, string(data), 0)
	var pre Effect
	// Every makefile make reads: MAKEFILES's (read first; a missing one
	// is skipped) and the other -f files.
	mfs, set := mc.vars["MAKEFILES"]
	if !set {
		mfs, set = inv.Getenv("MAKEFILES")
	}
	if set && strings.ContainsAny(mfs, "$`") {
		return opaque("make.files", "make reads the makefiles MAKEFILES="+clip(mfs)+" names, which are known only at run time")
	}
	more := strings.Fields(mfs)
	for _, f := range mc.files[min(1, len(mc.files)):] {
		more = append(more, f)
	}
	for _, f := range more {
		n, d, failed, ok := c.readRunnerFile(inv, makeInDir(dir, f))
		if !ok {
			pre.Add(failed)
			continue
		}
		sub := newMakefile(n)
		sub.env, sub.read = m.env, m.read
		sub.parse(n, string(d), 0)
		m.merge(sub)
	}
	m.incDirs = mc.incDirs
	incl := c.makeIncludes(inv, m, dir)
	incl.Add(pre)
	for k, v := range mc.vars {
		// Command-line variables override the files' (not an
		// override's, which keeps the command line's as another value).
		if m.override[k] {
			m.alts[k] = append(m.alts[k], v)
			continue
		}
		if old, ok := m.vars[k]; ok && old != v {
			// the files' value is not used
			delete(m.alts, k)
		}
		m.vars[k] = v
	}
	wraps, e, ok := makeShells(inv, m, mc.vars)
	if !ok {
		return e
	}
	goal := strings.TrimSpace(mc.vars[".DEFAULT_GOAL"])
	if goal == "" {
		goal = strings.TrimSpace(m.vars[".DEFAULT_GOAL"])
	}
	if len(mc.targets) == 0 && goal != "" {
		x := m.expand(goal, "", nil, 0)
		if strings.ContainsAny(x, "$`") {
			return opaque("script.dynamic", "make's goal .DEFAULT_GOAL="+clip(goal)+" is computed at run time, so which targets run cannot be known")
		}
		mc.targets = strings.Fields(x)
	}
	if len(mc.targets) == 0 && m.first != "" {
		mc.targets = []string{m.first}
	}
	env := makeEnv(inv, m, mc)
	cd := ""
	if dir != "" && dir != "." {
		// make -C DIR reads its makefiles and runs its recipes in DIR.
		cd = "cd " + makeShellWord(dir) + " || exit; "
		env = cd + env
	}
	w := makeWalk{c: inner, m: m, seen: map[string]bool{}, e: incl, wraps: wraps, env: env, dry: mc.dry, dir: dir}
	// The shell make runs recipes with runs whatever the targets (and
	// for $(shell …)).
	for _, s := range wraps {
		w.e.Add(w.c.shellFileAt(file, w.env+s+" :", 0))
	}
	// What runs while make reads the files, whatever the targets: the
	// commands of every $(shell …) and $(file …) outside recipes.
	for _, l := range m.parseTime {
		m.evalMode = 0
		if l.done {
			m.evalMode = 2
		}
		before := len(m.opaque)
		if x := m.parseTimeSubs(l.text); x != "" {
			// ": SUBS": the commands substituted in run; the line is
			// make text, not a command line.
			w.e.Add(w.c.shellFileAt(l.file, cd+": "+x, l.line))
		}
		for i := before; i < len(m.opaque); i++ {
			if m.opaque[i].line == 0 {
				m.opaque[i].line, m.opaque[i].file = l.line, l.file
			}
		}
		m.evalMode = 0
	}
	for _, l := range m.opaque {
		w.e.Add(opaque("make.parse", l.file+":"+strconv.Itoa(l.line)+": "+l.text+" while it reads the file"))
	}
	m.opaque = nil
	for _, k := range mc.order {
		v := mc.vars[k]
		// make 'X:=$(shell …)', make 'X!=…': run while make reads.
		if strings.HasSuffix(k, "!") {
			w.e.Add(w.c.shellFileAt(file, cd+v, 0))
		} else if x := shellSubs(m.expand(v, "", nil, 0)); x != "" {
			w.e.Add(w.c.shellFileAt(file, cd+": "+x, 0))
		}
	}
	if r := m.rules[".PHONY"]; r != nil {
		w.phony = map[string]bool{}
		for _, p := range r.prereqs {
			w.phony[m.expand(p, "", nil, 0)] = true
		}
	}
	// make first remakes every makefile it read that a rule makes
	// (-include gen.mk with gen.mk: ; …, Makefile: FORCE ; …).
	remake := []string{path.Base(file)}
	for _, f := range mc.files {
		remake = append(remake, f)
	}
	for _, inc := range m.includes {
		remake = append(remake, strings.Fields(m.expand(inc.text, "", nil, 0))...)
	}
	for _, t := range remake {
		if r := m.rules[t]; r != nil && len(r.recipe) > 0 {
			w.target(t, 0)
		}
	}
	for _, t := range mc.targets {
		w.target(t, 0)
	}
	for _, t := range m.dynTargets {
		// A target named at run time may be any goal (or a
		// prerequisite of one): its recipe is followed too.
		w.target(t, 0)
	}
	for _, l := range m.opaque {
		w.e.Add(opaque("make.eval", l.text+" in a recipe"))
	}
	if w.implicit && !mc.dry {
		// A target with no recipe of its own is made by a built-in rule
		// when one fits (make ok, with ok.c, runs $(CC) … ok.c -o ok):
		// a program of those rules the command line, the environment or
		// the makefile names runs, and so do the arguments it gives them.
		for _, k := range mc.order {
			if makeImplicitProgram(k) || makeImplicitFlags(k) {
				w.e.Add(w.c.shellFileAt(file, w.env+makeImplicitLine(k, m.expand(mc.vars[k], "", nil, 0)), 0))
			}
		}
		for _, kv := range inv.Env {
			if k, v, _ := strings.Cut(kv, "="); makeImplicitProgram(k) || makeImplicitFlags(k) {
				w.e.Add(w.c.shellFileAt(file, w.env+makeImplicitLine(k, v), 0))
			}
		}
		names := make([]string, 0, len(m.vars))
		for k := range m.vars {
			if _, cmd := mc.vars[k]; !cmd && (makeImplicitProgram(k) || makeImplicitFlags(k)) {
				names = append(names, k)
			}
		}
		sort.Strings(names)
		for _, k := range names {
			w.e.Add(w.c.shellFileAt(file, w.env+makeImplicitLine(k, m.expand(m.vars[k], "", nil, 0)), 0))
		}
	}
	if w.lines > maxRecipeLines {
		w.e.Add(opaque("script.limit", "limit reached: "+file+" runs more than "+strconv.Itoa(maxRecipeLines)+" recipe lines"))
	}
	return w.e
}

// makeImplicitLine is the shell line of a built-in rule that uses the
// variable k with value v: the program itself, or a compiler with v as
// its arguments.
func makeImplicitLine(k, v string) string {
	if makeImplicitProgram(k) {
		return v
	}
	return "cc " + v
}

// makeEnv is the environment make gives every recipe line, as shell
// text to put before it: the run's own (CGO_ENABLED=0 make) and the
// command line's variables, which make exports (make build
// GOFLAGS=-toolexec=./x.sh runs go with that GOFLAGS).
func makeEnv(inv *shell.Invocation, m *makefile, mc makeCall) string {
	var words []string
	for _, kv := range inv.Env {
		k, v, _ := strings.Cut(kv, "=")
		if k == "PATH" {
			// PATH=$PWD/p:$PATH make build: the recipes' programs are
			// looked up there.
			if makePathValue(v) {
				words = append(words, k+"="+makePathWord(v))
				continue
			}
		}
		if !shellName(k) || strings.ContainsAny(v, "$`") {
			// A value with $ may be source text (PATH=$PATH:bin) or
			// literal (PS4='+ ${LINENO}: '): the run's own environment
			// is checked where it is given.
			continue
		}
		words = append(words, k+"="+shQuote(v))
	}
	for _, k := range mc.order {
		if !shellName(k) {
			continue
		}
		v, ok := mc.shellText[k]
		if !ok {
			v = shQuote(m.expand(mc.vars[k], "", nil, 0))
		}
		words = append(words, k+"="+v)
	}
	// What the makefiles export (export GOFLAGS := …, export with no
	// name or .EXPORT_ALL_VARIABLES: every variable).
	names := m.exports
	if m.exportAll {
		names = nil
		for k := range m.vars {
			names = append(names, k)
		}
		sort.Strings(names)
	}
	seen := map[string]bool{}
	for _, k := range names {
		if _, cmd := mc.vars[k]; cmd || seen[k] || !shellName(k) {
			continue
		}
		seen[k] = true
		if v, ok := m.vars[k]; ok {
			x := m.expand(v, "", nil, 0)
			if strings.Contains(x, "$PATH") && makePathValue(x) {
				// export PATH := $(CURDIR)/bin:$(PATH): the shell's
				// own $PATH, the rest quoted.
				words = append(words, k+"="+makePathWord(x))
				continue
			}
			words = append(words, k+"="+shQuote(x))
		}
	}
	if len(words) == 0 {
		return ""
	}
	return "export " + strings.Join(words, " ") + "; "
}

// makePathValue reports a PATH value whose only references are the
// shell's $PATH, $PWD and $HOME (PATH=$PWD/p:$PATH).
func makePathValue(v string) bool {
	x := strings.NewReplacer("${PATH}", "", "$PATH", "", "${PWD}", "", "$PWD", "", "${HOME}", "", "$HOME", "").Replace(v)
	return !strings.ContainsAny(x, "$`")
}

// makePathWord is a PATH value as shell text: in double quotes, so that
// $PATH, $PWD and $HOME stay the shell's.
func makePathWord(x string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(x) + `"`
}

type makeWalk struct {
	c     *Classifier
	m     *makefile
	seen  map[string]bool
	e     Effect
	lines int
	// wraps are the shells make runs each recipe line with (makeShells),
	// env the exports before it (makeEnv).
	wraps []string
	env   string
	// implicit says a target the run makes has no recipe of its own, so
	// make looks for a built-in rule for it; phony are the .PHONY
	// targets, for which it does not.
	implicit bool
	phony    map[string]bool
	// dry is make -n or -q: only + lines and $(MAKE) lines run.
	dry bool
	// dir is make's directory; listed counts the names listedNames
	// read.
	dir    string
	listed int
}

// patternRules returns the pattern rules (%.o: %.c, %:) with a recipe
// that make may use to make t, with their stems, and .DEFAULT's when t
// has no rule at all.
func (w *makeWalk) patternRules(t string, has bool) (rules []*makeRule, stems []string) {
	keys := make([]string, 0, 8)
	for k, r := range w.m.rules {
		if strings.Contains(k, "%") && len(r.recipe) > 0 {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		if stem, ok := makePattern(k, t); ok && len(rules) < 4 {
			rules = append(rules, w.m.rules[k])
			stems = append(stems, stem)
		}
	}
	if len(rules) == 0 {
		// Old-fashioned suffix rules: .c.o: makes x.o from x.c, .x:
		// makes x from x.x (every suffix counts, in .SUFFIXES or not).
		keys = keys[:0]
		for k, r := range w.m.rules {
			if makeSuffixRule(k) && len(r.recipe) > 0 {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			from, to, two := strings.Cut(k[1:], ".")
			if two && strings.HasSuffix(t, "."+to) && len(rules) < 4 {
				rules = append(rules, &makeRule{prereqs: []string{strings.TrimSuffix(t, "."+to) + "." + from}, recipe: w.m.rules[k].recipe})
				stems = append(stems, strings.TrimSuffix(t, "."+to))
			} else if !two && len(rules) < 4 {
				rules = append(rules, &makeRule{prereqs: []string{t + "." + from}, recipe: w.m.rules[k].recipe})
				stems = append(stems, t)
			}
		}
	}
	if len(rules) == 0 && !has {
		if r := w.m.rules[".DEFAULT"]; r != nil && len(r.recipe) > 0 {
			rules = append(rules, r)
			stems = append(stems, "")
		}
	}
	return rules, stems
}

// makeSuffixRule reports a suffix rule's target (.c.o, .x): one or two
// suffixes, not one of make's special targets (.PHONY, .DEFAULT …).
func makeSuffixRule(k string) bool {
	if !strings.HasPrefix(k, ".") || strings.ToUpper(k) == k || strings.ContainsAny(k, "/%$ ") {
		return false
	}
	n := strings.Count(k, ".")
	return n == 1 || n == 2 && !strings.HasPrefix(k, "..") && !strings.HasSuffix(k, ".")
}

func (w *makeWalk) target(t string, depth int) {
	if w.seen[t] || depth > 64 || w.lines > maxRecipeLines {
		return
	}
	w.seen[t] = true
	r := w.m.rules[t]
	if (r == nil || len(r.recipe) == 0) && !w.phony[t] {
		w.implicit = true
	}
	if r == nil || len(r.recipe) == 0 {
		// A pattern rule (%.json: ; …, %: ; …) or .DEFAULT makes it.
		rules, stems := w.patternRules(t, r != nil)
		for i, pr := range rules {
			inst := &makeRule{recipe: pr.recipe}
			for _, p := range pr.prereqs {
				inst.prereqs = append(inst.prereqs, strings.ReplaceAll(p, "%", stems[i]))
			}
			if r != nil {
				inst.prereqs = append(inst.prereqs, r.prereqs...)
			}
			w.m.stem = stems[i]
			w.rule(t, inst, depth)
			w.m.stem = ""
		}
		if len(rules) > 0 || r == nil {
			return
		}
	}
	w.rule(t, r, depth)
}

// makeFoundNames reports a prerequisite that is only the output of
// find DIR … (with a literal DIR and no -exec): names of files under DIR.
func makeFoundNames(x string) (string, bool) {
	x = strings.TrimSpace(x)
	if !strings.HasPrefix(x, "$(find ") || !strings.HasSuffix(x, ")") || strings.Count(x, "$(") != 1 || strings.ContainsAny(x, "`;|&") {
		return "", false
	}
	f := strings.Fields(x[len("$(find ") : len(x)-1])
	if len(f) == 0 || strings.ContainsAny(f[0], "$*?[") || strings.HasPrefix(f[0], "-") {
		return "", false
	}
	for _, w := range f {
		if strings.HasPrefix(w, "-exec") || strings.HasPrefix(w, "-ok") || w == "-delete" || strings.HasPrefix(w, "-fprint") || w == "-L" || w == "-follow" {
			return "", false
		}
	}
	return path.Clean(f[0]), true
}

// foundUnder follows the rules that can make a file under dir: explicit
// targets there, and pattern rules or .DEFAULT (any name) make the run
// opaque.
func (w *makeWalk) foundUnder(dir string, depth int) {
	keys := make([]string, 0, len(w.m.rules))
	for k := range w.m.rules {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if len(w.m.rules[k].recipe) == 0 {
			continue
		}
		under := dir == "." || strings.HasPrefix(path.Clean(k), dir+"/")
		if strings.Contains(k, "%") {
			pre, _, _ := strings.Cut(k, "%")
			if pre == "" || strings.HasPrefix(pre, dir+"/") || strings.HasPrefix(dir+"/", pre) || dir == "." {
				w.e.Add(opaque("script.dynamic", "make's prerequisites found under "+dir+" may be made by the pattern rule "+k+", so which recipes run cannot be known"))
			}
			continue
		}
		if k == ".DEFAULT" {
			w.e.Add(opaque("script.dynamic", "make's prerequisites found under "+dir+" may be made by .DEFAULT, so which recipes run cannot be known"))
			continue
		}
		if under && !strings.HasPrefix(k, ".") {
			w.target(k, depth+1)
		}
	}
}

// rule follows one rule for target t: its prerequisites, then its recipe
// (with each other value a variable it uses may have).
func (w *makeWalk) rule(t string, r *makeRule, depth int) {
	for _, p := range r.prereqs {
		x := w.m.expand(p, t, r, 0)
		if dir, ok := makeFoundNames(x); ok {
			// bin/api: $(shell find cmd/api -name '*.go'): files under
			// DIR; a rule that can make such a name runs.
			w.listedNames(dir, "*", true)
			w.foundUnder(dir, depth)
			continue
		}
		for _, f := range strings.Fields(x) {
			if strings.ContainsAny(f, "*?[") {
				w.listedNames(path.Dir(f), path.Base(f), false)
			}
		}
		if strings.ContainsAny(x, "$`") {
			// all: $(GOAL), with make GOAL=$(cat goal): the value is
			// the shell's, known only at run time.
			w.e.Add(opaque("script.dynamic", "make's prerequisite "+clip(x)+" of "+t+" is computed at run time, so which targets run cannot be known"))
			continue
		}
		for _, f := range strings.Fields(x) {
			w.target(f, depth+1)
		}
	}
	alts := make([]string, 0, len(w.m.alts))
	for k := range w.m.alts {
		alts = append(alts, k)
	}
	sort.Strings(alts)
	for _, l := range r.recipe {
		w.lines++
		raw := strings.TrimLeft(l.text, " \t")
		if w.dry && !strings.HasPrefix(strings.TrimLeft(raw, "@-"), "+") && !strings.Contains(raw, "$(MAKE)") && !strings.Contains(raw, "${MAKE}") {
			continue
		}
		texts := []string{w.m.expand(l.text, t, r, 0)}
		for _, k := range alts {
			if len(texts) > 8 {
				break
			}
			cur, had := w.m.vars[k]
			for _, v := range w.m.alts[k] {
				w.m.vars[k] = v
				if x := w.m.expand(l.text, t, r, 0); !slices.Contains(texts, x) {
					texts = append(texts, x)
				}
			}
			if had {
				w.m.vars[k] = cur
			} else {
				delete(w.m.vars, k)
			}
		}
		name := w.m.name
		if l.file != "" {
			name = l.file
		}
		for _, x := range texts {
			text := strings.TrimLeft(x, "@-+ \t")
			if len(w.wraps) == 0 {
				w.e.Add(w.c.shellFileAt(name, w.env+text, l.line))
				continue
			}
			for _, s := range w.wraps {
				w.e.Add(w.c.shellFileAt(name, w.env+s+" "+shQuote(text), l.line))
			}
		}
	}
}

// maxListedNames bounds how many entries listedNames reads for one make
// run.
const maxListedNames = 20000

// listedNames checks the names a prerequisite's $(wildcard …) or
// $(shell find DIR …) gives make while it reads the rule line: make
// looks for a ; in the expanded line, so a file named "x; ./evil.sh #.go"
// starts a recipe (checked with GNU make 4.3). A name with a ; or a
// newline, or a tree too large to list, makes the run opaque.
func (w *makeWalk) listedNames(dir, pattern string, tree bool) {
	if w.c.FS == nil || strings.ContainsAny(dir, "$`") {
		return
	}
	queue := []string{path.Join(w.dir, dir)}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		entries, err := w.c.readDir(d)
		if err != nil {
			continue // not there: nothing listed
		}
		for _, en := range entries {
			if w.listed++; w.listed > maxListedNames {
				w.e.Add(opaque("script.limit", "limit reached: make lists more than "+strconv.Itoa(maxListedNames)+" names for prerequisites under "+clip(dir)+", past what airlock reads for a ; that would start a recipe"))
				return
			}
			name := en.Name()
			if ok, _ := path.Match(pattern, name); ok && strings.ContainsAny(name, ";\n") {
				w.e.Add(opaque("make.names", "make reads the file name "+clip(path.Join(d, name))+" in a prerequisite list, and its ; starts a recipe there"))
				return
			}
			if tree && en.IsDir() && name != ".git" {
				queue = append(queue, path.Join(d, name))
			}
		}
	}
}

// shellFileAt classifies one line of shell text from a file that is
// already one level deeper.
func (c *Classifier) shellFileAt(file, text string, line int) Effect {
	outer := *c
	outer.follow--
	return outer.shellFile(file, text, line)
}

// ---- just ----

var justHeader = firstuse.Table[*regexp.Regexp]{Build: func() *regexp.Regexp { return regexp.MustCompile(`^@?([A-Za-z_][A-Za-z0-9_-]*)([^:=]*?):([^=].*)?$`) }}
var justAssign = firstuse.Table[*regexp.Regexp]{Build: func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:export\s+)?([A-Za-z_][A-Za-z0-9_-]*)\s*:=\s*(.*)$`)
}}
var justInterp = firstuse.Table[*regexp.Regexp]{Build: func() *regexp.Regexp { return regexp.MustCompile(`\{\{\s*([A-Za-z_][A-Za-z0-9_-]*)\s*\}\}`) }}
var justImport = firstuse.Table[*regexp.Regexp]{Build: func() *regexp.Regexp {
	return regexp.MustCompile(`^(import|mod)(\?)?\s+(?:([A-Za-z_][A-Za-z0-9_-]*)\s*)?(?:['"]([^'"]*)['"])?\s*$`)
}}

type justRecipe struct {
	file  string
	deps  []string
	lines []makeLine
	// script is the interpreter of a [script(...)] recipe, "" for a
	// recipe run line by line.
	script string
}

// justfile is what airlock reads of a justfile and the files it imports.
type justfile struct {
	file    string
	vars    map[string]string
	recipes map[string]*justRecipe
	first   string
	mods    map[string]string // module name → its file ("" = not found)
	// fallback says just looks for a recipe it does not find in the
	// justfile of a parent directory.
	fallback bool
	e        Effect // what loading runs (backticks, shell()), or why it is opaque
	loads    int
}

// justFileNames are the names just looks for, in order.
var justFileNames = []string{"justfile", "Justfile", ".justfile", "JUSTFILE"}

// justRun follows the recipes a just run starts. just reads justfile
// (any of justFileNames, or -f/--justfile) from the directory or the
// nearest one above it, with its import and mod files; a recipe runs its
// dependencies, then its lines (or its body as one script, for a
// shebang or [script] recipe). Assignments with a backtick or shell()
// run when just loads the file, whatever the recipe. A recipe that cannot
// be found where it should be, an interpreter airlock does not read (set
// shell, [script("…")]) and a file that cannot be read make the run
// opaque (FINDINGS-4 K5).
func (c *Classifier) justRun(inv *shell.Invocation) Effect {
	p := argv.Spec{Short: "fd", Long: []string{"--justfile", "--working-directory", "--set", "--shell", "--dotenv-filename", "--dotenv-path", "--color", "--command-color", "--shell-arg"}}.Parse(inv.Args[1:])
	if p.Has("--list", "-l", "--summary", "--show", "-s", "--dry-run", "-n", "--evaluate", "--dump", "--choose", "--edit", "-e", "--init", "--fmt", "--help", "-h", "--version", "-V", "--variables", "--groups") {
		return nothing
	}
	if _, ok := p.Value("--shell"); ok {
		return opaque("just.shell", "just --shell runs every recipe line with another program, which airlock does not read")
	}
	var args []string
	for _, o := range p.Operands {
		if !strings.Contains(o, "=") || len(args) > 0 {
			args = append(args, o) // NAME=VALUE before the recipe sets a variable
		}
	}
	if c.FS == nil {
		if len(args) > 0 && releaseName(args[0]) {
			return unreadRelease("just", args[0])
		}
		return nothing
	}
	if inv.AnyDynamic(1) {
		return opaque("script.dynamic", "just is given words computed at run time, so which recipes run cannot be known")
	}
	file, given := p.Value("-f", "--justfile")
	var names []string
	if given {
		names = []string{file}
	} else {
		names = runnerFileUp(justFileNames)
	}
	file, data, failed, ok := c.readRunnerFile(inv, names...)
	if !ok {
		return failed
	}
	inner, deeperOK := c.deeper()
	if !deeperOK {
		return fileLimit(file)
	}
	root := &justfile{file: file, vars: map[string]string{}, recipes: map[string]*justRecipe{}, mods: map[string]string{}}
	root.parse(inner, file, string(data))
	e := root.e
	jf, rest := root, args
	// A module's recipe: just mod recipe, or just mod::recipe.
	if len(rest) > 0 {
		if mod, rec, ok := strings.Cut(rest[0], "::"); ok {
			rest = append([]string{mod, rec}, rest[1:]...)
		}
		if mf, ok := root.mods[rest[0]]; ok {
			if mf == "" {
				return e.with(opaque("just.module", file+": module "+rest[0]+" is not a file airlock can find, so what it runs cannot be known"))
			}
			data, err := inner.readFile(mf)
			if err != nil {
				return e.with(opaque("script.unreadable", mf+" cannot be read ("+err.Error()+"), so what just runs cannot be known"))
			}
			jf = &justfile{file: mf, vars: map[string]string{}, recipes: map[string]*justRecipe{}, mods: map[string]string{}, loads: root.loads}
			jf.parse(inner, mf, string(data))
			e.Add(jf.e)
			rest = rest[1:]
		}
	}
	target := jf.first
	if len(rest) > 0 {
		target = rest[0]
	}
	if target == "" {
		return e
	}
	if jf.recipes[target] == nil {
		if jf.fallback || len(jf.mods) > 0 {
			return e.with(opaque("just.unknown", "just "+target+": no recipe of that name in "+jf.file+", and just may find it elsewhere (a module, a parent justfile), so what it runs cannot be known"))
		}
		return e // just fails: no such recipe
	}
	seen := map[string]bool{}
	var run func(name string, depth int)
	run = func(name string, depth int) {
		r := jf.recipes[name]
		if r == nil || seen[name] || depth > 64 {
			return
		}
		seen[name] = true
		for _, d := range r.deps {
			run(d, depth+1)
		}
		e.Add(jf.recipe(inner, name, r))
	}
	run(target, 0)
	return e
}

// recipe classifies one recipe's body.
func (jf *justfile) recipe(c *Classifier, name string, r *justRecipe) Effect {
	interp := justInterp.Get()
	sub := func(t string) string {
		return interp.ReplaceAllStringFunc(t, func(m string) string { return jf.vars[interp.FindStringSubmatch(m)[1]] })
	}
	body := r.lines
	script := r.script
	if script == "" && len(body) > 0 && strings.HasPrefix(body[0].text, "#!") {
		script, _ = shebang(body[0].text)
	}
	if script == "" {
		var e Effect
		for _, l := range body {
			e.Add(c.shellFileAt(r.file, strings.TrimLeft(sub(l.text), "@-"), l.line))
		}
		return e
	}
	if len(body) == 0 {
		return nothing
	}
	var sb strings.Builder
	for _, l := range body {
		sb.WriteString(l.text + "\n")
	}
	text := sub(sb.String())
	if isShell(script) {
		return c.shellFileAt(r.file, text, body[0].line)
	}
	if lang, who, ok := interpLang(script); ok {
		return interpAnalyse(c, who, lang, text).through("script.interp", r.file+": recipe "+name+" is a "+who+" program")
	}
	return opaque("script.interpreter", r.file+": recipe "+name+" runs with "+script+", which airlock does not read")
}

// parse reads one justfile (the root, or one it imports) into jf.
func (jf *justfile) parse(c *Classifier, file, text string) {
	var cur *justRecipe
	script := ""
	for i, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t") {
			if cur != nil && strings.TrimSpace(l) != "" {
				cur.lines = append(cur.lines, makeLine{line: i + 1, text: strings.TrimSpace(l)})
			}
			continue
		}
		cur = nil
		t := strings.TrimSpace(l)
		switch {
		case t == "" || strings.HasPrefix(t, "#"):
			continue
		case strings.HasPrefix(t, "["):
			// [script] runs the body with sh -eu; [script("python3")]
			// with that interpreter; other attributes change nothing
			// airlock reads.
			for _, a := range strings.Split(strings.Trim(t, "[]"), ",") {
				a = strings.TrimSpace(a)
				if a == "script" {
					script = "sh"
				} else if arg, ok := strings.CutPrefix(a, "script("); ok {
					f := strings.Fields(strings.Trim(strings.TrimSuffix(arg, ")"), `"' `))
					script = "?"
					if len(f) > 0 {
						script = normWord(f[0])
					}
				}
			}
			continue
		case strings.HasPrefix(t, "set "):
			jf.setting(file, i+1, t)
			continue
		case strings.HasPrefix(t, "alias "):
			if name, target, ok := strings.Cut(strings.TrimPrefix(t, "alias "), ":="); ok {
				if r := jf.recipes[strings.TrimSpace(target)]; r != nil {
					jf.recipes[strings.TrimSpace(name)] = r
				} else {
					defer func(n, tg string) {
						if r := jf.recipes[tg]; r != nil && jf.recipes[n] == nil {
							jf.recipes[n] = r
						}
					}(strings.TrimSpace(name), strings.TrimSpace(target))
				}
			}
			continue
		}
		if m := justImport.Get().FindStringSubmatch(t); m != nil {
			jf.include(c, file, i+1, m[1], m[2] == "?", m[3], m[4])
			continue
		}
		if m := justAssign.Get().FindStringSubmatch(t); m != nil {
			v := strings.TrimSpace(m[2])
			jf.loadTime(c, file, i+1, v)
			jf.vars[m[1]] = strings.Trim(v, `"'`)
			continue
		}
		if m := justHeader.Get().FindStringSubmatch(t); m != nil {
			r := &justRecipe{file: file, script: script}
			script = ""
			for _, d := range strings.Fields(m[3]) {
				d = strings.Trim(d, "()")
				if d != "" && d != "&&" {
					r.deps = append(r.deps, d)
				}
			}
			if jf.recipes[m[1]] == nil {
				jf.recipes[m[1]] = r
			}
			if jf.first == "" && !strings.HasPrefix(m[1], "_") {
				jf.first = m[1]
			}
			cur = r
		}
	}
}

// setting reads the settings that change what runs: set shell (and its
// Windows and script forms) to a program that is not a shell, and set
// fallback.
func (jf *justfile) setting(file string, line int, t string) {
	name, value, _ := strings.Cut(strings.TrimPrefix(t, "set "), ":=")
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	switch name {
	case "fallback":
		jf.fallback = value == "" || value == "true"
	case "shell", "script-interpreter":
		f := strings.Fields(strings.NewReplacer("[", " ", "]", " ", ",", " ", `"`, " ", "'", " ").Replace(value))
		if len(f) == 0 || !isShell(normWord(f[0])) {
			jf.e.Add(opaque("just.shell", file+":"+strconv.Itoa(line)+": set "+name+" runs the recipes with "+clip(value)+", which airlock does not read"))
		}
	}
}

// loadTime classifies what an assignment runs when just loads the file:
// backticks and shell('…'). A shell() whose command is not a literal is
// opaque.
func (jf *justfile) loadTime(c *Classifier, file string, line int, v string) {
	for rest := v; ; {
		a := strings.IndexByte(rest, '`')
		if a < 0 {
			break
		}
		b := strings.IndexByte(rest[a+1:], '`')
		if b < 0 {
			jf.e.Add(opaque("script.unreadable", file+":"+strconv.Itoa(line)+": a backtick airlock cannot read"))
			break
		}
		jf.e.Add(c.shellFileAt(file, rest[a+1:a+1+b], line))
		rest = rest[a+b+2:]
	}
	for rest := v; ; {
		k := strings.Index(rest, "shell(")
		if k < 0 {
			break
		}
		rest = strings.TrimSpace(rest[k+len("shell("):])
		q := byte(0)
		if rest != "" {
			q = rest[0]
		}
		end := -1
		if q == '\'' || q == '"' {
			end = strings.IndexByte(rest[1:], q)
		}
		if end < 0 {
			jf.e.Add(opaque("just.shell", file+":"+strconv.Itoa(line)+": shell() with a command airlock cannot read"))
			break
		}
		jf.e.Add(c.shellFileAt(file, rest[1:1+end], line))
		rest = rest[end+2:]
	}
}

// include reads an import (its recipes join this justfile's) or records
// a mod (read when its recipes are asked for). A file that cannot be
// read is opaque, unless the line is optional (import?, mod?) and the
// file is missing.
func (jf *justfile) include(c *Classifier, file string, line int, kind string, optional bool, name, ref string) {
	dir := path.Dir(file)
	if kind == "mod" {
		cands := []string{path.Join(dir, name+".just"), path.Join(dir, name, "mod.just"), path.Join(dir, name, "justfile"), path.Join(dir, name, "Justfile"), path.Join(dir, name, ".justfile")}
		if ref != "" {
			p := path.Join(dir, ref)
			cands = []string{p, path.Join(p, "mod.just"), path.Join(p, "justfile"), path.Join(p, "Justfile")}
		}
		jf.mods[name] = ""
		for _, cand := range cands {
			if st, err := c.FS.Stat(fsName(cand)); err == nil && !st.IsDir() {
				jf.mods[name] = cand
				break
			}
		}
		if jf.mods[name] == "" && optional {
			delete(jf.mods, name)
		}
		return
	}
	jf.loads++
	if jf.loads > maxIncludes {
		jf.e.Add(opaque("script.limit", "limit reached: "+jf.file+" imports more than "+strconv.Itoa(maxIncludes)+" files"))
		return
	}
	p := path.Join(dir, ref)
	if strings.HasPrefix(ref, "/") || strings.HasPrefix(ref, "~/") {
		p = ref
	}
	data, err := c.readFile(p)
	if err != nil {
		if optional && errors.Is(err, fs.ErrNotExist) {
			return
		}
		jf.e.Add(opaque("script.unreadable", file+":"+strconv.Itoa(line)+": import "+p+" cannot be read ("+err.Error()+"), so what just runs cannot be known"))
		return
	}
	first := jf.first
	jf.parse(c, p, string(data))
	if first != "" {
		jf.first = first // the default recipe is the root file's first
	}
}

// runnerFileUp returns the names of a runner's file in the directory and
// in those above it, nearest first (just and task look upwards; at most
// maxRunnerUp levels).
func runnerFileUp(names []string) []string {
	out := append([]string(nil), names...)
	up := ""
	for k := 0; k < maxRunnerUp; k++ {
		up += "../"
		for _, n := range names {
			out = append(out, up+n)
		}
	}
	return out
}

// maxRunnerUp bounds how many directories above the command's a runner
// file is looked for.
const maxRunnerUp = 16

// ---- task (Taskfile) ----

func (c *Classifier) taskRun(inv *shell.Invocation) Effect {
	p := argv.Spec{Short: "dto", Long: []string{"--dir", "--taskfile", "--output", "--concurrency", "--interval"}}.Parse(inv.Args[1:])
	if p.Has("--list", "-l", "--list-all", "-a", "--dry", "-n", "--summary", "--help", "-h", "--version", "--init", "-i") {
		return nothing
	}
	var targets []string
	for _, o := range p.Operands {
		if o == "--" {
			break
		}
		if !strings.Contains(o, "=") {
			targets = append(targets, o)
		}
	}
	if len(targets) == 0 {
		targets = []string{"default"}
	}
	if c.FS == nil {
		for _, t := range targets {
			if releaseName(t) {
				return unreadRelease("task", t)
			}
		}
		return nothing
	}
	if inv.AnyDynamic(1) {
		return opaque("script.dynamic", "task is given words computed at run time, so which tasks run cannot be known")
	}
	file, given := p.Value("-t", "--taskfile")
	dir, _ := p.Value("-d", "--dir")
	var names []string
	switch {
	case given:
		names = []string{path.Join(dir, file)}
	case dir != "":
		for _, n := range taskFileNames {
			names = append(names, path.Join(dir, n))
		}
	default:
		names = runnerFileUp(taskFileNames) // task looks upwards too
	}
	file, data, failed, ok := c.readRunnerFile(inv, names...)
	if !ok {
		return failed
	}
	inner, deeperOK := c.deeper()
	if !deeperOK {
		return fileLimit(file)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 {
		return opaque("script.unreadable", file+" cannot be read as YAML, so what task runs cannot be known")
	}
	root := &taskfile{file: file, tasks: yamlKey(doc.Content[0], "tasks"), includes: yamlKey(doc.Content[0], "includes"), loaded: map[string]*taskfile{}}
	// The Taskfile's own vars and env with sh: run when it loads.
	e := inner.taskShVars(file, doc.Content[0])
	seen := map[string]bool{}
	loads := 0
	var run func(tf *taskfile, name string, depth int)
	run = func(tf *taskfile, name string, depth int) {
		if strings.HasPrefix(name, ":") { // a task of the root Taskfile
			tf, name = root, name[1:]
		}
		if seen[tf.file+"\x00"+name] || depth > 64 {
			return
		}
		seen[tf.file+"\x00"+name] = true
		t := yamlKey(tf.tasks, name)
		if t == nil {
			// ns:task runs task of the Taskfile included as ns.
			if ns, rest, ok := strings.Cut(name, ":"); ok {
				if sub, failed := inner.taskInclude(tf, ns, &loads); failed.Reasons != nil {
					e.Add(failed)
				} else if sub != nil {
					run(sub, rest, depth+1)
				}
				return
			}
			// An include with flatten: true puts its tasks beside the
			// including file's.
			for k := 0; tf.includes != nil && k+1 < len(tf.includes.Content); k += 2 {
				ns, v := tf.includes.Content[k].Value, tf.includes.Content[k+1]
				if yamlValue(v, "flatten") != "true" {
					continue
				}
				if sub, failed := inner.taskInclude(tf, ns, &loads); failed.Reasons != nil {
					e.Add(failed)
				} else if sub != nil && yamlKey(sub.tasks, name) != nil {
					run(sub, name, depth+1)
					return
				}
			}
			return
		}
		file := tf.file
		if t.Kind == yaml.ScalarNode { // "task: cmd" shorthand
			e.Add(inner.shellFileAt(file, t.Value, t.Line))
			return
		}
		if t.Kind == yaml.SequenceNode {
			for _, item := range t.Content {
				if item.Kind == yaml.ScalarNode {
					e.Add(inner.shellFileAt(file, item.Value, item.Line))
				}
			}
			return
		}
		// What runs before or beside the commands: the task's vars and
		// env with sh, its preconditions and its status checks.
		e.Add(inner.taskShVars(file, t))
		for _, key := range []string{"preconditions", "status"} {
			if list := yamlKey(t, key); list != nil {
				for _, item := range list.Content {
					if item.Kind == yaml.ScalarNode {
						e.Add(inner.shellFileAt(file, item.Value, item.Line))
					} else if n := yamlKey(item, "sh"); n != nil {
						e.Add(inner.shellFileAt(file, n.Value, n.Line))
					}
				}
			}
		}
		if deps := yamlKey(t, "deps"); deps != nil {
			for _, d := range deps.Content {
				if d.Kind == yaml.ScalarNode {
					run(tf, d.Value, depth+1)
				} else if n := yamlKey(d, "task"); n != nil {
					run(tf, n.Value, depth+1)
				}
			}
		}
		for _, key := range []string{"cmds", "cmd"} {
			cmds := yamlKey(t, key)
			if cmds == nil {
				continue
			}
			list := cmds.Content
			if cmds.Kind == yaml.ScalarNode {
				list = []*yaml.Node{cmds}
			}
			for _, item := range list {
				switch {
				case item.Kind == yaml.ScalarNode:
					e.Add(inner.shellFileAt(file, item.Value, item.Line))
				case yamlKey(item, "cmd") != nil:
					n := yamlKey(item, "cmd")
					e.Add(inner.shellFileAt(file, n.Value, n.Line))
				case yamlKey(item, "task") != nil:
					run(tf, yamlKey(item, "task").Value, depth+1)
				case yamlKey(item, "defer") != nil:
					// defer: runs the command (or task) when the task ends.
					d := yamlKey(item, "defer")
					if d.Kind == yaml.ScalarNode {
						e.Add(inner.shellFileAt(file, d.Value, d.Line))
					} else if n := yamlKey(d, "task"); n != nil {
						run(tf, n.Value, depth+1)
					}
				}
			}
		}
	}
	for _, t := range targets {
		run(root, t, 0)
	}
	return e
}

// taskFileNames are the names task looks for, in order.
var taskFileNames = []string{"Taskfile.yml", "taskfile.yml", "Taskfile.yaml", "taskfile.yaml", "Taskfile.dist.yml", "taskfile.dist.yml", "Taskfile.dist.yaml", "taskfile.dist.yaml"}

// taskShVars classifies the sh: of a Taskfile's or a task's vars and env
// (VAR: {sh: cmd}), which task runs to get the value.
func (c *Classifier) taskShVars(file string, n *yaml.Node) Effect {
	var e Effect
	for _, key := range []string{"vars", "env"} {
		m := yamlKey(n, key)
		if m == nil || m.Kind != yaml.MappingNode {
			continue
		}
		for k := 1; k < len(m.Content); k += 2 {
			if sh := yamlKey(m.Content[k], "sh"); sh != nil {
				e.Add(c.shellFileAt(file, sh.Value, sh.Line))
			}
		}
	}
	return e
}

// yamlKey returns the value of key in a mapping node, or nil.
func yamlKey(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// ---- rake ----

// rakeRun: a Rakefile is Ruby, read whole when it can be; without a
// filesystem a task named after a release is opaque.
func (c *Classifier) rakeRun(inv *shell.Invocation) Effect {
	p := argv.Spec{Short: "fCIrRg", Long: []string{"--rakefile", "--directory", "--libdir", "--require", "--rakelibdir"}}.Parse(inv.Args[1:])
	if p.Has("-T", "--tasks", "-D", "--describe", "-W", "--where", "-P", "--prereqs", "-n", "--dry-run", "--help", "-h", "--version", "-V") {
		return nothing
	}
	if c.FS == nil {
		for _, t := range p.Operands {
			if releaseName(t) {
				return unreadRelease("rake", t)
			}
		}
		return nothing
	}
	file, _ := p.Value("-f", "--rakefile")
	file, data, failed, ok := c.readRunnerFile(inv, file, "Rakefile", "rakefile", "Rakefile.rb", "rakefile.rb")
	if !ok {
		return failed
	}
	inner, deeperOK := c.deeper()
	if !deeperOK {
		return fileLimit(file)
	}
	// Every task of the Rakefile is read, not only the one asked for: a
	// reading that over-approximates.
	c.keepCode("rake "+file, file, data)
	return interpAnalyse(inner, "rake "+file, interp.Ruby, string(data)).through("script.interp", "rake runs the Ruby of "+file)
}

// readRunnerFile reads the first of a task runner's file names that
// exists ("" names are skipped): it returns the name read, or the failure
// of the first name that exists but cannot be read (too large, a
// binary). When none exists, ok is false and failed is empty.
func (c *Classifier) readRunnerFile(inv *shell.Invocation, names ...string) (file string, data []byte, failed Effect, ok bool) {
	for _, n := range names {
		if n == "" {
			continue
		}
		file = n
		if data, failed, ok = c.readScript(inv, n, false); ok || failed.Reasons != nil {
			break
		}
	}
	return file, data, failed, ok
}
