package classify

import (
	"io/fs"
	"slices"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify/interp"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file reads the configuration files of build tools that name a
// program the tool runs (round 7's G1 class, FINDINGS-8 H11): cargo's
// .cargo/config.toml (build.rustc-wrapper, build.rustc, target.*.runner,
// target.*.linker, and the [alias] of the subcommand) in the directory
// cargo runs in, its parents and CARGO_HOME; and pnpm's .pnpmfile.cjs,
// JavaScript that pnpm loads when it resolves packages. Each is read at
// decision time, or from the literal text an earlier run of the same
// command writes it with (readScript); one written in a way airlock
// cannot read is opaque.

// cargoParents bounds how many parent directories cargo's configuration
// is looked for in.
const cargoParents = 8

// cargoConfigFiles lists the configuration files cargo reads for a run in
// the current directory, nearest first.
func cargoConfigFiles(inv *shell.Invocation) []string {
	var files []string
	up := ""
	for range cargoParents + 1 {
		files = append(files, up+".cargo/config.toml", up+".cargo/config")
		up += "../"
	}
	home := "~/.cargo"
	if h, set := inv.Getenv("CARGO_HOME"); set && h != "" && !strings.ContainsAny(h, "$`") {
		home = strings.TrimSuffix(h, "/")
	}
	return append(files, home+"/config.toml", home+"/config")
}

// cargoSub returns a cargo run's subcommand (the first word that is not
// an option or a toolchain) and its index.
func cargoSub(inv *shell.Invocation) (string, int) {
	for i := 1; i < len(inv.Args); i++ {
		a := inv.Args[i]
		if strings.HasPrefix(a, "+") || strings.HasPrefix(a, "-") {
			if a == "-Z" || a == "--config" || a == "-C" || a == "--color" {
				i++
			}
			continue
		}
		return a, i
	}
	return "", 0
}

// cargoConfigRun rates the programs cargo's configuration files name for
// a run that builds or runs code, and the alias the subcommand is.
func (c *Classifier) cargoConfigRun(inv *shell.Invocation) Effect {
	sub, _ := cargoSub(inv)
	if sub == "" || c.FS == nil && c.cc == nil {
		return nothing
	}
	var e Effect
	for _, f := range cargoConfigFiles(inv) {
		data, failed, ok := c.readScript(inv, f, false)
		if !ok {
			if failed.Reasons != nil && failed.Reasons[0].Rule != "script.cwd" {
				e.Add(failed.through("cargo.config", "cargo reads "+f+", whose settings can name programs it runs"))
			}
			continue
		}
		for _, kv := range tomlKeys(string(data)) {
			key, value := kv.key, kv.value
			switch {
			case strings.HasPrefix(strings.ToLower(key), "alias.") && strings.TrimPrefix(key, "alias.") == sub:
				e.Add(c.embedded(f+" alias "+sub, "cargo "+tomlCommand(value), false))
			case cargoCompiles(sub) || sub == "install" || sub == "run" || sub == "r":
				if cargoCommandKey(key) {
					e.Add(c.embedded(f+" "+key, tomlCommand(value), false))
				}
			}
		}
	}
	return e
}

// tomlKeys returns the keys of a TOML text with their values as written,
// each key in full (section, then dotted key): [build] rustc-wrapper =
// "x" gives build.rustc-wrapper. A value that spans lines is read up to
// its closing bracket.
func tomlKeys(text string) []tomlKey {
	var out []tomlKey
	section := ""
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if strings.HasPrefix(t, "[") && !strings.Contains(t, "=") {
			section = strings.TrimSpace(strings.Trim(t, "[]"))
			continue
		}
		k, v, ok := strings.Cut(t, "=")
		if !ok {
			continue
		}
		line := i + 1
		k = strings.TrimSpace(k)
		var parts []string
		for _, p := range strings.Split(k, ".") {
			parts = append(parts, strings.Trim(strings.TrimSpace(p), `"'`))
		}
		k = strings.Join(parts, ".")
		v = strings.TrimSpace(v)
		for strings.HasPrefix(v, "[") && strings.Count(v, "[") > strings.Count(v, "]") && i+1 < len(lines) {
			i++
			v += " " + strings.TrimSpace(lines[i])
		}
		if j := strings.Index(v, " #"); j >= 0 && !strings.Contains(v[j:], `"`) {
			v = strings.TrimSpace(v[:j])
		}
		if section != "" {
			k = section + "." + k
		}
		out = append(out, tomlKey{key: k, value: v, line: line})
	}
	return out
}

// tomlKey is one key of a TOML text (tomlKeys), with the line it is on.
type tomlKey struct {
	key, value string
	line       int
}

// cargoConfigCommands returns the programs a cargo configuration file
// names (cargoCommandKey) and the cargo command lines of its aliases,
// with their lines, for a write of the file (laterfiles.go).
func cargoConfigCommands(content string) []makeLine {
	var out []makeLine
	for _, kv := range tomlKeys(content) {
		switch {
		case strings.HasPrefix(strings.ToLower(kv.key), "alias."):
			out = append(out, makeLine{line: kv.line, text: "cargo " + tomlCommand(kv.value)})
		case cargoCommandKey(kv.key):
			out = append(out, makeLine{line: kv.line, text: tomlCommand(kv.value)})
		}
	}
	return out
}

// miseHookCommands returns the commands of a mise configuration's
// [hooks] (enter, leave, cd, preinstall, postinstall: run by mise when
// the human's shell enters the directory or installs tools) and the
// scripts its [env] sources (_.source), with their lines.
func miseHookCommands(content string) []makeLine {
	var out []makeLine
	for _, kv := range tomlKeys(content) {
		k := strings.ToLower(kv.key)
		v := strings.TrimSpace(kv.value)
		switch {
		case strings.HasPrefix(k, "hooks."):
		case k == "env._.source" || strings.HasPrefix(k, "env._.source."):
			out = append(out, makeLine{line: kv.line, text: "source " + tomlCommand(v)})
			continue
		default:
			continue
		}
		if strings.HasPrefix(v, "{") {
			// enter = { script = "…" }
			_, rest, ok := strings.Cut(v, "script")
			if !ok {
				continue
			}
			_, rest, _ = strings.Cut(rest, "=")
			rest = strings.TrimSpace(rest)
			if end := strings.IndexAny(rest[min(1, len(rest)):], `"'`); end >= 0 && rest != "" {
				v = rest[:end+2]
			}
		}
		if strings.HasPrefix(v, "[") {
			// A list of commands, each run in turn.
			for _, w := range strings.Split(strings.Trim(v, "[]"), ",") {
				if w = strings.TrimSpace(w); w != "" {
					out = append(out, makeLine{line: kv.line, text: unquoteValue(w)})
				}
			}
			continue
		}
		out = append(out, makeLine{line: kv.line, text: unquoteValue(v)})
	}
	return out
}

// pnpmLoadsHooks reports a pnpm run that resolves packages, which loads
// the project's .pnpmfile.cjs (unless --ignore-pnpmfile), and the file
// it loads.
func pnpmLoadsHooks(inv *shell.Invocation) (string, bool) {
	if inv.Name() != "pnpm" || slices.Contains(inv.Args[1:], "--ignore-pnpmfile") {
		return "", false
	}
	file := ".pnpmfile.cjs"
	sub := ""
	for i := 1; i < len(inv.Args); i++ {
		a := inv.Args[i]
		switch {
		case a == "--pnpmfile" && i+1 < len(inv.Args):
			file = inv.Args[i+1]
			i++
		case strings.HasPrefix(a, "--pnpmfile="):
			file = strings.TrimPrefix(a, "--pnpmfile=")
		case strings.HasPrefix(a, "-"):
		case sub == "":
			sub = a
		}
	}
	switch sub {
	case "", "install", "i", "add", "update", "up", "upgrade", "remove", "rm", "un", "uninstall", "link", "ln",
		"import", "fetch", "dedupe", "rebuild", "rb", "prune", "install-test", "it", "dlx", "outdated", "why":
		return file, true
	}
	return "", false
}

// pnpmfileRun follows the .pnpmfile.cjs a pnpm run loads as the Node.js
// code it is.
func (c *Classifier) pnpmfileRun(inv *shell.Invocation) Effect {
	file, ok := pnpmLoadsHooks(inv)
	if !ok {
		return nothing
	}
	dynamic := strings.ContainsAny(file, "$`")
	if !dynamic && !c.cc.writtenElsewhere(inv, file) {
		// Not there (a new directory the command made and entered):
		// pnpm loads nothing.
		if _, err := c.statFile(file); err != nil {
			return nothing
		}
	}
	return c.interpScript(inv, "node", interp.JavaScript, file, dynamic)
}

// statFile stats a file as readScript would find it.
func (c *Classifier) statFile(name string) (fs.FileInfo, error) {
	if c.FS == nil {
		return nil, errNoFS
	}
	return c.FS.Stat(fsName(name))
}
