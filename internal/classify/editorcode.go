package classify

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// This file finds the VS Code family run through an application sandbox
// (flatpak run com.visualstudio.code …, snap run code …) and the editor
// told to load code from a directory of the project (FINDINGS-10 A3):
// an extension's code runs in the human's editor, outside any hook or
// sandbox, as an extension installed from a file does (nestedagents.go
// agentAddsCode).

// vscodeEditors are the editors of the VS Code family, server editions
// included, which take --install-extension and load extensions.
func vscodeEditors(name string) bool {
	switch name {
	case "code", "code-insiders", "cursor", "windsurf", "codium", "vscodium", "code-oss",
		"code-server", "openvscode-server", "positron":
		return true
	}
	return false
}

// appRun returns the program an application sandbox runs (flatpak run
// APP-ID, snap run NAME) as a run of it, named by the last part of its id
// (com.visualstudio.code is code, com.vscodium.codium is codium); nil
// for any other run.
func appRun(inv *shell.Invocation) *shell.Invocation {
	switch inv.Name() {
	case "flatpak", "snap":
	default:
		return nil
	}
	i := 1
	for i < len(inv.Args) && strings.HasPrefix(inv.Args[i], "-") {
		i++
	}
	if i >= len(inv.Args) || inv.Args[i] != "run" {
		return nil
	}
	command := ""
	for i++; i < len(inv.Args) && strings.HasPrefix(inv.Args[i], "-"); i++ {
		if v, ok := strings.CutPrefix(inv.Args[i], "--command="); ok {
			command = v // flatpak run --command=codium APP-ID
		}
	}
	if i >= len(inv.Args) || inv.IsDynamic(i) {
		return nil
	}
	app := inv.Args[i]
	name := strings.ToLower(app[strings.LastIndexByte(app, '.')+1:])
	if command != "" {
		name = normWord(command)
	}
	switch {
	case strings.Contains(strings.ToLower(app), "vscode") && name != "codium":
		name = "code" // com.visualstudio.code.insiders, …
	case strings.Contains(strings.ToLower(app), "vscodium"):
		name = "codium"
	}
	out := *inv
	out.Args = append([]string{name}, inv.Args[i+1:]...)
	out.Dynamic = nil
	if len(inv.Dynamic) > i {
		out.Dynamic = append([]bool{false}, inv.Dynamic[i+1:]...)
	}
	return &out
}

// editorLoadsCode reports an editor of the VS Code family told to load
// extensions from a directory it names: --extensionDevelopmentPath runs
// the extension there at once, --extensions-dir loads every extension in
// it.
func editorLoadsCode(inv *shell.Invocation) (string, bool) {
	name := inv.Name()
	for i := 1; i < len(inv.Args); i++ {
		a := inv.Args[i]
		if a == "--" {
			break
		}
		opt, value, hasValue := strings.Cut(a, "=")
		switch opt {
		case "--extensionDevelopmentPath", "--extensions-dir":
		default:
			continue
		}
		if !hasValue {
			if i+1 >= len(inv.Args) {
				continue
			}
			value = inv.Args[i+1]
		}
		if opt == "--extensions-dir" {
			return name + " --extensions-dir " + clip(value) + " loads every extension in that directory: their code runs in the human's editor", true
		}
		return name + " --extensionDevelopmentPath " + clip(value) + " runs the extension in that directory at once, in the human's editor", true
	}
	return "", false
}
