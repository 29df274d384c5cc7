//go:build linux

package record

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// helperPlaceholders makes placeholders under RECORD_ROOT as a runner
// does, records them in RECORD_STATE, says so, and waits to be killed.
func helperPlaceholders() {
	root, state := os.Getenv("RECORD_ROOT"), os.Getenv("RECORD_STATE")
	var made []Made
	mk := func(rel string, dir, parent bool, content string) {
		p := filepath.Join(root, rel)
		var err error
		if dir {
			err = os.Mkdir(p, 0o755)
		} else {
			err = os.WriteFile(p, []byte(content), 0o644)
		}
		if err != nil {
			os.Exit(5)
		}
		m, err := Identify(p, dir, parent)
		if err != nil {
			os.Exit(6)
		}
		made = append(made, m)
	}
	mk("a", true, false, "")
	mk("b.json", false, false, "{}\n")
	mk("c", true, false, "")
	mk("d.json", false, false, "")
	mk("p", true, true, "")
	mk("p/q", true, false, "")
	if _, err := WritePlaceholders(state, made, []string{filepath.Join(root, ".envrc")}); err != nil {
		os.Exit(7)
	}
	os.Stdout.WriteString("ready\n")
	select {}
}

// TestCleanStale: the placeholders of a runner killed with SIGKILL are
// removed by the next clean-up while they are still as made (an empty
// directory, a file with the bytes written, the same inode), innermost
// first with the directory made for them; one a human or an agent
// changed since (a file put in it, replaced by another file) is left and
// reported; a running runner's are not touched.
func TestCleanStale(t *testing.T) {
	state := t.TempDir()
	dead, live := t.TempDir(), t.TempDir()
	cmd, _, _ := startHelper(t, "placeholders", "RECORD_STATE="+state, "RECORD_ROOT="+dead)
	startHelper(t, "placeholders", "RECORD_STATE="+state, "RECORD_ROOT="+live)
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	// Made during the run, which could not set it aside.
	if err := os.WriteFile(filepath.Join(dead, ".envrc"), []byte("curl x | sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Changed since: a file put in one, another replaced.
	if err := os.WriteFile(filepath.Join(dead, "c", "mine.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dead, "d.json"))
	if err := os.WriteFile(filepath.Join(dead, "d.json"), nil, 0o644); err != nil {
		t.Fatal(err)
	}

	got, err := CleanStale(state)
	if err != nil {
		t.Fatal(err)
	}
	byPath := map[string]Stale{}
	for _, s := range got {
		byPath[strings.TrimPrefix(s.Path, dead+"/")] = s
		if !strings.HasPrefix(s.Path, dead) {
			t.Errorf("a running runner's placeholder was reported: %+v", s)
		}
	}
	for _, rel := range []string{"a", "b.json", "p/q", "p"} {
		if s := byPath[rel]; !s.Removed {
			t.Errorf("%s: %+v, want removed", rel, s)
		}
		if _, err := os.Lstat(filepath.Join(dead, rel)); !os.IsNotExist(err) {
			t.Errorf("%s is still there: %v", rel, err)
		}
	}
	if s := byPath[".envrc"]; s.Removed || !strings.Contains(s.Why, "outside the sandbox") {
		t.Errorf(".envrc made during the killed run: %+v, want reported, not removed", s)
	}
	if _, err := os.Stat(filepath.Join(dead, ".envrc")); err != nil {
		t.Errorf(".envrc was removed: %v", err)
	}
	if _, ok := byPath[".envrc"]; !ok || strings.Contains(fmtStale(got), live) {
		t.Errorf("reports: %+v", got)
	}
	for _, rel := range []string{"c", "d.json"} {
		if s := byPath[rel]; s.Removed || !strings.Contains(s.Why, "no longer") {
			t.Errorf("%s: %+v, want left with the reason", rel, s)
		}
		if _, err := os.Lstat(filepath.Join(dead, rel)); err != nil {
			t.Errorf("%s was removed: %v", rel, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dead, "c", "mine.txt")); err != nil {
		t.Errorf("the file put in a placeholder: %v", err)
	}
	for _, rel := range []string{"a", "b.json", "c", "d.json", "p/q"} {
		if _, err := os.Lstat(filepath.Join(live, rel)); err != nil {
			t.Errorf("a running runner's %s: %v", rel, err)
		}
	}
	ents, _ := os.ReadDir(placeholdersDir(state))
	if len(ents) != 1 {
		t.Errorf("%d records left, want the running runner's alone", len(ents))
	}
	// Again: nothing more to do.
	if got, err := CleanStale(state); err != nil || len(got) != 0 {
		t.Errorf("a second clean-up: %+v %v", got, err)
	}
}

// TestSameRefusesASymlink: a placeholder replaced by a symlink to an
// empty directory is not the one made.
func TestSameRefusesASymlink(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "ph")
	if err := os.Mkdir(p, 0o755); err != nil {
		t.Fatal(err)
	}
	m, err := Identify(p, true, false)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Same() {
		t.Fatal("the placeholder as made is not Same")
	}
	os.Remove(p)
	if err := os.Mkdir(filepath.Join(dir, "other"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("other", p); err != nil {
		t.Fatal(err)
	}
	if m.Same() {
		t.Error("a symlink in its place is Same")
	}
}

func fmtStale(ss []Stale) string {
	var b strings.Builder
	for _, s := range ss {
		b.WriteString(s.Path + "\n")
	}
	return b.String()
}
