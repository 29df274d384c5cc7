package classify

import (
	"encoding/json"
	"path"
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// This file reads what installing the project's own package puts on the
// PATH: npm link, npm install -g ., pip install --user ., pipx install .,
// cargo install --path . install the executables its manifest names
// (package.json "bin", pyproject's [project.scripts], Cargo's [[bin]]).
// One named like an agent's CLI or airlock's own programs is found before
// them, or replaces them, at the next session (FINDINGS-9 A1): the run is
// opaque, so held. npm pkg set bin.NAME=… with such a name is the same.

// installedBins returns the executables a run installs from a local
// package, and the manifest they come from; ok is false for a run that
// installs nothing from a local package.
func (c *Classifier) installedBins(inv *shell.Invocation) (bins []string, from string, ok bool) {
	args := inv.Args
	name := inv.Name()
	local := func(w string) bool {
		return w == "." || strings.HasPrefix(w, "./") || strings.HasPrefix(w, "/") || strings.HasPrefix(w, "../")
	}
	dir := ""
	switch name {
	case "npm", "pnpm", "yarn", "bun":
		if len(args) < 2 {
			return nil, "", false
		}
		sub := args[1]
		global := hasAny(args[2:], "-g", "--global")
		switch {
		case sub == "link" && (len(args) == 2 || local(args[2])):
			if len(args) > 2 {
				dir = args[2]
			}
		case (sub == "install" || sub == "i" || sub == "add") && global:
			for _, a := range args[2:] {
				if local(a) {
					dir = a
				}
			}
			if dir == "" {
				return nil, "", false
			}
		default:
			return nil, "", false
		}
		f := path.Join(dir, "package.json")
		data, err := c.readFile(f)
		if err != nil {
			return nil, "", false
		}
		return npmBins(data), f, true
	case "pip", "pip3", "pipx", "uv":
		i := 1
		if name == "uv" {
			if len(args) < 3 || args[1] != "tool" {
				return nil, "", false
			}
			i = 2
		}
		if len(args) <= i || args[i] != "install" {
			return nil, "", false
		}
		if (name == "pip" || name == "pip3") && !hasAny(args[i+1:], "--user") {
			return nil, "", false // into a virtual environment, not the PATH an agent starts from
		}
		for _, a := range args[i+1:] {
			if local(a) {
				dir = a
			}
		}
		if dir == "" {
			return nil, "", false
		}
		f := path.Join(dir, "pyproject.toml")
		data, err := c.readFile(f)
		if err != nil {
			return nil, "", false
		}
		for _, kv := range tomlKeys(string(data)) {
			for _, p := range []string{"project.scripts.", "project.gui-scripts.", "tool.poetry.scripts."} {
				if s, ok := strings.CutPrefix(kv.key, p); ok {
					bins = append(bins, strings.Trim(s, `"'`))
				}
			}
		}
		return bins, f, true
	case "cargo":
		if len(args) < 2 || args[1] != "install" {
			return nil, "", false
		}
		for i := 2; i < len(args)-1; i++ {
			if args[i] == "--path" {
				dir = args[i+1]
			}
		}
		if dir == "" {
			return nil, "", false
		}
		f := path.Join(dir, "Cargo.toml")
		data, err := c.readFile(f)
		if err != nil {
			return nil, "", false
		}
		for _, kv := range tomlKeys(string(data)) {
			if kv.key == "bin.name" || kv.key == "package.name" {
				bins = append(bins, strings.Trim(kv.value, `"'`))
			}
		}
		return bins, f, true
	}
	return nil, "", false
}

// npmBins reads package.json's "bin": an object of names, or one path
// installed under the package's name.
func npmBins(data []byte) []string {
	var m struct {
		Name string          `json:"name"`
		Bin  json.RawMessage `json:"bin"`
	}
	if json.Unmarshal(data, &m) != nil || len(m.Bin) == 0 {
		return nil
	}
	var one string
	if json.Unmarshal(m.Bin, &one) == nil {
		return []string{path.Base(m.Name)}
	}
	var many map[string]string
	if json.Unmarshal(m.Bin, &many) != nil {
		return nil
	}
	var out []string
	for k := range many {
		out = append(out, k)
	}
	return out
}

// guardedProgram reports a program name an agent or airlock is started
// by: an agent's CLI, or airlock's own programs.
func guardedProgram(name string) bool {
	return IsAgent(name) || name == "airlock" || strings.HasPrefix(name, "airlock-")
}

// installsGuarded rates a run that installs a local package's executable
// named like an agent's CLI or airlock's, and npm pkg set of such a bin.
func (c *Classifier) installsGuarded(inv *shell.Invocation) Effect {
	if inv.Name() == "npm" && len(inv.Args) > 3 && inv.Args[1] == "pkg" && inv.Args[2] == "set" {
		for _, a := range inv.Args[3:] {
			k, v, _ := strings.Cut(a, "=")
			b, ok := strings.CutPrefix(k, "bin.")
			if rest, br := strings.CutPrefix(k, "bin["); br {
				// npm's bracket notation: bin[claude], bin["claude"].
				b, ok = strings.Trim(strings.TrimSuffix(rest, "]"), `"'`), true
			}
			if k == "name" {
				b, ok = path.Base(strings.Trim(v, `"'`)), true // a "bin" path installs under the package's name
			}
			if ok && guardedProgram(b) {
				return opaque("install.guarded-bin", "npm pkg set "+clip(a)+" makes the package install a program named "+clip(b)+", like the agent's or airlock's own: ask the human")
			}
			if k == "bin" {
				return opaque("install.guarded-bin", "npm pkg set bin replaces the programs the package installs: ask the human")
			}
		}
	}
	bins, from, ok := c.installedBins(inv)
	if !ok {
		return nothing
	}
	for _, b := range bins {
		if guardedProgram(b) {
			return opaque("install.guarded-bin", inv.Name()+" installs "+clip(b)+" (from "+clip(from)+"), a program named like the agent's or airlock's own, which a later session would start instead: ask the human")
		}
	}
	return nothing
}
