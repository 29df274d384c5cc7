package classify

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// grepHookPattern is the plain bash-and-grep hook that airlock is compared
// with (bench/grep-hook.sh).
const grepHookPattern = `git push|gh pr create|gh pr merge|railway deploy|curl -X POST|curl -X PUT|curl -X PATCH|curl -X DELETE|npm publish`

// TestGrepHookSideBySide scores the grep hook and airlock on the labelled
// corpus: recall on the commands that must be held (external, destructive or
// opaque) and false positives on those that must not. The grep hook's
// verdicts come from running the real grep over every command.
func TestGrepHookSideBySide(t *testing.T) {
	grep, err := exec.LookPath("grep")
	if err != nil {
		t.Fatal("grep is needed for the side-by-side figures: ", err)
	}
	cases := readCorpus(t, filepath.Join("..", "..", "testdata", "corpus.tsv"))
	var must, free, grepHeld, grepFP, ourHeld, ourFP int
	for _, c := range cases {
		want, _ := ParseLabel(c.label)
		cmd := exec.Command(grep, "-qiE", grepHookPattern)
		cmd.Stdin = strings.NewReader(c.command)
		grepMatch := cmd.Run() == nil
		ours := held(Command(c.command).Effect)
		if held(want) {
			must++
			if grepMatch {
				grepHeld++
			}
			if ours {
				ourHeld++
			}
		} else {
			free++
			if grepMatch {
				grepFP++
			}
			if ours {
				ourFP++
			}
		}
	}
	pct := func(a, b int) float64 { return 100 * float64(a) / float64(b) }
	t.Logf("corpus: %d to hold, %d to let through", must, free)
	t.Logf("grep hook: recall %.1f%% (%d/%d), false positives %.1f%% (%d/%d)", pct(grepHeld, must), grepHeld, must, pct(grepFP, free), grepFP, free)
	t.Logf("airlock:   recall %.1f%% (%d/%d), false positives %.1f%% (%d/%d)", pct(ourHeld, must), ourHeld, must, pct(ourFP, free), ourFP, free)
	if ourHeld <= grepHeld || ourFP > grepFP {
		t.Errorf("airlock should hold more and flag no more benign commands than the grep hook")
	}
}
