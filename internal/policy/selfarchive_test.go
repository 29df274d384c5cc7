package policy

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"strings"
	"testing"
)

func tarOf(t *testing.T, gz bool, names ...string) string {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, n := range names {
		if err := tw.WriteHeader(&tar.Header{Name: n, Mode: 0o644, Size: 2, Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write([]byte("{}")); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if !gz {
		return buf.String()
	}
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	if _, err := w.Write(buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return z.String()
}

func zipOf(t *testing.T, names ...string) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, n := range names {
		w, err := zw.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte("{}")); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestArchiveAtProjectRoot: an archive extracted at the project's root
// is listed when airlock can read it, and a member that lands on the
// project's own protected files (.claude/settings.json) is refused; an
// archive of ordinary files is not (the limit FINDINGS-4 and
// docs/THREAT-MODEL.md named for H2).
func TestArchiveAtProjectRoot(t *testing.T) {
	f := newFixture(t)
	f.write("proj/.git/HEAD", "ref: refs/heads/main\n")
	f.write("proj/x.tar", tarOf(t, false, ".claude/settings.json"))
	f.write("proj/x.tgz", tarOf(t, true, "./.claude/settings.json"))
	f.write("proj/deep.tgz", tarOf(t, true, "pkg-1.0/.claude/settings.local.json", "pkg-1.0/README"))
	f.write("proj/x.zip", zipOf(t, "src/a.go", ".claude/settings.local.json"))
	f.write("proj/up.tar", tarOf(t, false, "../x"))
	f.write("proj/vendor.tgz", tarOf(t, true, "vendor/a.go", "vendor/b.go"))
	f.write("proj/ok.zip", zipOf(t, "docs/index.md"))
	f.write("proj/claude-docs.tar", tarOf(t, false, "docs/.claude/notes.md"))
	p := f.load()
	proj := f.path("proj")
	for _, tc := range []struct {
		cmd    string
		denied bool
	}{
		{"tar xf x.tar", true},
		{"tar -xzf x.tgz", true},
		{"tar xzf deep.tgz --strip-components=1", true},
		{"unzip -o x.zip", true},
		{"bsdtar xf x.tar", true},
		{"tar xf up.tar", true},
		// Ordinary extractions, and what cannot be listed.
		{"tar xzf vendor.tgz", false},
		{"tar xzf deep.tgz", false}, // lands in pkg-1.0/, not the root's .claude
		{"unzip ok.zip", false},
		{"tar xf claude-docs.tar", false},
		{"tar xf missing.tar", false},
		{"tar tf x.tar", false},
		{"mkdir x && tar xf x.tar -C x", false},
	} {
		v := p.DecideIn(Unattended, Action{Kind: Shell, Tool: "Bash", Command: tc.cmd, Cwd: proj, Snapshots: true})
		if tc.denied {
			if v.Decision != Deny || !strings.HasPrefix(v.Rule, "self.") {
				t.Errorf("%q: %s by %s (%v), want a deny by self-protection", tc.cmd, v.Decision, v.Rule, v.Reasons)
			}
			continue
		}
		if v.Decision == Deny {
			t.Errorf("%q: denied by %s (%v)", tc.cmd, v.Rule, v.Reasons)
		}
	}
}
