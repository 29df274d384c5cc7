package classify

import (
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
		"PIPX_BIN_DIR", "PIPX_HOME", "DENO_INSTALL_ROOT", "BUN_INSTALL_BIN":
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
	var ops []Operand
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
