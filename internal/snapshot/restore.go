package snapshot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ConflictError says undo would overwrite files that changed since the
// snapshot in a way the destructive command does not explain.
type ConflictError struct {
	Paths []string
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("%d file(s) changed since the snapshot and would be overwritten: %s", len(e.Paths), strings.Join(clipList(e.Paths, 10), ", "))
}

func clipList(l []string, n int) []string {
	if len(l) <= n {
		return l
	}
	return append(l[:n:n], fmt.Sprintf("and %d more", len(l)-n))
}

// Restored is what undo did.
type Restored struct {
	Meta Meta
	// Written were written back; Unchanged already held the snapshot's
	// bytes and mode.
	Written, Unchanged []string
}

// entry is one file of a snapshot's tree.
type entry struct {
	rel  string
	mode string
	sha  string
	info fileInfo
}

// Restore writes a snapshot's files back, byte for byte and with their
// modes. A file that exists and holds neither the snapshot's bytes nor a
// version the destructive command put there (HEAD's or the index's) was
// changed by someone since: Restore refuses with a ConflictError unless
// force is set. It never writes through a symbolic link, forced or not:
// a link planted where a directory was would send the files elsewhere.
func (s *Store) Restore(ctx context.Context, id string, force bool) (Restored, error) {
	m, err := s.Find(id)
	if err != nil {
		return Restored{}, err
	}
	res := Restored{Meta: m}
	// The snapshot is read from the tree id recorded when it was taken,
	// in the store airlock made for the project, every object checked
	// against its id: nothing written since (in the project's repository
	// or anywhere else) can change what comes back.
	if m.Tree == "" {
		return res, fmt.Errorf("%w: snapshot %s was taken by an earlier airlock, in a repository the agent could write, and records no tree to check it against", ErrUnverified, m.ID)
	}
	if m.GitDir != s.storeDir(m.Root) {
		return res, fmt.Errorf("%w: snapshot %s is recorded in %s, not in airlock's store for %s", ErrUnverified, m.ID, m.GitDir, m.Root)
	}
	objs, err := openObjects(ctx, m.GitDir)
	if err != nil {
		return res, fmt.Errorf("reading snapshot %s: %w", m.ID, err)
	}
	defer objs.close()
	top, err := objs.readTree(m.Tree)
	if err != nil {
		return res, fmt.Errorf("reading snapshot %s: %w", m.ID, err)
	}
	var filesTree, manBlob string
	for _, e := range top {
		switch {
		case e.name == "files" && e.mode == "40000":
			filesTree = e.sha
		case e.name == "airlock.json" && e.mode == "100644":
			manBlob = e.sha
		}
	}
	if filesTree == "" || manBlob == "" {
		return res, fmt.Errorf("%w: snapshot %s's tree lacks files or airlock.json", ErrUnverified, m.ID)
	}
	var raw bytes.Buffer
	if err := objs.read(manBlob, "blob", &raw); err != nil {
		return res, fmt.Errorf("reading snapshot %s: %w", m.ID, err)
	}
	var man manifest
	if err := json.Unmarshal(raw.Bytes(), &man); err != nil {
		return res, fmt.Errorf("reading snapshot %s: %w", m.ID, err)
	}
	files, err := objs.walkTree(filesTree, "", nil)
	if err != nil {
		return res, fmt.Errorf("reading snapshot %s: %w", m.ID, err)
	}
	var entries []entry
	for _, f := range files {
		rel := filepath.FromSlash(f.name)
		entries = append(entries, entry{rel: rel, mode: f.mode, sha: f.sha, info: man.Files[rel]})
	}
	if fi, err := os.Lstat(m.Root); err != nil || !fi.IsDir() {
		if err := os.MkdirAll(m.Root, 0o755); err != nil {
			return res, fmt.Errorf("the project %s is gone and cannot be made again: %w", m.Root, err)
		}
	}
	// Decide each file first: nothing is written unless all can be.
	var write []entry
	var conflicts []string
	var existing []entry
	for _, e := range entries {
		if err := noLinkAbove(m.Root, e.rel); err != nil {
			return res, err
		}
		path := filepath.Join(m.Root, e.rel)
		fi, err := os.Lstat(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			write = append(write, e)
		case err != nil:
			return res, err
		case e.mode == "120000":
			if fi.Mode()&fs.ModeSymlink != 0 {
				if t, err := os.Readlink(path); err == nil && hashBlob(ctx, m.GitDir, []byte(t)) == e.sha {
					res.Unchanged = append(res.Unchanged, e.rel)
					continue
				}
			}
			conflicts = append(conflicts, e.rel)
			write = append(write, e)
		case !fi.Mode().IsRegular():
			conflicts = append(conflicts, e.rel)
			write = append(write, e)
		default:
			existing = append(existing, e)
		}
	}
	if len(existing) > 0 {
		var paths bytes.Buffer
		for _, e := range existing {
			paths.WriteString(filepath.Join(m.Root, e.rel) + "\n")
		}
		out, err := git(ctx, m.GitDir, "", nil, paths.Bytes(), "hash-object", "--no-filters", "--stdin-paths")
		if err != nil {
			return res, err
		}
		shas := strings.Fields(string(out))
		if len(shas) != len(existing) {
			return res, fmt.Errorf("git hash-object gave %d ids for %d files", len(shas), len(existing))
		}
		for i, e := range existing {
			fi, _ := os.Lstat(filepath.Join(m.Root, e.rel))
			switch {
			case shas[i] == e.sha && (e.info.Mode == 0 || fi != nil && fi.Mode() == e.info.Mode):
				res.Unchanged = append(res.Unchanged, e.rel)
			case shas[i] == e.sha || containsString(e.info.Safe, shas[i]):
				write = append(write, e)
			default:
				conflicts = append(conflicts, e.rel)
				write = append(write, e)
			}
		}
	}
	if len(conflicts) > 0 && !force {
		return res, &ConflictError{Paths: conflicts}
	}
	// Every blob to write verifies before the first file is written.
	for _, e := range write {
		if err := objs.read(e.sha, "blob", io.Discard); err != nil {
			return res, fmt.Errorf("reading %s from snapshot %s: %w", e.rel, m.ID, err)
		}
	}
	for _, e := range write {
		if err := place(m.Root, e, func(w io.Writer) error { return objs.read(e.sha, "blob", w) }); err != nil {
			return res, err
		}
	}
	for _, e := range write {
		res.Written = append(res.Written, e.rel)
	}
	return res, nil
}

// noLinkAbove refuses a file whose parent directories, inside the
// project, include a symbolic link now.
func noLinkAbove(root, rel string) error {
	dir := root
	parts := strings.Split(filepath.Dir(rel), string(filepath.Separator))
	for _, p := range parts {
		if p == "." || p == "" {
			continue
		}
		dir = filepath.Join(dir, p)
		fi, err := os.Lstat(dir)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%w: %s is now a symbolic link; undo does not write through it (remove it and run undo again)", ErrUnsafe, dir)
		}
		if !fi.IsDir() {
			return fmt.Errorf("%w: %s is now a file where the snapshot has a directory (move it away and run undo again)", ErrUnsafe, dir)
		}
	}
	return nil
}

func hashBlob(ctx context.Context, gitDir string, data []byte) string {
	sha, _ := gitLine(ctx, gitDir, "", nil, data, "hash-object", "--stdin")
	return sha
}

// place writes one file from the snapshot: fill gives its bytes, and
// the file is renamed into place only when fill succeeded (the bytes
// verified).
func place(root string, e entry, fill func(io.Writer) error) error {
	path := filepath.Join(root, e.rel)
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if fi, err := os.Lstat(path); err == nil && fi.IsDir() {
		// Only reached with force: a directory stands where the file was.
		if err := os.RemoveAll(path); err != nil {
			return err
		}
	}
	tmp := filepath.Join(dir, ".airlock-undo-"+filepath.Base(path))
	_ = os.Remove(tmp)
	if e.mode == "120000" {
		var target bytes.Buffer
		if err := fill(&target); err != nil {
			return err
		}
		if err := os.Symlink(target.String(), tmp); err != nil {
			return err
		}
		return os.Rename(tmp, path)
	}
	perm := e.info.Mode.Perm()
	if perm == 0 && e.info.Mode == 0 {
		perm = 0o644
		if e.mode == "100755" {
			perm = 0o755
		}
	}
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if err := fill(f); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	// The umask applied at creation; the snapshot's mode is the one wanted,
	// setuid and sticky bits included.
	if err := os.Chmod(tmp, e.info.Mode.Perm()|e.info.Mode&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky)|perm); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, path)
}
