package loop

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
)

// TestContainWrapsTheAgent: with Contain set, the agent runs under it
// (airlock-run in the CLI; a shell wrapper that marks its output here),
// and each result says it was contained; without, it is not.
func TestContainWrapsTheAgent(t *testing.T) {
	for _, contain := range []bool{true, false} {
		rec := &memory{}
		var progress bytes.Buffer
		r := runner(t, rec, &progress)
		if contain {
			r.Contain = []string{"sh", "-c", `echo WRAPPED; exec "$@"`, "wrapper"}
		}
		sum, err := r.Run(context.Background(), []Story{{ID: "ok", Title: "edit", Prompt: "do story ok"}})
		if err != nil {
			t.Fatal(err)
		}
		res := sum.Results[0]
		out, _ := os.ReadFile(res.Output)
		if res.Contained != contain || strings.Contains(string(out), "WRAPPED") != contain {
			t.Errorf("contain=%v: result says contained=%v, output %q", contain, res.Contained, out)
		}
		want := "not contained"
		if contain {
			want = "(contained"
		}
		if !strings.Contains(progress.String(), want) {
			t.Errorf("contain=%v: the progress line does not say %q: %s", contain, want, progress.String())
		}
	}
}
