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
	return envWrite{}, false
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
		if w.absOnly && !strings.HasPrefix(value, "/") && !strings.HasPrefix(value, "~") && !dynamic {
			continue
		}
		// GOPATH and its like may list several directories.
		for _, v := range filepath.SplitList(value) {
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
