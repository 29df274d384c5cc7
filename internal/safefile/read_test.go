package safefile

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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

// ReadRegular returns a file's whole content up to the limit, whatever
// its size says: sizes around the limit and buffer boundaries, an empty
// file, and a file whose size reads as 0 but holds bytes (/proc), read on
// the bare descriptor as os.ReadFile reads it.
func TestReadRegularContent(t *testing.T) {
	dir := t.TempDir()
	const limit = 4096
	for _, n := range []int{0, 1, 2, 511, 512, 513, limit - 1, limit, limit + 1, 3 * limit} {
		name := filepath.Join(dir, "f")
		want := bytes.Repeat([]byte("abcdefg\n"), n/8+1)[:n]
		if err := os.WriteFile(name, want, 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := ReadRegular(name, ReadOptions{Limit: limit})
		if n > limit {
			if !errors.Is(err, ErrTooLarge) {
				t.Fatalf("%d bytes, limit %d: %v, want ErrTooLarge", n, limit, err)
			}
			continue
		}
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%d bytes: got %d bytes, %v", n, len(got), err)
		}
	}
	// A size of 0 that is not the content's: read to the end, and the
	// limit holds on what is read.
	const proc = "/proc/self/status"
	if _, err := os.Stat(proc); err != nil {
		t.Skip("no /proc")
	}
	got, err := ReadRegular(proc, ReadOptions{Limit: 1 << 20})
	if err != nil || !bytes.Contains(got, []byte("\nPid:")) || !bytes.HasSuffix(got, []byte("\n")) {
		t.Fatalf("%s: %q, %v", proc, got, err)
	}
	if _, err := ReadRegular(proc, ReadOptions{Limit: 16}); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("%s with a limit of 16 bytes: %v, want ErrTooLarge", proc, err)
	}
	// The refusal names what the file is.
	if _, err := ReadRegular("/dev/null", ReadOptions{Limit: 16}); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a device") {
		t.Fatalf("/dev/null: %v", err)
	}
	if _, err := ReadRegular(dir, ReadOptions{Limit: 16}); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a directory") {
		t.Fatalf("a directory: %v", err)
	}
}

// BenchmarkReadRegular: one small state file read as the service reads
// the status line's STATUS on every call (go test -bench ReadRegular
// -benchmem ./internal/safefile; strace -c counts its system calls).
func BenchmarkReadRegular(b *testing.B) {
	name := filepath.Join(b.TempDir(), "STATUS")
	if err := os.WriteFile(name, bytes.Repeat([]byte("x"), 200), 0o600); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if data, err := ReadRegular(name, ReadOptions{Limit: 1 << 16}); err != nil || len(data) != 200 {
			b.Fatalf("%d bytes, %v", len(data), err)
		}
	}
}
