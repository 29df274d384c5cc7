package classify

import (
	"encoding/json"
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/airlock-dev/airlock/internal/classify/interp"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file reads the code a program loads or runs because a flag, a
// variable or a setting names it (FINDINGS-9 P2, P3, P5, P7, P8, P9):
//
//   - a compiler's helper programs: -fuse-ld=PATH and --ld-path=PATH (the
//     linker), -Wl,-plugin,FILE (a linker plugin), COMPILER_PATH and
//     GCC_EXEC_PREFIX (where gcc finds as, ld, collect2); go's
//     -ldflags '-extld=PROG'; cargo rustc -- -C linker=PROG;
//   - go's own environment file: go env -w GOFLAGS=… (and CC, CXX, …)
//     is read as that variable set for every later go command, and the
//     file (GOENV, $XDG_CONFIG_HOME/go/env, ~/.config/go/env) is read for
//     the go runs that build;
//   - npm pkg set scripts.X=TEXT and npm set-script X TEXT: the text is a
//     script npm runs later, read as a command;
//   - bundler's Gemfile named by BUNDLE_GEMFILE or bundle config set
//     gemfile: Ruby code bundle evaluates;
//   - pytest's conftest.py written by the same command;
//   - files interpreters load at start: sitecustomize.py and
//     usercustomize.py on PYTHONPATH, perl -MMod with -I or PERL5LIB,
//     ruby -rFILE (with -I or RUBYLIB), node -r/--require/--import of a
//     local file, and $SHELL for the programs that run it (script, tmux,
//     screen).
//
// A file that exists is read like a script of its language; one the same
// command writes is opaque (readScript).

// loadsByFlags is the effect of the code one run loads or runs through
// the flags, variables and settings above.
func (c *Classifier) loadsByFlags(inv *shell.Invocation) Effect {
	if inv.Opaque != "" || len(inv.Args) == 0 || inv.Group {
		return nothing
	}
	var e Effect
	name := inv.Name()
	switch name {
	case "cc", "gcc", "g++", "c++", "clang", "clang++", "cpp":
		e.Add(c.compilerHelpers(inv))
	case "go":
		e.Add(c.goLoads(inv))
	case "cargo":
		e.Add(c.cargoRustcLinker(inv))
	case "npm", "pnpm", "bun":
		e.Add(c.npmScriptWrites(inv))
	case "bundle", "bundler":
		e.Add(c.bundleGemfile(inv))
	case "perl":
		e.Add(c.perlModules(inv))
	case "ruby":
		e.Add(c.rubyRequires(inv))
	case "node", "nodejs":
		e.Add(c.nodeRequires(inv))
	case "script", "tmux", "screen", "byobu", "zellij", "dtach", "abduco", "pipenv", "poetry":
		// They start $SHELL (pipenv shell, poetry shell).
		if (name == "pipenv" || name == "poetry") && (len(inv.Args) < 2 || inv.Args[1] != "shell") {
			break
		}
		// Only a SHELL the command sets: the human's own is theirs.
		if v, ok := inv.Getenv("SHELL"); ok && unquoteValue(v) != "" {
			v = unquoteValue(v)
			e.Add(c.embedded("SHELL ("+name+" runs it)", shell.Join([]string{v})+" -c true", strings.ContainsAny(v, "$`")))
		}
	case "git":
		if v, ok := inv.Getenv("GIT_EXEC_PATH"); ok && localDir(unquoteValue(v)) {
			e.Add(opaque("git.exec-path", "GIT_EXEC_PATH="+clip(v)+" makes git run its helper programs (git-remote-https, git-sh-setup, git-<command>) from "+clip(v)+", which airlock does not read; unset GIT_EXEC_PATH"))
		}
	case "direnv":
		e.Add(c.direnvAllow(inv))
	case "husky":
		e.Add(c.huskyHooks(inv))
	case "yarn", "yarnpkg":
		// yarn set version FILE copies a release of the project's into
		// .yarn/releases and makes it yarnPath: every later yarn runs it.
		if len(inv.Args) > 3 && inv.Args[1] == "set" && inv.Args[2] == "version" {
			if v := inv.Args[3]; strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") || strings.HasPrefix(v, "/") || strings.HasSuffix(v, ".js") || strings.HasSuffix(v, ".cjs") {
				e.Add(c.yarnPath(inv, "yarn set version "+v, v, inv.IsDynamic(3)))
			}
		}
	}
	// Settings that run a program at a tool's next use, runners of a
	// known interpreter (laterprogs.go).
	e.Add(c.laterPrograms(inv))
	e.Add(c.keepProjectCode(inv))
	e.Add(c.vimKeystrokes(inv))
	if pythonRun(inv) {
		e.Add(c.pythonStartup(inv))
		if v, ok := inv.Getenv("PYTHONHOME"); ok && localDir(unquoteValue(v)) {
			e.Add(opaque("env.code", "PYTHONHOME="+clip(v)+" makes python load its standard library (site.py, run at start) from "+clip(v)+", which airlock does not read; unset PYTHONHOME"))
		}
	}
	if pytestRun(inv) {
		e.Add(c.conftestWritten(inv))
		e.Add(c.pytestPlugins(inv))
	}
	if m := pythonModule(inv); m != "" {
		// python -m pytest, -m invoke, -m nox: the module reads the
		// project's files as the program of that name does
		// (buildtools.go).
		if t, ok := buildTools.Get()[m]; ok && t.subs == nil {
			files := t.files
			if k := slices.Index(inv.Args, m); k > 0 {
				// python3 -m pytest lp/ reads lp/conftest.py (rundir.go).
				files = append(slices.Clone(files), c.operandDirFiles(inv, inv.Args[k+1:], t)...)
			}
			e.Add(c.keepTaskCode(inv, files))
		}
	}
	return e
}

// localDir reports a directory a variable names that is not one of the
// system's: a program's helpers or library found there are files the
// agent may have written.
func localDir(d string) bool {
	for _, x := range strings.Split(d, ":") {
		x = strings.TrimSpace(x)
		x = strings.TrimSuffix(x, "/")
		if x != "" && x != "/usr" && x != "/opt" && !systemBinDir(x) && !strings.HasPrefix(x, "/usr/") && !strings.HasPrefix(x, "/opt/") && !strings.HasPrefix(x, "/nix/store/") {
			return true
		}
	}
	return false
}

// direnvAllow reads direnv allow [DIR|FILE]: it approves the .envrc that
// direnv then runs, as shell code, at the human's next cd into the
// directory; the file is read as a script.
func (c *Classifier) direnvAllow(inv *shell.Invocation) Effect {
	if len(inv.Args) < 2 || inv.Args[1] != "allow" && inv.Args[1] != "permit" && inv.Args[1] != "grant" || c.FS == nil {
		return nothing
	}
	f := ".envrc"
	if len(inv.Args) > 2 {
		if inv.IsDynamic(2) {
			return opaque("direnv.allow", "direnv allow approves an .envrc named only at run time, which direnv runs at the next cd")
		}
		f = inv.Args[2]
		if info, err := c.FS.Stat(fsName(f)); err == nil && info.IsDir() {
			f = path.Join(f, ".envrc")
		}
	}
	if !c.existsOrWritten(inv, f) {
		return nothing
	}
	e, _ := c.scriptFile(inv, f, false)
	return e.through("direnv.allow", "direnv runs "+f+" at the next cd into its directory, the human's too")
}

// huskyHooks reads husky (husky, husky install, husky init): it points
// core.hooksPath at .husky/_, whose hooks run the project's .husky/HOOK
// scripts at every later commit, push or checkout; those are read as the
// scripts they are.
func (c *Classifier) huskyHooks(inv *shell.Invocation) Effect {
	if c.FS == nil {
		return nothing
	}
	dir := ".husky"
	if len(inv.Args) > 1 {
		switch a := inv.Args[1]; {
		case a == "install" && len(inv.Args) > 2 && !inv.IsDynamic(2):
			dir = inv.Args[2]
		case a == "install", a == "init":
		case !strings.HasPrefix(a, "-") && !inv.IsDynamic(1):
			dir = a // husky DIR (v9)
		default:
			return nothing
		}
	}
	var e Effect
	for _, h := range gitHookNames {
		f := path.Join(dir, h)
		if !c.existsOrWritten(inv, f) {
			continue
		}
		he, _ := c.scriptFile(inv, f, false)
		e.Add(he.through("husky.hook", "husky makes git run "+f+" as its "+h+" hook at every later git command, the human's too"))
	}
	return e
}

// ---- compilers ----

// compilerHelpers reads the options and variables that make a compiler
// driver run a program of the project's: its linker, a linker plugin,
// the directory it finds its assembler and linker in.
func (c *Classifier) compilerHelpers(inv *shell.Invocation) Effect {
	var e Effect
	name := inv.Name()
	for _, k := range []string{"COMPILER_PATH", "GCC_EXEC_PREFIX"} {
		v, ok := inv.Getenv(k)
		if !ok {
			continue
		}
		if d := unquoteValue(v); localDir(d) {
			e.Add(opaque("compiler.path", k+"="+clip(d)+" makes "+name+" run its assembler and linker (as, ld, collect2) from "+clip(d)+", which airlock does not read; unset "+k))
		}
	}
	args := inv.Args[1:]
	for i, a := range args {
		dyn := inv.IsDynamic(1 + i)
		switch {
		case strings.HasPrefix(a, "-fuse-ld="):
			if v := a[len("-fuse-ld="):]; strings.Contains(v, "/") {
				e.Add(c.embedded(name+" -fuse-ld (the linker it runs)", shell.Join([]string{v}), dyn))
			}
		case strings.HasPrefix(a, "--ld-path="):
			e.Add(c.embedded(name+" --ld-path (the linker it runs)", shell.Join([]string{a[len("--ld-path="):]}), dyn))
		case a == "--ld-path" && i+1 < len(args):
			e.Add(c.embedded(name+" --ld-path (the linker it runs)", shell.Join([]string{args[i+1]}), inv.IsDynamic(2+i)))
		case strings.HasPrefix(a, "-Wl,") || a == "-Xlinker" && i+1 < len(args):
			var parts []string
			if a == "-Xlinker" {
				parts = []string{args[i+1]}
			} else {
				parts = strings.Split(a[4:], ",")
			}
			for _, p := range parts {
				if p == "-plugin" || p == "--plugin" || strings.HasPrefix(p, "-plugin=") || strings.HasPrefix(p, "--plugin=") {
					e.Add(opaque("option.code", name+" "+clip(a)+" makes the linker load a plugin, code airlock cannot read"))
					break
				}
			}
		}
	}
	return e
}

// goLoads reads go env -w and go's environment file, and -ldflags'
// -extld.
func (c *Classifier) goLoads(inv *shell.Invocation) Effect {
	args := inv.Args
	if len(args) < 2 || inv.IsDynamic(1) {
		return nothing
	}
	var e Effect
	switch args[1] {
	case "env":
		write := false
		for _, a := range args[2:] {
			if a == "-w" {
				write = true
			}
		}
		if !write {
			return nothing
		}
		for j, a := range args[2:] {
			k, v, ok := strings.Cut(a, "=")
			if !ok || strings.HasPrefix(k, "-") || !goEnvRuns(k) {
				continue
			}
			what := "go env -w " + k + " (every later go command, the human's too, uses it)"
			e.Add(c.embedded(what, k+"="+shell.Join([]string{v})+" true", inv.IsDynamic(2+j)))
			if k == "GOFLAGS" {
				for _, prog := range goFlagsExtld(v) {
					e.Add(c.embedded(what, shell.Join([]string{prog}), inv.IsDynamic(2+j)))
				}
			}
		}
		return e
	case "build", "test", "run", "install", "vet", "generate", "list", "get", "tool":
	default:
		return nothing
	}
	// -ldflags '-extld=PROG' (and -extld PROG) names the external linker;
	// GOFLAGS=-ldflags=-extld=PROG gives the same flag.
	if v, dyn, ok := c.envOr(inv, "GOFLAGS"); ok {
		for _, prog := range goFlagsExtld(v) {
			e.Add(c.embedded("GOFLAGS -ldflags -extld (the linker go runs)", shell.Join([]string{prog}), dyn))
		}
	}
	for j := 2; j < len(args); j++ {
		a := args[j]
		var v string
		vi := j
		switch {
		case a == "-ldflags" || a == "--ldflags":
			if j+1 >= len(args) {
				continue
			}
			j++
			v, vi = args[j], j
		case strings.HasPrefix(a, "-ldflags=") || strings.HasPrefix(a, "--ldflags="):
			_, v, _ = strings.Cut(a, "=")
		default:
			continue
		}
		for _, prog := range ldflagsExtld(unquoteValue(v)) {
			e.Add(c.embedded("go -ldflags -extld (the linker go runs)", shell.Join([]string{prog}), inv.IsDynamic(vi)))
		}
	}
	e.Add(c.goEnvFile(inv))
	return e
}

// ldflagsExtld returns the programs an -ldflags value names with -extld
// (-extld=PROG, -extld PROG, a pkgpattern=flags form).
func ldflagsExtld(v string) []string {
	var out []string
	words := strings.Fields(v)
	for k := 0; k < len(words); k++ {
		w := strings.Trim(words[k], `'"`)
		// a pattern=flags form applies to the packages it names.
		if p, rest, ok := strings.Cut(w, "="); ok && !strings.HasPrefix(p, "-") {
			w = rest
		}
		flag, val, has := strings.Cut(strings.TrimLeft(w, "-"), "=")
		if flag != "extld" {
			continue
		}
		if !has && k+1 < len(words) {
			k++
			val = strings.Trim(words[k], `'"`)
		}
		if val != "" {
			out = append(out, val)
		}
	}
	return out
}

// goFlagsExtld returns the -extld programs of a GOFLAGS value's -ldflags
// (GOFLAGS=-ldflags=-extld=PROG: GOFLAGS' words have no spaces).
func goFlagsExtld(v string) []string {
	var out []string
	for _, f := range strings.Fields(unquoteValue(v)) {
		if l, ok := strings.CutPrefix(strings.TrimLeft(f, "-"), "ldflags="); ok {
			out = append(out, ldflagsExtld(l)...)
		}
	}
	return out
}

// goEnvRuns reports a go environment setting whose value makes go run a
// program: GOFLAGS (-toolexec, -exec, -vettool), the cgo tools, the
// toolchain it switches to.
func goEnvRuns(k string) bool {
	switch k {
	case "GOFLAGS", "CC", "CXX", "FC", "AR", "PKG_CONFIG":
		return true
	}
	_, ok := commandEnv.Get()[k]
	return ok
}

// goEnvFile reads go's environment file for a go run that builds: the
// settings there apply as if set for the run, unless the run sets them.
func (c *Classifier) goEnvFile(inv *shell.Invocation) Effect {
	if c.FS == nil {
		return nothing
	}
	var f clientConfigFile
	if v, dyn, ok := c.envOr(inv, "GOENV"); ok {
		if v == "off" || v == "" {
			return nothing
		}
		f = clientConfigFile{name: v, dynamic: dyn, explicit: true}
	} else if v, dyn, ok := c.envOr(inv, "XDG_CONFIG_HOME"); ok && v != "" {
		f = clientConfigFile{name: path.Join(v, "go/env"), dynamic: dyn}
	} else {
		f = clientConfigFile{name: "~/.config/go/env"}
		if h, dyn := homeOf(inv); h != "~" || dyn {
			f = clientConfigFile{name: path.Join(h, ".config/go/env"), dynamic: dyn}
		}
	}
	data, failed, ok := c.readConfig(inv, f)
	if !ok {
		return failed
	}
	var e Effect
	for _, line := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
		if !ok || k == "" || k[0] == '#' || !goEnvRuns(k) {
			continue
		}
		if _, set := inv.Getenv(k); set {
			continue
		}
		what := k + " in " + f.name + " (go env -w)"
		e.Add(c.embedded(what, k+"="+shell.Join([]string{v})+" true", strings.ContainsAny(v, "$`")))
		if k == "GOFLAGS" {
			for _, prog := range goFlagsExtld(v) {
				e.Add(c.embedded(what, shell.Join([]string{prog}), false))
			}
		}
	}
	return e
}

// cargoRustcLinker reads cargo rustc/rustdoc -- -C linker=PROG: the
// words after -- go to rustc.
func (c *Classifier) cargoRustcLinker(inv *shell.Invocation) Effect {
	args := inv.Args
	sub := false
	var e Effect
	for j := 1; j < len(args); j++ {
		a := args[j]
		if a == "rustc" || a == "rustdoc" {
			sub = true
		}
		if a != "--" || !sub {
			continue
		}
		rest := args[j+1:]
		for k := 0; k < len(rest); k++ {
			w := rest[k]
			var v string
			switch {
			case (w == "-C" || w == "--codegen") && k+1 < len(rest):
				k++
				v = rest[k]
			case strings.HasPrefix(w, "-C"):
				v = w[2:]
			case strings.HasPrefix(w, "--codegen="):
				v = w[len("--codegen="):]
			default:
				continue
			}
			if prog, ok := strings.CutPrefix(v, "linker="); ok && prog != "" {
				e.Add(c.embedded("cargo "+args[1]+" -- -C linker (the linker rustc runs)", shell.Join([]string{prog}), inv.AnyDynamic(j+1)))
			}
		}
		break
	}
	return e
}

// ---- package managers ----

// npmScriptWrites reads npm pkg set scripts.X=TEXT and npm set-script X
// TEXT: the text is written to package.json as a script that npm runs
// later (npm test, npm run X, the install lifecycle), the human's runs
// too, so it is read as the command it is.
func (c *Classifier) npmScriptWrites(inv *shell.Invocation) Effect {
	var ops []string
	var idx []int
	for j, a := range inv.Args[1:] {
		if strings.HasPrefix(a, "-") {
			continue
		}
		ops = append(ops, a)
		idx = append(idx, 1+j)
	}
	if len(ops) > 0 && ops[0] == "pm" && inv.Name() == "bun" {
		ops, idx = ops[1:], idx[1:] // bun pm pkg set
	}
	var e Effect
	switch {
	case len(ops) >= 3 && ops[0] == "pkg" && ops[1] == "set":
		for k := 2; k < len(ops); k++ {
			key, v, ok := strings.Cut(ops[k], "=")
			if !ok {
				continue
			}
			if script, ok := npmScriptKey(key); ok {
				e.Add(c.embedded(inv.Name()+" pkg set "+key+" (the "+script+" script npm runs later)", unquoteValue(v), inv.IsDynamic(idx[k])))
				continue
			}
			if key != "scripts" {
				continue
			}
			// npm pkg set scripts='{"test": "…"}' --json: every script.
			var m map[string]any
			if inv.IsDynamic(idx[k]) || json.Unmarshal([]byte(v), &m) != nil {
				e.Add(opaque("npm.pkg-set", inv.Name()+" pkg set scripts="+clip(v)+" writes package.json's scripts, which npm runs later, in a form airlock does not read"))
				continue
			}
			for name, text := range m {
				if t, ok := text.(string); ok {
					e.Add(c.embedded(inv.Name()+" pkg set scripts."+name+" (the "+name+" script npm runs later)", t, false))
				}
			}
		}
	case len(ops) >= 3 && ops[0] == "set-script":
		e.Add(c.embedded(inv.Name()+" set-script "+ops[1]+" (the script npm runs later)", ops[2], inv.IsDynamic(idx[2])))
	}
	return e
}

// npmScriptKey returns the script a package.json key path names:
// scripts.test, scripts[test], scripts["test"].
func npmScriptKey(key string) (string, bool) {
	if s, ok := strings.CutPrefix(key, "scripts."); ok && s != "" {
		return s, true
	}
	if s, ok := strings.CutPrefix(key, "scripts["); ok && strings.HasSuffix(s, "]") {
		return strings.Trim(strings.TrimSuffix(s, "]"), `"'`), true
	}
	return "", false
}

// bundleGemfile reads the Gemfile bundler evaluates when a variable or
// bundle config names one: Ruby code of the project's.
func (c *Classifier) bundleGemfile(inv *shell.Invocation) Effect {
	var e Effect
	args := inv.Args[1:]
	// bundle config [set] [--local|--global] gemfile FILE
	for j := 0; j+1 < len(args); j++ {
		if args[j] != "config" {
			continue
		}
		rest := args[j+1:]
		var ops []string
		var at []int
		for k, a := range rest {
			if !strings.HasPrefix(a, "-") {
				ops = append(ops, a)
				at = append(at, 2+j+k)
			}
		}
		if len(ops) > 0 && ops[0] == "set" {
			ops, at = ops[1:], at[1:]
		}
		if len(ops) >= 2 && strings.EqualFold(ops[0], "gemfile") {
			e.Add(shared("bundle.gemfile", "bundle config gemfile "+clip(ops[1])+" makes every later bundle command (the human's too) evaluate "+clip(ops[1])+" as Ruby code"))
			e.Add(c.interpScript(inv, "ruby", interp.Ruby, ops[1], inv.IsDynamic(at[1])).through("bundle.gemfile", "bundle evaluates "+ops[1]+" as its Gemfile"))
		}
		break
	}
	if v, dyn, ok := c.envOr(inv, "BUNDLE_GEMFILE"); ok && v != "" {
		e.Add(c.interpScript(inv, "ruby", interp.Ruby, v, dyn).through("bundle.gemfile", "BUNDLE_GEMFILE makes bundle evaluate "+v+" as its Gemfile"))
		return e
	}
	// The project's Gemfile is Ruby code too: its text goes to
	// self-protection like a build file's (keepTaskCode).
	e.Add(c.keepTaskCode(inv, []string{"Gemfile", "gems.rb"}))
	return e
}

// ---- interpreters' start-up files ----

// pythonRun reports a run of python or of a program python runs.
func pythonRun(inv *shell.Invocation) bool {
	n := inv.Name()
	return strings.HasPrefix(n, "python") || n == "pytest" || n == "py.test" || n == "pip" || n == "pip3" || n == "tox" || n == "nox"
}

// pytestRun reports pytest, also as python -m pytest.
func pytestRun(inv *shell.Invocation) bool {
	n := inv.Name()
	if n == "pytest" || n == "py.test" {
		return true
	}
	if !strings.HasPrefix(n, "python") {
		return false
	}
	for j := 1; j+1 < len(inv.Args); j++ {
		if inv.Args[j] == "-m" {
			return inv.Args[j+1] == "pytest" || inv.Args[j+1] == "py.test"
		}
		if !strings.HasPrefix(inv.Args[j], "-") {
			return false
		}
	}
	return false
}

// pythonModule returns the module python -m runs, "" for another run.
func pythonModule(inv *shell.Invocation) string {
	if !strings.HasPrefix(inv.Name(), "python") {
		return ""
	}
	for j := 1; j+1 < len(inv.Args); j++ {
		if inv.Args[j] == "-m" {
			return inv.Args[j+1]
		}
		if !strings.HasPrefix(inv.Args[j], "-") {
			return ""
		}
	}
	return ""
}

// pythonStartup follows sitecustomize.py and usercustomize.py in the
// directories PYTHONPATH names: python imports them at start.
func (c *Classifier) pythonStartup(inv *shell.Invocation) Effect {
	v, dyn, ok := c.envOr(inv, "PYTHONPATH")
	if !ok || v == "" || c.FS == nil {
		return nothing
	}
	if dyn {
		return opaque("env.code", "PYTHONPATH is only known at run time, and python imports sitecustomize.py from it at start")
	}
	var e Effect
	for _, d := range strings.Split(v, ":") {
		if d == "" || systemBinDir(d) || strings.HasPrefix(d, "/usr/") {
			continue
		}
		for _, m := range []string{"sitecustomize", "usercustomize"} {
			for _, f := range []string{path.Join(d, m+".py"), path.Join(d, m, "__init__.py")} {
				if !c.existsOrWritten(inv, f) {
					continue
				}
				e.Add(c.interpScript(inv, "python3", interp.Python, f, false).through("env.code", "python imports "+f+" at start (PYTHONPATH)"))
			}
		}
	}
	return e
}

// existsOrWritten reports a file that is on disk or that another run of
// the command may write.
func (c *Classifier) existsOrWritten(inv *shell.Invocation, f string) bool {
	if c.FS == nil {
		return false
	}
	if info, err := c.FS.Stat(fsName(f)); err == nil && info.Mode().IsRegular() {
		return true
	}
	return c.cc.mentions(path.Base(f)) && c.cc.writtenElsewhere(inv, f)
}

// conftestWritten holds pytest after a run of the same command that may
// write a conftest.py: pytest imports it before any test (an existing one
// is read for airlock's names by keepTaskCode).
func (c *Classifier) conftestWritten(inv *shell.Invocation) Effect {
	if c.FS == nil || !c.cc.mentions("conftest.py") {
		return nothing
	}
	// Every conftest.py a word of the command names (pytest collects them
	// in every directory of the tests), and the usual places.
	files := []string{"conftest.py", "tests/conftest.py", "test/conftest.py", "src/conftest.py"}
	seen := map[string]bool{}
	for i := range c.cc.invs {
		o := &c.cc.invs[i]
		words := append([]string{}, o.Args...)
		for _, r := range o.Redirects {
			words = append(words, r.Target)
		}
		for _, w := range words {
			if path.Base(w) == "conftest.py" && !path.IsAbs(w) && !strings.ContainsAny(w, "$`*?[") {
				files = append(files, path.Clean(w))
			}
		}
	}
	var e Effect
	for _, f := range files {
		if seen[f] {
			continue
		}
		seen[f] = true
		if c.cc.writtenElsewhere(inv, f) {
			e.Add(c.interpScript(inv, "python3", interp.Python, f, false).through("pytest.conftest", "pytest imports "+f+" before any test"))
		}
	}
	return e
}

// perlModules follows perl -MMod and -mMod found in the directories -I
// and PERL5LIB add: perl loads them before the program.
func (c *Classifier) perlModules(inv *shell.Invocation) Effect {
	if c.FS == nil {
		return nothing
	}
	var dirs, mods []string
	if v, _, ok := c.envOr(inv, "PERL5LIB"); ok {
		dirs = append(dirs, strings.Split(v, ":")...)
	}
	if v, _, ok := c.envOr(inv, "PERLLIB"); ok {
		dirs = append(dirs, strings.Split(v, ":")...)
	}
	args := inv.Args[1:]
	for j := 0; j < len(args); j++ {
		a := args[j]
		if inv.IsDynamic(1 + j) {
			continue
		}
		switch {
		case a == "--" || a == "-e" || a == "-E" || !strings.HasPrefix(a, "-"):
			j = len(args)
		case a == "-I" && j+1 < len(args):
			j++
			dirs = append(dirs, args[j])
		case strings.HasPrefix(a, "-I"):
			dirs = append(dirs, a[2:])
		case strings.HasPrefix(a, "-M") || strings.HasPrefix(a, "-m"):
			m := strings.TrimPrefix(a[2:], "-")
			m, _, _ = strings.Cut(m, "=")
			if m != "" {
				mods = append(mods, m)
			}
		}
	}
	var e Effect
	for _, m := range mods {
		rel := strings.ReplaceAll(m, "::", "/") + ".pm"
		for _, d := range dirs {
			if d == "" || strings.HasPrefix(d, "/usr/") {
				continue
			}
			f := path.Join(d, rel)
			if c.existsOrWritten(inv, f) {
				e.Add(c.interpScript(inv, "perl", interp.Perl, f, false).through("perl.module", "perl -M"+m+" loads "+f))
				break
			}
		}
	}
	return e
}

// rubyRequires follows ruby -rFILE: a path of the project's, or a name
// found in the directories -I and RUBYLIB add.
func (c *Classifier) rubyRequires(inv *shell.Invocation) Effect {
	if c.FS == nil {
		return nothing
	}
	var dirs, libs []string
	if v, _, ok := c.envOr(inv, "RUBYLIB"); ok {
		dirs = append(dirs, strings.Split(v, ":")...)
	}
	args := inv.Args[1:]
	for j := 0; j < len(args); j++ {
		a := args[j]
		if inv.IsDynamic(1 + j) {
			continue
		}
		switch {
		case a == "--" || a == "-e" || !strings.HasPrefix(a, "-"):
			j = len(args)
		case (a == "-I" || a == "-r") && j+1 < len(args):
			j++
			if a == "-I" {
				dirs = append(dirs, args[j])
			} else {
				libs = append(libs, args[j])
			}
		case strings.HasPrefix(a, "-I"):
			dirs = append(dirs, a[2:])
		case strings.HasPrefix(a, "-r"):
			libs = append(libs, a[2:])
		}
	}
	var e Effect
	for _, l := range libs {
		var cands []string
		if strings.HasPrefix(l, "/") || strings.HasPrefix(l, "./") || strings.HasPrefix(l, "../") {
			cands = []string{l + rbSuffix(l)}
		} else {
			for _, d := range dirs {
				if d != "" && !strings.HasPrefix(d, "/usr/") {
					cands = append(cands, path.Join(d, l+rbSuffix(l)))
				}
			}
		}
		for _, f := range cands {
			if c.existsOrWritten(inv, f) {
				e.Add(c.interpScript(inv, "ruby", interp.Ruby, f, false).through("ruby.require", "ruby -r"+l+" loads "+f))
				break
			}
		}
	}
	return e
}

// nodeRequires follows node -r/--require/--import/--loader of a local
// file: node loads it before the program.
func (c *Classifier) nodeRequires(inv *shell.Invocation) Effect {
	var e Effect
	args := inv.Args[1:]
	for j := 0; j < len(args); j++ {
		a := args[j]
		if a == "--" || !strings.HasPrefix(a, "-") {
			break
		}
		flag, v, has := strings.Cut(a, "=")
		switch flag {
		case "-r", "--require", "--import", "--loader", "--experimental-loader", "--preload":
		default:
			continue
		}
		at := 1 + j
		if !has {
			if j+1 >= len(args) {
				break
			}
			j++
			v, at = args[j], 1+j
		}
		if inv.IsDynamic(at) {
			e.Add(opaque("node.require", inv.Name()+" "+flag+" loads a module only known at run time"))
			continue
		}
		if strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") || strings.HasPrefix(v, "/") {
			e.Add(c.jsModule(inv, inv.Name(), v).through("node.require", inv.Name()+" "+flag+" loads "+v+" first"))
		}
	}
	return e
}

// ---- writes a word does not name ----

// inlineWrite finds, in an interpreter's one-liner, a call that writes,
// copies, moves or links a file.
var inlineWrite = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)write|copy|rename|link|move|replace|dump|\bcp\b|\bmv\b|\bsystem\b|\bexec|spawn|open\s*\([^)]*['"][wa+]|>`)
})

// extraWrites counts a run's writes of name that mayWrite does not see
// as a word: a compiler's joined output (-obb, --output=bb), and an
// interpreter's one-liner that names the file in quotes and writes,
// copies, moves or links (python3 -c 'shutil.copy("x.sh","b")', perl -e
// 'rename …', node -e 'fs.writeFileSync("package.json", …)').
func extraWrites(inv *shell.Invocation, name string) int {
	if len(inv.Args) == 0 || name == "" || name == "." {
		return 0
	}
	switch n := inv.Name(); {
	case n == "cc" || n == "gcc" || n == "g++" || n == "c++" || n == "clang" || n == "clang++" || n == "cpp" || n == "rustc":
		for j, a := range inv.Args[1:] {
			if inv.IsDynamic(1 + j) {
				continue
			}
			if o, ok := strings.CutPrefix(a, "--output="); ok && path.Clean(o) == name {
				return 1
			}
			if o, ok := strings.CutPrefix(a, "-o"); ok && o != "" && path.Clean(strings.TrimPrefix(o, "=")) == name {
				return 1
			}
		}
	case strings.HasPrefix(n, "python") || n == "perl" || n == "ruby" || n == "node" || n == "nodejs" || n == "bun" || n == "deno" || n == "php":
		for j, a := range inv.Args[1:] {
			if inv.IsDynamic(1+j) || !strings.ContainsAny(a, `"'`) {
				continue
			}
			for _, q := range []string{`"`, `'`, "`"} {
				if (strings.Contains(a, q+name+q) || strings.Contains(a, q+"./"+name+q)) && inlineWrite().MatchString(a) {
					return 1
				}
			}
		}
	}
	return 0
}

// pytestPlugins follows the local modules pytest imports as plugins:
// -p NAME on its command line, in PYTEST_ADDOPTS or in the addopts of
// its configuration file (pytest.ini, pyproject.toml, tox.ini,
// setup.cfg), and the modules PYTEST_PLUGINS names. A module of the
// project's is a NAME.py or NAME/__init__.py in the directory.
func (c *Classifier) pytestPlugins(inv *shell.Invocation) Effect {
	if c.FS == nil {
		return nothing
	}
	var names []string
	plugins := func(words []string) {
		for j := 0; j < len(words); j++ {
			w := strings.Trim(words[j], `'"`)
			switch {
			case w == "-p" && j+1 < len(words):
				j++
				names = append(names, strings.Trim(words[j], `'"`))
			case strings.HasPrefix(w, "-p") && len(w) > 2:
				names = append(names, w[2:])
			}
		}
	}
	plugins(inv.Args[1:])
	if v, _, ok := c.envOr(inv, "PYTEST_ADDOPTS"); ok {
		plugins(strings.Fields(v))
	}
	if v, _, ok := c.envOr(inv, "PYTEST_PLUGINS"); ok {
		names = append(names, strings.Split(v, ",")...)
	}
	for _, f := range []string{"pytest.ini", "pyproject.toml", "tox.ini", "setup.cfg"} {
		data, _, ok := c.readConfig(inv, clientConfigFile{name: f})
		if !ok {
			continue
		}
		for _, line := range strings.Split(string(data), "\n") {
			k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
			if ok && strings.TrimSpace(k) == "addopts" {
				plugins(strings.Fields(strings.Trim(strings.TrimSpace(v), `"'[],`)))
			}
		}
	}
	var e Effect
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" || strings.HasPrefix(n, "no:") || strings.Contains(n, "$") {
			continue
		}
		rel := strings.ReplaceAll(n, ".", "/")
		for _, f := range []string{rel + ".py", path.Join(rel, "__init__.py")} {
			if c.existsOrWritten(inv, f) {
				e.Add(c.interpScript(inv, "python3", interp.Python, f, false).through("pytest.plugin", "pytest imports the plugin "+n+" ("+f+") before any test"))
				break
			}
		}
	}
	return e
}

// compilerTextAbbrev reports an abbreviation of a compiler driver's long
// option for a text output (gcc takes --prep for --preprocess).
func compilerTextAbbrev(a string) bool {
	if len(a) < 5 || !strings.HasPrefix(a, "--") {
		return false
	}
	a, _, _ = strings.Cut(a, "=")
	for _, o := range []string{"--preprocess", "--assemble", "--dependencies", "--user-dependencies", "--print-missing-file-dependencies"} {
		if strings.HasPrefix(o, a) {
			return true
		}
	}
	return false
}
