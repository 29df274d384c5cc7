package classify

import (
	"slices"
	"testing"

	"github.com/airlock-dev/airlock/internal/shell"
)

// TestFileWrites: the files a run writes that are not its own words (dd
// of=, sed's w, W and s///w, awk's print and printf to a file, the
// program a compiler writes without -o), and none for runs that only
// print or write elsewhere.
func TestFileWrites(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want []string
	}{
		{`dd of=b5 bs=1`, []string{"b5"}},
		{`dd if=/dev/zero of=/tmp/x bs=1M count=1`, []string{"/tmp/x"}},
		{`sed -n 'w b5' x.sh`, []string{"b5"}},
		{`sed -e 's/a/b/w out' -e 'W out2' x`, []string{"out", "out2"}},
		{`gsed -n '/x/w b5' f`, []string{"b5"}},
		{`awk '{print > "b5"}' x.sh`, []string{"b5"}},
		{`awk '{ printf "%s\n", $0 >> "log.txt" }' x`, []string{"log.txt"}},
		{`gcc y.c`, []string{"a.out"}},
		{`cc -O2 -o y y.c`, []string{"y"}},
		{`rustc m.rs`, []string{"m"}},
		{`sed -n 'p' x`, nil},
		{`sed 's/w x/y/' f`, nil},
		{`awk '$1 > "m" {print}' f`, nil},
		{`awk '{print | "sort"}' f`, nil},
		{`cc -c y.c`, nil},
		{`gcc -E y.c`, nil},
		{`dd if=a`, nil},
	} {
		invs := shell.Parse(tc.cmd)
		got := fileWrites(&invs[0])
		if !slices.Equal(got, tc.want) {
			t.Errorf("fileWrites(%s) = %q, want %q", tc.cmd, got, tc.want)
		}
	}
}
