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
