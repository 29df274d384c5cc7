package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/render"
)

// doctor's report shows paths and the journal's errors, which may hold
// what an agent wrote: rendered, never raw, in text and JSON.
func TestDoctorRendersWhatItShows(t *testing.T) {
	out := doctorOutput{
		Binary:   "/usr/bin/airlock\x1b[2K",
		Journal:  doctorJournal{Dir: "/tmp/j\u202eoj", Broken: "journal-000001.jsonl:3: edited \r\x1b[1Aok"},
		Problems: []string{"journal: \u200bbroken"},
	}
	for _, asJSON := range []bool{false, true} {
		var b bytes.Buffer
		e := &env{stdout: &b, stderr: &b}
		if asJSON {
			writeJSON(e, out)
		} else {
			printDoctor(e, out)
		}
		for n, l := range strings.Split(b.String(), "\n") {
			if i := render.Unclean(l); i >= 0 {
				t.Fatalf("json %v: line %d has a raw control at %d: %q", asJSON, n+1, i, l)
			}
		}
		if !asJSON && (!strings.Contains(b.String(), `/tmp/j\u202eoj`) || !strings.Contains(b.String(), `edited \r\x1b[1Aok`)) {
			t.Fatalf("escapes not shown:\n%s", b.String())
		}
	}
}

// airlock check shows a pasted command's escapes instead of obeying them.
func TestCheckRendersTheCommand(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	t.Setenv("XDG_CONFIG_HOME", dir+"/c")
	t.Setenv("XDG_STATE_HOME", dir+"/s")
	var out, errb bytes.Buffer
	Main([]string{"check", "--", "echo '\x1b[1A\x1b[2K\u202e'"}, strings.NewReader(""), &out, &errb)
	for n, l := range strings.Split(out.String(), "\n") {
		if i := render.Unclean(l); i >= 0 {
			t.Fatalf("line %d has a raw control at %d: %q", n+1, i, l)
		}
	}
	if !strings.Contains(out.String(), `\x1b[1A`) {
		t.Fatalf("escape not shown:\n%s%s", out.String(), errb.String())
	}
}
