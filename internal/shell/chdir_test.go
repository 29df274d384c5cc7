package shell

import "testing"

// TestWrapperDir: a run wrapped by a program that changes directory
// happens in that directory, and shell text nested in it too; the
// directory does not outlast the wrapper.
func TestWrapperDir(t *testing.T) {
	cases := []struct {
		src  string
		name string // the run looked at
		want []string
	}{
		{`env -C ~/.claude tee a`, "tee", []string{"~/.claude"}},
		{`env --chdir=/srv tee a`, "tee", []string{"/srv"}},
		{`env --chdir /srv X=1 tee a`, "tee", []string{"/srv"}},
		{`cd sub && env -C x tee a`, "tee", []string{"sub/x"}},
		{`env -C "$HOME/.claude" sh -c 'tee a'`, "tee", []string{"~/.claude"}},
		{`timeout 5 env -C d tee a; tee b`, "tee", []string{"d", ""}},
		{`env -C "$D" tee a`, "tee", []string{"?"}},
		{`sudo -D /srv tee a`, "tee", []string{"/srv"}},
		{`sudo --chdir=/srv -u x tee a`, "tee", []string{"/srv"}},
		{`sudo -u x tee a`, "tee", []string{""}},
		{`sudo -R /jail tee a`, "tee", []string{"?"}},
		{`find . -execdir tee a \; -exec tee b \;`, "tee", []string{"?", ""}},
		{`env X=1 tee a`, "tee", []string{""}},
		{`parallel --workdir /srv tee ::: a b`, "tee", []string{"/srv", "/srv"}},
		{`parallel --wd /srv 'tee {}' ::: a`, "tee", []string{"/srv"}},
	}
	for _, c := range cases {
		var got []string
		for _, inv := range Parse(c.src) {
			if inv.Name() != c.name {
				continue
			}
			d := inv.Dir
			if d == DirUnknown {
				d = "?"
			}
			got = append(got, d)
		}
		if len(got) != len(c.want) {
			t.Errorf("%q: dirs %q, want %q", c.src, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%q: dirs %q, want %q", c.src, got, c.want)
				break
			}
		}
	}
}
