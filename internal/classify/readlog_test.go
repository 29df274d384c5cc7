package classify

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadRecordsWhatRuns: CommandIn reports the files its analysis read
// with what it found (a digest, "absent", a link), the set an approval
// binds; a change to any of them changes the report.
func TestReadRecordsWhatRuns(t *testing.T) {
	d := t.TempDir()
	w := func(name, body string) {
		if err := os.WriteFile(filepath.Join(d, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w("deploy.sh", "#!/bin/sh\n. ./lib.sh\ngit push origin main\n")
	w("lib.sh", "X=1\n")
	w("Makefile", "-include local.mk\ndeploy:\n\tgit push origin main\n")
	state := func(cmd, name string) string {
		for _, f := range CommandIn(cmd, DirFS(d)).Read {
			if f.Path == filepath.Join(d, name) {
				return f.State
			}
		}
		return ""
	}
	for _, c := range []struct{ cmd, file, prefix string }{
		{"./deploy.sh", "deploy.sh", "sha256:"},
		{"./deploy.sh", "lib.sh", "sha256:"},
		{"make deploy", "Makefile", "sha256:"},
		{"make deploy", "local.mk", "absent"},
		{"make deploy", "GNUmakefile", "absent"},
	} {
		if got := state(c.cmd, c.file); !strings.HasPrefix(got, c.prefix) {
			t.Errorf("%s: %s read as %q, want %s…", c.cmd, c.file, got, c.prefix)
		}
	}
	before := state("./deploy.sh", "lib.sh")
	w("lib.sh", "Y=2\n")
	if after := state("./deploy.sh", "lib.sh"); after == before {
		t.Errorf("lib.sh rewritten reads the same: %q", after)
	}
	if err := os.Rename(filepath.Join(d, "deploy.sh"), filepath.Join(d, "real.sh")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.sh", filepath.Join(d, "deploy.sh")); err != nil {
		t.Fatal(err)
	}
	if got := state("./deploy.sh", "deploy.sh"); !strings.HasPrefix(got, "link:real.sh;sha256:") {
		t.Errorf("deploy.sh as a link reads as %q", got)
	}
	if got := CommandIn("ls", DirFS(d)).Read; len(got) != 0 {
		t.Errorf("ls read %v", got)
	}
}
