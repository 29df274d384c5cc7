package classify

import (
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

// This file follows more task runners and build steps like scripts
// (issue 24), through the classifier's FS, within the limits following
// already has (maxFollow files deep, MaxScriptBytes a file) and the
// limits below; past a limit the run is opaque and the reason names the
// limit:
//
//   - pre-commit run: the local hooks of .pre-commit-config.yaml (entry
//     and args); a hook repository on the network is fetched code
//     (netread), one on this machine is code airlock does not read
//     (opaque);
//   - tox: the commands, commands_pre and commands_post of tox.ini (or
//     pyproject.toml's legacy_tox_ini);
//   - nox: noxfile.py, read as Python, with the commands its sessions pass
//     to session.run;
//   - cargo build|run|test|check|…: a build script (build.rs) or a
//     proc-macro crate in the package or its workspace is compiled code
//     that runs at build time: opaque;
//   - go generate: the //go:generate lines of the packages' files;
//   - make include and Taskfile includes (in runners.go, with these
//     limits).

// maxIncludes bounds how many files make includes or a Taskfile includes
// airlock reads for one run.
const maxIncludes = 16

// maxGenerateFiles bounds how many .go files go generate's packages may
// hold for airlock to read their directives.
const maxGenerateFiles = 2000

// maxGenerateDirs bounds how many directories go generate ./... walks.
const maxGenerateDirs = 500

// maxWorkspaceMembers bounds how many cargo workspace members are looked
// at for build scripts.
const maxWorkspaceMembers = 64

// dirReader is an FS that can list a directory (DirFS, fstest.MapFS).
type dirReader interface {
	ReadDir(name string) ([]fs.DirEntry, error)
}

// readDir lists a directory through the FS, when it can.
func (c *Classifier) readDir(name string) ([]fs.DirEntry, error) {
	d, ok := c.FS.(dirReader)
	if !ok {
		return nil, errors.New("the filesystem cannot list directories")
	}
	return d.ReadDir(fsName(name))
}

// ---- pre-commit ----

func (c *Classifier) preCommitRun(inv *shell.Invocation) Effect {
	p := argv.Spec{Short: "ct", Long: []string{"--config", "--hook-type", "--hook-stage", "--from-ref", "--to-ref", "--source", "--origin",
		"--files", "--remote-branch", "--local-branch", "--remote-name", "--remote-url", "--commit-msg-filename",
		"--prepare-commit-message-source", "--commit-object-name", "--checkout-type", "--rewrite-command", "--ref"}}.Parse(inv.Args[1:])
	if len(p.Operands) == 0 || p.Operands[0] != "run" && p.Operands[0] != "try-repo" && p.Operands[0] != "install" {
		return nothing
	}
	if c.FS == nil || p.Has("--help", "-h") {
		return nothing
	}
	if p.Operands[0] == "try-repo" {
		if len(p.Operands) < 2 {
			return nothing
		}
		return preCommitRepo(p.Operands[1], "")
	}
	// pre-commit install writes .git/hooks/pre-commit, which runs the
	// config's hooks at every later commit (FINDINGS-9 P6): read as the
	// run of all of them.
	var only string
	if len(p.Operands) > 1 && p.Operands[0] == "run" {
		only = p.Operands[1]
	}
	cfg, _ := p.Value("-c", "--config")
	if cfg == "" {
		cfg = ".pre-commit-config.yaml"
	}
	file, data, failed, ok := c.readRunnerFile(inv, cfg)
	if !ok {
		return failed
	}
	inner, deeperOK := c.deeper()
	if !deeperOK {
		return fileLimit(file)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 {
		return opaque("script.unreadable", file+" cannot be read as YAML, so what pre-commit runs cannot be known")
	}
	repos := yamlKey(doc.Content[0], "repos")
	if repos == nil {
		return nothing
	}
	var e Effect
	for _, r := range repos.Content {
		repo := yamlKey(r, "repo")
		if repo == nil {
			continue
		}
		hooks := yamlKey(r, "hooks")
		var ids []string
		if hooks != nil {
			for _, h := range hooks.Content {
				if id := yamlKey(h, "id"); id != nil {
					ids = append(ids, id.Value)
				}
			}
		}
		if only != "" && !slices.Contains(ids, only) {
			continue
		}
		switch repo.Value {
		case "meta":
			continue
		case "local":
		default:
			e.Add(preCommitRepo(repo.Value, yamlValue(r, "rev")))
			continue
		}
		if hooks == nil {
			continue
		}
		for _, h := range hooks.Content {
			if only != "" && yamlValue(h, "id") != only {
				continue
			}
			entry := yamlKey(h, "entry")
			if entry == nil {
				continue
			}
			lang := yamlValue(h, "language")
			if lang == "pygrep" || lang == "fail" {
				continue // a pattern or a message, not a command
			}
			text := entry.Value
			if (lang == "script" || lang == "unsupported_script") && !strings.ContainsAny(strings.Fields(text + " x")[0], "/") {
				text = "./" + text // a script is a path in the repository
			}
			if args := yamlKey(h, "args"); args != nil && args.Kind == yaml.SequenceNode {
				var words []string
				for _, a := range args.Content {
					words = append(words, a.Value)
				}
				text += " " + shell.Join(words)
			}
			if lang == "docker_image" || lang == "docker" {
				e.Add(opaque("pre-commit.docker", file+": hook "+yamlValue(h, "id")+" runs in a container image airlock does not read"))
				continue
			}
			e.Add(inner.shellFileAt(file, text, entry.Line))
		}
	}
	return e
}

// preCommitRepo rates a hook repository: one on the network is code
// fetched and run (like a package install), one on this machine is code
// airlock does not read.
func preCommitRepo(repo, rev string) Effect {
	if _, remote := urlTarget(repo); remote || strings.HasPrefix(repo, "git@") {
		at := ""
		if rev != "" {
			at = " at " + rev
		}
		return netRead("pre-commit.remote", "pre-commit fetches the hooks of "+repo+at+" and runs their code")
	}
	return opaque("pre-commit.repo", "pre-commit runs the hooks of "+repo+", code on this machine that airlock does not read")
}

func yamlValue(n *yaml.Node, key string) string {
	if v := yamlKey(n, key); v != nil {
		return v.Value
	}
	return ""
}

// ---- tox ----

// toxKeys are the tox.ini keys whose lines are commands.
func toxKeys(name string) bool {
	switch name {
	case "commands", "commands_pre", "commands_post":
		return true
	}
	return false
}

var toxSubst = firstuse.Table[*regexp.Regexp]{Build: func() *regexp.Regexp { return regexp.MustCompile(`\{[^{}]*\}`) }}

func (c *Classifier) toxRun(inv *shell.Invocation) Effect {
	p := argv.Spec{Short: "ecrx", Long: []string{"--conf", "--workdir", "--root", "--override", "--installpkg", "--discover",
		"--hashseed", "--result-json", "--exit-and-dump-after", "--colored", "--runner", "--env", "--skip-env", "--labels", "-m", "-f", "--factors"}}.Parse(inv.Args[1:])
	if p.Has("--help", "-h", "--version", "-l", "--listenvs", "-a", "--listenvs-all", "--showconfig", "--notest") {
		return nothing
	}
	if len(p.Operands) > 0 {
		switch p.Operands[0] {
		case "list", "l", "config", "c", "quickstart", "q", "depends", "de", "devenv", "d", "legacy", "le":
			return nothing
		}
	}
	if c.FS == nil {
		return nothing
	}
	if inv.AnyDynamic(1) {
		return opaque("script.dynamic", "tox is given words computed at run time, so which environments run cannot be known")
	}
	conf, _ := p.Value("-c", "--conf")
	var envs []string
	for _, v := range p.Values("-e", "--env") {
		envs = append(envs, strings.Split(v, ",")...)
	}
	names := []string{"tox.ini", "setup.cfg", "pyproject.toml"}
	if conf != "" {
		names = []string{conf}
	}
	var file string
	var data []byte
	for _, n := range names {
		d, failed, ok := c.readScript(inv, n, false)
		if failed.Reasons != nil {
			return failed
		}
		if !ok {
			continue
		}
		text := string(d)
		switch {
		case strings.HasSuffix(n, ".toml"):
			i := strings.Index(text, "legacy_tox_ini")
			if i < 0 {
				if strings.Contains(text, "[tool.tox") {
					return opaque("tox.toml", "tox reads its environments from "+n+" in TOML, which airlock does not read")
				}
				continue
			}
			body := text[i:]
			q := strings.Index(body, `"""`)
			if q < 0 {
				continue
			}
			body = body[q+3:]
			if end := strings.Index(body, `"""`); end >= 0 {
				body = body[:end]
			}
			text = body
		case strings.HasSuffix(n, "setup.cfg") && !strings.Contains(text, "[tox:tox]"):
			continue
		}
		file, data = n, []byte(text)
		break
	}
	if file == "" {
		if _, err := c.readFile("tox.toml"); err == nil {
			return opaque("tox.toml", "tox reads its environments from tox.toml, which airlock does not read")
		}
		return nothing
	}
	inner, ok := c.deeper()
	if !ok {
		return fileLimit(file)
	}
	sections := parseINI(string(data))
	var e Effect
	run := func(section string) bool {
		s, ok := sections[section]
		if !ok {
			return false
		}
		found := false
		for _, k := range []string{"commands_pre", "commands", "commands_post"} {
			for _, l := range s[k] {
				found = true
				text := toxSubst.Get().ReplaceAllStringFunc(l.text, toxReplace)
				text = strings.TrimLeft(strings.TrimSpace(text), "-!")
				if strings.TrimSpace(text) != "" {
					e.Add(inner.shellFileAt(file, text, l.line))
				}
			}
		}
		return found
	}
	if len(envs) == 0 || slices.Contains(envs, "ALL") || slices.Contains(envs, "all") {
		// Every environment: the base section and every named one.
		keys := make([]string, 0, len(sections))
		for k := range sections {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if k == "testenv" || strings.HasPrefix(k, "testenv:") {
				run(k)
			}
		}
		return e
	}
	for _, env := range envs {
		if !run("testenv:" + env) {
			run("testenv")
		}
	}
	return e
}

// toxReplace expands a tox substitution as far as a static reading can:
// {posargs:default} becomes its default, directories become ".", others
// vanish.
func toxReplace(s string) string {
	inner := strings.Trim(s, "{}")
	if rest, ok := strings.CutPrefix(inner, "posargs"); ok {
		return strings.TrimPrefix(rest, ":")
	}
	switch inner {
	case "envpython":
		return "python"
	case "toxinidir", "tox_root", "envdir", "env_dir", "envtmpdir", "env_tmp_dir", "toxworkdir", "work_dir":
		return "."
	case "envbindir", "env_bin_dir":
		return "."
	}
	return ""
}

// iniLine is one value line of an INI file.
type iniLine struct {
	line int
	text string
}

// parseINI reads sections, keys and their value lines (a value may go on
// over indented lines, one command a line).
func parseINI(text string) map[string]map[string][]iniLine {
	out := map[string]map[string][]iniLine{}
	section, key := "", ""
	for i, raw := range strings.Split(text, "\n") {
		l := strings.TrimRight(raw, "\r")
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, ";") {
			continue
		}
		if strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") {
			section, key = strings.TrimSpace(t[1:len(t)-1]), ""
			if out[section] == nil {
				out[section] = map[string][]iniLine{}
			}
			continue
		}
		if section == "" {
			continue
		}
		if (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "\t")) && key != "" {
			out[section][key] = append(out[section][key], iniLine{i + 1, t})
			continue
		}
		k, v, ok := strings.Cut(t, "=")
		if !ok {
			key = ""
			continue
		}
		key = strings.TrimSpace(k)
		if !toxKeys(key) {
			continue
		}
		if v = strings.TrimSpace(v); v != "" {
			out[section][key] = append(out[section][key], iniLine{i + 1, v})
		}
	}
	// Lines of keys that are not commands were kept only while reading.
	for _, s := range out {
		for k := range s {
			if !toxKeys(k) {
				delete(s, k)
			}
		}
	}
	return out
}

// ---- nox ----

var noxCall = firstuse.Table[*regexp.Regexp]{Build: func() *regexp.Regexp {
	return regexp.MustCompile(`session\.(run|run_always|run_install|install|conda_install|chdir)\(`)
}}

func (c *Classifier) noxRun(inv *shell.Invocation) Effect {
	p := argv.Spec{Short: "fsektp", Long: []string{"--noxfile", "--sessions", "--session", "--keywords", "--tags",
		"--python", "--extra-python", "--envdir", "--default-venv-backend", "--force-venv-backend", "--report", "--download-python"}}.Parse(inv.Args[1:])
	if p.Has("--help", "-h", "--version", "-l", "--list", "--list-sessions", "--json") {
		return nothing
	}
	if c.FS == nil {
		return nothing
	}
	file, _ := p.Value("-f", "--noxfile")
	file, data, failed, ok := c.readRunnerFile(inv, file, "noxfile.py")
	if !ok {
		return failed
	}
	inner, deeperOK := c.deeper()
	if !deeperOK {
		return fileLimit(file)
	}
	src := string(data)
	c.keepCode("nox "+file, file, []byte(src))
	e := interpAnalyse(inner, "nox "+file, interp.Python, src).through("script.interp", "nox runs the Python of "+file)
	for _, loc := range noxCall.Get().FindAllStringSubmatchIndex(src, -1) {
		method := src[loc[2]:loc[3]]
		args, ok := pyCallArgs(src[loc[1]:])
		line := 1 + strings.Count(src[:loc[0]], "\n")
		where := file + ":" + strconv.Itoa(line)
		if !ok {
			e.Add(opaque("nox.dynamic", where+": session."+method+" is given words computed in Python, so what it runs cannot be known"))
			continue
		}
		switch method {
		case "chdir":
			continue
		case "install", "conda_install":
			if len(args) > 0 {
				e.Add(netRead("nox.install", where+": session."+method+" installs "+clip(strings.Join(args, " "))))
			}
			continue
		}
		if len(args) > 0 {
			e.Add(inner.shellFileAt(file, shell.Join(args), line))
		}
	}
	return e
}

// pyCallArgs reads the positional string arguments of a Python call
// whose text starts just after "(": string literals are kept,
// *session.posargs and keyword arguments are skipped; anything else
// (a variable, an f-string, a list) makes the call unknown.
func pyCallArgs(s string) ([]string, bool) {
	var args []string
	depth := 0
	start := 0
	var parts []string
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; ch {
		case '\'', '"':
			q := ch
			triple := strings.HasPrefix(s[i:], string([]byte{q, q, q}))
			if triple {
				end := strings.Index(s[i+3:], string([]byte{q, q, q}))
				if end < 0 {
					return nil, false
				}
				i += 3 + end + 2
				continue
			}
			for i++; i < len(s) && s[i] != q; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				parts = append(parts, s[start:i])
				goto done
			}
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return nil, false
done:
	for _, p := range parts {
		p = strings.TrimSpace(p)
		switch {
		case p == "", strings.HasPrefix(p, "*session.posargs"), strings.HasPrefix(p, "**"):
			continue
		case pyKeyword.Get().MatchString(p):
			continue // keyword argument
		}
		v, ok := pyString(p)
		if !ok {
			return nil, false
		}
		args = append(args, v)
	}
	return args, true
}

var pyKeyword = firstuse.Table[*regexp.Regexp]{Build: func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*\s*=[^=]`) }}

// pyString reads a plain Python string literal ('x', "x", r'x'); an
// f-string or any expression is not one.
func pyString(p string) (string, bool) {
	raw := false
	if strings.HasPrefix(p, "r") || strings.HasPrefix(p, "R") {
		raw, p = true, p[1:]
	}
	if len(p) < 2 || (p[0] != '\'' && p[0] != '"') || p[len(p)-1] != p[0] {
		return "", false
	}
	body := p[1 : len(p)-1]
	if strings.ContainsRune(body, rune(p[0])) && !strings.Contains(body, `\`) {
		return "", false // two literals side by side
	}
	if !raw {
		body = strings.NewReplacer(`\\`, `\`, `\'`, `'`, `\"`, `"`, `\n`, "\n", `\t`, "\t").Replace(body)
	}
	return body, true
}

// ---- cargo ----

// cargoCompiles are the cargo subcommands that compile the workspace's
// own crates, running their build scripts and proc-macros.
func cargoCompiles(name string) bool {
	switch name {
	case "build", "b", "run", "r", "test", "t", "check", "c", "bench", "clippy", "doc", "d", "rustc",
		"rustdoc", "fix", "package", "miri", "llvm-cov", "nextest", "tarpaulin":
		return true
	}
	return false
}

var cargoLine = firstuse.Table[*regexp.Regexp]{Build: func() *regexp.Regexp { return regexp.MustCompile(`^\s*([A-Za-z_-]+)\s*=\s*(.*?)\s*(#.*)?$`) }}

func (c *Classifier) cargoBuildScripts(inv *shell.Invocation) Effect {
	if c.FS == nil {
		return nothing
	}
	// The subcommand is the first word that is not an option or a
	// toolchain (+nightly); -Z, --config and -C take a value.
	sub, subAt := cargoSub(inv)
	if sub == "" {
		return nothing
	}
	if !cargoCompiles(sub) || hasAny(inv.Args[subAt+1:], "--help", "-h") {
		if sub != "install" || !hasAny(inv.Args[subAt+1:], "--path") {
			return nothing
		}
	}
	q := argv.Spec{Short: "pjF", Long: []string{"--manifest-path", "--package", "--path"}}.Parse(inv.Args[subAt+1:])
	dir := "."
	if m, ok := q.Value("--manifest-path"); ok {
		dir = path.Dir(m)
	}
	if m, ok := q.Value("--path"); ok {
		dir = m
	}
	if inv.AnyDynamic(subAt) {
		return opaque("script.dynamic", "cargo "+sub+" is given words computed at run time, so which crates it builds cannot be known")
	}
	what, found, e := c.cargoCodeAtBuild(dir, 0)
	if e.Reasons != nil {
		return e
	}
	if found {
		return opaque("cargo.build-script", "cargo "+sub+" compiles and runs code at build time ("+what+"), which airlock does not read")
	}
	return nothing
}

// cargoCodeAtBuild looks in a crate or workspace directory for code that
// runs at build time: a build script or a proc-macro crate, in the root
// package and the workspace members.
func (c *Classifier) cargoCodeAtBuild(dir string, depth int) (string, bool, Effect) {
	manifest := path.Join(dir, "Cargo.toml")
	data, err := c.readFile(manifest)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", false, nothing
	case err != nil:
		return "", false, opaque("script.unreadable", manifest+" cannot be read ("+err.Error()+"), so whether cargo runs code at build time cannot be known")
	}
	section := ""
	build := ""
	hasPackage, buildOff := false, false
	var members []string
	inMembers := false
	for _, l := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "[") {
			section = strings.Trim(t, "[] ")
			inMembers = false
			if section == "package" {
				hasPackage = true
			}
			continue
		}
		if inMembers {
			members = append(members, tomlStrings(t)...)
			if strings.Contains(t, "]") {
				inMembers = false
			}
			continue
		}
		m := cargoLine.Get().FindStringSubmatch(t)
		if m == nil {
			continue
		}
		k, v := m[1], m[2]
		switch {
		case section == "package" && k == "build":
			if v == "false" {
				buildOff = true
			} else {
				build = strings.Trim(v, `"'`)
			}
		case section == "lib" && (k == "proc-macro" || k == "proc_macro") && v == "true":
			return manifest + " is a proc-macro crate, whose code runs inside the compiler", true, nothing
		case section == "workspace" && k == "members":
			members = append(members, tomlStrings(v)...)
			inMembers = strings.Contains(v, "[") && !strings.Contains(v, "]")
		}
	}
	if hasPackage && !buildOff {
		if build == "" {
			build = "build.rs"
		}
		if ok, _ := c.exists(path.Join(dir, build)); ok {
			return path.Join(dir, build) + ", a build script", true, nothing
		}
	}
	if depth > 0 {
		return "", false, nothing
	}
	var dirs []string
	for _, m := range members {
		if !strings.ContainsAny(m, "*?[") {
			dirs = append(dirs, path.Join(dir, m))
			continue
		}
		parent := path.Dir(path.Join(dir, m))
		entries, err := c.readDir(parent)
		if err != nil {
			return "", false, opaque("cargo.members", "the workspace member pattern "+m+" cannot be listed ("+err.Error()+"), so whether cargo runs code at build time cannot be known")
		}
		for _, en := range entries {
			if ok, _ := path.Match(path.Base(m), en.Name()); ok && en.IsDir() {
				dirs = append(dirs, path.Join(parent, en.Name()))
			}
		}
	}
	if len(dirs) > maxWorkspaceMembers {
		return "", false, opaque("script.limit", "limit reached: the workspace has more than "+strconv.Itoa(maxWorkspaceMembers)+" members, more than airlock looks through for build scripts")
	}
	for _, d := range dirs {
		if what, found, e := c.cargoCodeAtBuild(d, depth+1); found || e.Reasons != nil {
			return what, found, e
		}
	}
	return "", false, nothing
}

var tomlString = firstuse.Table[*regexp.Regexp]{Build: func() *regexp.Regexp { return regexp.MustCompile(`"([^"]*)"|'([^']*)'`) }}

func tomlStrings(s string) []string {
	var out []string
	for _, m := range tomlString.Get().FindAllStringSubmatch(s, -1) {
		out = append(out, m[1]+m[2])
	}
	return out
}

// ---- go generate ----

// goGenerateFollow reads the //go:generate directives of the packages a
// go generate run names and classifies each as the command it runs.
func (c *Classifier) goGenerateFollow(inv *shell.Invocation, p argv.Parsed) Effect {
	if inv.AnyDynamic(1) {
		return opaque("go.generate", "go generate is given words computed at run time, so which directives run cannot be known")
	}
	if p.Has("-n") {
		return nothing // prints the commands
	}
	var runRe, skipRe *regexp.Regexp
	for _, f := range []struct {
		name string
		re   **regexp.Regexp
	}{{"-run", &runRe}, {"-skip", &skipRe}} {
		if v, ok := p.Value(f.name, "-"+f.name); ok && v != "" {
			re, err := regexp.Compile(v)
			if err != nil {
				return opaque("go.generate", "go generate "+f.name+" "+v+" is not a pattern airlock can read")
			}
			*f.re = re
		}
	}
	targets := p.Operands[1:]
	if len(targets) == 0 {
		targets = []string{"."}
	}
	var files []string
	walked := 0
	var walk func(dir string, recursive bool) Effect
	walk = func(dir string, recursive bool) Effect {
		walked++
		if walked > maxGenerateDirs {
			return opaque("script.limit", "limit reached: go generate's packages span more than "+strconv.Itoa(maxGenerateDirs)+" directories")
		}
		entries, err := c.readDir(dir)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nothing
			}
			return opaque("go.generate", "the package directory "+dir+" cannot be listed ("+err.Error()+"), so its //go:generate lines cannot be read")
		}
		for _, en := range entries {
			n := en.Name()
			if en.IsDir() {
				if recursive && n != "vendor" && n != "testdata" && !strings.HasPrefix(n, ".") && !strings.HasPrefix(n, "_") {
					if e := walk(path.Join(dir, n), true); e.Reasons != nil {
						return e
					}
				}
				continue
			}
			if strings.HasSuffix(n, ".go") {
				files = append(files, path.Join(dir, n))
			}
		}
		return nothing
	}
	for _, t := range targets {
		switch {
		case strings.HasSuffix(t, ".go"):
			files = append(files, t)
		case t == "./..." || t == "...":
			if e := walk(".", true); e.Reasons != nil {
				return e
			}
		case strings.HasSuffix(t, "/...") && (strings.HasPrefix(t, "./") || strings.HasPrefix(t, "../")):
			if e := walk(strings.TrimSuffix(t, "/..."), true); e.Reasons != nil {
				return e
			}
		case t == "." || strings.HasPrefix(t, "./") || strings.HasPrefix(t, "../") || strings.HasPrefix(t, "/"):
			if e := walk(t, false); e.Reasons != nil {
				return e
			}
		default:
			return opaque("go.generate", "go generate "+t+" names a package by import path, whose files airlock does not locate")
		}
	}
	if len(files) > maxGenerateFiles {
		return opaque("script.limit", "limit reached: go generate's packages hold more than "+strconv.Itoa(maxGenerateFiles)+" .go files")
	}
	inner, ok := c.deeper()
	if !ok {
		return fileLimit("go generate")
	}
	var e Effect
	for _, f := range files {
		data, err := c.readFile(f)
		if err != nil {
			e.Add(opaque("go.generate", f+" cannot be read ("+err.Error()+"), so its //go:generate lines cannot be known"))
			continue
		}
		e.Add(inner.goDirectives(f, string(data), runRe, skipRe))
	}
	return e
}

var goPackageLine = firstuse.Table[*regexp.Regexp]{Build: func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^package\s+([A-Za-z_][A-Za-z0-9_]*)`)
}}

// goDirectives classifies the //go:generate lines of one file, with its
// -command aliases and the variables go generate sets.
func (c *Classifier) goDirectives(file, src string, runRe, skipRe *regexp.Regexp) Effect {
	if !strings.Contains(src, "//go:generate") {
		return nothing
	}
	pkg := "main"
	if m := goPackageLine.Get().FindStringSubmatch(src); m != nil {
		pkg = m[1]
	}
	aliases := map[string]string{}
	var e Effect
	for i, l := range strings.Split(src, "\n") {
		text, ok := strings.CutPrefix(strings.TrimRight(l, "\r"), "//go:generate ")
		if !ok {
			continue
		}
		if runRe != nil && !runRe.MatchString(text) || skipRe != nil && skipRe.MatchString(text) {
			continue
		}
		text = strings.NewReplacer("$GOFILE", path.Base(file), "$GOPACKAGE", pkg, "$GOLINE", strconv.Itoa(i+1),
			"$GOARCH", "amd64", "$GOOS", "linux", "$DOLLAR", "$").Replace(text)
		f := strings.Fields(text)
		if len(f) == 0 {
			continue
		}
		if f[0] == "-command" && len(f) > 2 {
			aliases[f[1]] = strings.Join(f[2:], " ")
			continue
		}
		if a, ok := aliases[f[0]]; ok {
			text = a + strings.TrimPrefix(text, f[0])
		}
		e.Add(c.shellFileAt(file, text, i+1))
	}
	return e
}

// ---- make include ----

var makeFuncCall = firstuse.Table[*regexp.Regexp]{Build: func() *regexp.Regexp { return regexp.MustCompile(`\$[({]([a-z-]+)\s`) }}

// makeIncludes reads the makefiles m includes (include, -include,
// sinclude) and merges their variables and rules into m, so that the
// walk follows the included recipes. Names are relative to make's
// directory; $(wildcard …) and glob patterns are listed through the FS.
// At most maxIncludes files are read; a name computed by another make
// function, or a file that exists but cannot be read, is opaque.
func (c *Classifier) makeIncludes(inv *shell.Invocation, m *makefile, dir string) Effect {
	var e Effect
	read := 0
	seen := map[string]bool{}
	for i := 0; i < len(m.includes); i++ {
		inc := m.includes[i]
		raw := inc.text
		for _, f := range makeFuncCall.Get().FindAllStringSubmatch(raw, -1) {
			if f[1] != "wildcard" {
				e.Add(opaque("make.include", inc.file+":"+strconv.Itoa(inc.line)+": include "+clip(raw)+" names its files with $("+f[1]+" …), which airlock does not evaluate"))
				return e
			}
		}
		raw = strings.NewReplacer("$(wildcard ", "", "${wildcard ", "").Replace(raw)
		words := strings.Fields(strings.NewReplacer(")", " ", "}", " ").Replace(m.expand(raw, "", nil, 0)))
		for _, w := range words {
			if strings.ContainsAny(w, "$`") {
				// include $(CONF).mk, with make CONF=$(cat conf): a
				// name the shell computes.
				e.Add(opaque("make.include", inc.file+":"+strconv.Itoa(inc.line)+": include "+clip(w)+" names a file known only at run time"))
				continue
			}
			names := []string{path.Join(dir, w)}
			// A relative name not found in make's directory is looked
			// for in the -I directories, in order; the first found is
			// read.
			search := !path.IsAbs(w) && len(m.incDirs) > 0
			if search {
				for _, d := range m.incDirs {
					if !path.IsAbs(d) {
						d = path.Join(dir, d)
					}
					names = append(names, path.Join(d, w))
				}
			}
			if strings.ContainsAny(w, "*?[") {
				search = false
				names = names[:0]
				parent := path.Join(dir, path.Dir(w))
				entries, err := c.readDir(parent)
				if err != nil && !errors.Is(err, fs.ErrNotExist) {
					e.Add(opaque("make.include", inc.file+":"+strconv.Itoa(inc.line)+": include "+w+" cannot be listed ("+err.Error()+")"))
					continue
				}
				for _, en := range entries {
					if ok, _ := path.Match(path.Base(w), en.Name()); ok && !en.IsDir() {
						names = append(names, path.Join(parent, en.Name()))
					}
				}
			}
			for _, n := range names {
				if seen[n] {
					continue
				}
				seen[n] = true
				// Read as a script the run executes: a file the same
				// command writes is read with what it writes, or is
				// opaque (follow.go).
				data, failed, ok := c.readScript(inv, n, false)
				if !ok {
					e.Add(failed)
					if search && failed.Reasons != nil {
						break
					}
					continue // make would try to build it, or -include skips it
				}
				read++
				if read > maxIncludes {
					e.Add(opaque("script.limit", "limit reached: "+m.name+" includes more than "+strconv.Itoa(maxIncludes)+" makefiles"))
					return e
				}
				sub := newMakefile(n)
				sub.env, sub.read = m.env, m.read
				sub.parse(n, string(data), 0)
				m.merge(sub)
				if search {
					break
				}
			}
		}
	}
	return e
}

// merge adds an included makefile's variables (where m has none), rules
// and includes to m; its recipe lines keep their file's name.
func (m *makefile) merge(sub *makefile) {
	// Which file's value of a variable make keeps depends on where the
	// include is: m keeps its own and the other is one more value.
	keys := make([]string, 0, len(sub.vars))
	for k := range sub.vars {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := sub.vars[k]
		if old, set := m.vars[k]; !set {
			m.vars[k] = v
		} else if old != v && len(m.alts[k]) < 8 {
			m.alts[k] = append(m.alts[k], v)
		}
		for _, a := range sub.alts[k] {
			if len(m.alts[k]) < 8 {
				m.alts[k] = append(m.alts[k], a)
			}
		}
	}
	for k, a := range sub.alts {
		if _, set := sub.vars[k]; !set {
			m.alts[k] = append(m.alts[k], a[:min(len(a), 8)]...)
		}
	}
	for k := range sub.override {
		m.override[k] = true
	}
	m.exports = append(m.exports, sub.exports...)
	m.exportAll = m.exportAll || sub.exportAll
	m.opaque = append(m.opaque, sub.opaque...)
	targets := make([]string, 0, len(sub.rules))
	for t := range sub.rules {
		targets = append(targets, t)
	}
	sort.Strings(targets)
	for _, t := range targets {
		r := sub.rules[t]
		for i := range r.recipe {
			if r.recipe[i].file == "" {
				r.recipe[i].file = sub.name
			}
		}
		if old := m.rules[t]; old != nil {
			old.prereqs = append(old.prereqs, r.prereqs...)
			old.recipe = append(old.recipe, r.recipe...)
			continue
		}
		m.rules[t] = r
	}
	if m.first == "" {
		m.first = sub.first
	}
	for _, t := range sub.dynTargets {
		if !slices.Contains(m.dynTargets, t) {
			m.dynTargets = append(m.dynTargets, t)
		}
	}
	m.includes = append(m.includes, sub.includes...)
	m.parseTime = append(m.parseTime, sub.parseTime...)
	m.shells = append(m.shells, sub.shells...)
}

// ---- Taskfile includes ----

// taskfile is one Taskfile read for a task run: its tasks and includes.
type taskfile struct {
	file     string
	tasks    *yaml.Node
	includes *yaml.Node
	loaded   map[string]*taskfile
}

// taskInclude reads the Taskfile tf includes under the namespace ns
// (includes: {ns: ./dir/Taskfile.yml} or {ns: {taskfile: ./dir}}). A
// remote Taskfile is opaque; at most maxIncludes are read for one run.
func (c *Classifier) taskInclude(tf *taskfile, ns string, loads *int) (*taskfile, Effect) {
	if sub, ok := tf.loaded[ns]; ok {
		return sub, nothing
	}
	tf.loaded[ns] = nil
	v := yamlKey(tf.includes, ns)
	if v == nil {
		return nil, nothing
	}
	ref := v.Value
	if v.Kind == yaml.MappingNode {
		ref = yamlValue(v, "taskfile")
	}
	if ref == "" {
		return nil, nothing
	}
	if _, remote := urlTarget(ref); remote || strings.Contains(ref, "{{") {
		return nil, opaque("task.include", tf.file+": the Taskfile included as "+ns+" ("+clip(ref)+") is not a file airlock can read")
	}
	*loads++
	if *loads > maxIncludes {
		return nil, opaque("script.limit", "limit reached: "+tf.file+" includes more than "+strconv.Itoa(maxIncludes)+" Taskfiles")
	}
	p := path.Join(path.Dir(tf.file), ref)
	if strings.HasPrefix(ref, "/") || strings.HasPrefix(ref, "~/") {
		p = ref
	}
	names := []string{p}
	if !strings.HasSuffix(p, ".yml") && !strings.HasSuffix(p, ".yaml") {
		names = []string{path.Join(p, "Taskfile.yml"), path.Join(p, "Taskfile.yaml"), path.Join(p, "taskfile.yml"), path.Join(p, "taskfile.yaml")}
	}
	for _, n := range names {
		data, err := c.readFile(n)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, opaque("task.include", tf.file+": the Taskfile included as "+ns+" ("+n+") cannot be read ("+err.Error()+")")
		}
		var doc yaml.Node
		if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
			return nil, opaque("script.unreadable", n+" cannot be read as YAML, so what task runs cannot be known")
		}
		sub := &taskfile{file: n, tasks: yamlKey(doc.Content[0], "tasks"), includes: yamlKey(doc.Content[0], "includes"), loaded: map[string]*taskfile{}}
		tf.loaded[ns] = sub
		return sub, nothing
	}
	return nil, nothing
}
