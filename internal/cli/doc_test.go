package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// The docs test keeps README.md and docs/*.md true to the program (the
// convention is written down in docs/CONTRIBUTING.md):
//
//   - a transcript, a fenced block with "$ airlock ..." lines, is run line
//     by line on the built-in defaults, and what each prints must be the
//     lines that follow it in the block;
//   - a synopsis, a line "airlock ..." in a sh block or an inline code span
//     `airlock ...`, must name commands that exist and flags those
//     commands have;
//   - a yaml block is a policy, and "airlock policy check" must accept it.
//
// A block preceded by <!-- doc-test: skip REASON --> is left alone. And
// no page points outside the repository or at internal issue numbers.

// docFiles are the documents a user reads, by absolute path (the tests
// change directory), and the repository's root.
func docFiles(t *testing.T) (files []string, root string) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{filepath.Join(root, "README.md")}, docs...), root
}

// docBlock is one fenced block of a document.
type docBlock struct {
	file  string
	line  int // of the opening fence
	lang  string
	lines []string
	skip  bool
}

func (b docBlock) where(i int) string { return fmt.Sprintf("%s:%d", b.file, b.line+1+i) }

// readBlocks returns a document's fenced blocks, and its prose lines (with
// their numbers) outside them.
func readBlocks(t *testing.T, root, file string) (blocks []docBlock, prose map[int]string) {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	name, _ := filepath.Rel(root, file)
	prose = map[int]string{}
	var cur *docBlock
	fence := "" // the opening fence; a block closes with one at least as long
	prev := ""
	for i, line := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case cur == nil && strings.HasPrefix(trimmed, "```"):
			lang := strings.TrimLeft(trimmed, "`")
			fence = trimmed[:len(trimmed)-len(lang)]
			cur = &docBlock{file: name, line: i + 1, lang: lang,
				skip: strings.HasPrefix(prev, "<!-- doc-test: skip")}
		case cur != nil && strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, "`") == "":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.lines = append(cur.lines, line)
		default:
			prose[i+1] = line
		}
		if trimmed != "" {
			prev = trimmed
		}
	}
	if cur != nil {
		t.Errorf("%s:%d: a fenced block that never closes", name, cur.line)
	}
	return blocks, prose
}

// docEnv gives airlock a fresh home in a fresh directory: the built-in
// defaults, an empty journal, no project.
func docEnv(t *testing.T) string {
	dir := t.TempDir()
	for k, v := range map[string]string{
		"HOME": dir + "/home", "XDG_CONFIG_HOME": dir + "/home/.config", "XDG_STATE_HOME": dir + "/home/.local/state",
		"AIRLOCK_HOME": "", "AIRLOCK_POLICY": "", "AIRLOCK_MODE": "", "AIRLOCK_STORY": "", "CLAUDE_PROJECT_DIR": "",
	} {
		t.Setenv(k, v)
	}
	work := filepath.Join(dir, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(work)
	return dir
}

// TestDocTranscripts runs every "$ airlock ..." line of the documents and
// compares what it prints with the lines the document shows after it.
func TestDocTranscripts(t *testing.T) {
	files, root := docFiles(t)
	docEnv(t)
	ran := 0
	for _, file := range files {
		blocks, _ := readBlocks(t, root, file)
		for _, b := range blocks {
			if b.skip {
				continue
			}
			for i := 0; i < len(b.lines); i++ {
				cmd, ok := strings.CutPrefix(b.lines[i], "$ ")
				if !ok {
					continue
				}
				j := i + 1
				for j < len(b.lines) && !strings.HasPrefix(b.lines[j], "$ ") {
					j++
				}
				want := strings.TrimRight(strings.Join(b.lines[i+1:j], "\n"), "\n ")
				ran++
				runTranscript(t, b.where(i), cmd, want)
				i = j - 1
			}
		}
	}
	if ran == 0 {
		t.Fatal("no transcript in the documents: the README's airlock check example is gone?")
	}
}

func runTranscript(t *testing.T, where, cmd, want string) {
	args, err := literalArgs(cmd)
	if err != nil {
		t.Errorf("%s: %s: %v", where, cmd, err)
		return
	}
	if len(args) == 0 || args[0] != "airlock" {
		t.Errorf("%s: a transcript runs airlock, not %q (mark the block <!-- doc-test: skip REASON -->)", where, cmd)
		return
	}
	var out bytes.Buffer
	st := Main(args[1:], strings.NewReader(""), &out, &out)
	got := strings.TrimRight(trimLines(out.String()), "\n ")
	if st == ExitUsage {
		t.Errorf("%s: %s: exit status %d (a usage error):\n%s", where, cmd, st, got)
	}
	if got != trimLines(want) {
		t.Errorf("%s: %s\nthe document shows:\n%s\nairlock prints:\n%s", where, cmd, want, got)
	}
}

func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.Join(lines, "\n")
}

// literalArgs splits a command line as the shell would, refusing anything
// that is not one simple command of literal words: a transcript must mean
// the same whatever the reader's environment.
func literalArgs(cmd string) ([]string, error) {
	f, err := syntax.NewParser().Parse(strings.NewReader(cmd), "")
	if err != nil {
		return nil, err
	}
	if len(f.Stmts) != 1 {
		return nil, fmt.Errorf("not one command")
	}
	st := f.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(st.Redirs) > 0 || st.Negated || st.Background {
		return nil, fmt.Errorf("not a simple command")
	}
	var args []string
	for _, w := range call.Args {
		literal := true
		syntax.Walk(w, func(n syntax.Node) bool {
			switch n.(type) {
			case *syntax.ParamExp, *syntax.CmdSubst, *syntax.ArithmExp, *syntax.ProcSubst, *syntax.ExtGlob:
				literal = false
			}
			return literal
		})
		if !literal {
			return nil, fmt.Errorf("the word %q is not literal", cmd[w.Pos().Offset():w.End().Offset()])
		}
		s, err := expand.Literal(nil, w)
		if err != nil {
			return nil, err
		}
		args = append(args, s)
	}
	return args, nil
}

var (
	inlineAirlock = regexp.MustCompile("`(airlock [^`]*)`")
	quoted        = regexp.MustCompile(`"[^"]*"|'[^']*'`)
	flagName      = regexp.MustCompile(`(?:^|[\s\[|(])--([a-z][a-z0-9-]*)`)
)

// TestDocSynopses checks every airlock command line the documents show,
// in sh blocks and inline code, against the command table: the commands
// exist and have the flags written next to them.
func TestDocSynopses(t *testing.T) {
	table := commandTable()
	files, root := docFiles(t)
	checked := 0
	for _, file := range files {
		blocks, prose := readBlocks(t, root, file)
		for _, b := range blocks {
			if b.skip || (b.lang != "sh" && b.lang != "bash" && b.lang != "console") {
				continue
			}
			for i, line := range b.lines {
				line = strings.TrimPrefix(strings.TrimSpace(line), "$ ")
				if strings.HasPrefix(line, "airlock ") {
					checked++
					checkSynopsis(t, table, b.where(i), line, true)
				}
			}
		}
		name, _ := filepath.Rel(root, file)
		for n, line := range prose {
			for _, m := range inlineAirlock.FindAllStringSubmatch(line, -1) {
				checked++
				// Prose may name a group: "`airlock queue` shows them".
				checkSynopsis(t, table, fmt.Sprintf("%s:%d", name, n), m[1], false)
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d airlock command lines found in the documents", checked)
	}
}

func checkSynopsis(t *testing.T, root *command, where, line string, whole bool) {
	t.Helper()
	if i := strings.Index(line, " #"); i >= 0 {
		line = line[:i]
	}
	// A quoted value's words are not airlock's: --agent-cmd "claude --print".
	line = quoted.ReplaceAllString(line, "VALUE")
	words := strings.Fields(line)[1:]
	c, rest := resolve(root, words)
	if len(rest) > 0 && (rest[0] == "..." || rest[0] == "…") {
		return // "airlock ...": any command
	}
	if c == root && len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
		t.Errorf("%s: %q: airlock has no command %q", where, line, rest[0])
		return
	}
	// Alternatives written in place of a subcommand ("show|approve ID",
	// "init | show") are the subcommands' lines too.
	cmds := []*command{c}
	for _, w := range rest {
		for _, alt := range strings.Split(w, "|") {
			if s := c.sub(alt); s != nil {
				cmds = append(cmds, s)
			}
		}
	}
	if whole && c.run == nil && len(cmds) == 1 {
		t.Errorf("%s: %q: %q needs one of its commands", where, line, c.path)
	}
	if c.passthrough {
		return // airlock-mcp's flags; its own tests hold them
	}
	for _, m := range flagName.FindAllStringSubmatch(strings.Join(rest, " "), -1) {
		found := m[1] == "help"
		for _, cmd := range cmds {
			found = found || findFlag(cmd, m[1]) != nil
		}
		if !found {
			t.Errorf("%s: %q: %q has no flag --%s", where, line, c.path, m[1])
		}
	}
}

// TestDocPolicies runs "airlock policy check" on every yaml block of the
// documents: each is a policy, or a part of one, that must be valid.
func TestDocPolicies(t *testing.T) {
	files, root := docFiles(t)
	dir := docEnv(t)
	checked := 0
	for _, file := range files {
		blocks, _ := readBlocks(t, root, file)
		for _, b := range blocks {
			if b.skip || b.lang != "yaml" {
				continue
			}
			checked++
			path := filepath.Join(dir, fmt.Sprintf("policy-%d.yaml", checked))
			if err := os.WriteFile(path, []byte(strings.Join(b.lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			if st := Main([]string{"policy", "check", path}, strings.NewReader(""), &out, &out); st != ExitOK {
				t.Errorf("%s: airlock policy check refuses this policy (exit %d):\n%s", b.where(0), st, out.String())
			}
		}
	}
	if checked == 0 {
		t.Fatal("no yaml block in the documents")
	}
}

var (
	outsideRef = regexp.MustCompile(`\.\./shared|\bissues? [0-9]+\b|\bDESIGN\.md\b|agent-hooks\.md|\bprotocols/`)
	mdLink     = regexp.MustCompile(`\]\(([^)#\s]+)(#[^)]*)?\)`)
)

// TestDocLinks keeps pages self-contained: a link resolves to a file in
// the repository, and nothing names what a reader of the repository does
// not have (the steering repository, internal issue numbers).
func TestDocLinks(t *testing.T) {
	files, root := docFiles(t)
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		name, _ := filepath.Rel(root, file)
		for n, line := range strings.Split(string(data), "\n") {
			if m := outsideRef.FindString(line); m != "" {
				t.Errorf("%s:%d: %q points outside the repository", name, n+1, m)
			}
			for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				if _, err := os.Stat(filepath.Join(filepath.Dir(file), target)); err != nil {
					t.Errorf("%s:%d: link to %s: no such file in the repository", name, n+1, target)
				}
			}
		}
	}
}

// repoPath is a word that names a file or directory of the repository by
// its path from the root: "internal/cli/doc_test.go", "./e2e/claude",
// "docs/E2E.md", "cmd/airlock-hook/deps_test.go:40".
var repoPath = regexp.MustCompile("(?:^|[\\s`(\"'\\[])(?:\\./)?((?:cmd|internal|docs|e2e|bench|testdata|airlock-run|\\.ci)/[A-Za-z0-9_.*+/-]*)")

// placeholder is a path segment that stands for a name: NAME, AGENT.
var placeholder = regexp.MustCompile(`^[A-Z]+$`)

// examplePaths are paths the docs give as examples of an agent's own
// project (docs/GATE.md's edits, docs/FINDINGS-3.md's ordinary commands),
// not as files of airlock's.
var examplePaths = map[string]bool{
	"internal/x.go": true, "internal/x": true, "internal/cache.go": true, "docs/a.md": true,
	"cmd/app": true,
}

// TestDocRepoPaths keeps every repository path a page names true: a doc
// that points a reader at a file or directory that was moved or never
// committed fails. A pattern ("e2e/..."; "internal/agent/NAME/", with an
// upper-case placeholder) is checked up to its fixed part, and a glob must
// match something.
func TestDocRepoPaths(t *testing.T) {
	files, root := docFiles(t)
	checked := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		name, _ := filepath.Rel(root, file)
		for n, line := range strings.Split(string(data), "\n") {
			for _, m := range repoPath.FindAllStringSubmatch(line, -1) {
				p := strings.TrimRight(m[1], ".,:;)'")
				if i := strings.Index(p, "..."); i >= 0 {
					p = p[:i]
				}
				var fixed []string
				for _, seg := range strings.Split(p, "/") {
					if placeholder.MatchString(seg) {
						break // a placeholder: NAME, AGENT
					}
					fixed = append(fixed, seg)
				}
				p = strings.TrimSuffix(strings.Join(fixed, "/"), "/")
				if p == "" || examplePaths[p] {
					continue
				}
				checked++
				full := filepath.Join(root, filepath.FromSlash(p))
				if strings.ContainsAny(p, "*?[") {
					if ms, _ := filepath.Glob(full); len(ms) == 0 {
						t.Errorf("%s:%d: %s matches no file in the repository", name, n+1, p)
					}
					continue
				}
				if _, err := os.Stat(full); err != nil {
					t.Errorf("%s:%d: %s: no such file or directory in the repository", name, n+1, p)
				}
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d repository paths found in the docs: the pattern is broken?", checked)
	}
}
