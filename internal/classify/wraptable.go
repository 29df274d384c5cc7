package classify

import (
	"bytes"
	"path"
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/firstuse"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file is classify's table of wrappers: programs that run the
// command in their arguments which package shell does not itself unwrap
// (shell.Unwraps: sudo, env, timeout, nohup, …). For each it says how
// its options take values, which words it keeps for itself, and where
// the command it runs starts, so that the command is rated as if typed
// alone: a script there is followed (rlwrap ./x.sh reads x.sh, as ./x.sh
// does), a known program is rated as itself (firejail curl -d @.env …),
// and a command named only at run time is opaque (FINDINGS-10 W3).
//
// A program missing here is still looked through (wrappers.go
// lookThrough): a known program among its words is rated, and an operand
// that is a script of the project (a #! line, or a script's extension)
// is read as run by it (scriptOperand), whatever the program.

// wrapSpec says where a wrapper's command starts.
type wrapSpec struct {
	// opts are the wrapper's options that take a value; option parsing
	// stops at the first operand, as for every wrapper.
	opts argv.Spec
	// sub, when set, are the subcommands that run a command (mise exec,
	// op run, perf record); a run with another subcommand runs none.
	sub []string
	// own is how many operands the wrapper keeps for itself before the
	// command (faketime's time, sg's group, aws-vault's profile).
	own int
	// ownUnless are options that take the place of those own operands
	// (runuser -u USER -- CMD, where runuser USER -c TEXT keeps one).
	ownUnless []string
	// dash: when "--" is among the words, the command starts after it
	// (chamber exec svc1 svc2 -- CMD, mise exec node@20 -- CMD).
	dash bool
	// after are options after which the rest of the words are the
	// command (gdb --args, xterm -e, gnome-terminal -x).
	after []string
	// text are options whose value is shell text the wrapper runs
	// (nix-shell --run, nodemon --exec, doppler run --command).
	text []string
	// shellText: the command words are joined and run by a shell
	// (sg GROUP CMD, sops exec-env FILE CMD, watchexec CMD).
	shellText bool
	// each: every operand is a command of its own, run by a shell
	// (hyperfine, concurrently).
	each bool
	// named: only the name is known; the command is found by looking
	// through the words (tmux, screen, at, lefthook).
	named bool
}

// wrapTable is the one table of the wrappers classify reads; IsWrapper
// reports its names with package shell's.
var wrapTable = firstuse.Table[map[string]wrapSpec]{Build: func() map[string]wrapSpec {
	plain := wrapSpec{}
	run := func(subs ...string) wrapSpec { return wrapSpec{sub: subs, dash: true} }
	terminal := func(after ...string) wrapSpec { return wrapSpec{after: after, dash: true} }
	t := map[string]wrapSpec{
		// Tracers, profilers and debuggers run their command under them.
		"strace":    {opts: argv.Spec{Short: "abeEIoOpPsSuUX", Long: []string{"--output", "--attach", "--trace", "--signal", "--env", "--user", "--string-limit", "--trace-path", "--columns"}}},
		"ltrace":    {opts: argv.Spec{Short: "aADeFlnopsuwx", Long: []string{"--output", "--library", "--config"}}},
		"ltrace64":  {opts: argv.Spec{Short: "aADeFlnopsuwx"}},
		"dtruss":    {opts: argv.Spec{Short: "bpnt"}},
		"valgrind":  plain,
		"heaptrack": {opts: argv.Spec{Short: "op", Long: []string{"--output", "--pid"}}},
		"catchsegv": plain,
		"gdb":       {after: []string{"--args", "-args"}, named: true},
		"cgdb":      {after: []string{"--args", "-args"}, named: true},
		"lldb":      {opts: argv.Spec{Short: "oOsSkKfacpnlx", Long: []string{"--one-line", "--source", "--file", "--arch", "--core", "--attach-pid", "--attach-name", "--script-language"}}, dash: true},
		"rr":        {sub: []string{"record"}, opts: argv.Spec{Short: "bcehnstu", Long: []string{"--env", "--output-trace-dir"}}},
		"perf":      {sub: []string{"record", "stat", "trace", "mem", "c2c", "sched", "kmem", "lock", "kwork", "top"}, opts: argv.Spec{Short: "eoFcptCmGurxIbjL", Long: []string{"--event", "--output", "--freq", "--count", "--pid", "--tid", "--cpu", "--mmap-pages", "--cgroup", "--uid", "--repeat", "--field-separator", "--interval-print", "--call-graph"}}},
		"uftrace":   {sub: []string{"record", "live"}, opts: argv.Spec{Short: "dFNTDt", Long: []string{"--data", "--filter", "--notrace", "--trigger", "--depth", "--time-filter"}}},
		"py-spy":    {sub: []string{"record", "top"}, opts: argv.Spec{Short: "opdrfn", Long: []string{"--output", "--pid", "--duration", "--rate", "--format", "--native"}}, dash: true},
		"nsys":      {sub: []string{"profile"}, opts: argv.Spec{Short: "otdws", Long: []string{"--output", "--trace", "--duration", "--delay", "--sample"}}},
		"hyperfine": {opts: argv.Spec{Short: "wrmMpcsSunLPN", Long: []string{"--warmup", "--runs", "--min-runs", "--max-runs", "--prepare", "--cleanup", "--setup", "--shell", "--time-unit", "--export-json", "--export-csv", "--export-markdown", "--export-asciidoc", "--export-orgmode", "--command-name", "--parameter-list", "--parameter-scan", "--output", "--input", "--style", "--sort"}}, each: true, text: []string{"-p", "--prepare", "-c", "--cleanup", "-s", "--setup"}},
		"bpftrace":  {text: []string{"-c"}, named: true},
		"dtrace":    {text: []string{"-c"}, named: true},
		"time":      {opts: argv.Spec{Short: "fo", Long: []string{"--format", "--output"}}},
		"gtime":     {opts: argv.Spec{Short: "fo", Long: []string{"--format", "--output"}}},

		// Schedulers, limits, namespaces and sandboxes run their command
		// with other resources, users or roots.
		"taskset":           {own: 1, ownUnless: []string{"-p", "--pid"}},
		"chrt":              {opts: argv.Spec{Short: "TPD", Long: []string{"--sched-runtime", "--sched-period", "--sched-deadline"}}, own: 1},
		"numactl":           {opts: argv.Spec{Short: "imNCpPb", Long: []string{"--interleave", "--membind", "--cpunodebind", "--physcpubind", "--preferred", "--preferred-many", "--weighted-interleave"}}},
		"cgexec":            {opts: argv.Spec{Short: "g"}},
		"hwloc-bind":        {own: 1, dash: true},
		"schedtool":         {after: []string{"-e"}},
		"cpulimit":          {opts: argv.Spec{Short: "lpe", Long: []string{"--limit", "--pid", "--exe"}}, dash: true},
		"prlimit":           {opts: argv.Spec{Short: "p", Long: []string{"--pid", "--output"}}},
		"trickle":           {opts: argv.Spec{Short: "udwtlLn"}},
		"nocache":           plain,
		"eatmydata":         plain,
		"firejail":          plain,
		"proot":             {opts: argv.Spec{Short: "rbwqkm", Long: []string{"--rootfs", "--bind", "--cwd", "--qemu", "--kernel-release", "--mount"}}},
		"fakeroot":          {opts: argv.Spec{Short: "lfsi", Long: []string{"--lib", "--faked"}}},
		"fakechroot":        {opts: argv.Spec{Short: "lde", Long: []string{"--lib", "--use-system-libs", "--environment", "--config-dir"}}},
		"faketime":          {opts: argv.Spec{Short: "p"}, own: 1},
		"nsenter":           {opts: argv.Spec{Short: "tSGe", Long: []string{"--target", "--setuid", "--setgid", "--env"}}},
		"nsjail":            {after: []string{"--"}, named: true},
		"bwrap":             {named: true}, // options take one to three values
		"sandbox-exec":      {opts: argv.Spec{Short: "fnpD"}},
		"systemd-inhibit":   {opts: argv.Spec{Long: []string{"--what", "--who", "--why", "--mode"}}},
		"systemd-nspawn":    {named: true},
		"unshare":           plain, // package shell unwraps it
		"flatpak-spawn":     {opts: argv.Spec{Long: []string{"--env", "--directory", "--forward-fd", "--sandbox-expose", "--sandbox-expose-ro"}}},
		"toolbox":           {sub: []string{"run"}, opts: argv.Spec{Short: "cdr", Long: []string{"--container", "--distro", "--release"}}},
		"distrobox":         {sub: []string{"enter"}, after: []string{"--"}, named: true},
		"distrobox-enter":   {after: []string{"--"}, named: true},
		"schroot":           {opts: argv.Spec{Short: "cdu", Long: []string{"--chroot", "--directory", "--user"}}, dash: true},
		"qemu-x86_64":       {opts: argv.Spec{Short: "LEUgdDBRs"}},
		"qemu-aarch64":      {opts: argv.Spec{Short: "LEUgdDBRs"}},
		"qemu-arm":          {opts: argv.Spec{Short: "LEUgdDBRs"}},
		"qemu-i386":         {opts: argv.Spec{Short: "LEUgdDBRs"}},
		"qemu-riscv64":      {opts: argv.Spec{Short: "LEUgdDBRs"}},
		"box64":             plain,
		"box86":             plain,
		"wine":              plain,
		"wine64":            plain,
		"tsocks":            plain,
		"graftcp":           plain,
		"socksify":          plain,
		"tini":              {opts: argv.Spec{Short: "pe"}, dash: true},
		"dumb-init":         {opts: argv.Spec{Short: "r", Long: []string{"--rewrite"}}},
		"catatonit":         {dash: true},
		"with-contenv":      plain,
		"s6-setuidgid":      {own: 1},
		"chpst":             {opts: argv.Spec{Short: "uUben/lLmdofpcr"}},
		"daemonize":         {opts: argv.Spec{Short: "aceEloup"}},
		"start-stop-daemon": {after: []string{"--"}, named: true},
		"xvfb-run":          {opts: argv.Spec{Short: "efnpsw", Long: []string{"--error-file", "--auth-file", "--server-num", "--xauth-protocol", "--server-args", "--wait"}}},
		"dbus-run-session":  {opts: argv.Spec{Long: []string{"--config-file", "--dbus-daemon"}}, dash: true},
		"dbus-launch":       {opts: argv.Spec{Long: []string{"--config-file", "--autolaunch"}}},
		"ssh-agent":         {opts: argv.Spec{Short: "aEPt"}},
		"retry":             {opts: argv.Spec{Short: "tdmMx", Long: []string{"--times", "--delay", "--until", "--while", "--tries"}}, dash: true},
		"rlwrap":            {opts: argv.Spec{Short: "bCDefgHlMOpPqsStwz", Long: []string{"--break-chars", "--command-name", "--history-no-dupes", "--extra-char-after-completion", "--file", "--forget-matching", "--history-filename", "--logfile", "--only-cook", "--prompt-colour", "--pre-given", "--quote-characters", "--histsize", "--substitute-prompt", "--set-term-name", "--wait-before-prompt", "--filter"}}},
		"gtimeout":          {opts: argv.Spec{Short: "sk", Long: []string{"--signal", "--kill-after"}}, own: 1},

		// Users and privileges.
		"pkexec":  {opts: argv.Spec{Long: []string{"--user"}}},
		"run0":    {opts: argv.Spec{Short: "ugD", Long: []string{"--user", "--group", "--chdir", "--unit", "--property", "--slice", "--setenv", "--nice", "--background"}}},
		"runuser": {opts: argv.Spec{Short: "ugGsw", Long: []string{"--user", "--group", "--supp-group", "--shell", "--whitelist-environment"}}, own: 1, ownUnless: []string{"-u", "--user"}, text: []string{"-c", "--command", "--session-command"}},
		"sg":      {own: 1, shellText: true, text: []string{"-c"}},
		"gosu":    {own: 1},
		"su-exec": {own: 1},
		"setpriv": {opts: argv.Spec{Long: []string{"--reuid", "--regid", "--groups", "--inh-caps", "--ambient-caps", "--bounding-set", "--securebits", "--pdeathsig", "--selinux-label", "--apparmor-profile", "--landlock-access", "--landlock-rule", "--ruid", "--euid", "--rgid", "--egid"}}},

		// Environment and version managers run the command with their
		// tools on the PATH.
		"direnv":     {sub: []string{"exec"}, own: 1},
		"mise":       {sub: []string{"exec", "x"}, opts: argv.Spec{Short: "jC", Long: []string{"--jobs", "--cd"}}, dash: true, text: []string{"-c", "--command"}},
		"rtx":        {sub: []string{"exec", "x"}, dash: true, text: []string{"-c", "--command"}},
		"asdf":       run("exec"),
		"aqua":       run("exec"),
		"devbox":     {sub: []string{"run"}, opts: argv.Spec{Short: "ce", Long: []string{"--config", "--env", "--env-file", "--environment"}}, dash: true},
		"nix-shell":  {opts: argv.Spec{Short: "pIAE", Long: []string{"--attr", "--arg", "--argstr", "--include", "--expr"}}, text: []string{"--run", "--command"}, named: true},
		"pipenv":     run("run"),
		"rye":        run("run"),
		"pixi":       {sub: []string{"run", "exec"}, opts: argv.Spec{Short: "ems", Long: []string{"--environment", "--manifest-path", "--spec", "--channel", "--platform"}}, dash: true},
		"conda":      {sub: []string{"run"}, opts: argv.Spec{Short: "np", Long: []string{"--name", "--prefix", "--cwd"}}, dash: true},
		"mamba":      {sub: []string{"run"}, opts: argv.Spec{Short: "np", Long: []string{"--name", "--prefix", "--cwd"}}, dash: true},
		"micromamba": {sub: []string{"run"}, opts: argv.Spec{Short: "npa", Long: []string{"--name", "--prefix", "--cwd", "--attach"}}, dash: true},
		"tox":        {sub: []string{"exec"}, opts: argv.Spec{Short: "ecx", Long: []string{"--conf", "--root", "--workdir", "--override"}}, dash: true},
		"scl":        {sub: []string{"enable", "run"}, after: []string{"--"}, named: true},
		"nvm":        {sub: []string{"exec"}, own: 1},
		"volta":      {sub: []string{"run"}, opts: argv.Spec{Long: []string{"--node", "--npm", "--pnpm", "--yarn", "--env"}}},
		"fnm":        {sub: []string{"exec"}, opts: argv.Spec{Long: []string{"--using"}}, dash: true},
		"pyenv":      run("exec"),
		"rbenv":      run("exec"),
		"jenv":       run("exec"),
		"goenv":      run("exec"),
		"nodenv":     run("exec"),
		"plenv":      run("exec"),
		"phpenv":     run("exec"),
		"luaenv":     run("exec"),
		"swiftenv":   run("exec"),
		"pdm":        run("run"),
		"nix":        {sub: []string{"develop", "shell"}, after: []string{"-c", "--command"}, named: true},
		"flox":       run("activate"),

		// Secret injectors run the command with secrets in its
		// environment.
		"op":        {sub: []string{"run"}, opts: argv.Spec{Long: []string{"--env-file", "--account", "--config", "--session"}}, dash: true},
		"doppler":   {sub: []string{"run"}, opts: argv.Spec{Short: "pc", Long: []string{"--project", "--config", "--token", "--fallback", "--mount", "--mount-format", "--name-transformer"}}, dash: true, text: []string{"--command"}},
		"infisical": {sub: []string{"run"}, opts: argv.Spec{Long: []string{"--env", "--path", "--projectId", "--token", "--domain", "--tags"}}, dash: true, text: []string{"--command"}},
		"aws-vault": {sub: []string{"exec"}, opts: argv.Spec{Short: "dt", Long: []string{"--duration", "--mfa-token", "--region", "--backend"}}, own: 1, dash: true},
		"sops":      {sub: []string{"exec-env", "exec-file"}, opts: argv.Spec{Long: []string{"--user", "--filename", "--input-type", "--output-type"}}, own: 1, shellText: true},
		"chamber":   {sub: []string{"exec"}, after: []string{"--"}, named: true},
		"envchain":  {own: 1},
		"dotenv":    {opts: argv.Spec{Short: "evc"}, dash: true},
		"dotenvx":   {sub: []string{"run"}, opts: argv.Spec{Short: "fe", Long: []string{"--env-file", "--env", "--convention"}}, dash: true},
		"env-cmd":   {opts: argv.Spec{Short: "fer", Long: []string{"--file", "--environments", "--rc-file"}}},
		"cross-env": plain,
		"teller":    run("run"),
		"berglas":   run("exec"),
		"bws":       run("run"),
		"secrethub": run("run"),
		"summon":    {opts: argv.Spec{Short: "pfD", Long: []string{"--provider", "--yaml", "--environment"}}},

		// Process managers, watchers and parallel runners.
		"foreman":       {sub: []string{"run"}, opts: argv.Spec{Short: "efd", Long: []string{"--env", "--procfile", "--root"}}},
		"honcho":        {sub: []string{"run"}, opts: argv.Spec{Short: "efd", Long: []string{"--env", "--procfile", "--app-root"}}},
		"forego":        run("run"),
		"overmind":      run("run"),
		"watchexec":     {opts: argv.Spec{Short: "wefisdEW", Long: []string{"--watch", "--exts", "--filter", "--ignore", "--signal", "--debounce", "--shell", "--env", "--workdir", "--project-origin", "--on-busy-update", "--delay-run"}}, shellText: true},
		"nodemon":       {text: []string{"--exec", "-x"}, named: true},
		"reflex":        {opts: argv.Spec{Short: "rRgGc", Long: []string{"--regex", "--inverse-regex", "--glob", "--inverse-glob", "--config"}}, dash: true},
		"entr":          plain,
		"onchange":      {after: []string{"--"}, named: true},
		"chokidar":      {text: []string{"-c", "--command"}, named: true},
		"concurrently":  {opts: argv.Spec{Short: "ncplmtP", Long: []string{"--names", "--prefix-colors", "--prefix", "--prefix-length", "--max-processes", "--timestamp-format", "--passthrough-arguments", "--success", "--restart-tries", "--restart-after", "--kill-signal", "--handle-input"}}, each: true},
		"parallelshell": {each: true},
		"npm-run-all":   {named: true},
		"run-p":         {named: true},
		"run-s":         {named: true},
		"lefthook":      {named: true},
		"husky":         {named: true},
		"tmux":          {named: true},
		"screen":        {named: true},
		"at":            {named: true},
		"batch":         {named: true},
		"systemd-run":   {named: true},
		// fd runs its command for each file it finds (-x) or once for
		// all (-X).
		"fd":     {after: []string{"-x", "--exec", "-X", "--exec-batch"}, named: true},
		"fdfind": {after: []string{"-x", "--exec", "-X", "--exec-batch"}, named: true},

		// Terminal emulators open a window that runs the command.
		"xterm":               terminal("-e"),
		"uxterm":              terminal("-e"),
		"urxvt":               terminal("-e"),
		"rxvt":                terminal("-e"),
		"konsole":             terminal("-e"),
		"alacritty":           terminal("-e", "--command"),
		"x-terminal-emulator": terminal("-e"),
		"lxterminal":          terminal("-e", "--command"),
		"qterminal":           terminal("-e", "--execute"),
		"terminology":         terminal("-e", "--exec"),
		"cool-retro-term":     terminal("-e"),
		"ghostty":             terminal("-e"),
		"gnome-terminal":      {after: []string{"-x", "--execute", "--"}, text: []string{"-e", "--command"}},
		"mate-terminal":       {after: []string{"-x", "--execute", "--"}, text: []string{"-e", "--command"}},
		"xfce4-terminal":      {after: []string{"-x", "--execute"}, text: []string{"-e", "--command"}},
		"tilix":               {after: []string{"-x"}, text: []string{"-e", "--command"}},
		"terminator":          {after: []string{"-x", "--execute"}, text: []string{"-e", "--command"}},
		"sakura":              {after: []string{"-x", "--xterm-execute"}, text: []string{"-e", "--execute"}},
		"guake":               {text: []string{"-e", "--execute-command"}, named: true},
		"kitty":               {opts: argv.Spec{Short: "cod", Long: []string{"--config", "--override", "--directory", "--title", "--class", "--name", "--session", "--listen-on", "--start-as", "--instance-group", "--watcher", "--hold"}}},
		"foot":                {opts: argv.Spec{Short: "cotTaDwWs", Long: []string{"--config", "--override", "--term", "--title", "--app-id", "--working-directory", "--window-size-pixels", "--window-size-chars", "--server"}}},
		"wezterm":             {sub: []string{"start"}, opts: argv.Spec{Long: []string{"--cwd", "--class", "--workspace", "--position", "--domain"}}, dash: true},
		"kgx":                 terminal("-e", "--command"),
	}
	return t
}}

// wrapStart is where a wrapper's command starts: the index of its first
// word, or text a shell runs.
type wrapStart struct {
	at     int
	text   string
	isText bool
	// each: every word from at on is a command of its own.
	each bool
	// via names the wrapper and the word that led to the command.
	via string
}

// wrapCommand finds the command a run of a table wrapper runs; ok false
// when the table does not say (the run is then looked through).
func wrapCommand(inv *shell.Invocation) (wrapStart, bool) {
	w, ok := wrapTable.Get()[inv.Name()]
	if !ok || w.named && w.after == nil && w.text == nil {
		return wrapStart{}, false
	}
	args := inv.Args
	from := 1
	via := inv.Name()
	if len(w.sub) > 0 {
		// The subcommand comes first, after global flags (a global
		// option's value taken for the subcommand finds none: the run
		// is then looked through).
		i := 1
		for i < len(args) && strings.HasPrefix(args[i], "-") && !inv.IsDynamic(i) {
			i++
		}
		if i >= len(args) || inv.IsDynamic(i) || !contains(w.sub, args[i]) {
			return wrapStart{}, false
		}
		via += " " + args[i]
		from = i + 1
	}
	// Options whose value is text, or after which the command comes.
	for i := from; i < len(args); i++ {
		a := args[i]
		if a == "--" && !contains(w.after, "--") {
			break
		}
		name, value, hasValue := strings.Cut(a, "=")
		if contains(w.text, name) {
			if hasValue {
				return wrapStart{at: i, text: value, isText: true, via: via + " " + name}, true
			}
			if i+1 < len(args) {
				return wrapStart{at: i + 1, text: args[i+1], isText: true, via: via + " " + name}, true
			}
		}
		if contains(w.after, a) && i+1 < len(args) {
			return wrapStart{at: i + 1, via: via + " " + a}, true
		}
	}
	if w.named {
		return wrapStart{}, false
	}
	spec := w.opts
	spec.StopAtOperand = true
	p := spec.Parse(args[from:])
	at := from + p.Rest
	if w.dash {
		for i := from; i < len(args); i++ {
			if args[i] == "--" {
				at = i + 1
				break
			}
		}
	}
	if at == from || args[at-1] != "--" {
		own := w.own
		for _, f := range p.Flags {
			if contains(w.ownUnless, f.Name) {
				own = 0
			}
		}
		// nice -10-style numbers and own operands: faketime '@1' CMD.
		at += own
	}
	if at >= len(args) {
		return wrapStart{}, false
	}
	if w.shellText {
		// The words are joined with blanks, as the wrapper joins them
		// for its shell (watchexec -e go 'npm publish').
		return wrapStart{at: at, text: strings.Join(args[at:], " "), isText: true, via: via}, true
	}
	return wrapStart{at: at, each: w.each, via: via}, true
}

// wrapped rates the command a table wrapper runs; ok false when the
// table does not find one.
func (c *Classifier) wrapped(inv *shell.Invocation) (Effect, bool) {
	s, ok := wrapCommand(inv)
	if !ok {
		return nothing, false
	}
	what := "the wrapper " + s.via
	if s.isText {
		if inv.IsDynamic(s.at) {
			return opaque("wrapper.dynamic", what+" runs shell text known only at run time ("+clip(inv.Args[s.at])+"); write the command out so that it can be read"), true
		}
		return c.nestedRun(inv, s.text).through("wrapper.text", what+" runs shell text: "+clip(s.text)), true
	}
	var e Effect
	for at := s.at; at < len(inv.Args); at++ {
		if inv.IsDynamic(at) {
			e.Add(opaque("wrapper.dynamic", what+" runs a command named only at run time ("+clip(inv.Args[at])+"); name the program or script in the command so that it can be read"))
			return e, true
		}
		if s.each {
			e.Add(c.nestedRun(inv, inv.Args[at]).through("wrapper.text", what+" runs the command "+clip(inv.Args[at])))
			continue
		}
		if strings.Contains(inv.Args[at], "{}") {
			e.Add(opaque("wrapper.found", what+" runs each file it finds as a program ("+clip(inv.Args[at])+"): which files, and what they do, is known only at run time; run the files by name"))
			return e, true
		}
		if se, ok := c.scriptOperand(inv, inv, at, what); ok {
			return se, true
		}
		if strings.ContainsAny(inv.Args[at], " \t\n;|&") {
			// One word holding blanks is shell text (entr -s 'rm -rf
			// x', a wrapper that hands its words to a shell); a program
			// of that name is not what it means.
			text := strings.Join(inv.Args[at:], " ")
			e.Add(c.nestedRun(inv, text).through("wrapper.text", what+" runs shell text given as an argument: "+clip(text)))
			return e, true
		}
		tail := inv.Text(at)
		e.Add(c.nestedRun(inv, tail).through("wrapper.argv", what+" runs the command in its arguments: "+clip(tail)))
		return e, true
	}
	return e, true
}

// scriptExt maps a script's extension to the language it is read as:
// "sh" for shell text; "" when the extension names no script.
func scriptExt(name string) (who, lang string) {
	switch strings.ToLower(path.Ext(name)) {
	case ".sh", ".bash", ".zsh", ".ksh", ".command":
		return "sh", ""
	case ".rb":
		return interpLangOf("ruby")
	case ".pl":
		return interpLangOf("perl")
	case ".php":
		return interpLangOf("php")
	case ".lua":
		return interpLangOf("lua")
	}
	return scriptInterp(name)
}

func interpLangOf(name string) (who, lang string) {
	lang, who, _ = interpLang(name)
	return who, lang
}

// scriptOperand reads word i of args, run by runner, as a script the
// run executes when it names one: a file of the project (or one the same
// command writes) that starts with #!, or whose extension names a
// script. An operand of a program that runs its arguments (rlwrap
// ./x.sh, conda run -n base ./x.sh, a program airlock does not know) is
// such a run; a compiled program or a file that is no script is not
// read here (false).
func (c *Classifier) scriptOperand(args, runner *shell.Invocation, i int, what string) (Effect, bool) {
	if c.FS == nil || i >= len(args.Args) || args.IsDynamic(i) || !runsOperands(runner.Name()) {
		return nothing, false
	}
	name := args.Args[i]
	if name == "" || strings.HasPrefix(name, "-") || strings.Contains(name, "://") || strings.ContainsAny(name, "=*?[{") || strings.Contains(name, "...") || processFile(name) {
		return nothing, false
	}
	who, lang := scriptExt(name)
	// A path (./y, bin/y) may name an executable text file with no #!
	// line, which a program that execs it hands to sh.
	isPath := strings.ContainsAny(name, `/\`)
	if who == "" && !isPath {
		// A bare name with no script's extension is a program found on
		// the PATH, not a file of the project: nothing to stat.
		return nothing, false
	}
	if info, err := c.FS.Stat(fsName(name)); err == nil {
		if !info.Mode().IsRegular() {
			return nothing, false
		}
		head, err := c.readHead(name)
		if err != nil || binary(head) {
			return nothing, false
		}
		if !bytes.HasPrefix(head, []byte("#!")) && who == "" && info.Mode().Perm()&0o111 == 0 {
			return nothing, false
		}
	} else if !c.cc.mentions(path.Base(name)) || !c.cc.writtenElsewhere(runner, name) {
		return nothing, false
	} else if who == "" {
		// Written by another run of the command (go vet ./... names
		// ./... too): a script only when the text written is one.
		text, ok := c.cc.writtenText(runner, name)
		if !ok || !strings.HasPrefix(text, "#!") {
			return nothing, false
		}
	}
	msg := what + " runs " + clip(name)
	if who == "" || who == "sh" {
		e, _ := c.scriptFile(runner, name, false)
		return e.through("wrapper.script", msg+", a script whose text is read as run"), true
	}
	return c.interpScript(runner, who, lang, name, false).through("wrapper.script", msg+" with "+who), true
}

// runsOperands reports whether a program may run a script among its
// operands. A shell's script operand is followed by followRun (bash -n
// x.sh runs nothing); a program package shell unwraps and still emits
// runs nothing (command -v x.sh, env with no command); and the programs
// of scriptReaders read the files they are given.
func runsOperands(name string) bool {
	return !isShell(name) && !shell.Unwraps(name) && !scriptReaders.Get()[name]
}

// scriptReaders are programs with no spec that read, count, lint or
// format the files they are given and run none of them (codespell
// deploy.sh, cloc scripts/).
var scriptReaders = firstuse.Table[map[string]bool]{Build: func() map[string]bool {
	out := map[string]bool{}
	for _, n := range []string{
		"codespell", "cspell", "typos", "vale", "cloc", "tokei", "scc", "sloccount", "ctags", "etags", "uctags",
		"pygmentize", "highlight", "glow", "enscript", "a2ps", "source-highlight", "semgrep", "bandit",
		"pyright", "pyflakes", "pycodestyle", "pydocstyle", "autopep8", "yapf", "vulture", "radon",
		"pyupgrade", "autoflake", "docformatter", "blacken-docs", "mdformat", "rubocop", "standardrb",
		"perltidy", "perlcritic", "php-cs-fixer", "phpcs", "phpcbf", "phpstan", "psalm", "luacheck",
		"stylua", "selene", "hadolint", "actionlint", "markdownlint", "markdownlint-cli2", "yamllint",
		"jsonlint", "taplo", "editorconfig-checker", "ec", "standard", "xo", "jshint", "jslint", "tslint",
		"stylelint", "sqlfluff", "dprint", "biome", "oxlint", "deno-lint", "checkbashisms", "bashate",
		"beautysh", "pre-commit-hooks", "reuse", "licensecheck", "addlicense", "git-lfs", "file-rename",
		"rename", "enca", "chardet", "chardetect", "uchardet", "exiftool", "trivy", "gitleaks",
		"trufflehog", "detect-secrets", "grype", "syft", "osv-scanner", "difft", "delta", "colordiff",
		"icdiff", "meld", "kdiff3", "vimdiff", "nvimdiff", "wdiff", "dwdiff", "sdiff", "ydiff",
	} {
		out[n] = true
	}
	return out
}}
