package classify

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// This file reads the variables that make a program run or load code the
// variable does not hold as a command line: flags given through the
// environment (GOFLAGS=-toolexec=X, TAR_OPTIONS=--to-command=X,
// MAKEFLAGS='SHELL=X', RUSTFLAGS='-C linker=X'), and the interpreters'
// preloads (NODE_OPTIONS=--require FILE, PERL5OPT=-MMod, RUBYOPT=-rFILE,
// PYTHONSTARTUP=FILE). A preloaded library (LD_PRELOAD) is rated like a
// project's compiled program, which it is: local, and fenced only when
// contained. What they run is classified as the
// command it is (its runs reach self-protection through embedded), and
// a preload of a file is the run of that file by its interpreter, so
// that the file is read like a script.

// envCode returns the command lines a run's environment makes it run.
func envCode(inv *shell.Invocation) (setting, text string, found bool, opaqueWhy string) {
	if inv.Name() == "cmake" {
		// cmake -DCMAKE_C_COMPILER_LAUNCHER=./x.sh stores the program in
		// the build's cache, and the build runs it for every compile: the
		// same setting as the variable below, given as a definition.
		for i := 1; i < len(inv.Args); i++ {
			a, at := inv.Args[i], i
			var def string
			switch {
			case a == "-D" && i+1 < len(inv.Args):
				def, at = inv.Args[i+1], i+1
				i++
			case strings.HasPrefix(a, "-D"):
				def = a[2:]
			default:
				continue
			}
			name, val, ok := strings.Cut(def, "=")
			name, _, _ = strings.Cut(name, ":")
			if !ok || !cmakeRunsProgram(name) || strings.TrimSpace(unquoteValue(val)) == "" {
				continue
			}
			if inv.IsDynamic(at) {
				return "", "", false, "cmake -D" + name + " names a program known only when the command runs"
			}
			return "cmake -D" + name, strings.TrimSpace(unquoteValue(val)), true, ""
		}
	}
	for _, kv := range inv.Env {
		name, value, _ := strings.Cut(kv, "=")
		v := strings.TrimSpace(unquoteValue(value))
		if v == "" {
			continue
		}
		switch {
		case name == "GOFLAGS":
			for _, f := range strings.Fields(v) {
				flag, val, ok := strings.Cut(strings.TrimLeft(f, "-"), "=")
				if ok && (flag == "toolexec" || flag == "exec" || flag == "vettool") {
					return name + " -" + flag, val, true, ""
				}
			}
		case name == "TAR_OPTIONS":
			for _, f := range strings.Fields(v) {
				flag, val, ok := strings.Cut(f, "=")
				if ok && (flag == "--to-command" || flag == "--use-compress-program" || flag == "--info-script" || flag == "--new-volume-script" || flag == "--rsh-command" || flag == "--rmt-command") {
					return name + " " + flag, val, true, ""
				}
				if ok && flag == "--checkpoint-action" {
					if cmd, isExec := strings.CutPrefix(val, "exec="); isExec {
						return name + " " + flag, cmd, true, ""
					}
				}
			}
		case name == "MAKEFLAGS" || name == "MFLAGS" || name == "GNUMAKEFLAGS":
			for _, f := range strings.Fields(v) {
				if sh, ok := strings.CutPrefix(f, "SHELL="); ok {
					return name + " SHELL", sh + " -c true", true, ""
				}
			}
		case name == "RUSTFLAGS" || name == "RUSTDOCFLAGS" || name == "CARGO_ENCODED_RUSTFLAGS" || strings.HasPrefix(name, "CARGO_TARGET_") && strings.HasSuffix(name, "_RUSTFLAGS"):
			words := strings.FieldsFunc(v, func(r rune) bool { return r == ' ' || r == '\t' || r == '\x1f' })
			for i, w := range words {
				w = strings.TrimPrefix(w, "-C")
				if i > 0 && words[i-1] == "-C" || strings.HasPrefix(words[i], "-C") {
					if l, ok := strings.CutPrefix(w, "linker="); ok {
						return name + " linker", l, true, ""
					}
				}
			}
		case cmakeRunsProgram(name):
			return name, v, true, ""
		case name == "NODE_OPTIONS":
			words := strings.Fields(v)
			for i := 0; i < len(words); i++ {
				flag, val, ok := strings.Cut(words[i], "=")
				switch flag {
				case "--require", "-r", "--import", "--loader", "--experimental-loader":
					if !ok && i+1 < len(words) {
						val, ok = words[i+1], true
					}
					if ok {
						return name + " " + flag, "node " + shell.Join([]string{val}), true, ""
					}
				}
			}
		case name == "PERL5OPT":
			if strings.Contains(v, "-M") || strings.Contains(v, "-m") || strings.Contains(v, "-d") {
				return "", "", false, name + " makes perl load modules (" + clip(v) + ") that airlock does not read"
			}
		case name == "RUBYOPT":
			for _, w := range strings.Fields(v) {
				if f, ok := strings.CutPrefix(w, "-r"); ok && f != "" {
					if strings.ContainsAny(f, "/.") {
						return name + " -r", "ruby " + shell.Join([]string{f + rbSuffix(f)}), true, ""
					}
					return "", "", false, name + " makes ruby load " + f + ", which airlock does not read"
				}
			}
		case name == "PYTHONSTARTUP":
			return name, "python3 " + shell.Join([]string{v}), true, ""
		}
	}
	return "", "", false, ""
}

// cmakeRunsProgram reports a CMake setting (a variable of the
// environment or a -D definition) that names a program the build runs:
// a compiler launcher, a compiler, a linker, the build tool.
func cmakeRunsProgram(name string) bool {
	if !strings.HasPrefix(name, "CMAKE_") {
		return false
	}
	return strings.HasSuffix(name, "_LAUNCHER") || strings.HasSuffix(name, "_COMPILER") ||
		strings.HasSuffix(name, "_LINKER") || name == "CMAKE_MAKE_PROGRAM"
}

func rbSuffix(f string) string {
	if strings.HasSuffix(f, ".rb") {
		return ""
	}
	return ".rb"
}

// envCodeEffect classifies what envCode finds.
func (c *Classifier) envCodeEffect(inv *shell.Invocation) Effect {
	setting, text, found, why := envCode(inv)
	switch {
	case why != "":
		return opaque("env.code", why)
	case found:
		return c.embedded(setting, text, strings.ContainsAny(text, "$`"))
	}
	return nothing
}
