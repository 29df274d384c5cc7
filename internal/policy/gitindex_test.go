package policy

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// gitTrackAll makes dir a git repository whose index holds every file
// in it, with the git found on PATH (the tests need it).
func gitTrackAll(t *testing.T, dir string) {
	t.Helper()
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "add", "-A", "-f")
}

func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// TestParseIndex reads the index git itself writes, in each of its
// formats, and refuses a damaged one.
func TestParseIndex(t *testing.T) {
	dir := t.TempDir()
	files := []string{"a.go", ".claude/settings.json", "src/deep/x.py", "src/deep/y.py", "z"}
	for _, f := range files {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("a.go", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	gitTrackAll(t, dir)
	want := append(slices.Clone(files), "link")
	slices.Sort(want)
	for _, version := range []string{"2", "3", "4"} {
		gitIn(t, dir, "update-index", "--index-version", version)
		data, err := os.ReadFile(filepath.Join(dir, ".git/index"))
		if err != nil {
			t.Fatal(err)
		}
		entries, ok := parseIndex(data)
		if !ok {
			t.Fatalf("version %s: not read", version)
		}
		var got []string
		links := 0
		for _, e := range entries {
			got = append(got, e.path)
			if e.link {
				links++
				if e.path != "link" {
					t.Errorf("version %s: %s read as a link", version, e.path)
				}
			}
		}
		if !slices.Equal(got, want) || links != 1 {
			t.Errorf("version %s: got %q (%d links), want %q", version, got, links, want)
		}
		// A damaged or cut index is not read: the caller fails closed.
		for _, bad := range [][]byte{data[:len(data)-25], append([]byte("DIRX"), data[4:]...), data[:40]} {
			if _, ok := parseIndex(bad); ok {
				t.Errorf("version %s: a damaged index was read", version)
			}
		}
	}
	// A split index keeps entries in another file: not read.
	gitIn(t, dir, "update-index", "--index-version", "2")
	gitIn(t, dir, "update-index", "--split-index")
	if shared, _ := filepath.Glob(filepath.Join(dir, ".git/sharedindex.*")); len(shared) == 0 {
		t.Fatal("git wrote no shared index")
	}
	data, err := os.ReadFile(filepath.Join(dir, ".git/index"))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := parseIndex(data); ok {
		t.Error("a split index was read")
	}
}
