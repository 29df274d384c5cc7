package journal

import (
	"bytes"
	"fmt"
	"os"
	"testing"
)

// The count "N events before it verify" is the number of lines before the
// one at fault, wherever the fault is and however it shows: an edited
// line is only found from the line after it (or the one after that), and
// those lines must not be counted.
func TestVerifyCountsOnlyTheEventsBeforeTheFault(t *testing.T) {
	const n = 9
	for k := 1; k <= n; k++ {
		for _, how := range []string{"command", "prev"} {
			t.Run(fmt.Sprintf("line %d %s", k, how), func(t *testing.T) {
				j := open(t)
				fill(t, j, n)
				path, ls := lines(t, j)
				ls = ls[:n]
				switch how {
				case "command":
					ls[k-1] = bytes.Replace(ls[k-1], []byte(fmt.Sprintf("echo %d", k-1)), []byte("echo X"), 1)
				case "prev":
					i := bytes.Index(ls[k-1], []byte(`"prev":"`)) + 8
					if k == 1 {
						ls[0] = bytes.Replace(ls[0], []byte(`"prev":""`), []byte(`"prev":"0"`), 1)
					} else {
						ls[k-1][i] ^= 1
					}
				}
				if err := os.WriteFile(path, bytes.Join(ls, nil), 0o600); err != nil {
					t.Fatal(err)
				}
				a, err := j.Verify()
				if err != nil {
					t.Fatal(err)
				}
				if a.OK() {
					if how == "command" && k == n {
						return // the last line is vouched for only by the head
					}
					t.Fatal("verify passed a tampered journal")
				}
				if want := int64(a.Problem.Line - 1); a.Entries != want {
					t.Errorf("problem at line %d (%s), but %d events said to verify before it, want %d", a.Problem.Line, a.Problem.Kind, a.Entries, want)
				}
			})
		}
	}
}
