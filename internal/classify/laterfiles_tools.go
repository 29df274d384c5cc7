package classify

import (
	"encoding/json"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/airlock-dev/airlock/internal/shell"
)

// More files of laterfiles.go's table (FINDINGS-10 F1): project files a
// tool runs a command from later, outside any hook, read like task files,
// so that airlock's verb written into one is refused as in a Makefile and
// what else they run is rated when written:
//
//   - lefthook's configuration: each command's run line, at the human's
//     next git commit (lefthook's own git hook);
//   - Mercurial's hgrc: its [hooks] at the next hg command, its ! aliases,
//     and the Python files its [extensions] load;
//   - .bazelrc: --run_under and --workspace_status_command, at the next
//     bazel run, test or build;
//   - shell.nix, flake.nix, devenv.nix: the shellHook (enterShell) that
//     nix-shell, nix develop, devenv and direnv's use nix run on entering;
//   - a VS Code workspace file: its tasks (runOn folderOpen) and its
//     terminal settings, when the human opens it;
//   - Zed's project settings and tasks, Helix's languages.toml: the
//     language servers, context servers and tasks they start when a file
//     of the project is opened;
//   - .gitpod.yml: its tasks' init, before and command lines, when a
//     workspace starts.

// unseenLater reports a kind of this file: what such a file runs, the
// human's tool runs (a commit, an editor opening the folder, the agent's
// next session), not a command that comes through the hook to be read
// again, as make or npm run do for a Makefile. What is written to one is
// held when airlock cannot read it.
func unseenLater(kind string) bool {
	switch kind {
	case "a lefthook configuration", "a Mercurial configuration", "a bazel configuration", "a nix shell",
		"a VS Code workspace", "Zed's project settings", "Helix's language servers", "a Gitpod configuration", memoryFileKind:
		return true
	}
	return false
}

// laterKindTools names this file's kinds.
func laterKindTools(base, dir string) (string, bool) {
	switch {
	case lefthookName(base):
		return "a lefthook configuration", true
	case base == "hgrc" && path.Base(dir) == ".hg", base == ".hgrc":
		return "a Mercurial configuration", true
	case base == ".bazelrc" || strings.HasSuffix(base, ".bazelrc"):
		return "a bazel configuration", true
	case base == "shell.nix" || base == "flake.nix" || base == "devenv.nix" || base == "default.nix" && path.Base(dir) != "nixpkgs":
		return "a nix shell", true
	case strings.HasSuffix(base, ".code-workspace"):
		return "a VS Code workspace", true
	case (base == "settings.json" || base == "tasks.json") && path.Base(dir) == ".zed":
		return "Zed's project settings", true
	case base == "languages.toml" && path.Base(dir) == ".helix":
		return "Helix's language servers", true
	case base == ".gitpod.yml" || base == ".gitpod.yaml":
		return "a Gitpod configuration", true
	case memoryFile(base, dir):
		return memoryFileKind, true
	}
	return "", false
}

// lefthookName reports a lefthook configuration's name: lefthook.yml,
// .lefthook.yml, lefthook-local.yml and their .yaml, .json and .toml
// spellings.
func lefthookName(base string) bool {
	b := strings.TrimPrefix(base, ".")
	for _, ext := range []string{".yml", ".yaml", ".json", ".toml"} {
		if b == "lefthook"+ext || b == "lefthook-local"+ext {
			return true
		}
	}
	return false
}

// laterCommandsTools returns the commands a file of laterKindTools holds.
func laterCommandsTools(kind, content string) []makeLine {
	switch kind {
	case "a lefthook configuration":
		out := yamlKeyValues(content, map[string]bool{"run": true})
		for _, kv := range tomlKeys(content) {
			if strings.HasSuffix(kv.key, ".run") || kv.key == "run" {
				out = append(out, makeLine{line: kv.line, text: tomlCommand(kv.value)})
			}
		}
		return out
	case "a Mercurial configuration":
		return hgrcCommands(content)
	case "a bazel configuration":
		var out []makeLine
		for i, l := range strings.Split(content, "\n") {
			for _, m := range bazelCommandOption().FindAllStringSubmatch(l, -1) {
				out = append(out, makeLine{line: i + 1, text: unquoteValue(m[1])})
			}
		}
		return out
	case "a nix shell":
		var out []makeLine
		for _, m := range nixShellHook().FindAllStringSubmatchIndex(content, -1) {
			s := ""
			switch {
			case m[2] >= 0:
				s = strings.ReplaceAll(content[m[2]:m[3]], "'''", "''")
			case m[4] >= 0:
				s = strings.NewReplacer(`\"`, `"`, `\\`, `\`, `\n`, "\n").Replace(content[m[4]:m[5]])
			}
			line := 1 + strings.Count(content[:m[0]], "\n")
			for i, l := range strings.Split(s, "\n") {
				if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") {
					out = append(out, makeLine{line: line + i, text: t})
				}
			}
		}
		return out
	case "a VS Code workspace":
		out := jsonCommandObjects(content)
		var v struct {
			Settings json.RawMessage `json:"settings"`
		}
		if json.Unmarshal([]byte(jsoncStrip(content)), &v) != nil {
			out = append(out, jsonFragmentCommands(content, func(k string) bool { return k == "PROMPT_COMMAND" })...)
		} else if len(v.Settings) > 0 {
			out = append(out, laterCommands("VS Code's workspace settings", string(v.Settings))...)
		}
		return out
	case "Zed's project settings":
		return jsonCommandObjects(content)
	case "Helix's language servers":
		return tomlServerCommands(content)
	case "a Gitpod configuration":
		return yamlKeyValues(content, map[string]bool{"init": true, "before": true, "command": true, "prebuild": true})
	}
	return nil
}

// bazelCommandOption finds the options of a bazelrc line whose value is
// a command bazel runs.
var bazelCommandOption = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`--(?:run_under|workspace_status_command|script_path)(?:=|\s+)("(?:[^"\\]|\\.)*"|'[^']*'|\S+)`)
})

// nixShellHook finds a shellHook (nix-shell, nix develop) or enterShell
// (devenv) and its string, in either of nix's quotes.
var nixShellHook = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?s)\b(?:shellHook|enterShell)\s*=\s*(?:''((?:[^']|'''|'[^'])*)''|"((?:[^"\\]|\\.)*)")`)
})

// hgrcCommands returns what a Mercurial configuration runs: every
// [hooks] entry (a shell line, or python:FILE:FUNC, whose file is run as
// Python), every [alias] that starts with ! (a shell line), and every
// [extensions] entry that names a file (Python loaded at each hg
// command). An indented line continues the value before it.
func hgrcCommands(content string) []makeLine {
	var out []makeLine
	section := ""
	lines := strings.Split(content, "\n")
	for i := 0; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if t == "" || t[0] == '#' || t[0] == ';' {
			continue
		}
		if strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") {
			section = strings.TrimSpace(t[1 : len(t)-1])
			continue
		}
		k, v, ok := strings.Cut(t, "=")
		if !ok {
			continue
		}
		line := i + 1
		v = strings.TrimSpace(v)
		for i+1 < len(lines) && lines[i+1] != "" && (lines[i+1][0] == ' ' || lines[i+1][0] == '\t') {
			i++
			v += "\n" + strings.TrimSpace(lines[i])
		}
		k = strings.TrimSpace(k)
		switch section {
		case "hooks":
			if rest, ok := strings.CutPrefix(v, "python:"); ok {
				file := rest
				if j := strings.LastIndexByte(rest, ':'); j > 0 {
					file = rest[:j]
				}
				out = append(out, makeLine{line: line, text: "python3 " + shell.Join([]string{file})})
				continue
			}
			out = append(out, makeLine{line: line, text: v})
		case "alias":
			if rest, ok := strings.CutPrefix(v, "!"); ok {
				out = append(out, makeLine{line: line, text: rest})
			}
		case "extensions":
			if v != "" && !strings.HasPrefix(v, "!") {
				out = append(out, makeLine{line: line, text: "python3 " + shell.Join([]string{v})})
			}
		}
	}
	return out
}

// jsonCommandObjects returns the programs a JSON document's objects name,
// at any depth: "command" with "args" (a task, an MCP or context server),
// "command": {"path", "args"}, and "binary": {"path", "arguments"} (a
// language server). nil when the text is not JSON: a fragment (an Edit)
// is then read pair by pair.
func jsonCommandObjects(content string) []makeLine {
	var v any
	if json.Unmarshal([]byte(jsoncStrip(content)), &v) != nil {
		if !strings.Contains(content, "{") {
			return nil
		}
		return jsonFragmentCommands(content, func(k string) bool { return k == "command" || k == "path" })
	}
	out := []makeLine{}
	words := func(prog any, args any) string {
		s, _ := prog.(string)
		if s == "" {
			return ""
		}
		w := []string{s}
		if a, ok := args.([]any); ok {
			for _, x := range a {
				if y, ok := x.(string); ok {
					w = append(w, y)
				}
			}
			return shell.Join(w)
		}
		return s // a task's command alone is shell text
	}
	var walk func(x any)
	walk = func(x any) {
		switch x := x.(type) {
		case []any:
			for _, y := range x {
				walk(y)
			}
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				y := x[k]
				switch k {
				case "command":
					if m, ok := y.(map[string]any); ok {
						if t := words(m["path"], m["args"]); t != "" {
							out = append(out, makeLine{line: jsonKeyLine([]byte(content), k), text: t})
						}
						continue
					}
					if t := words(y, x["args"]); t != "" {
						out = append(out, makeLine{line: jsonKeyLine([]byte(content), k), text: t})
					}
					continue
				case "binary":
					if m, ok := y.(map[string]any); ok {
						if t := words(m["path"], m["arguments"]); t != "" {
							out = append(out, makeLine{line: jsonKeyLine([]byte(content), k), text: t})
						}
						continue
					}
				}
				walk(y)
			}
		}
	}
	walk(v)
	return out
}

// tomlServerCommands returns the language servers a Helix languages.toml
// starts: each table's command with its args, in either TOML form
// ([language-server.x] command = …, args = […], or an inline table).
func tomlServerCommands(content string) []makeLine {
	kvs := tomlKeys(content)
	args := map[string]string{}
	for _, kv := range kvs {
		if p, ok := strings.CutSuffix(kv.key, ".args"); ok {
			args[p] = kv.value
		}
	}
	var out []makeLine
	for _, kv := range kvs {
		if p, ok := strings.CutSuffix(kv.key, ".command"); ok || kv.key == "command" {
			t := tomlCommand(kv.value)
			if a, ok := args[p]; ok {
				if w := tomlCommand(a); w != "" {
					t += " " + w
				}
			}
			out = append(out, makeLine{line: kv.line, text: t})
			continue
		}
		if v := strings.TrimSpace(kv.value); strings.HasPrefix(v, "{") {
			if m := inlineCommand().FindStringSubmatch(v); m != nil {
				t := unquoteValue(m[1])
				if a := inlineArgs().FindStringSubmatch(v); a != nil {
					t += " " + tomlCommand(a[1])
				}
				out = append(out, makeLine{line: kv.line, text: t})
			}
		}
	}
	return out
}

var (
	inlineCommand = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bcommand\s*=\s*("(?:[^"\\]|\\.)*"|'[^']*')`) })
	inlineArgs    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bargs\s*=\s*(\[[^\]]*\])`) })
)

// memoryFileKind is an agent's memory file: Claude Code expands the
// @path imports of CLAUDE.md, CLAUDE.local.md, .claude/CLAUDE.md and
// .claude/rules/*.md when a session starts (Gemini CLI and Qwen Code
// those of GEMINI.md and QWEN.md), in the project, its parents and the
// home (FINDINGS-10 M1). The file named is put in the model's context
// with no tool call: the write that adds the import is the read.
const memoryFileKind = "an agent's memory file"

// memoryFile reports a memory file's name (any case: the file systems of
// macOS and Windows ignore it).
func memoryFile(base, dir string) bool {
	for _, n := range []string{"CLAUDE.md", "CLAUDE.local.md", "GEMINI.md", "AGENTS.md", "AGENT.md", "QWEN.md"} {
		if strings.EqualFold(base, n) {
			return true
		}
	}
	return strings.HasSuffix(strings.ToLower(base), ".md") && path.Base(dir) == "rules" && path.Base(path.Dir(dir)) == ".claude"
}

// memoryImports returns, for each @path a memory file at p holds, a
// read of that file as a command (cat -- PATH), so that the rules that
// guard reading (airlock's secrets) see the import as the read it is. A
// relative path is the file's directory's, as the agents resolve it.
func memoryImports(p, content string) []makeLine {
	var out []makeLine
	for i, l := range strings.Split(content, "\n") {
		for _, m := range memoryImport().FindAllStringSubmatch(l, -1) {
			imp := strings.TrimRight(m[1], ".,;:!?)]}>\"'`")
			if imp == "" {
				continue
			}
			if !strings.HasPrefix(imp, "/") && !strings.HasPrefix(imp, "~") {
				imp = path.Join(path.Dir(strings.ReplaceAll(p, `\`, "/")), imp)
			}
			w := shell.Join([]string{imp})
			if strings.HasPrefix(imp, "~/") {
				w = "~/" + shell.Join([]string{imp[2:]}) // ~ unquoted, to be expanded
			}
			out = append(out, makeLine{line: i + 1, text: "cat -- " + w})
		}
	}
	return out
}

// memoryImport finds an @path: an @ at the start of a line or after a
// space or an opening bracket, followed by a path.
var memoryImport = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^|[\s(\[<"'])@([~./\w][^\s]*)`) })

// ImportVia begins the Via entry of a read that a memory file's import
// makes (memoryImportsEffect): the agent reads the file at its next
// session; nothing runs.
const ImportVia = "import in "

// FromImport reports a read a memory file's import makes.
func FromImport(inv *Invocation) bool {
	return len(inv.Via) > 0 && strings.HasPrefix(inv.Via[0], ImportVia)
}

// memoryImportsEffect rates the imports of a memory file written at p:
// each is a read (cat) kept among the Result's Followed runs, named
// through the file, so that self-protection refuses an import of
// airlock's secrets as it refuses reading them, and does not take the
// file for code the command runs.
func (c *Classifier) memoryImportsEffect(p, content string) Effect {
	var e Effect
	for _, l := range memoryImports(p, content) {
		if c.followed == nil || c.depth >= c.Limits.MaxNesting {
			e.Add(c.nested(l.text))
			continue
		}
		inner := *c
		inner.depth++
		inner.cc = nil
		r := inner.Command(l.text)
		for _, inv := range r.Invocations {
			inv.Via = append([]string{ImportVia + p}, inv.Via...)
			*c.followed = append(*c.followed, inv)
		}
		e.Add(r.Effect)
	}
	return e
}
