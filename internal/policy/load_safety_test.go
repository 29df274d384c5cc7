package policy

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/airlock-dev/airlock/internal/safefile"
)

// TestProjectPolicyPlantedFiles checks that a project policy a checkout
// could bring in (a link to /dev/zero, a FIFO, a link out of the project,
// a huge file) fails the load at once with an error naming what is wrong,
// instead of exhausting memory or hanging every hook call.
func TestProjectPolicyPlantedFiles(t *testing.T) {
	for _, c := range []struct {
		name  string
		plant func(t *testing.T, file, outside string)
		want  error
		says  string
	}{
		{"link to /dev/zero", func(t *testing.T, file, _ string) { plantOK(t, os.Symlink("/dev/zero", file)) }, safefile.ErrOutside, "outside"},
		{"FIFO", func(t *testing.T, file, _ string) { plantOK(t, syscall.Mkfifo(file, 0o644)) }, safefile.ErrNotRegular, "FIFO"},
		{"link out of the project", func(t *testing.T, file, outside string) {
			plantOK(t, os.WriteFile(outside, []byte("mode: interactive\n"), 0o644))
			plantOK(t, os.Symlink(outside, file))
		}, safefile.ErrOutside, "outside"},
		{"over the limit", func(t *testing.T, file, _ string) {
			plantOK(t, os.WriteFile(file, []byte("#"+strings.Repeat("x", MaxPolicyBytes)+"\n"), 0o644))
		}, safefile.ErrTooLarge, "limit"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			project := filepath.Join(dir, "project")
			file := filepath.Join(project, ProjectFile)
			plantOK(t, os.MkdirAll(filepath.Dir(file), 0o755))
			c.plant(t, file, filepath.Join(dir, "elsewhere.yaml"))
			env := map[string]string{"HOME": filepath.Join(dir, "home")}
			_, err := Load(Options{Getenv: func(k string) string { return env[k] }, Cwd: project})
			if !errors.Is(err, c.want) {
				t.Fatalf("Load = %v, want %v", err, c.want)
			}
			if !strings.Contains(err.Error(), c.says) {
				t.Fatalf("Load's error %q does not say %q", err, c.says)
			}
		})
	}
	// A link that stays inside the project is read as its target.
	dir := t.TempDir()
	project := filepath.Join(dir, "project")
	file := filepath.Join(project, ProjectFile)
	plantOK(t, os.MkdirAll(filepath.Dir(file), 0o755))
	plantOK(t, os.WriteFile(filepath.Join(project, "shared.yaml"), []byte("mode: unattended\n"), 0o644))
	plantOK(t, os.Symlink("../shared.yaml", file))
	env := map[string]string{"HOME": filepath.Join(dir, "home")}
	p, err := Load(Options{Getenv: func(k string) string { return env[k] }, Cwd: project})
	if err != nil {
		t.Fatalf("Load with a link inside the project: %v", err)
	}
	if p.Mode != Unattended {
		t.Fatalf("mode = %v, want the linked file's unattended", p.Mode)
	}
}

func plantOK(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
