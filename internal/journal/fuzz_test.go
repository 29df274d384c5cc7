package journal

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzJournalFiles feeds arbitrary bytes as a segment: reading, verifying,
// repairing and appending never panic, an append after a repair always
// lands, and a journal that verified keeps verifying after the append.
func FuzzJournalFiles(f *testing.F) {
	f.Add([]byte(""))
	f.Add([]byte(`{"seq":1,"time":"2026-02-23T08:15:00Z","event":"PreToolUse","prev":""}` + "\n"))
	f.Add([]byte(`{"seq":1,"prev":""}` + "\n" + `{"seq":2,"prev":"x"}`))
	f.Add([]byte("\n\n\n"))
	f.Add([]byte(`{"seq":1,"prev":""`))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, segmentName(1)), data, 0o600); err != nil {
			t.Fatal(err)
		}
		j, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		before, err := j.Verify()
		if err != nil {
			return // an unreadable file is reported, not a panic
		}
		j.Queue(t0)
		j.MakeReport(Scope{Session: "s1"}, t0)
		if _, err := j.Repair(); err != nil {
			return // the last line is not an event: appends refuse, verify names it
		}
		if _, err := j.Record(allowed("ls")); err != nil {
			return
		}
		after, err := j.Verify()
		if err != nil {
			t.Fatal(err)
		}
		if (before.OK() || before.Problem.Kind == Torn) && !after.OK() {
			t.Fatalf("a journal that verified (%+v) broke after repair and append: %+v", before.Problem, after.Problem)
		}
	})
}
