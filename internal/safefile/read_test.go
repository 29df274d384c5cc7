package safefile

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	project := filepath.Join(dir, "project")
	if err := os.MkdirAll(project, 0o755); err != nil {
		t.Fatal(err)
	}
	ok := filepath.Join(project, "policy.yaml")
	if err := os.WriteFile(ok, []byte("mode: unattended\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(project, "big.yaml")
	if err := os.WriteFile(big, bytes.Repeat([]byte("a"), 2048), 0o644); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(dir, "outside.yaml")
	if err := os.WriteFile(outside, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	linkIn := filepath.Join(project, "in.yaml")
	if err := os.Symlink("policy.yaml", linkIn); err != nil {
		t.Fatal(err)
	}
	linkOut := filepath.Join(project, "out.yaml")
	if err := os.Symlink(outside, linkOut); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(project, "zero.yaml")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(project, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	o := ReadOptions{Limit: 1024}
	in := ReadOptions{Limit: 1024, Within: project}
	for _, c := range []struct {
		name string
		file string
		o    ReadOptions
		want error
	}{
		{"regular", ok, in, nil},
		{"link inside", linkIn, in, nil},
		{"link outside, no fence", linkOut, o, nil},
		{"link outside the project", linkOut, in, ErrOutside},
		{"too large", big, o, ErrTooLarge},
		{"link to /dev/zero", zero, o, ErrNotRegular},
		{"link to /dev/zero in a project", zero, in, ErrOutside},
		{"FIFO", fifo, in, ErrNotRegular},
		{"missing", filepath.Join(project, "none"), in, fs.ErrNotExist},
		{"directory", project, o, ErrNotRegular},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadRegular(c.file, c.o)
			if c.want == nil {
				if err != nil {
					t.Fatalf("ReadRegular: %v", err)
				}
				return
			}
			if !errors.Is(err, c.want) {
				t.Fatalf("ReadRegular = %v, want %v", err, c.want)
			}
		})
	}
	if _, err := ReadRegular(ok, ReadOptions{}); err == nil {
		t.Fatal("ReadRegular without a limit succeeded")
	}
}
