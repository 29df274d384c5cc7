package classify

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// FS gives the classifier the files a command would run or change: the
// scripts it follows (bash deploy.sh, npm run build, make release) and
// the files a redirection would empty. Names are as the command wrote
// them: relative to the command's directory, absolute, or starting with
// "~/". fstest.MapFS satisfies it for relative names; DirFS reads the
// real filesystem.
type FS interface {
	ReadFile(name string) ([]byte, error)
	Stat(name string) (fs.FileInfo, error)
}

// MaxScriptBytes bounds a file the classifier reads: a larger script is
// opaque.
const MaxScriptBytes = 256 << 10

// errNoFS says the classifier was given no filesystem.
var errNoFS = errors.New("no filesystem to read it from")

// ErrTooLarge says a file is larger than MaxScriptBytes.
var ErrTooLarge = errors.New("larger than 256 KiB")

// DirFS is the real filesystem seen from the directory dir, with "~/"
// naming this process's home directory ($HOME).
func DirFS(dir string) FS { return osFS{dir: dir} }

// HomeDirFS is DirFS with "~/" naming home: the home directory of the
// shell that will run the command, which is not this process's when the
// resident service decides for a hook process with its own HOME. A home
// that is not absolute names no file: every "~/" name then fails to read
// (the script is opaque), never a file below the working directory.
func HomeDirFS(dir, home string) FS { return osFS{dir: dir, home: home, homeSet: true} }

// HomeEnvFS is HomeDirFS for a decision made for another process (the
// resident service deciding for a hook client): the variables that pick a
// program's configuration file (CURL_HOME, KUBECONFIG, WGETRC, …) are read
// from getenv, the client's environment, not the service's.
func HomeEnvFS(dir, home string, getenv func(string) string) FS {
	return osFS{dir: dir, home: home, homeSet: true, getenv: getenv}
}

type osFS struct {
	dir string
	// home is what "~/" names when homeSet; else $HOME is read.
	home    string
	homeSet bool
	// getenv is the environment of the process the decision is for;
	// nil: this process's.
	getenv func(string) string
	// log, when set, notes what was read (readlog.go).
	log *readLog
}

// HomeKnown reports whether "~/" names a usable directory here.
func (o osFS) HomeKnown() bool {
	if !o.homeSet {
		h, err := os.UserHomeDir()
		return err == nil && filepath.IsAbs(h)
	}
	return filepath.IsAbs(o.home)
}

// Getenv reads a variable of the environment the decision is for.
func (o osFS) Getenv(name string) (string, bool) {
	if o.getenv != nil {
		v := o.getenv(name)
		return v, v != ""
	}
	return os.LookupEnv(name)
}

// noHome is what a "~/" name resolves to when the home directory is
// unknown or relative: an absolute path no system call accepts (it holds
// a NUL), so that reading it, or anything below it, fails.
const noHome = "/\x00airlock: no usable home directory"

func (o osFS) resolve(name string) string {
	if rest, ok := strings.CutPrefix(name, "~/"); ok {
		home := o.home
		if !o.homeSet {
			home, _ = os.UserHomeDir()
		}
		if !filepath.IsAbs(home) {
			return noHome
		}
		return filepath.Join(home, rest)
	}
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(o.dir, name)
}

func (o osFS) ReadFile(name string) ([]byte, error) {
	p := o.resolve(name)
	data, err := os.ReadFile(p)
	o.log.read(p, data, err)
	return data, err
}

func (o osFS) Stat(name string) (fs.FileInfo, error) {
	p := o.resolve(name)
	fi, err := os.Stat(p)
	o.log.stat(p, fi, err)
	return fi, err
}

// RealPath follows the symbolic links of name (its directories', then
// its own, a dangling last one too) to the path they lead to.
func (o osFS) RealPath(name string) (string, bool) {
	p := o.resolve(name)
	if strings.ContainsRune(p, 0) {
		return "", false
	}
	for i := 0; i < 16; i++ {
		if d, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
			p = filepath.Join(d, filepath.Base(p))
		}
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return p, true
		}
		t, err := os.Readlink(p)
		if err != nil {
			return p, true
		}
		if !filepath.IsAbs(t) {
			t = filepath.Join(filepath.Dir(p), t)
		}
		p = filepath.Clean(t)
		if processFile(p) {
			return p, true
		}
	}
	return p, true
}

// dirOutputFS is an FS that can tell what pwd and git rev-parse
// --show-toplevel print (osFS; not the maps tests use).
type dirOutputFS interface {
	DirOutput(dir, query string) (string, bool)
}

// DirOutput is what pwd (query "pwd" or "pwd -P") or git rev-parse
// --show-toplevel ("toplevel") prints in dir (shell.Invocation.Dir's
// form), read now (shell.Limits.DirOutput). A directory that does not
// exist yet, or git steered by its variables in the environment, is not
// told.
func (o osFS) DirOutput(dir, query string) (string, bool) {
	if !filepath.IsAbs(o.dir) {
		return "", false
	}
	d := o.dir
	if dir == "~" {
		dir = "~/"
	}
	if dir != "" {
		d = o.resolve(dir)
	}
	if !filepath.IsAbs(d) || strings.ContainsRune(d, 0) {
		return "", false
	}
	if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
		return "", false
	}
	switch query {
	case "pwd":
		return filepath.Clean(d), true
	case "pwd -P":
		real, err := filepath.EvalSymlinks(d)
		return real, err == nil
	case "toplevel":
		for _, v := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM"} {
			if _, set := o.Getenv(v); set {
				return "", false
			}
		}
		real, err := filepath.EvalSymlinks(d)
		if err != nil {
			return "", false
		}
		for p := real; ; p = filepath.Dir(p) {
			if filepath.Base(p) == ".git" {
				return "", false // inside a repository's own directory: no work tree
			}
			if _, err := os.Lstat(filepath.Join(p, ".git")); err == nil {
				return p, true
			}
			if p == "/" {
				return "", false
			}
		}
	}
	return "", false
}

// ReadDir lists a directory (go generate's packages, cargo's workspace
// members, make's include globs).
func (o osFS) ReadDir(name string) ([]fs.DirEntry, error) {
	p := o.resolve(name)
	ents, err := os.ReadDir(p)
	o.log.dir(p, ents, err)
	return ents, err
}

// ReadHead reads the first n bytes of a file, to tell a compiled program
// from a script without reading all of it.
func (o osFS) ReadHead(name string, n int) ([]byte, error) {
	p := o.resolve(name)
	data, err := readHead(p, n)
	o.log.head(p, data, err)
	return data, err
}

func readHead(p string, n int) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, n)
	k, err := io.ReadFull(f, buf)
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = nil
	}
	return buf[:k], err
}

// headReader is an FS that can read the start of a file.
type headReader interface {
	ReadHead(name string, n int) ([]byte, error)
}

// readHead reads the start of a file: through ReadHead when the FS has
// it, else the whole file within MaxScriptBytes.
func (c *Classifier) readHead(name string) ([]byte, error) {
	if h, ok := c.FS.(headReader); ok {
		return h.ReadHead(fsName(name), 512)
	}
	data, err := c.FS.ReadFile(fsName(name))
	if len(data) > 512 {
		data = data[:512]
	}
	return data, err
}

// fsName turns a name as written into one an fs.FS accepts when it is
// relative ("./x.sh" → "x.sh"); absolute and "~/" names pass unchanged
// for DirFS.
func fsName(name string) string {
	if strings.HasPrefix(name, "/") || strings.HasPrefix(name, "~/") {
		return name
	}
	return path.Clean(name)
}

// readFile reads a file the command would run, within MaxScriptBytes.
func (c *Classifier) readFile(name string) ([]byte, error) {
	if c.FS == nil {
		return nil, errNoFS
	}
	name = fsName(name)
	info, err := c.FS.Stat(name)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", name)
	}
	if info.Size() > MaxScriptBytes {
		return nil, ErrTooLarge
	}
	data, err := c.readKept(name, info)
	if err == nil && len(data) > MaxScriptBytes {
		return nil, ErrTooLarge
	}
	return data, err
}

// exists reports whether a file exists, and whether that could be known.
func (c *Classifier) exists(name string) (exists, known bool) {
	if c.FS == nil {
		return false, false
	}
	_, err := c.FS.Stat(fsName(name))
	switch {
	case err == nil:
		return true, true
	case errors.Is(err, fs.ErrNotExist):
		return false, true
	}
	return false, false
}

// within returns f as seen from dir, the directory a run happens in
// (shell.Invocation.Dir: relative to f's own directory, absolute, "~" or
// "~/..."), so that a file named relative to the run is read where the
// run finds it (cd src && python3 m.py reads src/m.py).
func within(f FS, dir string) FS {
	if f == nil || dir == "" || dir == "." {
		return f
	}
	if o, ok := f.(osFS); ok {
		if dir == "~" {
			dir = "~/"
		}
		return osFS{dir: o.resolve(dir), home: o.home, homeSet: o.homeSet, getenv: o.getenv, log: o.log}
	}
	return runDirFS{f: f, dir: dir}
}

// runDirFS is an FS other than the real one (fstest.MapFS in tests) seen
// from a directory inside it.
type runDirFS struct {
	f   FS
	dir string
}

func (s runDirFS) name(n string) string {
	if strings.HasPrefix(n, "/") || strings.HasPrefix(n, "~/") {
		return n
	}
	return path.Join(s.dir, n)
}

func (s runDirFS) ReadFile(name string) ([]byte, error) { return s.f.ReadFile(s.name(name)) }

func (s runDirFS) Stat(name string) (fs.FileInfo, error) { return s.f.Stat(s.name(name)) }

func (s runDirFS) ReadDir(name string) ([]fs.DirEntry, error) {
	d, ok := s.f.(dirReader)
	if !ok {
		return nil, errors.New("the filesystem cannot list directories")
	}
	return d.ReadDir(s.name(name))
}

func (s runDirFS) ReadHead(name string, n int) ([]byte, error) {
	if h, ok := s.f.(headReader); ok {
		return h.ReadHead(s.name(name), n)
	}
	data, err := s.f.ReadFile(s.name(name))
	if len(data) > n {
		data = data[:n]
	}
	return data, err
}

// sourceText reads a file the command sources, for the shell walker to
// see whether it can change directory (shell.Limits.SourceText): dir is
// the shell's directory when it runs, relative to FS's.
func (c *Classifier) sourceText(dir, name string) (string, bool) {
	if c.FS == nil || c.dirUnknown {
		return "", false
	}
	in := *c
	in.FS = within(c.FS, dir)
	data, err := in.readFile(name)
	if err != nil || binary(data) {
		return "", false
	}
	return string(data), true
}
