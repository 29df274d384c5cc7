package run

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGitReviewWithoutAnchor is the layer under the anchors (FINDINGS-10
// C4), run without a sandbox: where a rename did happen (a platform
// without the mounts), the review puts the repository back and sets the
// impostor aside; a .git file redirected is put back; a repository made
// by git init with only git's keys stays.
func TestGitReviewWithoutAnchor(t *testing.T) {
	write := func(p, body string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("moved .git", func(t *testing.T) {
		proj := t.TempDir()
		write(filepath.Join(proj, ".git/config"), "[core]\n\tbare = false\n")
		g := TakeGit(proj, "", nil)
		if err := os.Rename(filepath.Join(proj, ".git"), filepath.Join(proj, ".git.bak")); err != nil {
			t.Fatal(err)
		}
		write(filepath.Join(proj, ".git/config"), "[core]\n\tfsmonitor = ./x.sh\n")
		found := GitReview(g)
		if b, _ := os.ReadFile(filepath.Join(proj, ".git/config")); strings.Contains(string(b), "fsmonitor") {
			t.Errorf("the impostor .git is in force: %+v", found)
		}
		if _, err := os.Lstat(filepath.Join(proj, ".git"+SetAsideSuffix, "config")); err != nil || len(found) != 1 || !found[0].Restored {
			t.Errorf("not set aside and put back: %v %+v", err, found)
		}
	})
	t.Run("redirected .git file", func(t *testing.T) {
		proj := t.TempDir()
		write(filepath.Join(proj, ".git"), "gitdir: gd\n")
		write(filepath.Join(proj, "gd/config"), "[core]\n\tbare = false\n")
		g := TakeGit(proj, "", nil)
		write(filepath.Join(proj, ".git"), "gitdir: evil\n")
		write(filepath.Join(proj, "evil/config"), "[core]\n\tfsmonitor = ./x.sh\n")
		GitReview(g)
		if b, _ := os.ReadFile(filepath.Join(proj, ".git")); string(b) != "gitdir: gd\n" {
			t.Errorf(".git after the review: %q", b)
		}
	})
	t.Run("include added to an included file", func(t *testing.T) {
		proj := t.TempDir()
		write(filepath.Join(proj, ".git/config"), "[include]\n\tpath = ../a.cfg\n")
		write(filepath.Join(proj, "a.cfg"), "[user]\n\tname = a\n")
		g := TakeGit(proj, "", nil)
		write(filepath.Join(proj, "a.cfg"), "[include]\n\tpath = b.cfg\n")
		write(filepath.Join(proj, "b.cfg"), "[core]\n\tfsmonitor = ./x.sh\n")
		found := GitReview(g)
		if b, _ := os.ReadFile(filepath.Join(proj, "a.cfg")); string(b) != "[user]\n\tname = a\n" {
			t.Errorf("a.cfg after the review: %q %+v", b, found)
		}
	})
	t.Run("a repository made where there was none", func(t *testing.T) {
		proj := t.TempDir()
		g := TakeGit(proj, "", nil)
		write(filepath.Join(proj, ".git/config"), "[core]\n\tfsmonitor = ./x.sh\n")
		if found := GitReview(g); len(found) != 1 || found[0].AsideAs == "" {
			t.Errorf("a new repository's config with fsmonitor: %+v", found)
		}
		proj2 := t.TempDir()
		g = TakeGit(proj2, "", nil)
		write(filepath.Join(proj2, "gd/config"), "[core]\n\tbare = false\n")
		write(filepath.Join(proj2, ".git"), "gitdir: gd\n")
		if found := GitReview(g); len(found) == 0 || found[0].Path != filepath.Join(proj2, ".git") || found[0].AsideAs == "" {
			t.Errorf("a .git file made where there was none: %+v", found)
		}
	})
	t.Run("git init during the run", func(t *testing.T) {
		proj := t.TempDir()
		g := TakeGit(proj, "", nil)
		write(filepath.Join(proj, ".git/config"), "[core]\n\trepositoryformatversion = 0\n\tbare = false\n")
		write(filepath.Join(proj, ".git/hooks/pre-commit.sample"), "#!/bin/sh\n")
		if found := GitReview(g); len(found) != 0 {
			t.Errorf("git init's own files were acted on: %+v", found)
		}
		write(filepath.Join(proj, ".git/hooks/pre-commit"), "#!/bin/sh\n./x.sh\n")
		if found := GitReview(g); len(found) != 1 || found[0].AsideAs == "" {
			t.Errorf("a hook in a repository made during the run: %+v", found)
		}
	})
}
