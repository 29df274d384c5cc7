package classify

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// This file finds the files and directories a run writes because a
// variable of its environment names them: GOBIN=DIR go install writes
// DIR/NAME, GIT_INDEX_FILE=F git add writes F, GIT_TRACE=F appends to F.
// They are operands like any other (Operands), so self-protection reads
// them: a variable is only another spelling of -o.

// envWrite is what one variable names: a file written, or a directory
// (or directories below it) written in by names the data gives.
type envWrite struct {
	// file: the value is a file written (appended to, replaced).
	file bool
	// subdirs: the directories below the value that are written in
	// (GOPATH's bin and pkg); none means the value itself.
	subdirs []string
	// absOnly: only an absolute value names a file (GIT_TRACE=1 means
	// standard error, 2..9 a descriptor).
	absOnly bool
	// list: the value is a colon-separated list of files (KUBECONFIG).
	list bool
	// key: the value is an options string (NAME=V:NAME=V, or flags for
	// NODE_OPTIONS) and these keys name the files (ASAN_OPTIONS log_path).
	keys []string
	// below: the file written below the directory the value names
	// (DOCKER_CONFIG/config.json).
	below string
	// when: the run writes the file only when this holds (a tool's own
	// configuration, rewritten by its "config set" verbs); nil is always.
	when func(*shell.Invocation) bool
}

// envWrites maps a variable to what its value names. The homes of tools
// (GOPATH, CARGO_HOME, a prefix) are read as the directories the tools
// install into, not as a whole: a tool's own configuration lives there
// too, and writing the home is not writing it.
func envWrites(name string) (envWrite, bool) {
	switch name {
	case "GIT_INDEX_FILE":
		return envWrite{file: true}, true
	case "GOBIN", "GOCACHE", "GOMODCACHE", "GOTMPDIR", "CARGO_INSTALL_ROOT", "CARGO_TARGET_DIR", "PIP_TARGET",
		"npm_config_cache", "NPM_CONFIG_CACHE", "BUNDLE_PATH", "GEM_HOME", "PNPM_HOME", "UV_TOOL_BIN_DIR",
		"PIPX_BIN_DIR", "PIPX_HOME", "DENO_INSTALL_ROOT", "BUN_INSTALL_BIN",
		// uv and pipx install tools' programs into XDG_BIN_HOME.
		"XDG_BIN_HOME", "UV_INSTALL_DIR", "UV_PYTHON_BIN_DIR", "PIPX_GLOBAL_BIN_DIR":
		return envWrite{}, true
	case "GOPATH":
		return envWrite{subdirs: []string{"bin", "pkg"}}, true
	case "CARGO_HOME":
		return envWrite{subdirs: []string{"bin", "registry", "git"}}, true
	case "npm_config_prefix", "NPM_CONFIG_PREFIX", "PIP_PREFIX", "PYTHONUSERBASE", "BUN_INSTALL", "DENO_INSTALL":
		return envWrite{subdirs: []string{"bin", "lib"}}, true
	}
	if strings.HasPrefix(name, "GIT_TRACE") {
		return envWrite{file: true, absOnly: true}, true
	}
	return envFileWrites(name)
}

// envFileWrites is the table of variables that name a file a program
// writes or appends to as it runs (FINDINGS-9 S5), and of those that name
// a tool's own configuration, which its configuring verbs rewrite (S6).
// A variable is only another spelling of the flag of the same meaning
// (SSLKEYLOGFILE of curl --trace, PIP_LOG of pip --log), so the file is an
// operand written like the flag's. Examples, each refused when the value
// names a protected file and allowed for a file of the project or scratch:
//
//	SSLKEYLOGFILE=F curl|wget|git|python3|…   appends TLS secrets to F
//	PIP_LOG=F pip install …                    appends pip's log to F
//	HISTFILE=F bash -i, LESSHISTFILE=F less    rewrite a history file F
//	NODE_OPTIONS=--tls-keylog=F npm …          node appends TLS secrets
//	ASAN_OPTIONS=log_path=F ./app              writes F.PID
//	NPM_CONFIG_USERCONFIG=F npm config set …   rewrites F as ini
//	KUBECONFIG=F kubectl config set-context …  rewrites F as a kubeconfig
func envFileWrites(name string) (envWrite, bool) {
	if strings.HasPrefix(strings.ToLower(name), "npm_config_") {
		// npm reads its variables whatever their case.
		switch strings.ToLower(name) {
		case "npm_config_userconfig", "npm_config_globalconfig":
			return envWrite{file: true, when: npmConfigWrite}, true
		case "npm_config_logs_dir", "npm_config_cache":
			return envWrite{}, true
		}
		return envWrite{}, false
	}
	switch name {
	case "SSLKEYLOGFILE", "PIP_LOG", "PIP_LOG_FILE", "HISTFILE", "LESSHISTFILE", "NODE_REPL_HISTORY",
		"PYTHON_HISTORY", "SQLITE_HISTORY", "MYSQL_HISTFILE", "PSQL_HISTORY", "REDISCLI_HISTFILE",
		"LD_DEBUG_OUTPUT", "LLVM_PROFILE_FILE", "MALLOC_TRACE", "GCOV_PREFIX", "GDBHISTFILE", "R_HISTFILE",
		// compiler caches' logs
		"CCACHE_LOGFILE", "SCCACHE_ERROR_LOG", "DISTCC_LOG":
		if name == "GCOV_PREFIX" {
			return envWrite{}, true
		}
		return envWrite{file: true}, true
	case "GOCOVERDIR", "NODE_V8_COVERAGE", "GNUPGHOME", "CLOUDSDK_CONFIG":
		return envWrite{}, true
	case "ASAN_OPTIONS", "UBSAN_OPTIONS", "TSAN_OPTIONS", "MSAN_OPTIONS", "LSAN_OPTIONS", "HWASAN_OPTIONS":
		return envWrite{file: true, keys: []string{"log_path"}}, true
	case "NODE_OPTIONS":
		return envWrite{file: true, keys: []string{"--tls-keylog", "--redirect-warnings", "--cpu-prof-dir", "--heap-prof-dir", "--diagnostic-dir", "--report-dir", "--report-directory"}}, true
	case "KUBECONFIG":
		return envWrite{file: true, list: true, when: kubeConfigWrite}, true
	case "XAUTHORITY":
		return envWrite{file: true, when: xauthWrite}, true
	case "GIT_CONFIG":
		return envWrite{file: true, when: gitConfigWrite("")}, true
	case "GIT_CONFIG_GLOBAL":
		return envWrite{file: true, when: gitConfigWrite("--global")}, true
	case "GIT_CONFIG_SYSTEM":
		return envWrite{file: true, when: gitConfigWrite("--system")}, true
	case "HOME":
		// git config --global writes $HOME/.gitconfig.
		return envWrite{file: true, below: ".gitconfig", when: gitConfigWrite("--global")}, true
	case "XDG_CONFIG_HOME":
		return envWrite{file: true, below: "git/config", when: gitConfigWrite("--global")}, true
	case "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE":
		return envWrite{file: true, when: awsConfigWrite}, true
	case "GOENV":
		// go env -w and -u rewrite go's environment file.
		return envWrite{file: true, when: goEnvWrite}, true
	case "PIP_CONFIG_FILE":
		return envWrite{file: true, when: verbs("pip", "config", "set", "unset", "edit")}, true
	case "DOCKER_CONFIG":
		return envWrite{file: true, below: "config.json", when: dockerConfigWrite}, true
	}
	return envWrite{}, false
}

// runArgs returns the run's program (base name) and its words after it.
func runArgs(inv *shell.Invocation) (string, []string) {
	if len(inv.Args) == 0 {
		return "", nil
	}
	return path.Base(inv.Args[0]), inv.Args[1:]
}

// firstWords returns the first n words of args that are not flags.
func firstWords(args []string, n int) []string {
	var out []string
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		out = append(out, a)
		if len(out) == n {
			break
		}
	}
	return out
}

// verbs reports a run of prog whose first word is verb and second one of
// subs (pip config set).
func verbs(prog, verb string, subs ...string) func(*shell.Invocation) bool {
	return func(inv *shell.Invocation) bool {
		name, args := runArgs(inv)
		if name != prog && !strings.HasPrefix(name, prog) {
			return false
		}
		w := firstWords(args, 2)
		if len(w) < 2 || w[0] != verb {
			return false
		}
		for _, s := range subs {
			if w[1] == s {
				return true
			}
		}
		return false
	}
}

func npmConfigWrite(inv *shell.Invocation) bool {
	name, args := runArgs(inv)
	switch name {
	case "npm", "pnpm", "yarn", "npx", "corepack":
	default:
		return false
	}
	w := firstWords(args, 2)
	if len(w) == 0 {
		return false
	}
	switch w[0] {
	case "set", "login", "adduser", "add-user", "logout", "token":
		return true
	case "config", "c":
		return len(w) < 2 || w[1] != "get" && w[1] != "list" && w[1] != "ls"
	}
	return false
}

func kubeConfigWrite(inv *shell.Invocation) bool {
	name, args := runArgs(inv)
	w := firstWords(args, 3)
	switch name {
	case "kubectl", "oc", "kubectx", "kubens":
		if name == "kubectx" || name == "kubens" {
			return len(w) > 0
		}
		// kubectl --context x config set-context y: the first word that
		// is no flag's value.
		for i, a := range args {
			if strings.HasPrefix(a, "-") {
				continue
			}
			if i > 0 && strings.HasPrefix(args[i-1], "-") && !strings.Contains(args[i-1], "=") && a != "config" {
				continue // a flag's value
			}
			if a != "config" {
				return false
			}
			sub := firstWords(args[i+1:], 1)
			return len(sub) == 1 && sub[0] != "view" && sub[0] != "current-context" && !strings.HasPrefix(sub[0], "get-")
		}
		return false
	case "kind", "minikube", "k3d", "microk8s":
		return true
	case "aws":
		return len(w) >= 2 && w[0] == "eks" && w[1] == "update-kubeconfig"
	case "gcloud":
		return len(w) >= 3 && w[0] == "container" && w[2] == "get-credentials" || len(w) >= 3 && w[1] == "clusters" && w[2] == "get-credentials"
	case "az":
		return len(w) >= 2 && w[0] == "aks" && w[1] == "get-credentials"
	case "doctl":
		return len(w) > 0 && w[0] == "kubernetes"
	}
	return false
}

func goEnvWrite(inv *shell.Invocation) bool {
	name, args := runArgs(inv)
	if name != "go" || len(args) < 2 || args[0] != "env" {
		return false
	}
	for _, a := range args[1:] {
		if a == "-w" || a == "-u" || strings.HasPrefix(a, "-w=") || strings.HasPrefix(a, "-u=") {
			return true
		}
	}
	return false
}

func xauthWrite(inv *shell.Invocation) bool {
	name, args := runArgs(inv)
	if name != "xauth" {
		return false
	}
	w := firstWords(args, 1)
	if len(w) == 0 {
		return true // interactive: may add and remove
	}
	switch w[0] {
	case "list", "nlist", "info", "extract", "nextract", "version", "help", "?":
		return false
	}
	return true
}

// gitConfigWrite reports git config changing a value, with scope (for
// example --global) among its flags when scope is set.
func gitConfigWrite(scope string) func(*shell.Invocation) bool {
	return func(inv *shell.Invocation) bool {
		name, args := runArgs(inv)
		if name != "git" {
			return false
		}
		for i := 0; i < len(args); i++ {
			a := args[i]
			if strings.HasPrefix(a, "-") {
				if a == "-C" || a == "-c" {
					i++
				}
				continue
			}
			if a != "config" {
				return false
			}
			scoped := scope == ""
			for _, r := range args[i+1:] {
				switch r {
				case "--get", "--get-all", "--get-regexp", "--list", "-l", "--get-urlmatch", "--get-color", "--get-colorbool", "get", "list":
					return false
				case scope:
					scoped = true
				}
			}
			return scoped
		}
		return false
	}
}

func awsConfigWrite(inv *shell.Invocation) bool {
	name, args := runArgs(inv)
	if name != "aws" {
		return false
	}
	w := firstWords(args, 2)
	if len(w) == 0 || w[0] != "configure" {
		return false
	}
	if len(w) == 1 {
		return true
	}
	switch w[1] {
	case "get", "list", "list-profiles", "export-credentials":
		return false
	}
	return true
}

func dockerConfigWrite(inv *shell.Invocation) bool {
	name, args := runArgs(inv)
	if name != "docker" && name != "podman" {
		return false
	}
	w := firstWords(args, 2)
	if len(w) == 0 {
		return false
	}
	switch w[0] {
	case "login", "logout":
		return true
	case "context":
		return len(w) > 1 && w[1] != "ls" && w[1] != "list" && w[1] != "inspect" && w[1] != "show"
	}
	return false
}

// envKeyValues returns the values of keys in an options variable:
// ASAN_OPTIONS's log_path=F (NAME=V separated by ':', ',' or spaces) and
// NODE_OPTIONS's --flag=F or --flag F.
func envKeyValues(value string, keys []string) []string {
	var out []string
	fields := strings.FieldsFunc(value, func(r rune) bool { return r == ':' || r == ',' || r == ' ' || r == '\t' })
	if strings.HasPrefix(keys[0], "--") {
		fields = strings.Fields(value)
	}
	for i, f := range fields {
		k, v, ok := strings.Cut(f, "=")
		for _, key := range keys {
			if k != key {
				continue
			}
			if !ok && strings.HasPrefix(key, "--") && i+1 < len(fields) {
				v, ok = fields[i+1], true
			}
			if ok && v != "" {
				out = append(out, strings.Trim(v, "'\""))
			}
		}
	}
	return out
}

// envOperands returns the operands the run's environment names, and the
// outputs GOFLAGS gives go (-o=FILE and the other file-valued flags).
func envOperands(inv *shell.Invocation) []Operand {
	ops := goDefaultBin(inv)
	for _, kv := range inv.Env {
		name, value, _ := strings.Cut(kv, "=")
		dynamic := strings.ContainsAny(value, "$`")
		if name == "GOFLAGS" {
			ops = append(ops, goflagsOutputs(value, dynamic)...)
			continue
		}
		w, ok := envWrites(name)
		if !ok || value == "" {
			continue
		}
		if w.when != nil && !w.when(inv) {
			continue
		}
		if w.absOnly && !strings.HasPrefix(value, "/") && !strings.HasPrefix(value, "~") && !dynamic {
			continue
		}
		values := filepath.SplitList(value)
		switch {
		case len(w.keys) > 0:
			values = envKeyValues(value, w.keys)
		case w.file && !w.list:
			values = []string{unquoteValue(value)}
		}
		if w.below != "" {
			for i, v := range values {
				values[i] = strings.TrimSuffix(v, "/") + "/" + w.below
			}
		}
		// GOPATH and its like may list several directories.
		for _, v := range values {
			if v == "" {
				continue
			}
			if bins, ok := goInstallNames(inv); ok && (name == "GOBIN" || name == "GOPATH") {
				// go install of named packages writes one file each,
				// named after the package: those files, not the whole
				// directory.
				dir := strings.TrimSuffix(v, "/")
				if name == "GOPATH" {
					dir += "/bin"
				}
				for _, b := range bins {
					ops = append(ops, Operand{Word: dir + "/" + b, Role: RoleWrite, Arg: -1, Dynamic: dynamic})
				}
				continue
			}
			switch {
			case w.file:
				ops = append(ops, Operand{Word: v, Role: RoleWrite, Arg: -1, Dynamic: dynamic})
			case len(w.subdirs) == 0:
				ops = append(ops, Operand{Word: v, Role: RoleWrite, Arg: -1, Dynamic: dynamic, Recursive: true, Unlisted: true})
			default:
				for _, sub := range w.subdirs {
					ops = append(ops, Operand{Word: strings.TrimSuffix(v, "/") + "/" + sub, Role: RoleWrite, Arg: -1, Dynamic: dynamic, Recursive: true, Unlisted: true})
				}
			}
		}
	}
	return ops
}

// goDefaultBin adds, for a go install of named packages with neither
// GOBIN nor GOPATH in the run's environment, the files it writes in go's
// default directory (~/go/bin): go install ./cmd/airlock-hook in a
// repository that has one would replace airlock's own binary there. The
// user's own GOBIN, set outside the command, is not seen here.
func goDefaultBin(inv *shell.Invocation) []Operand {
	names, ok := goInstallNames(inv)
	if !ok {
		return nil
	}
	if _, set := inv.Getenv("GOBIN"); set {
		return nil
	}
	if _, set := inv.Getenv("GOPATH"); set {
		return nil
	}
	ops := make([]Operand, 0, len(names))
	for _, n := range names {
		ops = append(ops, Operand{Word: "~/go/bin/" + n, Role: RoleWrite, Arg: -1})
	}
	return ops
}

// goflagsOutputs reads the file-valued flags of GOFLAGS (space-separated
// -flag=value words, as go reads them).
func goflagsOutputs(value string, dynamic bool) []Operand {
	var ops []Operand
	for _, f := range strings.Fields(value) {
		name, v, ok := strings.Cut(strings.TrimLeft(f, "-"), "=")
		if !ok {
			continue
		}
		switch name {
		case "o", "coverprofile", "cpuprofile", "memprofile", "blockprofile", "mutexprofile", "trace", "outputdir", "pkgdir":
			ops = append(ops, Operand{Word: v, Role: RoleWrite, Arg: -1, Dynamic: dynamic, Recursive: name == "outputdir" || name == "pkgdir", Unlisted: name == "outputdir" || name == "pkgdir"})
		}
	}
	return ops
}

// goInstallNames returns the names of the programs a go install of named
// packages writes (go get only edits go.mod since modules):
// the last element of each package path, before any @version, skipping a
// major-version suffix (example.com/x/v2 installs x). false when the run
// is not that, or a pattern (./...) or a dynamic word leaves the names
// open.
func goInstallNames(inv *shell.Invocation) ([]string, bool) {
	args := inv.Args
	if len(args) < 3 || inv.Name() != "go" || args[1] != "install" {
		return nil, false
	}
	var names []string
	for i := 2; i < len(args); i++ {
		a := args[i]
		if inv.IsDynamic(i) {
			return nil, false
		}
		if strings.HasPrefix(a, "-") {
			if !strings.Contains(a, "=") && goValueFlag(a) {
				i++
			}
			continue
		}
		pkg, _, _ := strings.Cut(a, "@")
		if strings.Contains(pkg, "...") || pkg == "" || pkg == "." || pkg == ".." {
			return nil, false
		}
		pkg = strings.TrimSuffix(pkg, "/")
		base := path.Base(pkg)
		if len(base) > 1 && base[0] == 'v' && isDigits(base[1:]) {
			base = path.Base(path.Dir(pkg))
		}
		if base == "." || base == "/" || base == ".." {
			return nil, false
		}
		names = append(names, base)
	}
	return names, len(names) > 0
}

// goValueFlag reports a go build flag that takes the next word as its
// value.
func goValueFlag(f string) bool {
	switch strings.TrimLeft(f, "-") {
	case "o", "C", "p", "tags", "ldflags", "gcflags", "asmflags", "mod", "modfile", "overlay", "pkgdir", "toolexec", "exec", "buildmode", "compiler", "installsuffix", "pgo", "covermode", "coverpkg":
		return true
	}
	return false
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}
