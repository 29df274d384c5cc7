package classify

import "testing"

// TestWriteOptionsPrefixes checks that each write option of a reader
// makes its run not read-only however it is spelt: every getopt_long
// prefix of a long option (with "=VALUE" or a separate value), and each
// short option alone, with its value attached, or last in a cluster.
func TestWriteOptionsPrefixes(t *testing.T) {
	for name, w := range writeOptions() {
		for _, l := range w.long {
			for n := 3; n <= len(l); n++ {
				for _, args := range [][]string{{name, l[:n] + "=F", "in"}, {name, l[:n], "F", "in"}} {
					if ReadsOnlyRun(args) {
						t.Errorf("ReadsOnlyRun(%q) = true, want false", args)
					}
				}
			}
		}
		for _, c := range w.short {
			for _, args := range [][]string{{name, "-" + string(c), "F"}, {name, "-" + string(c) + "F"}, {name, "-u" + string(c), "F"}} {
				if ReadsOnlyRun(args) {
					t.Errorf("ReadsOnlyRun(%q) = true, want false", args)
				}
			}
		}
		if !ReadsOnlyRun([]string{name, "in"}) {
			t.Errorf("ReadsOnlyRun(%q) = false, want true", []string{name, "in"})
		}
	}
}
