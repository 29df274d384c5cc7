package snapshot

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Request is what to snapshot.
type Request struct {
	// Root is the project's root, resolved; Git says it is a git worktree.
	Root string
	Git  bool
	// Paths are relative to Root; "." is the whole worktree of a git
	// project (its changed and untracked files).
	Paths []string
	// Ignored takes the files git ignores too.
	Ignored bool
	// For ".": Changes takes tracked files with changes, staged or not;
	// Untracked takes untracked files.
	Changes, Untracked bool
	// Command, Cwd and Session describe what the snapshot is for.
	Command, Cwd, Session string
}

// manifest is airlock.json inside a snapshot: what git's tree cannot say.
type manifest struct {
	Version int      `json:"version"`
	Paths   []string `json:"paths"`
	// Files maps each file to its exact mode and to the blobs undo may
	// overwrite without asking: the versions a reset or checkout puts
	// back (HEAD's and the index's when the snapshot was taken).
	Files map[string]fileInfo `json:"files"`
}

type fileInfo struct {
	Mode fs.FileMode `json:"mode"`
	Safe []string    `json:"safe,omitempty"`
}

// file is one file to take.
type file struct {
	rel  string
	mode fs.FileMode
	size int64
	link string
	sha  string
}

// Take snapshots what a request names and returns the snapshot. It fails
// (and nothing is recorded) when the files are over the bound, when
// something there cannot be taken whole (another repository, a special
// file), or when git fails or is too slow.
func (s *Store) Take(ctx context.Context, req Request) (Meta, error) {
	timeout := s.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// The project's repository is only read, for what a whole-worktree
	// command would lose; everything the snapshot is made of goes to the
	// private store.
	projGit := ""
	if req.Git {
		out, err := gitLine(ctx, "", req.Root, nil, nil, "rev-parse", "--absolute-git-dir")
		if err != nil {
			return Meta{}, err
		}
		projGit = out
	}
	store, err := s.openStore(ctx, req.Root)
	if err != nil {
		return Meta{}, err
	}
	files, size, err := s.enumerate(ctx, projGit, req)
	if err != nil {
		return Meta{}, err
	}
	if err := s.checkSpace(store, size); err != nil {
		return Meta{}, err
	}
	// Every object this snapshot writes goes to a quarantine directory
	// first, which is removed whatever happens: a snapshot that fails
	// (the disk filled, git failed, the time ran out) leaves nothing
	// behind. Only a whole snapshot's objects move into the store.
	quarantine, err := os.MkdirTemp(filepath.Join(store, "objects"), incomingPrefix)
	if err != nil {
		return Meta{}, err
	}
	defer os.RemoveAll(quarantine)
	qenv := []string{"GIT_OBJECT_DIRECTORY=" + quarantine, "GIT_ALTERNATE_OBJECT_DIRECTORIES=" + filepath.Join(store, "objects")}
	if err := hashFiles(ctx, store, req.Root, files, qenv); err != nil {
		return Meta{}, err
	}
	tmp, err := os.MkdirTemp("", "airlock-snapshot-")
	if err != nil {
		return Meta{}, err
	}
	defer os.RemoveAll(tmp)
	index := append([]string{"GIT_INDEX_FILE=" + filepath.Join(tmp, "index")}, qenv...)
	var info bytes.Buffer
	m := manifest{Version: 1, Paths: req.Paths, Files: map[string]fileInfo{}}
	for _, f := range files {
		gm := "100644"
		switch {
		case f.mode&fs.ModeSymlink != 0:
			gm = "120000"
		case f.mode&0o111 != 0:
			gm = "100755"
		}
		fmt.Fprintf(&info, "%s %s\t%s\x00", gm, f.sha, f.rel)
		m.Files[f.rel] = fileInfo{Mode: f.mode}
	}
	if req.Git {
		s.safeVersions(ctx, projGit, req, m.Files)
	}
	if _, err := git(ctx, store, "", index, info.Bytes(), "update-index", "--add", "-z", "--index-info"); err != nil {
		return Meta{}, err
	}
	tree, err := gitLine(ctx, store, "", index, nil, "write-tree")
	if err != nil {
		return Meta{}, err
	}
	mj, err := json.Marshal(m)
	if err != nil {
		return Meta{}, err
	}
	blob, err := gitLine(ctx, store, "", qenv, mj, "hash-object", "-w", "--stdin")
	if err != nil {
		return Meta{}, err
	}
	root, err := gitLine(ctx, store, "", qenv, []byte("040000 tree "+tree+"\tfiles\n100644 blob "+blob+"\tairlock.json\n"), "mktree")
	if err != nil {
		return Meta{}, err
	}
	id := s.newID()
	commit, err := gitLine(ctx, store, "", qenv, nil, "commit-tree", root, "-m", "airlock snapshot "+id+"\n\n"+req.Command)
	if err != nil {
		return Meta{}, err
	}
	if err := migrate(quarantine, filepath.Join(store, "objects")); err != nil {
		return Meta{}, fmt.Errorf("moving the snapshot's objects into the store: %w", err)
	}
	if _, err := git(ctx, store, "", nil, nil, "update-ref", RefPrefix+id, commit); err != nil {
		return Meta{}, err
	}
	meta := Meta{ID: id, Time: s.now().UTC(), Command: req.Command, Cwd: req.Cwd, Root: req.Root, Paths: req.Paths,
		GitDir: store, Commit: commit, Tree: root, Size: size, Files: len(files), Session: req.Session}
	if err := s.appendIndex(meta); err != nil {
		return Meta{}, fmt.Errorf("recording the snapshot: %w", err)
	}
	return meta, nil
}

func (s *Store) newID() string {
	var b [3]byte
	_, _ = rand.Read(b[:])
	return s.now().UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

// openStore returns the private repository holding a project's
// snapshots, made on first use. It is made aside and renamed into place,
// so two hooks making it at once both end with the same whole one.
func (s *Store) openStore(ctx context.Context, root string) (string, error) {
	dir := s.storeDir(root)
	if _, err := os.Stat(filepath.Join(dir, "HEAD")); err == nil {
		return dir, nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".init-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if _, err := git(ctx, "", "", nil, nil, "init", "--bare", "-q", tmp); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, serr := os.Stat(filepath.Join(dir, "HEAD")); serr == nil {
			return dir, nil // made by another hook meanwhile
		}
		return "", err
	}
	return dir, nil
}

// enumerate lists the files to take, within the bound.
func (s *Store) enumerate(ctx context.Context, gitDir string, req Request) ([]file, int64, error) {
	maxBytes, maxFiles := s.MaxBytes, s.MaxFiles
	if maxBytes == 0 {
		maxBytes = DefaultMaxBytes
	}
	if maxFiles == 0 {
		maxFiles = DefaultMaxFiles
	}
	var files []file
	var size int64
	seen := map[string]bool{}
	add := func(rel string) error {
		if seen[rel] {
			return nil
		}
		if strings.ContainsAny(rel, "\n\x00") {
			return fmt.Errorf("%w: the name %q holds a newline", ErrUnsafe, rel)
		}
		fi, err := os.Lstat(filepath.Join(req.Root, rel))
		if errors.Is(err, fs.ErrNotExist) {
			return nil // deleted already: nothing to keep
		}
		if err != nil {
			return err
		}
		f := file{rel: rel, mode: fi.Mode()}
		switch {
		case fi.Mode().IsRegular():
			f.size = fi.Size()
		case fi.Mode()&fs.ModeSymlink != 0:
			if f.link, err = os.Readlink(filepath.Join(req.Root, rel)); err != nil {
				return err
			}
			f.size = int64(len(f.link))
		case fi.IsDir():
			return nil
		default:
			return fmt.Errorf("%w: %s is a special file (%s)", ErrUnsafe, rel, fi.Mode().Type())
		}
		seen[rel] = true
		files = append(files, f)
		size += f.size
		if size > maxBytes || len(files) > maxFiles {
			return fmt.Errorf("%w: more than %d MiB or %d files", ErrTooLarge, maxBytes>>20, maxFiles)
		}
		return ctx.Err()
	}
	for _, p := range req.Paths {
		if p == "." && req.Git {
			if err := s.worktreeFiles(ctx, gitDir, req, add); err != nil {
				return nil, 0, err
			}
			continue
		}
		top := filepath.Join(req.Root, p)
		if _, err := os.Lstat(top); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		err := filepath.WalkDir(top, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(req.Root, path)
			if d.IsDir() {
				if strings.EqualFold(d.Name(), ".git") {
					return fmt.Errorf("%w: %s is another repository's history", ErrUnsafe, rel)
				}
				return ctx.Err()
			}
			if strings.EqualFold(d.Name(), ".git") {
				return fmt.Errorf("%w: %s links another repository", ErrUnsafe, rel)
			}
			return add(rel)
		})
		if err != nil {
			return nil, 0, err
		}
	}
	return files, size, nil
}

// worktreeFiles lists what a whole-worktree command can lose: tracked
// files with changes, untracked files and, when asked, ignored ones.
func (s *Store) worktreeFiles(ctx context.Context, gitDir string, req Request, add func(string) error) error {
	// Changed in the worktree, untracked, and staged (what differs between
	// the index and HEAD: a reset --hard loses a staged file whose
	// worktree copy matches the index, which -m does not list).
	var lists [][]string
	if req.Changes {
		lists = append(lists, []string{"ls-files", "-z", "-m"}, []string{"diff-index", "--cached", "--name-only", "-z", "HEAD"})
	}
	if req.Untracked {
		lists = append(lists, []string{"ls-files", "-z", "-o", "--exclude-standard"})
		if req.Ignored {
			lists = append(lists, []string{"ls-files", "-z", "-o", "-i", "--exclude-standard"})
		}
	}
	for _, args := range lists {
		out, err := git(ctx, gitDir, req.Root, nil, nil, args...)
		if err != nil && args[0] == "diff-index" {
			// No commit yet: everything in the index is staged.
			out, err = git(ctx, gitDir, req.Root, nil, nil, "ls-files", "-z")
		}
		if err != nil {
			return err
		}
		for _, rel := range strings.Split(string(out), "\x00") {
			if rel == "" {
				continue
			}
			if strings.HasSuffix(rel, "/") {
				return fmt.Errorf("%w: %s is another repository", ErrUnsafe, rel)
			}
			if err := add(filepath.FromSlash(rel)); err != nil {
				return err
			}
		}
	}
	return nil
}

// hashFiles writes every file's bytes into the object store, without
// git's filters (no line-ending or LFS conversion): undo gives back the
// bytes as they were.
func hashFiles(ctx context.Context, gitDir, root string, files []file, env []string) error {
	var paths bytes.Buffer
	var regular []int
	for i, f := range files {
		if f.link != "" {
			sha, err := gitLine(ctx, gitDir, "", env, []byte(f.link), "hash-object", "-w", "--stdin")
			if err != nil {
				return err
			}
			files[i].sha = sha
			continue
		}
		paths.WriteString(filepath.Join(root, f.rel) + "\n")
		regular = append(regular, i)
	}
	if len(regular) == 0 {
		return nil
	}
	out, err := git(ctx, gitDir, "", env, paths.Bytes(), "hash-object", "-w", "--no-filters", "--stdin-paths")
	if err != nil {
		return err
	}
	shas := strings.Fields(string(out))
	if len(shas) != len(regular) {
		return fmt.Errorf("git hash-object gave %d ids for %d files", len(shas), len(regular))
	}
	for k, i := range regular {
		files[i].sha = shas[k]
	}
	return nil
}

// safeVersions records, for each file taken, its blob in HEAD and in the
// index: what git reset --hard or git checkout put back, which undo may
// overwrite without asking.
func (s *Store) safeVersions(ctx context.Context, gitDir string, req Request, files map[string]fileInfo) {
	add := func(rel, sha string) {
		if fi, ok := files[rel]; ok && !containsString(fi.Safe, sha) {
			fi.Safe = append(fi.Safe, sha)
			files[rel] = fi
		}
	}
	spec := append([]string{"--"}, req.Paths...)
	if out, err := git(ctx, gitDir, req.Root, nil, nil, append([]string{"ls-tree", "-r", "-z", "--full-tree", "HEAD"}, spec...)...); err == nil {
		for _, e := range strings.Split(string(out), "\x00") {
			meta, rel, ok := strings.Cut(e, "\t")
			if f := strings.Fields(meta); ok && len(f) == 3 {
				add(filepath.FromSlash(rel), f[2])
			}
		}
	}
	if out, err := git(ctx, gitDir, req.Root, nil, nil, append([]string{"ls-files", "-s", "-z"}, spec...)...); err == nil {
		for _, e := range strings.Split(string(out), "\x00") {
			meta, rel, ok := strings.Cut(e, "\t")
			if f := strings.Fields(meta); ok && len(f) == 3 {
				add(filepath.FromSlash(rel), f[1])
			}
		}
	}
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// gitLine runs git and returns its output's first line.
func gitLine(ctx context.Context, gitDir, workTree string, env []string, stdin []byte, args ...string) (string, error) {
	out, err := git(ctx, gitDir, workTree, env, stdin, args...)
	if err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(string(out), "\n")
	return strings.TrimSpace(line), nil
}
