package cli

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/classify"
	"github.com/airlock-dev/airlock/internal/journal"
)

// queue run reads the files the held command runs again after the
// human's answer: a script rewritten since it was held is not run (the
// human read the old one), and an unchanged one is.
func TestQueueRunChecksFiles(t *testing.T) {
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
	const cmd = "sh run.sh"
	dirs := map[string]string{}
	for _, name := range []string{"changed", "same"} {
		work := t.TempDir()
		dirs[name] = work
		if err := os.WriteFile(filepath.Join(work, "run.sh"), []byte("echo ran > marker\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		var files []journal.FileState
		for _, f := range classify.CommandIn(cmd, classify.DirFS(work)).Read {
			files = append(files, journal.FileState{Path: f.Path, State: f.State})
		}
		if len(files) == 0 {
			t.Fatal("the analysis read no file of sh run.sh")
		}
		if err := j.Append(&journal.Entry{Event: "PreToolUse", Kind: "shell", Tool: "Bash", Command: cmd, Cwd: work, Decision: "defer", Rule: "table.external", Files: files}); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dirs["changed"], "run.sh"), []byte("echo changed > marker\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	items, _ := j.Queue(time.Now())
	run := func(id string) (int, string) {
		var out, errb bytes.Buffer
		e := &env{stdin: strings.NewReader(id + "\n"), stdout: &out, stderr: &errb,
			getenv: getenv, isTerminal: func(io.Reader) bool { return true }}
		st := e.dispatch(commandTable(), []string{"queue", "run", id})
		return st, out.String() + errb.String()
	}
	for _, it := range items {
		st, out := run(it.ID)
		_, ranErr := os.Stat(filepath.Join(it.Cwd, "marker"))
		switch it.Cwd {
		case dirs["changed"]:
			if st != ExitHeld || !strings.Contains(out, "run.sh has changed since") || ranErr == nil {
				t.Errorf("rewritten script: %d, ran %v: %s", st, ranErr == nil, out)
			}
		case dirs["same"]:
			if st != ExitOK || ranErr != nil {
				t.Errorf("unchanged script: %d, ran %v: %s", st, ranErr == nil, out)
			}
		}
	}
}
