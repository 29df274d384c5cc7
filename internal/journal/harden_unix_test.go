//go:build unix

package journal

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// openFile opens with open(2) and os.NewFile (statefile.Open): the file
// it gives reads, writes and appends as os.OpenFile's does, is not
// inherited by programs airlock runs, and the refusals are the same: a
// missing file is fs.ErrNotExist, a symlink and another kind of file are
// ErrUnsafe, and a mode wider than 0600 is narrowed.
func TestOpenFileAsOSOpenFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	if _, err := openFile(p, os.O_WRONLY|os.O_APPEND, 0); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: %v, want fs.ErrNotExist", err)
	}
	f, err := openFile(p, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	flags, err := fcntl(int(f.Fd()), syscall.F_GETFD)
	if err != nil || flags&syscall.FD_CLOEXEC == 0 {
		t.Errorf("close-on-exec not set: flags %#x, %v", flags, err)
	}
	for _, s := range []string{"one\n", "two\n"} {
		if _, err := f.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	f, err = openFile(p, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("three\n"))
	f.Close()
	if b, _ := os.ReadFile(p); string(b) != "one\ntwo\nthree\n" {
		t.Errorf("appended %q", b)
	}
	os.Chmod(p, 0o644)
	f, err = openFile(p, os.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 3)
	if _, err := f.ReadAt(buf, 4); err != nil || string(buf) != "two" {
		t.Errorf("ReadAt: %q %v", buf, err)
	}
	f.Close()
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v not narrowed to 0600", st.Mode().Perm())
	}
	link := filepath.Join(dir, "link")
	os.Symlink(p, link)
	if _, err := openFile(link, os.O_WRONLY|os.O_APPEND, 0); !errors.Is(err, ErrUnsafe) {
		t.Errorf("symlink: %v, want ErrUnsafe", err)
	}
	if _, err := openFile(dir, os.O_RDONLY, 0); !errors.Is(err, ErrUnsafe) {
		t.Errorf("directory: %v, want ErrUnsafe", err)
	}
}

func fcntl(fd, cmd int) (int, error) {
	r, _, e := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), uintptr(cmd), 0)
	if e != 0 {
		return 0, e
	}
	return int(r), nil
}
