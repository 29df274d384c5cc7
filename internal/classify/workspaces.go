package classify

import (
	"encoding/json"
	"io/fs"
	"path"
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// This file follows the scripts of the workspaces a package manager is
// told to run in (FINDINGS-10 N1, the selectors beside the directory
// options of rundir.go): npm -w W / --workspace=W / -ws, pnpm --filter W /
// -F W / -r, yarn workspace W. W is a directory of the project or a
// package's name, looked up in the workspaces the root package.json (or
// pnpm-workspace.yaml) lists. Each selected workspace's scripts are read
// as npm run's are, from its directory; a selector airlock cannot resolve
// (a name no workspace has, a pattern, a value known at run time) is
// opaque.

// maxWorkspaces bounds the workspace directories read for one run.
const maxWorkspaces = 64

// workspaceRuns rates the scripts of the workspaces a run selects.
func (c *Classifier) workspaceRuns(inv *shell.Invocation) Effect {
	if c.FS == nil {
		return nothing
	}
	sel, all, bare, dyn := workspaceSelectors(inv)
	if dyn {
		return opaque("workspace.dynamic", inv.Name()+" runs in a workspace named at run time, whose scripts airlock cannot read; name it")
	}
	if len(sel) == 0 && !all {
		return nothing
	}
	names := scriptNames(bare)
	if len(names) == 0 {
		return nothing
	}
	var dirs []string
	if all {
		dirs = c.workspaceDirs()
	}
	for _, s := range sel {
		d, ok := c.workspaceDir(s)
		if !ok && !c.hasWorkspaces() {
			// No workspaces: the tool finds none either and runs
			// nothing there.
			continue
		}
		if !ok {
			return opaque("workspace.unknown", inv.Name()+" runs in the workspace "+clip(s)+", which airlock cannot find in the project; run it from the workspace's directory")
		}
		dirs = append(dirs, d)
	}
	var e Effect
	saved := c.FS
	for _, d := range dirs {
		c.FS = within(saved, d)
		e.Add(c.scriptsNamed(inv, names).through("workspace.script", inv.Name()+" runs the scripts of the workspace "+clip(d)))
		c.FS = saved
	}
	return e
}

// workspaceSelectors returns the workspaces a run names, whether it
// selects them all, the run without its selectors (for scriptNames), and
// whether a selector is known only at run time.
func workspaceSelectors(inv *shell.Invocation) (sel []string, all bool, bare *shell.Invocation, dynamic bool) {
	tool := inv.Name()
	b := *inv
	b.Args, b.Dynamic = []string{inv.Args[0]}, []bool{inv.IsDynamic(0)}
	keep := func(i int) {
		b.Args = append(b.Args, inv.Args[i])
		b.Dynamic = append(b.Dynamic, inv.IsDynamic(i))
	}
	var flags []string
	switch tool {
	case "npm":
		flags = []string{"-w", "--workspace"}
	case "pnpm":
		flags = []string{"--filter", "-F", "--filter-prod"}
	case "yarn", "yarnpkg":
		// yarn workspace NAME CMD…
		if len(inv.Args) > 3 && inv.Args[1] == "workspace" {
			if inv.IsDynamic(2) {
				return nil, false, inv, true
			}
			for i := 3; i < len(inv.Args); i++ {
				keep(i)
			}
			return []string{inv.Args[2]}, false, &b, false
		}
		return nil, false, inv, false
	default:
		return nil, false, inv, false
	}
	for i := 1; i < len(inv.Args); i++ {
		a := inv.Args[i]
		if a == "--" {
			for ; i < len(inv.Args); i++ {
				keep(i)
			}
			break
		}
		switch {
		case tool == "npm" && (a == "-ws" || a == "--workspaces" || a == "--workspaces=true"),
			tool == "pnpm" && (a == "-r" || a == "--recursive"):
			all = true
			continue
		}
		val, at, found := flagValue(inv.Args, i, flags)
		if !found {
			keep(i)
			continue
		}
		if inv.IsDynamic(at) {
			dynamic = true
		}
		sel = append(sel, unquoteValue(val))
		i = at
	}
	return sel, all, &b, dynamic
}

// workspaceDir finds the directory of a workspace named by its path
// (lp, ./lp, {./lp}) or by its package's name.
func (c *Classifier) workspaceDir(s string) (string, bool) {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "{"), "}")
	if s == "" || strings.ContainsAny(s, "*?[!^") || strings.Contains(s, "...") {
		return "", false // a pnpm pattern or a dependency selector
	}
	if info, err := c.statFile(path.Clean(s)); err == nil && info.IsDir() {
		return path.Clean(s), true
	}
	for _, d := range c.workspaceDirs() {
		if data, err := c.readFile(path.Join(d, "package.json")); err == nil {
			var pkg struct {
				Name string `json:"name"`
			}
			if json.Unmarshal(data, &pkg) == nil && pkg.Name == s {
				return d, true
			}
		}
	}
	return "", false
}

// hasWorkspaces reports a project that declares workspaces.
func (c *Classifier) hasWorkspaces() bool {
	if _, err := c.statFile("pnpm-workspace.yaml"); err == nil {
		return true
	}
	data, err := c.readFile("package.json")
	if err != nil {
		return false
	}
	var pkg struct {
		Workspaces json.RawMessage `json:"workspaces"`
	}
	return json.Unmarshal(data, &pkg) == nil && len(pkg.Workspaces) > 0
}

// workspaceDirs lists the workspace directories the root package.json
// ("workspaces": [...] or {"packages": [...]}) or pnpm-workspace.yaml
// names; a pattern's last element may be * (packages/*).
func (c *Classifier) workspaceDirs() []string {
	var patterns []string
	if data, err := c.readFile("package.json"); err == nil {
		var pkg struct {
			Workspaces json.RawMessage `json:"workspaces"`
		}
		if json.Unmarshal(data, &pkg) == nil && len(pkg.Workspaces) > 0 {
			var list []string
			var obj struct {
				Packages []string `json:"packages"`
			}
			if json.Unmarshal(pkg.Workspaces, &list) == nil {
				patterns = append(patterns, list...)
			} else if json.Unmarshal(pkg.Workspaces, &obj) == nil {
				patterns = append(patterns, obj.Packages...)
			}
		}
	}
	if data, err := c.readFile("pnpm-workspace.yaml"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(line), "- "); ok {
				patterns = append(patterns, strings.Trim(strings.TrimSpace(v), `'"`))
			}
		}
	}
	var out []string
	for _, p := range patterns {
		if strings.HasPrefix(p, "!") {
			continue
		}
		p = strings.TrimSuffix(path.Clean(p), "/**")
		base, last := path.Split(p)
		if !strings.ContainsAny(last, "*?[") {
			out = append(out, p)
			continue
		}
		d, ok := c.FS.(interface {
			ReadDir(string) ([]fs.DirEntry, error)
		})
		if !ok {
			continue
		}
		base = path.Clean(base)
		ents, err := d.ReadDir(base)
		if err != nil {
			continue
		}
		for _, ent := range ents {
			if m, _ := path.Match(last, ent.Name()); m && ent.IsDir() {
				out = append(out, path.Join(base, ent.Name()))
			}
		}
		if len(out) > maxWorkspaces {
			return out[:maxWorkspaces]
		}
	}
	return out
}
