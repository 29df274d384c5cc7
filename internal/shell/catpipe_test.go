package shell

import "testing"

// TestCatFileIntoShell: cat FILE | sh runs FILE as sh < FILE does, so
// the shell's run carries the file as its input redirection (which the
// classifier follows); any other producer keeps the shell opaque.
func TestCatFileIntoShell(t *testing.T) {
	for _, tc := range []struct {
		text, file string // file "": the shell's run is opaque
	}{
		{"cat install.sh | sh", "install.sh"},
		{"cat ./install.sh | sh -s -- -d -b x", "./install.sh"},
		{"cat -- x.sh | bash", "x.sh"},
		{"cat x.sh | sudo sh", "x.sh"},
		{"cat a.sh b.sh | sh", ""},
		{"cat -n x.sh | sh", ""},
		{"cat *.sh | sh", ""},
		{`cat "$F" | sh`, ""},
		{"cat x.sh | cat | sh", ""},
		{"cat - | sh", ""},
	} {
		var sh *Invocation
		invs := Parse(tc.text)
		for i := range invs {
			if n := invs[i].Name(); n == "sh" || n == "bash" || invs[i].Opaque != "" && invs[i].Name() != "cat" {
				sh = &invs[i]
			}
		}
		if sh == nil {
			t.Errorf("%s: no run of the shell in %+v", tc.text, invs)
			continue
		}
		var from string
		for _, r := range sh.Redirects {
			if r.Op == "<" {
				from = r.Target
			}
		}
		switch {
		case tc.file == "" && sh.Opaque == "":
			t.Errorf("%s: the shell's run is not opaque (input %q)", tc.text, from)
		case tc.file != "" && (sh.Opaque != "" || from != tc.file):
			t.Errorf("%s: opaque %q, input %q; want it run from %s", tc.text, sh.Opaque, from, tc.file)
		}
	}
}
