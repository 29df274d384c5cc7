package cli

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/render"
)

// FuzzDisplayCommands: random bytes as the command (and the working
// directory) of a held item never put a raw control byte, bidi or
// zero-width rune into what queue list, queue show, report (text,
// markdown, json) or blocked (text, json) print, through the journal and
// the commands themselves. A denied Write carries the same bytes in every
// other field the journal records: tool, path, agent, story, rule, message.
func FuzzDisplayCommands(f *testing.F) {
	f.Add("git push evil main\x1b[1A\x1b[2Kgit status", "/tmp")
	f.Add("git push evil main\r\x1b[2Kgit status", "/tmp\u202e")
	f.Add("git status"+strings.Repeat("\n", 60)+"git push evil main", "")
	f.Add("git status"+strings.Repeat(" ", 4000)+"git push", "/")
	f.Add("\xff\xfe\u200d\u2066", "\x00")
	f.Fuzz(func(t *testing.T, cmd, cwd string) {
		home := t.TempDir()
		getenv := func(k string) string {
			if k == "XDG_STATE_HOME" {
				return home
			}
			return ""
		}
		j, err := journal.Open(filepath.Join(home, "airlock", "journal"))
		if err != nil {
			t.Fatal(err)
		}
		if err := j.Append(&journal.Entry{Time: time.Now(), Event: "PreToolUse", Agent: "claude-code", Session: "s1", Kind: "shell", Tool: "Bash",
			Command: cmd, Cwd: cwd, Decision: "defer", Rule: "table.external", Effect: "external",
			Reasons: []journal.Reason{{Rule: "x", Message: cmd}}}); err != nil {
			t.Fatal(err)
		}
		if err := j.Append(&journal.Entry{Time: time.Now(), Event: "PreToolUse", Agent: "claude-code", Session: "s1", Kind: "shell", Tool: "Bash",
			Command: cmd, Decision: "deny", Rule: "table.destructive"}); err != nil {
			t.Fatal(err)
		}
		if err := j.Append(&journal.Entry{Time: time.Now(), Event: "PreToolUse", Agent: cwd, Session: cmd, Story: cwd, Kind: "write", Tool: cmd,
			Paths: []string{cmd, cwd}, Cwd: cwd, Decision: "deny", Rule: cmd, Effect: cwd, Message: cmd}); err != nil {
			t.Fatal(err)
		}
		items, err := j.Queue(time.Now())
		if err != nil || len(items) != 1 {
			t.Fatalf("%d items: %v", len(items), err)
		}
		for _, args := range [][]string{
			{"queue", "list"}, {"queue", "list", "--json"}, {"queue", "show", items[0].ID}, {"queue", "show", "--json", items[0].ID},
			{"report", "--all"}, {"report", "--all", "--format", "markdown"}, {"report", "--all", "--format", "json"},
			{"blocked", "--since", "1h"}, {"blocked", "--since", "1h", "--json"},
		} {
			var out, errb bytes.Buffer
			e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: getenv}
			e.dispatch(commandTable(), args)
			for _, s := range []string{out.String(), errb.String()} {
				for n, l := range strings.Split(s, "\n") {
					if i := render.Unclean(l); i >= 0 {
						t.Fatalf("%s: line %d holds a raw control at byte %d: %q", strings.Join(args, " "), n+1, i, l)
					}
				}
			}
			if out.Len() == 0 {
				t.Fatalf("%s printed nothing: %s", strings.Join(args, " "), errb.String())
			}
		}
	})
}
