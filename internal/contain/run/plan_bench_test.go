package run

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkNewPlan is the runner's own work before bubblewrap starts:
// the protected-path list resolved and the arguments built.
func BenchmarkNewPlan(b *testing.B) {
	cwd, _ := os.Getwd()
	cfg := Config{Environ: os.Environ(), Cwd: cwd, Executable: "/usr/local/bin/airlock", RunDir: "/tmp", ProxySocket: "/tmp/x.sock",
		Bridge: "/usr/local/bin/airlock-bridge", Command: []string{"true"}}
	for i := 0; i < b.N; i++ {
		if _, err := NewPlan(cfg); err != nil {
			b.Fatal(err)
		}
	}
}

// TestResolverAsEvalSymlinks: the plan's resolver gives what
// filepath.EvalSymlinks gives for paths that exist, through links
// absolute, relative, chained and with "..", and resolves the part of a
// missing path that exists.
func TestResolverAsEvalSymlinks(t *testing.T) {
	d := t.TempDir()
	d, _ = filepath.EvalSymlinks(d)
	for _, dir := range []string{"a/b/c", "x/y"} {
		os.MkdirAll(filepath.Join(d, dir), 0o755)
	}
	os.WriteFile(filepath.Join(d, "a/b/c/f"), nil, 0o644)
	os.Symlink(filepath.Join(d, "a/b"), filepath.Join(d, "abs"))
	os.Symlink("a/b/c", filepath.Join(d, "rel"))
	os.Symlink("../../x", filepath.Join(d, "a/b/up"))
	os.Symlink("rel", filepath.Join(d, "chain"))
	os.Symlink("loop2", filepath.Join(d, "loop1"))
	os.Symlink("loop1", filepath.Join(d, "loop2"))
	r := &resolver{}
	for _, p := range []string{"a/b/c/f", "abs/c/f", "rel/f", "a/b/up/y", "chain/f", "abs/up/y", "abs/../rel", "x"} {
		want, err := filepath.EvalSymlinks(filepath.Join(d, p))
		if err != nil {
			t.Fatal(err)
		}
		if got := r.real(filepath.Join(d, p)); got != want {
			t.Errorf("%s: %s, want %s", p, got, want)
		}
	}
	for p, want := range map[string]string{"abs/missing/z": "a/b/missing/z", "chain/nope": "a/b/c/nope", "a/b/c/f/under-a-file": "a/b/c/f/under-a-file"} {
		if got := r.real(filepath.Join(d, p)); got != filepath.Join(d, want) {
			t.Errorf("%s: %s, want %s", p, got, filepath.Join(d, want))
		}
	}
	// A loop ends; what it gives is not a resolved path, but it returns.
	_ = r.real(filepath.Join(d, "loop1/x"))
}

// TestResolverExistsAsLstat: what the resolver remembers of each path
// (its exists and isDir, answered without a system call for a path it
// saw, or one below a missing path or a file) is what os.Lstat and
// os.Stat say, through symlinks, dangling links and files in the way.
func TestResolverExistsAsLstat(t *testing.T) {
	d := t.TempDir()
	d, _ = filepath.EvalSymlinks(d)
	os.MkdirAll(filepath.Join(d, "a/b"), 0o755)
	os.WriteFile(filepath.Join(d, "a/f"), nil, 0o644)
	os.Symlink(filepath.Join(d, "a"), filepath.Join(d, "toa"))
	os.Symlink(filepath.Join(d, "a/f"), filepath.Join(d, "tof"))
	os.Symlink(filepath.Join(d, "nowhere"), filepath.Join(d, "dangling"))
	paths := []string{"a", "a/b", "a/f", "a/f/x", "a/f/x/y", "a/missing", "a/missing/deeper/z", "toa", "toa/b", "toa/f", "toa/nope/q",
		"tof", "tof/x", "dangling", "dangling/x", "missing", "missing/a/b"}
	for _, order := range []string{"resolve first", "ask first"} {
		r := &resolver{}
		for _, p := range paths {
			full := filepath.Join(d, p)
			if order == "resolve first" {
				full = r.real(full)
			}
			_, lerr := os.Lstat(full)
			st, serr := os.Stat(full)
			if got, want := r.exists(full), lerr == nil; got != want {
				t.Errorf("%s: exists(%s) = %v, lstat says %v", order, full, got, want)
			}
			if got, want := r.isDir(full), serr == nil && st.IsDir(); got != want {
				t.Errorf("%s: isDir(%s) = %v, stat says %v", order, full, got, want)
			}
			// Asked again (from what it remembers), the same.
			if got, want := r.exists(full), lerr == nil; got != want {
				t.Errorf("%s: exists(%s) again = %v, lstat says %v", order, full, got, want)
			}
		}
	}
}
