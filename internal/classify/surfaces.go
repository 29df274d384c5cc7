package classify

import (
	"encoding/json"
	"github.com/airlock-dev/airlock/internal/firstuse"
	"path"
	"regexp"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file rates writes to files that run later: execution surfaces
// (git hooks and configuration, shell start-up files, ssh configuration,
// crontabs, systemd and launchd units, .envrc, agent hook settings) are
// shared, plus the effect of the commands they embed; task files
// (Makefile, package.json, justfile, Taskfile, CI workflows) get the
// effect of the commands in the new text. The same rating applies to the
// Write and Edit tools (File) and to shell writes: redirections, tee, cp,
// mv, sed -i.

// surfaceKind names what a path is when it runs later, or "".
func surfaceKind(p string) (kind string, task bool) {
	p = path.Clean(strings.ReplaceAll(p, `\`, "/"))
	base := path.Base(p)
	dir := path.Dir(p)
	has := func(s string) bool { return strings.Contains("/"+p, s) }
	switch {
	case has("/.git/hooks/") || has("/.githooks/") || has("/.husky/") && !strings.HasPrefix(base, "."):
		return "a git hook", false
	case base == "config" && path.Base(dir) == ".git", base == ".gitconfig", has("/.config/git/config"), base == ".gitmodules",
		base == "config.worktree" && path.Base(dir) == ".git":
		return "git configuration", false
	case base == ".git", base == "commondir" && path.Base(dir) == ".git":
		return gitPointer, false
	case base == "config" && path.Base(dir) == ".ssh":
		return "ssh configuration", false
	case base == "authorized_keys" && path.Base(dir) == ".ssh":
		return "the keys that may log in to this machine", false
	case shellStartup(base), has("/fish/config.fish"), p == "/etc/profile", has("/etc/profile.d/"), p == "/etc/bash.bashrc":
		return "a shell start-up file", false
	case base == ".envrc":
		return "a direnv file", false
	case has("/var/spool/cron/"), has("/etc/cron"), base == "crontab":
		return "a crontab", false
	case has("/systemd/") && (strings.HasSuffix(base, ".service") || strings.HasSuffix(base, ".timer") || strings.HasSuffix(base, ".socket") || strings.HasSuffix(base, ".path")):
		return "a systemd unit", false
	case has("/LaunchAgents/") || has("/LaunchDaemons/"):
		return "a launchd job", false
	case has("/.claude/settings") || has("/.cursor/hooks") || has("/.gemini/settings") || has("/.codex/hooks"):
		return "an agent's hook settings", false
	case base == "Makefile" || base == "makefile" || base == "GNUmakefile" || strings.HasSuffix(base, ".mk"):
		return "Makefile", true
	case base == "package.json":
		return "package.json", true
	case base == "justfile" || base == "Justfile" || base == ".justfile":
		return "justfile", true
	case strings.HasPrefix(strings.ToLower(base), "taskfile") && (strings.HasSuffix(base, ".yml") || strings.HasSuffix(base, ".yaml")):
		return "Taskfile", true
	case has("/.github/workflows/") || base == ".gitlab-ci.yml" || has("/.circleci/") || base == "azure-pipelines.yml" || base == "bitbucket-pipelines.yml":
		return "a CI workflow", true
	}
	if k, _, ok := laterKind(p, base, dir); ok { // laterfiles.go
		return k, true
	}
	return "", false
}

func shellStartup(name string) bool {
	switch name {
	case ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc", ".zprofile",
		".zshenv", ".zlogin", ".zlogout", ".kshrc", ".mkshrc", ".cshrc", ".tcshrc", ".login", ".xprofile",
		".xinitrc", ".bash_aliases", ".zshrc.local", ".xsessionrc":
		return true
	}
	return false
}

// File rates writing content to the file at path (the Write and Edit
// tools): what the file runs later. known false means the new content is
// not known.
func File(p, content string) Effect {
	c := Classifier{Limits: shell.DefaultLimits}
	return c.file(p, content, true)
}

func (c *Classifier) file(p, content string, known bool) Effect {
	kind, task := surfaceKind(p)
	if kind == "" {
		return nothing
	}
	var e Effect
	if !task {
		e = shared("surface.write", "writing "+p+" changes "+kind+", which runs later")
	}
	if kind == gitPointer {
		// git takes its configuration and hooks from the directory the
		// file names (gitplace.go), which the write can point anywhere.
		e.Add(opaque("surface.git-pointer", "writing "+p+" points git at another git directory, whose configuration and hooks every later git command runs; airlock does not read them at the write"))
		return e
	}
	if strings.HasPrefix(kind, "the keys that may log in") && known && loginKey(content) {
		// A key added there logs in from anywhere, later, outside any
		// hook (FINDINGS-7 G13): held like a write beyond the machine.
		e.Add(external("surface.login-key", "writing "+p+" adds a key that may log in to this machine from anywhere"))
	}
	if !known {
		if !task || unseenLater(kind) { // laterfiles_tools.go
			e.Add(opaque("surface.unknown", "what is written to "+p+" is only known at run time, and "+kind+" runs it later"))
		}
		return e
	}
	emb := c.embeddedIn(p, kind, content)
	if task && emb.Tier > Local {
		emb.Reasons = append([]Reason{{"surface.task", "writing " + p + " adds commands that " + kind + " runs"}}, emb.Reasons...)
	}
	if task {
		// A task file's commands are read again when it runs; the write
		// itself is held for the external or destructive ones.
		emb.Opaque = false
		emb.NetworkRead = false
		if _, containerOnly, _ := laterKind(path.Clean(p), path.Base(p), path.Dir(path.Clean(p))); containerOnly {
			// A container's commands run inside it: only what
			// self-protection finds in them (airlock's verbs and files)
			// counts.
			emb = Effect{}
		}
	}
	e.Add(emb)
	return e
}

// embeddedIn classifies the commands a file of a kind holds.
func (c *Classifier) embeddedIn(p, kind, content string) Effect {
	if len(content) > MaxScriptBytes {
		return opaque("surface.unknown", p+" is larger than airlock reads")
	}
	inner, ok := c.deeper()
	if !ok {
		return fileLimit(p)
	}
	name := path.Base(p)
	switch kind {
	case "a git hook", "a shell start-up file", "a direnv file":
		if interp, ok := shebang(content); ok && !isShell(interp) {
			if lang, who, ok := interpLang(interp); ok {
				return interpAnalyse(inner, who+" "+name, lang, content)
			}
			return opaque("script.interpreter", p+" runs with "+interp+", which airlock does not read")
		}
		return inner.shellFileAt(p, content, 1)
	case "git configuration":
		return inner.gitConfigText(p, content)
	case "ssh configuration":
		return inner.sshConfigText(p, content)
	case "a crontab":
		return inner.crontabText(p, content)
	case "a systemd unit":
		var e Effect
		for i, l := range strings.Split(content, "\n") {
			k, v, ok := strings.Cut(strings.TrimSpace(l), "=")
			if ok && strings.HasPrefix(strings.TrimSpace(k), "Exec") {
				e.Add(inner.shellFileAt(p, strings.TrimLeft(strings.TrimSpace(v), "-@:+!"), i+1))
			}
		}
		return e
	case "a launchd job":
		return inner.launchdText(p, content)
	case "an agent's hook settings":
		var e Effect
		for _, cmd := range jsonStrings(content, "command") {
			e.Add(inner.shellFileAt(p, cmd, 1))
		}
		return e
	case "Makefile":
		var e Effect
		// What make runs of the file: every rule's recipe lines with
		// make's functions evaluated ($(if 1,./x.sh)), in the recipe
		// prefix the file sets (.RECIPEPREFIX); what it runs while it
		// reads the file (every $(shell …) and $(file >…) outside the
		// recipes), as makeRun reads them; and the shell it runs recipes
		// with.
		m := parseMakefile(p, content)
		targets := make([]string, 0, len(m.rules))
		for t := range m.rules {
			targets = append(targets, t)
		}
		sort.Strings(targets)
		for _, t := range targets {
			r := m.rules[t]
			for _, l := range r.recipe {
				x := m.expand(l.text, t, r, 0)
				e.Add(inner.shellFileAt(p, strings.TrimLeft(x, "@-+ \t"), l.line))
			}
		}
		for _, l := range m.parseTime {
			m.evalMode = 0
			if l.done {
				m.evalMode = 2
			}
			if x := m.parseTimeSubs(l.text); x != "" {
				e.Add(inner.shellFileAt(p, ": "+x, l.line))
			}
		}
		for _, l := range m.shells {
			if k, v, _ := strings.Cut(l.text, "="); k != ".SHELLFLAGS" {
				if x := strings.TrimSpace(m.expand(v, "", nil, 0)); x != "" {
					e.Add(inner.shellFileAt(p, x+" -c :", l.line))
				}
			}
		}
		return e
	case "package.json":
		var pkg struct {
			Scripts map[string]string `json:"scripts"`
		}
		var e Effect
		if json.Unmarshal([]byte(content), &pkg) == nil {
			for k, v := range pkg.Scripts {
				e.Add(inner.shellFileAt(p, v, jsonKeyLine([]byte(content), k)))
			}
			return e
		}
		// A fragment (an Edit): every string value may be a script.
		for _, m := range jsonPair.Get().FindAllStringSubmatch(content, -1) {
			e.Add(inner.shellFileAt(p, m[2], 1))
		}
		return e
	case "justfile":
		var e Effect
		for i, l := range strings.Split(content, "\n") {
			if (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")) && strings.TrimSpace(l) != "" {
				e.Add(inner.shellFileAt(p, strings.TrimLeft(strings.TrimSpace(l), "@-"), i+1))
			}
		}
		return e
	case "Taskfile", "a CI workflow":
		var e Effect
		for _, r := range yamlCommands(content) {
			e.Add(inner.shellFileAt(p, r.text, r.line))
		}
		return e
	}
	if kind == memoryFileKind {
		return inner.memoryImportsEffect(p, content) // laterfiles_tools.go
	}
	var e Effect
	for _, r := range laterCommands(kind, content) { // laterfiles.go
		e.Add(inner.shellFileAt(p, r.text, r.line))
	}
	return e
}

var jsonPair = firstuse.Table[*regexp.Regexp]{Build: func() *regexp.Regexp { return regexp.MustCompile(`"([^"\\]+)"\s*:\s*"((?:[^"\\]|\\.)*)"`) }}

// jsonStrings returns every string value of the named key in a JSON
// document, at any depth.
func jsonStrings(content, key string) []string {
	var v any
	if json.Unmarshal([]byte(content), &v) != nil {
		var out []string
		for _, m := range jsonPair.Get().FindAllStringSubmatch(content, -1) {
			if m[1] == key {
				out = append(out, m[2])
			}
		}
		return out
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if s, ok := x.(string); ok && k == key {
					out = append(out, s)
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
	return out
}

// yamlCommands returns the commands of a Taskfile or CI workflow: the
// values of run, cmd, cmds, script, before_script and after_script. A
// fragment that is not YAML is read line by line for "run:" values.
func yamlCommands(content string) []makeLine {
	var doc yaml.Node
	var out []makeLine
	if yaml.Unmarshal([]byte(content), &doc) != nil {
		for i, l := range strings.Split(content, "\n") {
			t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "- "))
			for _, k := range []string{"run:", "cmd:", "script:"} {
				if v, ok := strings.CutPrefix(t, k); ok && strings.TrimSpace(v) != "" && strings.TrimSpace(v) != "|" {
					out = append(out, makeLine{line: i + 1, text: strings.TrimSpace(v)})
				}
			}
		}
		return out
	}
	var walk func(n *yaml.Node, cmdKey bool)
	walk = func(n *yaml.Node, cmdKey bool) {
		switch n.Kind {
		case yaml.DocumentNode:
			for _, c := range n.Content {
				walk(c, false)
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i].Value
				isCmd := k == "run" || k == "cmd" || k == "cmds" || k == "script" || k == "before_script" || k == "after_script"
				walk(n.Content[i+1], isCmd)
			}
		case yaml.SequenceNode:
			for _, c := range n.Content {
				walk(c, cmdKey)
			}
		case yaml.ScalarNode:
			if cmdKey {
				out = append(out, makeLine{line: n.Line, text: n.Value})
			}
		}
	}
	walk(&doc, false)
	return out
}

// gitConfigText classifies the commands a git configuration file sets:
// all of them for a write, only those sub runs when sub is the git
// subcommand about to run.
func (c *Classifier) gitConfigText(p, content string) Effect {
	return c.gitConfigFor(p, content, "")
}

func (c *Classifier) gitConfigFor(p, content, sub string) Effect {
	var e Effect
	section := ""
	for i, l := range strings.Split(content, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || t[0] == '#' || t[0] == ';' {
			continue
		}
		if strings.HasPrefix(t, "[") {
			s := strings.Trim(t, "[] ")
			if name, sub, ok := strings.Cut(s, " "); ok {
				s = name + "." + strings.Trim(sub, `"`)
			}
			section = strings.ToLower(s)
			continue
		}
		k, v, _ := strings.Cut(t, "=")
		key := section + "." + strings.ToLower(strings.TrimSpace(k))
		v = strings.Trim(strings.TrimSpace(v), `"`)
		if key == "init.templatedir" && (sub == "" || sub == "clone" || sub == "init") && v != "" {
			e.Add(opaque("git.template", p+":"+itoa(i+1)+": init.templateDir makes git init and git clone copy the hooks of "+clip(v)+" into the new repository and run them, and airlock does not read them"))
			continue
		}
		if key == "include.path" || strings.HasPrefix(key, "includeif.") && strings.HasSuffix(key, ".path") {
			// The included file's settings are git's as if written here
			// (FINDINGS-9 P6, gitlater.go).
			e.Add(c.gitInclude(p, v, i+1, sub))
			continue
		}
		if sub != "" && !gitKeyRuns(key, sub) {
			continue
		}
		if we, ok := c.gitValueRuns(p+":"+itoa(i+1)+": "+key, key, v, false); ok {
			e.Add(we)
			continue
		}
		if key == "core.worktree" && sub == "" && v != "" {
			// Written: every later git command works there (W1).
			e.Add(opaque("git.worktree", p+":"+itoa(i+1)+": core.worktree moves the work tree of every later git command of the repository to "+clip(v)+", where airlock does not grade what they write or delete").sharedTier())
			continue
		}
		if !gitCommandKey(key) {
			if section == "submodule" || strings.HasPrefix(section, "submodule.") && strings.HasSuffix(key, ".update") && strings.HasPrefix(v, "!") {
				e.Add(c.shellFileAt(p, v[1:], i+1))
			}
			continue
		}
		if strings.HasSuffix(key, "hookspath") {
			e.Add(opaque("git.hooks-path", p+":"+itoa(i+1)+": core.hooksPath runs hooks from "+v+", which airlock does not read"))
			continue
		}
		if text, ok := gitSettingCommand(key, v); ok {
			e.Add(c.shellFileAt(p, text, i+1))
		}
	}
	return e
}

// gitKeyRuns reports whether a git subcommand runs the command a key
// names: an alias only when it is the subcommand, sshCommand only when git
// talks to a remote, the pager only when it pages, and so on.
func gitKeyRuns(key, sub string) bool {
	in := func(subs ...string) bool {
		for _, s := range subs {
			if s == sub {
				return true
			}
		}
		return false
	}
	network := []string{"fetch", "pull", "push", "clone", "ls-remote", "remote", "submodule", "lfs", "archive"}
	first, last := key, key
	if i := strings.IndexByte(key, '.'); i >= 0 {
		first = key[:i]
	}
	if i := strings.LastIndexByte(key, '.'); i >= 0 {
		last = key[i+1:]
	}
	switch {
	case first == "alias":
		return last == strings.ToLower(sub)
	case key == "core.sshcommand" || key == "core.gitproxy" || key == "core.askpass" || first == "credential" || first == "remote":
		return in(network...)
	case key == "core.pager" || first == "pager":
		return in("log", "diff", "show", "blame", "grep", "branch", "tag", "shortlog", "reflog", "stash", "help", "config", "whatchanged", "range-diff", "annotate", "cherry", "describe")
	case key == "core.editor" || key == "sequence.editor":
		return in("commit", "rebase", "merge", "tag", "notes", "config", "add", "pull", "revert", "cherry-pick", "am", "stash")
	case first == "diff" || key == "interactive.difffilter":
		return in("diff", "log", "show", "add", "stash", "commit", "blame", "format-patch", "range-diff", "difftool")
	case first == "filter":
		return in("add", "checkout", "switch", "restore", "reset", "status", "diff", "commit", "stash", "pull", "merge", "rebase", "clone", "cherry-pick", "revert", "apply", "am", "worktree", "lfs")
	case first == "merge":
		return in("merge", "pull", "rebase", "cherry-pick", "revert", "stash", "checkout", "switch", "am")
	case key == "core.fsmonitor":
		return in("status", "diff", "add", "commit", "checkout", "switch", "restore", "reset", "stash", "rebase", "merge", "pull")
	case first == "gpg":
		return in("commit", "tag", "merge", "rebase", "verify-commit", "verify-tag", "log", "show", "cherry-pick", "revert", "am", "pull")
	case key == "core.hookspath":
		_, ok := gitHooks.Get()[sub]
		return ok
	case first == "sendemail":
		return in("send-email")
	case first == "difftool", first == "mergetool":
		return in(first)
	case key == "web.browser" || first == "browser":
		return in("help", "instaweb", "web--browse")
	}
	return true
}

// crontabText classifies the jobs of a crontab.
func (c *Classifier) crontabText(p, content string) Effect {
	var e Effect
	for i, l := range strings.Split(content, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || t[0] == '#' {
			continue
		}
		f := strings.Fields(t)
		var cmd string
		switch {
		case strings.HasPrefix(f[0], "@") && len(f) > 1:
			cmd = strings.TrimSpace(strings.TrimPrefix(t, f[0]))
		case len(f) > 5 && !strings.Contains(f[0], "="):
			rest := t
			for range 5 {
				rest = strings.TrimSpace(rest)
				if j := strings.IndexAny(rest, " \t"); j >= 0 {
					rest = rest[j:]
				}
			}
			cmd = strings.TrimSpace(rest)
			if strings.HasPrefix(p, "/etc/") && len(f) > 6 {
				// System crontabs name a user before the command.
				cmd = strings.TrimSpace(strings.TrimPrefix(cmd, f[5]))
			}
		default:
			continue
		}
		e.Add(c.shellFileAt(p, cmd, i+1))
	}
	return e
}

var plistStrings = firstuse.Table[*regexp.Regexp]{Build: func() *regexp.Regexp { return regexp.MustCompile(`<string>([^<]*)</string>`) }}

// launchdText classifies a launchd job's ProgramArguments or Program.
func (c *Classifier) launchdText(p, content string) Effect {
	i := strings.Index(content, "ProgramArguments")
	if i < 0 {
		if j := strings.Index(content, "<key>Program</key>"); j >= 0 {
			if m := plistStrings.Get().FindStringSubmatch(content[j:]); m != nil {
				return c.shellFileAt(p, shell.Join([]string{m[1]}), 1)
			}
		}
		return opaque("surface.unknown", p+" names no program airlock can read")
	}
	rest := content[i:]
	if end := strings.Index(rest, "</array>"); end >= 0 {
		rest = rest[:end]
	}
	var words []string
	for _, m := range plistStrings.Get().FindAllStringSubmatch(rest, -1) {
		words = append(words, m[1])
	}
	return c.shellFileAt(p, shell.Join(words), 1+strings.Count(content[:i], "\n"))
}

// surfaceWrites rates what a run writes into files that run later:
// redirections, tee, cp, mv, install, ln and sed -i.
func (c *Classifier) surfaceWrites(inv *shell.Invocation) Effect {
	var e Effect
	out, outKnown := shell.Output(inv)
	for _, r := range inv.Redirects {
		if !r.Writes() || r.Dynamic {
			continue
		}
		if t := c.surfaceName(r.Target); t != "" {
			e.Add(c.file(t, out, outKnown).with(throughLink(r.Target, t)))
		}
	}
	for _, o := range OptionOutputs(inv.Args) {
		if t := c.surfaceName(o.Path); t != "" && !inv.IsDynamic(o.Index) {
			e.Add(c.file(t, "", false))
		}
	}
	switch inv.Name() {
	case "tee":
		p := argv.Spec{}.Parse(inv.Args[1:])
		for k, o := range p.Operands {
			if t := c.surfaceName(o); t != "" && !inv.IsDynamic(1+p.OperandIndex[k]) {
				e.Add(c.file(t, out, outKnown).with(throughLink(o, t)))
			}
		}
	case "cp", "mv", "install", "ln", "rsync":
		p := argv.Spec{Short: "tSm", Long: []string{"--target-directory", "--suffix", "--mode"}}.Parse(inv.Args[1:])
		if len(p.Operands) >= 2 {
			dst := p.Operands[len(p.Operands)-1]
			if t, ok := p.Value("-t", "--target-directory"); ok {
				dst = t
			}
			written := dst
			name := c.surfaceName(dst)
			if name == "" || c.isDir(dst) {
				written = path.Join(dst, path.Base(p.Operands[0]))
				name = c.surfaceName(written)
			}
			if kind, _ := surfaceKind(name); kind == gitPointer && c.isDir(p.Operands[0]) {
				name = "" // a git directory copied or moved whole, not a pointer
			}
			if name != "" {
				e.Add(c.copiedInto(inv, p.Operands[0], name).with(throughLink(written, name)))
			}
			if inv.Name() == "ln" || inv.Name() == "cp" && hasAny(inv.Args[1:], "-s", "--symbolic-link") {
				e.Add(c.linkToGit(inv, p.Operands[0], dst))
			}
		}
	case "crontab":
		p := argv.Spec{Short: "u"}.Parse(inv.Args[1:])
		if p.Has("-l", "-r", "-e", "-i") {
			break
		}
		switch {
		case (len(p.Operands) == 0 || p.Operands[0] == "-") && inv.StdinKnown:
			e.Add(c.embeddedIn("crontab", "a crontab", inv.StdinText))
		case len(p.Operands) > 0 && p.Operands[0] != "-" && !inv.IsDynamic(1+p.OperandIndex[0]):
			if c.FS != nil {
				if data, err := c.readFile(p.Operands[0]); err == nil {
					e.Add(c.embeddedIn(p.Operands[0], "a crontab", string(data)))
				}
			}
		}
	case "sed", "gsed", "perl":
		if hasPrefixArg(inv.Args[1:], "-i") || hasAny(inv.Args[1:], "--in-place", "-pi", "-pie") || inv.Name() != "perl" && sedInPlace(inv.Args[1:]) {
			for i, a := range inv.Args[1:] {
				if t := c.surfaceName(a); t != "" && !inv.IsDynamic(i+1) {
					if kind, task := surfaceKind(t); !task {
						e.Add(shared("surface.write", inv.Name()+" -i edits "+a+", "+kind+", which runs later").with(throughLink(a, t)))
					}
				}
			}
		}
	}
	e.Add(c.patchWrites(inv))    // patchwrites.go
	e.Add(c.gitConfigEdits(inv)) // gitedits.go
	return e
}

// copiedInto rates copying src into a file that runs later: the copied
// file is read when it can be, else its content is unknown.
func (c *Classifier) copiedInto(inv *shell.Invocation, src, dst string) Effect {
	if c.FS != nil {
		if data, err := c.readFile(src); err == nil && !binary(data) {
			return c.file(dst, string(data), true)
		}
	}
	return c.file(dst, "", false)
}
