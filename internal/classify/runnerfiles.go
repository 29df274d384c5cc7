package classify

import (
	"encoding/json"
	"path"
	"slices"
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/classify/interp"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file reads the script files package runners hand to an
// interpreter (FINDINGS-9 P12 and P16), as python3 x.py and node x.js
// are read: uv run x.py, uv run --script x (any name), pdm, pipx, hatch,
// rye and pixi run x.py; bun run x.ts; and yarn, pnpm and bun given a
// name that is no script of package.json (yarn run node x.cjs, pnpm
// node x.cjs), which run the program of that name with its arguments;
// and the task turbo, nx and lerna run (monorepoTask), whose root
// package.json script is followed as npm run's is (runners.go).

// scriptInterp returns the interpreter a runner hands a file to by its
// extension, and the language its code is read as; "" when the
// extension names no script.
func scriptInterp(name string) (who, lang string) {
	switch path.Ext(name) {
	case ".py", ".pyw":
		return "python3", interp.Python
	case ".js", ".cjs", ".mjs", ".jsx", ".ts", ".cts", ".mts", ".tsx":
		return "node", interp.JavaScript
	}
	return "", ""
}

// runnerScript rates the file inv.Args[at] that a runner hands to an
// interpreter: who and lang when the runner is told the word is a script
// (uv run --script), else those of its extension. The file is read where
// it is, or from the text an earlier run of the command writes it with;
// false when the word names no such file (it is then a program's name,
// rated as one).
func (c *Classifier) runnerScript(inv *shell.Invocation, at int, who, lang string) (Effect, bool) {
	if at >= len(inv.Args) {
		return nothing, false
	}
	name := inv.Args[at]
	if inv.IsDynamic(at) {
		if who == "" {
			return nothing, false
		}
		return opaque("script.dynamic", inv.Name()+" runs a script named at run time ("+clip(name)+")"), true
	}
	if who == "" {
		who, lang = scriptInterp(name)
	}
	if who == "" || !c.existsOrWritten(inv, name) {
		return nothing, false
	}
	return c.interpScript(inv, who, lang, name, false).through("runner.script", inv.Name()+" runs "+clip(name)+" with "+who), true
}

// packageBinRun rates yarn, pnpm and bun given a name that is no script
// of package.json (yarn run node x.cjs, yarn tsx x.ts, pnpm node x.cjs,
// bun run node x.cjs): they run the program of that name, a dependency's
// or node itself, with the words after it. bun run FILE runs the file.
func (c *Classifier) packageBinRun(inv *shell.Invocation) Effect {
	tool := inv.Name()
	switch tool {
	case "yarn", "yarnpkg", "pnpm", "bun":
	default:
		return nothing
	}
	p := argv.Spec{Short: "wC", Long: []string{"--prefix", "--workspace", "--filter", "--dir", "--cwd", "--reporter", "--loglevel"}, StopAtOperand: true}.Parse(inv.Args[1:])
	at := 1 + p.Rest
	if at >= len(inv.Args) || inv.IsDynamic(at) {
		return nothing // a dynamic name is rated by the spec
	}
	switch w := inv.Args[at]; {
	case w == "run" || w == "run-script":
		// The options of run itself (bun run --bun x.ts) come before
		// the name.
		rp := argv.Spec{Long: []string{"--filter", "--cwd", "--workspace"}, StopAtOperand: true}.Parse(inv.Args[at+1:])
		at += 1 + rp.Rest
	case tool == "bun":
		return nothing // bun FILE is bun's own run of the file (interp)
	case tool == "pnpm" && w == "node":
		// No pnpm command: a script of that name, or the program.
	case yarnBuiltins(w):
		return nothing
	}
	if at >= len(inv.Args) || inv.IsDynamic(at) {
		return nothing
	}
	name := inv.Args[at]
	if tool == "bun" && scriptInterpOK(name) {
		if e, ok := c.runnerScript(inv, at, "bun", interp.JavaScript); ok {
			return e
		}
	}
	if c.packageScript(inv, name) {
		return nothing // the script is followed by packageScripts
	}
	return publishRun(c, inv, at, name, false)
}

// scriptInterpOK reports a name whose extension names a script.
func scriptInterpOK(name string) bool {
	who, _ := scriptInterp(name)
	return who != ""
}

// packageScript reports whether package.json (where the run reads it)
// has a script of that name; true when it cannot be read, so that a
// name is not taken for a program when it may be a script.
func (c *Classifier) packageScript(inv *shell.Invocation, name string) bool {
	data, _, ok := c.readScript(inv, "package.json", false)
	if !ok {
		if exists, known := c.exists("package.json"); known && !exists {
			return false
		}
		return true
	}
	var pkg struct {
		Scripts map[string]json.RawMessage `json:"scripts"`
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		return true
	}
	_, ok = pkg.Scripts[name]
	return ok
}

// monorepoTask returns the task turbo, nx or lerna runs: turbo run X,
// turbo X, nx run PROJECT:X, nx X, nx run-many -t X, lerna run X; "" for
// their own commands.
func monorepoTask(inv *shell.Invocation) string {
	ops, _ := operandWords(inv)
	if len(ops) == 0 {
		return ""
	}
	switch tool, cmd := inv.Name(), ops[0]; {
	case cmd == "run" && len(ops) > 1:
		if _, task, ok := strings.Cut(ops[1], ":"); ok && tool == "nx" {
			return task
		}
		return ops[1]
	case tool == "nx" && (cmd == "run-many" || cmd == "affected"):
		for j, a := range inv.Args {
			if (a == "-t" || a == "--target" || a == "--targets") && j+1 < len(inv.Args) {
				return strings.Split(inv.Args[j+1], ",")[0]
			}
			if v, ok := strings.CutPrefix(a, "--target="); ok {
				return strings.Split(v, ",")[0]
			}
			if v, ok := strings.CutPrefix(a, "--targets="); ok {
				return strings.Split(v, ",")[0]
			}
		}
	case tool == "turbo" && !slices.Contains([]string{"login", "logout", "link", "unlink", "prune", "daemon", "gen", "generate", "ls", "info", "telemetry", "bin", "completion", "query", "scan", "watch", "boundaries"}, cmd),
		tool == "nx" && !slices.Contains([]string{"add", "generate", "g", "graph", "init", "migrate", "list", "report", "reset", "show", "connect", "format", "format:check", "format:write", "daemon", "repair", "sync", "release", "view-logs", "exec", "watch", "import"}, cmd):
		return cmd
	}
	return ""
}
