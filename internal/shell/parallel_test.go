package shell

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestGNUQuoteMatchesParallel checks gnuQuote, the quoting GNU parallel
// puts on each input value in the line it hands to a shell, against
// parallel --dry-run where GNU parallel is installed (nothing runs).
func TestGNUQuoteMatchesParallel(t *testing.T) {
	values := []string{"a", "./x.sh", "a b", ";./x.sh", "a;./x.sh", "$(./x.sh)", "`x`", "'", "''x'", "it's", `a"b`, "", "-rf", "a/b.c+d_e-f", "~/x", "*.log", "a\tb", "x=1", "{}"}
	want := map[string]string{"a": "a", "./x.sh": "./x.sh", "a b": "'a b'", ";./x.sh": "';./x.sh'", "'": `"'"`, "it's": `'it'"'"'s'`, "": "''", "-rf": "-rf"}
	for v, w := range want {
		if got := gnuQuote(v); got != w {
			t.Errorf("gnuQuote(%q) = %q, want %q", v, got, w)
		}
	}
	parallel, err := exec.LookPath("parallel")
	if err != nil {
		t.Skip("GNU parallel is not installed: ", err)
	}
	home := t.TempDir()
	for _, v := range values {
		cmd := exec.Command(parallel, "--will-cite", "--dry-run", "echo", ":::", v)
		cmd.Env = append(os.Environ(), "HOME="+home)
		out, err := cmd.Output()
		if err != nil {
			t.Skipf("parallel --dry-run: %v (not GNU parallel?)", err)
		}
		got := strings.TrimSuffix(strings.TrimPrefix(string(out), "echo "), "\n")
		if v == "" && got == "echo" {
			continue // an empty value: GNU writes nothing where '' is meant
		}
		if q := gnuQuote(v); q != got {
			t.Errorf("value %q: airlock quotes it %q, parallel writes %q", v, q, got)
		}
	}
}
