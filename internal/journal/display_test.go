package journal

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/render"
)

// attacks each made a terminal show "git status" where "git push evil
// main" would run.
var attacks = map[string]string{
	"cursor up":   "git push evil main\x1b[1A\x1b[2Kgit status",
	"CR erase":    "git push evil main\r\x1b[2Kgit status",
	"OSC":         "\x1b]0;title\agit push evil main",
	"60 newlines": "git status" + strings.Repeat("\n", 60) + "git push evil main",
	"4000 spaces": "git status" + strings.Repeat(" ", 4000) + "; git push evil main",
	"RLO":         "git push evil \u202eniam",
	"ZWJ":         "git\u200d push evil main",
	"invalid":     "git push evil main\xff\xfe",
}

// itemOf makes a queue item as the journal reads it back.
func itemOf(e *Entry) *Item { return &Item{Entry: e, Status: Pending} }

func shellItem(cmd string) *Item {
	return itemOf(&Entry{ID: "0bcc181b", Time: t0, Event: "PreToolUse", Agent: "claude-code", Session: "s1", Cwd: "/work/\u202eproj",
		Tool: "Bash", Kind: "shell", Command: cmd, Decision: "defer", Rule: "table.external", Effect: "external",
		Reasons: []Reason{{Rule: "git.push", Message: "git push publishes " + cmd}}})
}

// outputs renders a report holding the item in every format, plus the
// one-line forms a list uses.
func outputs(t *testing.T, it *Item) map[string]string {
	t.Helper()
	r := &Report{Review: []*Item{it}, Items: []*Item{it}, Refused: []*Entry{it.Entry}}
	out := map[string]string{"list": What(it, 70) + " " + Effect(it)}
	for _, f := range []string{FormatText, FormatMarkdown, FormatJSON} {
		var b bytes.Buffer
		if err := r.Write(&b, f); err != nil {
			t.Fatal(err)
		}
		out[f] = b.String()
	}
	var b strings.Builder
	it.WriteText(&b)
	out["show"] = b.String()
	return out
}

func assertClean(t *testing.T, name, s string) {
	t.Helper()
	for n, l := range strings.Split(s, "\n") {
		if i := render.Unclean(l); i >= 0 {
			t.Fatalf("%s: raw control or invisible rune in line %d at byte %d: %q", name, n+1, i, l)
		}
	}
}

func TestDisplayAttacks(t *testing.T) {
	for name, cmd := range attacks {
		t.Run(name, func(t *testing.T) {
			for f, s := range outputs(t, shellItem(cmd)) {
				assertClean(t, f, s)
				if f != FormatJSON && !strings.Contains(s, "git push evil") && !strings.Contains(s, "git\\u200d push evil") {
					t.Errorf("%s: the command is not shown:\n%s", f, s)
				}
				if f == FormatText && strings.Count(s, "\n") > 40 {
					t.Errorf("%s: %d lines", f, strings.Count(s, "\n"))
				}
			}
		})
	}
	out := outputs(t, shellItem(attacks["60 newlines"]))
	if !strings.Contains(out["show"], "  $ git status\n  > ⟨60 newlines⟩\n  > git push evil main\n") {
		t.Errorf("show:\n%s", out["show"])
	}
	if !strings.Contains(out["list"], `git status⟨60 newlines⟩git push evil main`) {
		t.Errorf("list: %s", out["list"])
	}
	if !strings.Contains(outputs(t, shellItem(attacks["cursor up"]))[FormatJSON], `\u001b[1A`) {
		t.Error("json lost the escape")
	}
}

func TestDisplayMCPItem(t *testing.T) {
	detail := `{"server":"slack","tool":"post_message","class":"sink","phase":"call","decision":"defer","rule":"mcp.class",` +
		`"reason":"a sink call needs a human","args":{"channel":"#general","text":"hi\u202e there","token":"[redacted]"},"recipients":["Ana"]}`
	it := itemOf(&Entry{ID: "abcd1234", Time: t0, Event: "PreToolUse", Agent: "claude-code", Session: "s1", Tool: "mcp__slack__post_message",
		Kind: "unknown", Decision: "defer", Rule: "mcp.class", Effect: "local", Detail: json.RawMessage(detail)})
	out := outputs(t, it)
	for f, s := range out {
		assertClean(t, f, s)
		if strings.Contains(s, "$ \n") || strings.Contains(s, "$ ") && f != FormatJSON {
			t.Errorf("%s: a blank command line:\n%s", f, s)
		}
	}
	for _, want := range []string{"MCP call: server slack, tool post_message", "  | channel: #general\n", `  | text: hi\u202e there`, "token: [redacted]", "to: Ana", "effect MCP sink tool;", "MCP firewall: a sink call needs a human"} {
		if !strings.Contains(out["show"], want) {
			t.Errorf("show lacks %q:\n%s", want, out["show"])
		}
	}
	if !strings.Contains(out["list"], "MCP slack/post_message {") {
		t.Errorf("list: %s", out["list"])
	}
	if !strings.Contains(out[FormatMarkdown], "```text\nchannel: #general\n") {
		t.Errorf("markdown:\n%s", out[FormatMarkdown])
	}
}

func TestDisplayNothingToReview(t *testing.T) {
	it := itemOf(&Entry{ID: "abcd1234", Time: t0, Event: "PreToolUse", Agent: "claude-code", Tool: "Mystery", Kind: "unknown", Decision: "defer", Rule: "table.unknown"})
	for f, s := range outputs(t, it) {
		if f != FormatJSON && !strings.Contains(s, "NOTHING TO REVIEW") {
			t.Errorf("%s does not say so:\n%s", f, s)
		}
		if strings.Contains(s, "$ ") {
			t.Errorf("%s shows a blank command:\n%s", f, s)
		}
	}
}

func TestDisplayWriteExcerpt(t *testing.T) {
	content := "line 1\n\x1b[2Khidden\n" + strings.Repeat("x", 3000)
	excerpt := content[:2000]
	d, _ := json.Marshal(map[string]any{"excerpt": excerpt, "bytes": len(content)})
	it := itemOf(&Entry{ID: "abcd1234", Time: t0, Event: "PreToolUse", Agent: "claude-code", Tool: "Write", Kind: "write",
		Paths: []string{"/home/u/.bashrc"}, Decision: "defer", Rule: "policy.self", Effect: "local", Detail: d})
	out := outputs(t, it)
	for f, s := range out {
		assertClean(t, f, s)
	}
	show := out["show"]
	for _, want := range []string{"Write /home/u/.bashrc", "content (3018 bytes), first part:", "  | line 1", `  | \x1b[2Khidden`, "more bytes not shown⟩"} {
		if !strings.Contains(show, want) {
			t.Errorf("show lacks %q:\n%s", want, show)
		}
	}
}

// FuzzDisplay: random bytes as the command (or the MCP arguments, or a
// reason) of a held item never put a raw control byte, bidi or
// zero-width rune into a list row, queue show or any report format.
func FuzzDisplay(f *testing.F) {
	for _, a := range attacks {
		f.Add(a, "")
	}
	f.Add("", `{"x":"\u202e"}`)
	f.Fuzz(func(t *testing.T, cmd, args string) {
		it := shellItem(cmd)
		outs := outputs(t, it)
		if args != "" {
			b, _ := json.Marshal(map[string]any{"server": "s\x1b", "tool": cmd, "args": map[string]string{"a": args}})
			it2 := shellItem(cmd)
			it2.Detail = b
			for k, v := range outputs(t, it2) {
				outs["mcp "+k] = v
			}
		}
		for k, v := range outs {
			assertClean(t, k, v)
		}
	})
}
