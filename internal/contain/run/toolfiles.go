package run

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Tool files the plan does not fence (FINDINGS-9 C2). A Python virtual
// environment's activate scripts run in every terminal an editor opens in
// the project, and a *.pth file in its site-packages runs at every start
// of that Python; a VS Code workspace file (*.code-workspace) holds tasks
// that run when the folder opens. Fencing them would break ordinary work
// (pip install writes .pth files, python -m venv rewrites activate), so
// the runner reports each one the run made or changed, after it, with
// its path; a *.code-workspace at the project's top is bound read-only
// when it exists, and one the run made is set aside like .envrc.
// What else a tool reads from the project at its next start
// (.Rprofile, .gdbinit, docker-compose.override.yml, .env, flake.nix,
// eslint.config.js, …) is ordinary project content airlock run neither
// fences nor reviews: docs/THREAT-MODEL.md says so.

// venvDirs are the project's virtual environment directories looked at.
var venvDirs = []string{".venv", "venv"}

// ToolFiles lists the watched tool files of a project as they are now.
func ToolFiles(project string) []string {
	if project == "" {
		return nil
	}
	var out []string
	for _, v := range venvDirs {
		bin := filepath.Join(project, v, "bin")
		if ents, err := os.ReadDir(bin); err == nil {
			for _, e := range ents {
				if n := e.Name(); strings.HasPrefix(strings.ToLower(n), "activate") {
					out = append(out, filepath.Join(bin, n))
				}
			}
		}
		libs, _ := filepath.Glob(filepath.Join(project, v, "lib", "python*", "site-packages", "*.pth"))
		out = append(out, libs...)
	}
	ws, _ := filepath.Glob(filepath.Join(project, "*.code-workspace"))
	return append(out, ws...)
}

// ToolFileStamps is what ToolFiles finds, each with a stamp that changes
// when the file is written (size, time of change, mode, inode).
func ToolFileStamps(project string) map[string]string {
	out := map[string]string{}
	for _, f := range ToolFiles(project) {
		out[f] = stamp(f)
	}
	return out
}

func stamp(p string) string {
	fi, err := os.Lstat(p)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%d %d %v %v", fi.Size(), fi.ModTime().UnixNano(), fi.Mode(), inode(fi))
}

// ChangedToolFiles returns the watched tool files the run made or
// changed, compared with the plan's stamps: made first says a file that
// was not there.
func ChangedToolFiles(project string, before map[string]string) (made, changed []string) {
	for _, f := range ToolFiles(project) {
		old, had := before[f]
		switch {
		case !had:
			made = append(made, f)
		case old != stamp(f):
			changed = append(changed, f)
		}
	}
	return made, changed
}

// IsWorkspaceFile reports a VS Code workspace file at the project's top.
func IsWorkspaceFile(project, p string) bool {
	return filepath.Dir(p) == project && strings.HasSuffix(p, ".code-workspace")
}
