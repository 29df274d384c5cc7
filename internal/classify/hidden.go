package classify

import (
	"github.com/airlock-dev/airlock/internal/firstuse"
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file finds commands hidden in configuration: settings and
// environment variables whose value is a command that the program runs
// (git -c core.sshCommand=…, GIT_SSH_COMMAND, ssh -o ProxyCommand=…,
// rsync -e, PAGER, EDITOR). The embedded command is classified as shell
// text and its effect added to the run, with a reason naming the setting;
// a value only known at run time is opaque.

// commandEnv lists environment variables whose value is a command line a
// program runs with a shell, and what runs it.
var commandEnv = firstuse.Table[map[string]string]{Build: func() map[string]string {
	return map[string]string{
		"GIT_SSH_COMMAND": "git", "GIT_PAGER": "git", "GIT_EDITOR": "git", "GIT_SEQUENCE_EDITOR": "git",
		"GIT_EXTERNAL_DIFF": "git", "GIT_ASKPASS": "git", "GIT_PROXY_COMMAND": "git", "GIT_SSH": "git",
		"SSH_ASKPASS": "ssh", "PAGER": "the pager user", "MANPAGER": "man", "EDITOR": "the editor user",
		"VISUAL": "the editor user", "LESSOPEN": "less", "LESSCLOSE": "less", "BROWSER": "the browser user",
		"SUDO_ASKPASS": "sudo", "RSYNC_RSH": "rsync", "CVS_RSH": "cvs", "SVN_SSH": "svn", "FCEDIT": "fc",
		"SYSTEMD_PAGER": "systemctl", "PSQL_PAGER": "psql", "MYSQL_PAGER": "mysql", "DIFF_PAGER": "diff",
		"PROMPT_COMMAND": "bash",
		// Programs' own pager, browser and editor variables (FINDINGS-7
		// G22): each names a command the program runs.
		"AWS_PAGER": "aws", "GH_PAGER": "gh", "GH_BROWSER": "gh", "GH_EDITOR": "gh", "GLAB_PAGER": "glab",
		"GLAB_EDITOR": "glab", "KUBE_EDITOR": "kubectl", "KUBECTL_EXTERNAL_DIFF": "kubectl",
		"PSQL_EDITOR": "psql", "SYSTEMD_EDITOR": "systemctl", "SVN_EDITOR": "svn", "HGEDITOR": "hg",
		"CVSEDITOR": "cvs", "BAT_PAGER": "bat", "DELTA_PAGER": "delta", "JJ_EDITOR": "jj", "JJ_PAGER": "jj",
		"SUDO_EDITOR": "sudoedit",
		// Compilers and build tools named by the environment: make, go
		// (cgo), cargo and pip's builds run them.
		"CC": "the build", "CXX": "the build", "CPP": "the build", "LD": "the build", "AR": "the build",
		"AS": "the build", "FC": "the build", "NM": "the build", "RANLIB": "the build", "STRIP": "the build",
		"OBJCOPY": "the build", "PKG_CONFIG": "the build", "RUSTC": "cargo", "RUSTC_WRAPPER": "cargo",
		"RUSTC_WORKSPACE_WRAPPER": "cargo", "RUSTDOC": "cargo", "CARGO_BUILD_RUSTC": "cargo",
		"CARGO_BUILD_RUSTC_WRAPPER": "cargo", "CARGO_BUILD_RUSTDOC": "cargo",
	}
}}

// gitCommandKey reports whether a git configuration key's value is a
// command git runs, and whether that command is shell text (most are) or
// names hooks found elsewhere (core.hooksPath).
func gitCommandKey(key string) (runs bool) {
	k := strings.ToLower(key)
	switch k {
	case "core.sshcommand", "core.pager", "core.editor", "sequence.editor", "core.fsmonitor", "core.askpass",
		"credential.helper", "diff.external", "gpg.program", "core.gitproxy", "web.browser",
		"interactive.difffilter", "uploadpack.packobjectshook", "sendemail.sendmailcmd", "sendemail.smtpserver",
		"sendemail.tocmd", "sendemail.cccmd", "core.hookspath", "ssh.variant", "gpg.ssh.defaultkeycommand",
		"gpg.ssh.program", "gpg.x509.program", "gpg.openpgp.program":
		return k != "ssh.variant"
	}
	first, last := k, k
	if i := strings.IndexByte(k, '.'); i >= 0 {
		first = k[:i]
	}
	if i := strings.LastIndexByte(k, '.'); i >= 0 {
		last = k[i+1:]
	}
	switch first {
	case "alias", "pager":
		return true
	case "filter":
		return last == "clean" || last == "smudge" || last == "process"
	case "diff":
		return last == "textconv" || last == "command"
	case "merge":
		return last == "driver"
	case "credential":
		return last == "helper"
	case "gpg":
		return last == "program"
	case "remote":
		return last == "uploadpack" || last == "receivepack" || last == "proxy" && false
	case "difftool", "mergetool", "browser", "man":
		return last == "cmd" || last == "path"
	}
	return false
}

// gitSettingCommand returns the shell text a git setting runs, or false
// when its value is not a command (a boolean, an alias to a git
// subcommand, a built-in credential helper).
func gitSettingCommand(key, value string) (string, bool) {
	k := strings.ToLower(key)
	v := strings.TrimSpace(value)
	switch {
	case v == "":
		return "", false
	case strings.HasPrefix(k, "alias."):
		// "!cmd" runs shell text; anything else is a git subcommand.
		if rest, ok := strings.CutPrefix(v, "!"); ok {
			return rest, true
		}
		return "", false
	case k == "core.fsmonitor":
		switch strings.ToLower(v) {
		case "true", "false", "yes", "no", "on", "off", "1", "0":
			return "", false
		}
	case k == "credential.helper" || strings.HasPrefix(k, "credential.") && strings.HasSuffix(k, ".helper"):
		if rest, ok := strings.CutPrefix(v, "!"); ok {
			return rest, true
		}
		if !strings.ContainsAny(strings.Fields(v)[0], `/\`) {
			return "git-credential-" + v, true // a helper git finds by name
		}
	case strings.HasPrefix(k, "pager."):
		switch strings.ToLower(v) {
		case "true", "false", "yes", "no", "on", "off", "1", "0":
			return "", false
		}
	}
	return v, true
}

// SettingVia begins the Via entry of a run that a setting holds (CC,
// GIT_EXTERNAL_DIFF, git -c core.pager): the program runs it when it
// needs it, not as a step of the command.
const SettingVia = "setting "

// FromSetting reports a run that a setting holds.
func FromSetting(inv *Invocation) bool {
	return len(inv.Via) > 0 && strings.HasPrefix(inv.Via[0], SettingVia)
}

// embedded classifies the command text a setting holds. A value only
// known at run time is opaque.
func (c *Classifier) embedded(setting, text string, dynamic bool) Effect {
	if c.texts != nil {
		*c.texts = append(*c.texts, text)
	}
	if dynamic {
		return opaque("config.dynamic", setting+" holds a command only known at run time ("+clip(text)+")")
	}
	if c.followed == nil || c.depth >= c.Limits.MaxNesting {
		return c.nested(text).through("config.command", setting+" runs the command "+clip(text))
	}
	// The runs of the command are the top-level Result's too (Followed,
	// named through the setting), so that self-protection checks them as
	// it checks a script's lines: GIT_EXTERNAL_DIFF='airlock queue
	// approve …' git diff is refused like the verb typed inline.
	inner := *c
	inner.depth++
	inner.cc = nil
	r := inner.Command(text)
	for _, inv := range r.Invocations {
		inv.Via = append([]string{SettingVia + setting}, inv.Via...)
		*c.followed = append(*c.followed, inv)
	}
	return r.Effect.through("config.command", setting+" runs the command "+clip(text))
}

// hiddenCommands is the effect of every command hidden in the
// configuration of one run: its environment and, for the programs that
// take them, options that hold commands.
func (c *Classifier) hiddenCommands(inv *shell.Invocation) Effect {
	var e Effect
	for _, kv := range inv.Env {
		name, value, _ := strings.Cut(kv, "=")
		if _, ok := commandEnv.Get()[name]; ok || cargoEnvCommand(name) {
			e.Add(c.envCommand(name, value))
		}
	}
	e.Add(c.envCodeEffect(inv))
	// Credential programs and aliases named by configuration files read
	// at decision time (credconfig.go).
	e.Add(c.credentialConfig(inv))
	// Files loaded as code through variables, options and package
	// managers' settings (codeloads.go).
	e.Add(c.loadedCode(inv))
	// Code loaded or run by compilers' flags, go's environment file,
	// package.json scripts written by npm, start-up files (loadflags.go).
	e.Add(c.loadsByFlags(inv))
	// git settings in the environment of another program reach the git
	// it starts (gitgiven.go).
	e.Add(c.gitEnvElsewhere(inv))
	switch inv.Name() {
	case "git":
		// git's own options are read by its spec (classifyGit), so the
		// scanner's fast path sees them too.
		e.Add(c.gitRepoCommands(inv))
	case "ssh", "scp", "sftp", "sshfs", "autossh", "ssh-copy-id":
		e.Add(c.sshHidden(inv))
	case "rsync":
		e.Add(c.rsyncHidden(inv))
	}
	// Commands and files hidden in the options and scripts of programs
	// that otherwise treat their arguments as data (optcmds.go).
	if oe, _ := c.optionCommands(inv); oe.Reasons != nil {
		e.Add(oe)
	}
	return e
}

// envCommand classifies the command an environment variable holds.
func (c *Classifier) envCommand(name, value string) Effect {
	v := strings.TrimSpace(unquoteValue(value))
	if v == "" {
		return nothing
	}
	dynamic := value != v && strings.HasPrefix(value, `"`) && strings.ContainsAny(v, "$`") || strings.HasPrefix(value, "$")
	switch name {
	case "LESSOPEN", "LESSCLOSE":
		v = strings.TrimLeft(v, "|-")
		v = strings.ReplaceAll(v, "%s", "FILE")
	case "BROWSER":
		// A list of browsers separated by colons, each with %s for the URL.
		v = strings.ReplaceAll(strings.Split(v, ":")[0], "%s", "URL")
		if strings.Contains(value, "://") {
			v = strings.ReplaceAll(strings.TrimLeft(value, `'"`), "%s", "URL")
			v = strings.TrimRight(v, `'"`)
		}
	case "GIT_SSH":
		// A program, not shell text: git runs it with the host and
		// command as arguments.
		if strings.ContainsAny(v, `/\`) && specFor(normWord(v)) == nil {
			return opaque("config.program", "GIT_SSH names the program "+v+", which git runs to reach the remote and airlock cannot read")
		}
		v = shell.Join([]string{v})
	}
	return c.embedded(name, v, dynamic)
}

// unquoteValue strips one layer of quotes from an assignment value kept
// as its source text.
func unquoteValue(v string) string {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1]
	}
	return v
}

// cargoEnvCommand reports cargo's per-target and per-registry variables
// that name a program it runs (CARGO_TARGET_<TRIPLE>_RUNNER, …_LINKER,
// CARGO_REGISTRIES_<NAME>_CREDENTIAL_PROVIDER).
func cargoEnvCommand(name string) bool {
	switch {
	case strings.HasPrefix(name, "CARGO_TARGET_"):
		return strings.HasSuffix(name, "_RUNNER") || strings.HasSuffix(name, "_LINKER")
	case strings.HasPrefix(name, "CARGO_REGISTRIES_") || strings.HasPrefix(name, "CARGO_REGISTRY_"):
		return strings.HasSuffix(name, "_CREDENTIAL_PROVIDER")
	}
	return false
}

// gitEnvParameters splits GIT_CONFIG_PARAMETERS ('key'='value' pairs, each
// side single-quoted, as git -c passes them to its children) into pairs.
func gitEnvParameters(v string) (pairs [][2]string, ok bool) {
	for v = strings.TrimSpace(v); v != ""; v = strings.TrimSpace(v) {
		key, rest, found := cutQuoted(v)
		if !found {
			return nil, false
		}
		value := ""
		if strings.HasPrefix(rest, "=") {
			if value, rest, found = cutQuoted(rest[1:]); !found {
				return nil, false
			}
		} else if k, val, eq := strings.Cut(key, "="); eq {
			key, value = k, val // the older 'key=value' form
		}
		pairs = append(pairs, [2]string{key, value})
		v = rest
	}
	return pairs, true
}

// cutQuoted cuts one single-quoted word (with the '\” escape) off s.
func cutQuoted(s string) (word, rest string, ok bool) {
	if !strings.HasPrefix(s, "'") {
		return "", "", false
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		if s[i] != '\'' {
			b.WriteByte(s[i])
			continue
		}
		if strings.HasPrefix(s[i:], `'\''`) {
			b.WriteByte('\'')
			i += 3
			continue
		}
		return b.String(), s[i+1:], true
	}
	return "", "", false
}

// gitSetting classifies one git setting given for a run.
func (c *Classifier) gitSetting(where, key, value string, dynamic bool) Effect {
	if strings.EqualFold(key, "init.templateDir") && strings.TrimSpace(value) != "" {
		// As --template: the hooks copied into the new repository run
		// at its first commit or checkout (FINDINGS-10 G1).
		return opaque("git.template", where+" makes git copy the hooks of the template directory "+clip(value)+" into the new repository, where they run, and airlock does not read them").sharedTier()
	}
	if e, ok := c.gitValueRuns(where, key, value, dynamic); ok {
		return e // gitplace.go: ext:: urls, a submodule's ! update
	}
	if !gitCommandKey(key) {
		return nothing
	}
	if strings.EqualFold(key, "core.hooksPath") {
		return opaque("git.hooks-path", where+" runs hooks from "+value+", which airlock does not read").sharedTier()
	}
	text, ok := gitSettingCommand(key, value)
	if !ok {
		return nothing
	}
	return c.embedded(where, text, dynamic)
}

// sharedTier raises an effect to at least shared.
func (e Effect) sharedTier() Effect {
	if e.Tier < Shared {
		e.Tier = Shared
	}
	return e
}

// gitHidden finds commands in the settings a git run is given (its -c
// and --config-env options, GIT_CONFIG_COUNT's and GIT_CONFIG_PARAMETERS'
// in its environment), in --upload-pack/--receive-pack/--exec, in ext::
// remotes, and in settings written by git config.
func (c *Classifier) gitHidden(inv *shell.Invocation) Effect {
	g := gitGlobal.Parse(inv.Args[1:])
	// Settings given by option or environment are one list, read the
	// same way (gitgiven.go); the files they include are read by
	// gitRepoCommands.
	given, e := gitGivenSettings(inv, g)
	for _, s := range given {
		e.Add(c.gitSetting(s.where, s.key, s.value, s.dynamic))
	}
	i := 1 + g.Rest
	if i >= len(inv.Args) {
		return e
	}
	sub, args := inv.Args[i], inv.Args[i+1:]
	for j, a := range args {
		if inv.IsDynamic(i + 1 + j) {
			continue
		}
		if rest, ok := strings.CutPrefix(a, "ext::"); ok {
			e.Add(c.embedded("the ext:: remote", gitExtCommand(rest), false))
		}
	}
	var spec argv.Spec
	var names []string
	switch sub {
	case "fetch", "clone", "ls-remote", "pull":
		spec = argv.Spec{Short: "uobj", Long: []string{"--upload-pack", "--origin", "--branch", "--depth", "--jobs", "--reference", "--separate-git-dir", "--config", "--template", "--filter"}}
		names = []string{"--upload-pack"}
		if sub != "pull" {
			names = append(names, "-u")
		}
	case "push":
		spec = argv.Spec{Short: "o", Long: []string{"--receive-pack", "--exec", "--repo", "--push-option"}}
		names = []string{"--receive-pack", "--exec"}
	case "archive":
		spec = argv.Spec{Short: "o", Long: []string{"--exec", "--remote", "--output", "--prefix", "--format"}}
		names = []string{"--exec"}
	case "difftool":
		// git difftool -x/--extcmd CMD runs CMD on each changed file.
		spec = argv.Spec{Short: "xtO", Long: []string{"--extcmd", "--tool", "--rotate-to", "--skip-to"}}
		names = []string{"-x", "--extcmd"}
	case "config":
		return e.with(c.gitConfigWrite(inv, i+1))
	case "rebase":
		// git rebase -x/--exec CMD runs CMD through the shell after each
		// commit it replays.
		spec = argv.Spec{Short: "xsXCS", Long: []string{"--exec", "--onto", "--strategy", "--strategy-option", "--whitespace", "--empty"}}
		names = []string{"-x", "--exec"}
	case "bisect":
		// git bisect run CMD ARGS... runs CMD once per step.
		if len(args) > 0 && args[0] == "run" && !inv.IsDynamic(i+1) && len(args) > 1 {
			return e.with(c.embedded("git bisect run", inv.Text(i+2), false))
		}
	case "submodule":
		// git submodule foreach [--recursive] CMD... runs the joined
		// words as shell text in every submodule.
		for j := 0; j < len(args); j++ {
			if inv.IsDynamic(i+1+j) || args[j] != "foreach" && !strings.HasPrefix(args[j], "-") {
				break
			}
			if args[j] != "foreach" {
				continue
			}
			k := j + 1
			for k < len(args) && !inv.IsDynamic(i+1+k) && (args[k] == "--recursive" || args[k] == "--quiet" || args[k] == "-q") {
				k++
			}
			if k < len(args) {
				return e.with(c.embedded("git submodule foreach", strings.Join(args[k:], " "), inv.AnyDynamic(i+1+k)))
			}
			break
		}
	}
	if sub == "init" {
		e.Add(gitTemplate(inv, argv.Spec{Long: []string{"--template", "--separate-git-dir", "--object-format", "--ref-format", "--initial-branch", "--shared"}, Short: "b"}.Parse(args).Values("--template")))
	}
	if names != nil {
		p := spec.Parse(args)
		for _, f := range p.Flags {
			for _, n := range names {
				if f.Name == n && f.HasValue {
					e.Add(c.embedded("git "+sub+" "+n, f.Value, inv.IsDynamic(i+1+f.ValueIndex)))
				}
			}
		}
		if sub == "clone" {
			e.Add(gitTemplate(inv, p.Values("--template")))
			for _, kv := range p.Values("-c", "--config") {
				k, v, _ := strings.Cut(kv, "=")
				e.Add(c.gitSetting("git clone -c "+k, k, v, false))
			}
		}
	}
	return e
}

// gitTemplate rates a template directory given to git clone or git init
// (--template=DIR, GIT_TEMPLATE_DIR, FINDINGS-7 G4): git copies its hooks
// into the new repository, and clone runs post-checkout at once; init's
// copy runs at the next commit. The hooks are not read: the run is
// opaque. An empty value (--template=) asks for no template at all.
func gitTemplate(inv *shell.Invocation, values []string) Effect {
	if v, ok := inv.Getenv("GIT_TEMPLATE_DIR"); ok {
		values = append(values, unquoteValue(v))
	}
	for _, v := range values {
		if strings.TrimSpace(v) != "" {
			return opaque("git.template", "git copies the hooks of the template directory "+clip(v)+" into the new repository and runs them (clone's post-checkout at once), and airlock does not read them")
		}
	}
	return nothing
}

// with returns e with o added.
func (e Effect) with(o Effect) Effect {
	e.Add(o)
	return e
}

// gitExtCommand decodes the command of an ext:: remote into shell text:
// unescaped spaces separate words, "% " is a space inside a word, "%%" a
// percent sign, %s and %S the service git runs, %G and %V name the
// repository and host.
func gitExtCommand(s string) string {
	var words []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			words = append(words, b.String())
			b.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == ' ':
			flush()
		case s[i] != '%' || i+1 >= len(s):
			b.WriteByte(s[i])
		default:
			i++
			switch s[i] {
			case ' ':
				b.WriteByte(' ')
			case '%':
				b.WriteByte('%')
			case 's':
				b.WriteString("upload-pack")
			case 'S':
				b.WriteString("git-upload-pack")
			case 'G', 'V':
				for i+1 < len(s) && s[i+1] != ' ' {
					i++
				}
			}
		}
	}
	flush()
	return shell.Join(words)
}

// gitConfigWrite: git config KEY VALUE that sets a command-valued key
// writes a command git runs later; the command is classified.
func (c *Classifier) gitConfigWrite(inv *shell.Invocation, from int) Effect {
	p := argv.Spec{Short: "fe", Long: []string{"--file", "--blob", "--type", "--default", "--comment"}}.Parse(inv.Args[from:])
	ops := p.Operands
	if len(ops) > 0 && (ops[0] == "set") {
		ops = ops[1:]
	}
	if len(ops) < 2 {
		return nothing
	}
	key, value := ops[0], ops[1]
	dyn := inv.IsDynamic(from + p.OperandIndex[len(p.OperandIndex)-1])
	if e, ok := c.gitConfigLater(inv, p, key, value, dyn); ok {
		return e
	}
	if e, ok := c.gitValueRuns("git config "+key, key, value, dyn); ok {
		return e
	}
	if !gitCommandKey(key) {
		return nothing
	}
	text, ok := gitSettingCommand(key, value)
	if !ok {
		return nothing
	}
	return c.embedded("git config "+key+" (run later by git)", text, dyn)
}

// sshHidden finds commands in ssh's -o ProxyCommand, -o LocalCommand
// (when PermitLocalCommand is on) and configuration files named by -F.
func (c *Classifier) sshHidden(inv *shell.Invocation) Effect {
	var e Effect
	spec := argv.Spec{Short: "bcDEeFIiJLlmOopQRSWwBP"}
	p := spec.Parse(inv.Args[1:])
	permitLocal := false
	var local []string
	for _, f := range p.Flags {
		dyn := inv.IsDynamic(1 + f.ValueIndex)
		switch f.Name {
		case "-o":
			k, v := sshOption(f.Value)
			switch strings.ToLower(k) {
			case "proxycommand", "knownhostscommand":
				if v != "none" {
					e.Add(c.embedded("ssh -o "+k, sshTokens(v), dyn))
				}
			case "localcommand":
				local = append(local, v)
			case "permitlocalcommand":
				permitLocal = strings.EqualFold(v, "yes")
			}
		case "-F":
			if f.Value != "/dev/null" && f.Value != "none" {
				e.Add(c.sshConfigFile(f.Value, dyn))
			}
		}
	}
	if permitLocal {
		for _, v := range local {
			e.Add(c.embedded("ssh -o LocalCommand", sshTokens(v), false))
		}
	}
	return e
}

// sshOption splits "Key=Value" or "Key Value".
func sshOption(s string) (string, string) {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "= \t"); i >= 0 {
		return s[:i], strings.TrimSpace(strings.TrimLeft(s[i:], "= \t"))
	}
	return s, ""
}

// sshTokens replaces ssh's % tokens with placeholder words.
func sshTokens(s string) string {
	r := strings.NewReplacer("%%", "%", "%h", "HOST", "%p", "22", "%r", "USER", "%n", "HOST", "%d", "HOME", "%u", "USER", "%C", "HASH", "%l", "LOCALHOST", "%i", "UID", "%k", "HOSTKEYALIAS", "%T", "TUN")
	return r.Replace(s)
}

// sshConfigFile reads an ssh configuration file named by -F for the
// commands it runs; a file airlock cannot read is opaque.
func (c *Classifier) sshConfigFile(name string, dynamic bool) Effect {
	if dynamic {
		return opaque("ssh.config", "ssh -F reads a configuration file named at run time ("+name+"), which can run commands")
	}
	data, err := c.readFile(name)
	if err != nil {
		return opaque("ssh.config", "ssh -F "+name+" reads a configuration file airlock cannot read ("+err.Error()+"), which can run commands")
	}
	return c.sshConfigText(name, string(data))
}

// sshConfigText classifies the commands an ssh configuration runs.
func (c *Classifier) sshConfigText(name, text string) Effect {
	var e Effect
	permit := false
	var local []string
	for n, line := range strings.Split(text, "\n") {
		k, v := sshOption(line)
		where := name + ":" + itoa(n+1)
		switch strings.ToLower(k) {
		case "proxycommand", "knownhostscommand":
			if v != "none" {
				e.Add(c.embedded(where+": "+k, sshTokens(v), false))
			}
		case "localcommand":
			local = append(local, v)
		case "permitlocalcommand":
			permit = permit || strings.EqualFold(v, "yes")
		case "match":
			if i := strings.Index(strings.ToLower(v), "exec "); i >= 0 {
				e.Add(c.embedded(where+": Match exec", sshTokens(strings.Trim(strings.TrimSpace(v[i+5:]), `"`)), false))
			}
		}
	}
	if permit {
		for _, v := range local {
			e.Add(c.embedded(name+": LocalCommand", sshTokens(v), false))
		}
	}
	return e
}

// rsyncHidden classifies rsync's remote shell (-e/--rsh) and
// --rsync-path.
func (c *Classifier) rsyncHidden(inv *shell.Invocation) Effect {
	var e Effect
	p := argv.Spec{Short: "eBfT", Long: []string{"--rsh", "--rsync-path", "--filter", "--exclude", "--include", "--exclude-from", "--include-from", "--files-from", "--temp-dir", "--partial-dir", "--backup-dir", "--suffix", "--chmod", "--chown", "--log-file", "--password-file", "--port", "--timeout", "--compare-dest", "--copy-dest", "--link-dest", "--out-format", "--bwlimit", "--max-size", "--min-size", "--block-size"}}.Parse(inv.Args[1:])
	for _, f := range p.Flags {
		switch f.Name {
		case "-e", "--rsh":
			e.Add(c.embedded("rsync "+f.Name, f.Value, inv.IsDynamic(1+f.ValueIndex)))
		}
	}
	return e
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
