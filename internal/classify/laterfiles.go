package classify

import (
	"encoding/json"
	"path"
	"regexp"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/airlock-dev/airlock/internal/shell"
)

// This file reads the files other programs run later that surfaces.go's
// table did not know (FINDINGS-7 G24, G13), each decided by whether it
// holds commands:
//
//   - .pre-commit-config.yaml: a local hook's entry runs at the human's
//     next git commit (pre-commit's own git hook);
//   - devcontainer.json: the lifecycle commands (initializeCommand on the
//     host, the others in the container) run when the folder is opened;
//   - tox.ini: commands, commands_pre and commands_post run at tox;
//   - Procfile: each process type's command runs at foreman, heroku local
//     or honcho;
//   - a compose file's command and entrypoint run inside the container:
//     only airlock's verbs and files in them count (what else a container
//     does is containment's);
//   - .dir-locals.el: the shell commands its forms name run when Emacs
//     evaluates them (eval entries, compile-command);
//   - .vscode/settings.json: a terminal's BASH_ENV or ENV file is sourced,
//     and its PROMPT_COMMAND run, by every shell of the editor's terminal.
//
// Code files (noxfile.py, conftest.py, setup.py, build.rs, go:generate
// lines) are not among them: any source file may run later, and a project
// may name airlock in its own code; the runs that execute them (nox,
// pytest, pip, cargo, go generate) read them.

// laterKind names the files of this table, and whether their commands
// count only for self-protection (containerOnly).
func laterKind(p, base, dir string) (kind string, containerOnly, ok bool) {
	switch {
	case base == ".pre-commit-config.yaml" || base == ".pre-commit-config.yml":
		return "a pre-commit configuration", false, true
	case base == "devcontainer.json" && (path.Base(dir) == ".devcontainer" || path.Base(path.Dir(dir)) == ".devcontainer") || base == ".devcontainer.json":
		return "a dev container configuration", false, true
	case base == "tox.ini":
		return "a tox configuration", false, true
	case base == "Procfile" || strings.HasPrefix(base, "Procfile."):
		return "a Procfile", false, true
	case composeFileName(base):
		return "a compose file", true, true
	case base == ".dir-locals.el" || base == ".dir-locals-2.el":
		return "an Emacs directory-local file", false, true
	case base == "settings.json" && path.Base(dir) == ".vscode":
		return "VS Code's workspace settings", false, true
	case (base == "config.toml" || base == "config") && path.Base(dir) == ".cargo":
		return "cargo's configuration", false, true
	case base == "mise.toml" || base == ".mise.toml" || base == "mise.local.toml" || base == ".mise.local.toml" ||
		base == "config.toml" && path.Base(dir) == "mise":
		return "a mise configuration", false, true
	}
	if k, ok := laterKindTools(base, dir); ok { // laterfiles_tools.go
		return k, false, true
	}
	return "", false, false
}

// composeFileName reports a compose file's name.
func composeFileName(base string) bool {
	switch base {
	case "compose.yml", "compose.yaml", "docker-compose.yml", "docker-compose.yaml":
		return true
	}
	return (strings.HasPrefix(base, "docker-compose.") || strings.HasPrefix(base, "compose.")) && (strings.HasSuffix(base, ".yml") || strings.HasSuffix(base, ".yaml"))
}

// laterCommands returns the commands a file of laterKind holds, with
// their lines.
func laterCommands(kind, content string) []makeLine {
	switch kind {
	case "a pre-commit configuration":
		return yamlKeyValues(content, map[string]bool{"entry": true})
	case "a compose file":
		return yamlKeyValues(content, map[string]bool{"command": true, "entrypoint": true})
	case "a dev container configuration":
		var out []makeLine
		var v map[string]any
		if json.Unmarshal([]byte(jsoncStrip(content)), &v) != nil {
			return jsonFragmentCommands(content, devcontainerKey)
		}
		for k, x := range v {
			if devcontainerKey(k) {
				for _, t := range commandForms(x) {
					out = append(out, makeLine{line: jsonKeyLine([]byte(content), k), text: t})
				}
			}
		}
		return out
	case "a tox configuration":
		var out []makeLine
		lines := strings.Split(content, "\n")
		for i := 0; i < len(lines); i++ {
			k, v, ok := strings.Cut(lines[i], "=")
			if !ok || strings.HasPrefix(lines[i], " ") || strings.HasPrefix(lines[i], "\t") {
				continue
			}
			switch strings.TrimSpace(k) {
			case "commands", "commands_pre", "commands_post":
			default:
				continue
			}
			if t := strings.TrimSpace(v); t != "" {
				out = append(out, makeLine{line: i + 1, text: strings.TrimPrefix(t, "- ")})
			}
			for i+1 < len(lines) && (strings.HasPrefix(lines[i+1], " ") || strings.HasPrefix(lines[i+1], "\t")) {
				i++
				if t := strings.TrimSpace(lines[i]); t != "" && t[0] != '#' {
					out = append(out, makeLine{line: i + 1, text: strings.TrimPrefix(t, "- ")})
				}
			}
		}
		return out
	case "cargo's configuration":
		return cargoConfigCommands(content) // buildconfig.go
	case "a mise configuration":
		return miseHookCommands(content)
	case "a Procfile":
		var out []makeLine
		for i, l := range strings.Split(content, "\n") {
			if _, cmd, ok := strings.Cut(l, ":"); ok && !strings.HasPrefix(strings.TrimSpace(l), "#") && strings.TrimSpace(cmd) != "" {
				out = append(out, makeLine{line: i + 1, text: strings.TrimSpace(cmd)})
			}
		}
		return out
	case "an Emacs directory-local file":
		var out []makeLine
		for _, m := range elispCommand().FindAllStringSubmatchIndex(content, -1) {
			s := content[m[2]:m[3]]
			s = strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(s)
			out = append(out, makeLine{line: 1 + strings.Count(content[:m[0]], "\n"), text: s})
		}
		return out
	case "VS Code's workspace settings":
		var out []makeLine
		var v map[string]any
		if json.Unmarshal([]byte(jsoncStrip(content)), &v) != nil {
			return jsonFragmentCommands(content, func(k string) bool { return k == "PROMPT_COMMAND" })
		}
		for k, x := range v {
			if !strings.HasPrefix(k, "terminal.integrated.env.") {
				continue
			}
			env, _ := x.(map[string]any)
			for name, val := range env {
				s, _ := val.(string)
				if s == "" {
					continue
				}
				line := jsonKeyLine([]byte(content), k)
				switch name {
				case "BASH_ENV", "ENV":
					out = append(out, makeLine{line: line, text: ". " + shell.Join([]string{s})})
				case "PROMPT_COMMAND":
					out = append(out, makeLine{line: line, text: s})
				}
			}
		}
		return out
	}
	return laterCommandsTools(kind, content) // laterfiles_tools.go
}

// devcontainerKey reports a devcontainer.json key whose value runs.
func devcontainerKey(k string) bool {
	switch k {
	case "initializeCommand", "onCreateCommand", "updateContentCommand", "postCreateCommand", "postStartCommand", "postAttachCommand":
		return true
	}
	return false
}

// commandForms turns a command value into shell text: a string is shell
// text, an array a program and its arguments, an object several commands
// run in parallel.
func commandForms(x any) []string {
	switch x := x.(type) {
	case string:
		return []string{x}
	case []any:
		var words []string
		for _, w := range x {
			if s, ok := w.(string); ok {
				words = append(words, s)
			}
		}
		if len(words) > 0 {
			return []string{shell.Join(words)}
		}
	case map[string]any:
		var out []string
		for _, y := range x {
			out = append(out, commandForms(y)...)
		}
		return out
	}
	return nil
}

// jsonFragmentCommands reads "key": "value" pairs from a fragment (an
// Edit, or JSON with comments the strip did not fix).
func jsonFragmentCommands(content string, key func(string) bool) []makeLine {
	var out []makeLine
	for _, m := range laterJSONPair().FindAllStringSubmatch(content, -1) {
		if key(m[1]) {
			out = append(out, makeLine{line: 1, text: strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(m[2])})
		}
	}
	return out
}

// laterJSONPair matches a "key": "string" pair of a JSON fragment.
var laterJSONPair = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"([^"\\]+)"\s*:\s*"((?:[^"\\]|\\.)*)"`) })

// jsoncStrip drops the whole-line // comments JSON with comments allows.
func jsoncStrip(s string) string {
	if !strings.Contains(s, "//") {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "//") {
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}

// yamlKeyValues returns the values of the given keys anywhere in a YAML
// document: a string is shell text, a list a program and its arguments.
// A document that is not YAML is read line by line.
func yamlKeyValues(content string, keys map[string]bool) []makeLine {
	var doc yaml.Node
	var out []makeLine
	if yaml.Unmarshal([]byte(content), &doc) != nil {
		for i, l := range strings.Split(content, "\n") {
			if k, v, ok := lineKey(l); ok && keys[k] && v != "" && v != "|" && v != ">" {
				out = append(out, makeLine{line: i + 1, text: v})
			}
		}
		return out
	}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		switch n.Kind {
		case yaml.DocumentNode, yaml.SequenceNode:
			for _, c := range n.Content {
				walk(c)
			}
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				v := n.Content[i+1]
				if keys[n.Content[i].Value] {
					switch v.Kind {
					case yaml.ScalarNode:
						out = append(out, makeLine{line: v.Line, text: v.Value})
						continue
					case yaml.SequenceNode:
						var words []string
						for _, w := range v.Content {
							words = append(words, w.Value)
						}
						out = append(out, makeLine{line: v.Line, text: shell.Join(words)})
						continue
					}
				}
				walk(v)
			}
		}
	}
	walk(&doc)
	return out
}

// elispCommand finds the shell commands of Emacs Lisp forms: the string
// given to shell-command (and its async, to-string and process forms),
// compile, and a compile-command variable.
var elispCommand = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:\((?:async-shell-command|shell-command(?:-to-string)?|compile|(?:call|start)-process-shell-command|process-lines|make-process)\s+(?:"[^"]*"\s+nil\s+)?|compile-command\s*\.\s*)"((?:[^"\\]|\\.)*)"`)
})

// loginKey reports whether text holds a public key line of
// authorized_keys (ssh-ed25519 AAAA…, ecdsa-sha2-…, sk-ssh-…, with or
// without options before it).
func loginKey(text string) bool {
	for _, t := range []string{"ssh-", "ecdsa-", "sk-ecdsa-", "sk-ssh-"} {
		if strings.Contains(text, t) && strings.Contains(text, "AAAA") {
			return true
		}
	}
	return false
}

// FileRuns returns, for a write of content to p (the Write and Edit
// tools), the runs of the commands the file holds when it is one that
// runs later (a hook, a task file, a file of this table), as a Result
// whose Followed they are: self-protection checks them as it checks a
// script's lines, so airlock's verb written into a Makefile or a
// .pre-commit-config.yaml by the Write tool is refused like the same
// text written by a shell command. fsys, when not nil, is the filesystem
// seen from the file's directory (where make, npm or a hook runs the
// commands): the scripts those commands run are read and followed too,
// so a Makefile whose recipe runs ./x.sh is checked with x.sh's lines
// (FINDINGS-9 M5).
func FileRuns(p, content string, fsys FS) Result {
	var r Result
	if kind, _ := surfaceKind(p); kind == "" {
		// Written through a link (hk/pre-commit is .git/hooks/pre-commit,
		// FINDINGS-10 G2): the file it lands in runs the commands.
		if !path.IsAbs(p) || !LinkOnTheWay("/", p) {
			return r
		}
		if real := RealPath(p); real != p {
			if kind, _ := surfaceKind(real); kind != "" {
				p = real
			}
		}
		if kind, _ := surfaceKind(p); kind == "" {
			return r
		}
	}
	c := Classifier{Limits: shell.DefaultLimits, FS: fsys}
	c.followed = &r.Followed
	c.code = &r.Code
	r.Effect = c.file(p, content, true)
	return r
}
