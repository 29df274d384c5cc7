// Package snapshot keeps what a destructive command inside the project is
// about to lose, so that a human can bring it back (airlock undo).
//
// A snapshot is a git commit under refs/airlock/snapshots/<id> in a
// private bare repository under airlock's state directory, one per
// project (snapshots/<hash of the project's root>.git), git worktree or
// not. Never in the project's own repository: the agent writes there
// (replace refs, config, gc, its refs), and what undo restores must be
// out of its reach. Its tree
// holds "files" (the snapshotted files, hashed without git's filters, so
// bytes come back as they were) and "airlock.json" (each file's exact
// mode and the versions undo may overwrite without asking). Files are
// written to the object store through a temporary index: the user's index
// is never touched.
//
// An index of snapshots (snapshots.jsonl in the state directory, where
// the agent may not write) lists them for airlock snapshots list and
// prune, with each snapshot's tree id: undo reads the snapshot from that
// id, not from a ref, and checks every object it reads against its id
// (hashing it itself), so a snapshot that is not byte for byte what was
// taken is refused.
package snapshot

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Defaults bound a snapshot. Beyond them the snapshot is not taken and the
// policy's destructive row applies.
const (
	DefaultMaxBytes = 512 << 20
	DefaultMaxFiles = 100000
	DefaultTimeout  = 30 * time.Second
	// DefaultReserve is the free space a snapshot must leave on the
	// store's filesystem. A snapshot that filled the disk would leave
	// every later call refused (the journal cannot be written).
	DefaultReserve = 256 << 20
	// pruneExpire is how old an unreachable object in the store must be
	// before prune deletes it: far longer than a snapshot may take.
	pruneExpire = "1.hour.ago"
	// RefPrefix is where snapshots live in a repository.
	RefPrefix = "refs/airlock/snapshots/"
)

// Store takes, lists, restores and prunes snapshots.
type Store struct {
	// StateDir is airlock's state directory: the index, and the private
	// repositories holding the snapshots.
	StateDir string
	// MaxBytes and MaxFiles bound what one snapshot takes; Timeout bounds
	// how long taking it may last. Zero means the default.
	MaxBytes int64
	MaxFiles int
	Timeout  time.Duration
	// Reserve is the free space, in bytes, a snapshot must leave on the
	// store's filesystem: zero means DefaultReserve, a negative value no
	// reserve.
	Reserve int64
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Meta describes one snapshot, as listed.
type Meta struct {
	ID      string    `json:"id"`
	Time    time.Time `json:"time"`
	Command string    `json:"command"`
	Cwd     string    `json:"cwd"`
	// Root is the project the snapshot is of; Paths what it holds,
	// relative to Root ("." is the whole worktree).
	Root  string   `json:"root"`
	Paths []string `json:"paths"`
	// GitDir is the repository holding the snapshot's objects; Commit its
	// commit there.
	GitDir string `json:"git_dir"`
	Commit string `json:"commit"`
	// Tree is the commit's tree: what undo verifies the snapshot against.
	Tree string `json:"tree,omitempty"`
	// Size is the bytes of the files taken; Files how many.
	Size  int64 `json:"size"`
	Files int   `json:"files"`
	// Session is the agent's session whose command it was taken for.
	Session string `json:"session,omitempty"`
}

// Errors a caller tells apart.
var (
	// ErrTooLarge: the snapshot would be over its bound.
	ErrTooLarge = errors.New("over the snapshot bound")
	// ErrNotFound: no snapshot has that id.
	ErrNotFound = errors.New("no such snapshot")
	// ErrUnsafe: the snapshot would not hold everything the command
	// destroys (another repository, a special file).
	ErrUnsafe = errors.New("cannot be snapshotted whole")
	// ErrUnverified: the snapshot's objects are not the ones recorded
	// when it was taken (or it predates verification): undo refuses it.
	ErrUnverified = errors.New("the snapshot does not verify")
	// ErrNoSpace: taking the snapshot would leave less free space than
	// the store's reserve.
	ErrNoSpace = errors.New("not enough free space for the snapshot")
)

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Store) indexFile() string { return filepath.Join(s.StateDir, "snapshots.jsonl") }

// storeDir is the private repository holding a project's snapshots.
func (s *Store) storeDir(root string) string {
	h := sha256.Sum256([]byte(root))
	return filepath.Join(s.StateDir, "snapshots", hex.EncodeToString(h[:8])+".git")
}

// List returns every snapshot, oldest first.
func (s *Store) List() ([]Meta, error) {
	data, err := os.ReadFile(s.indexFile())
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Meta
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var m Meta
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			continue // a torn last line after a crash: the rest still counts
		}
		out = append(out, m)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time.Before(out[j].Time) })
	return out, sc.Err()
}

// Find returns the snapshot with an id, or with a unique prefix of one.
func (s *Store) Find(id string) (Meta, error) {
	all, err := s.List()
	if err != nil {
		return Meta{}, err
	}
	var found []Meta
	for _, m := range all {
		if m.ID == id {
			return m, nil
		}
		if id != "" && strings.HasPrefix(m.ID, id) {
			found = append(found, m)
		}
	}
	if len(found) == 1 {
		return found[0], nil
	}
	if len(found) > 1 {
		return Meta{}, fmt.Errorf("%w: %q names %d snapshots; give more of the id", ErrNotFound, id, len(found))
	}
	return Meta{}, fmt.Errorf("%w: %q", ErrNotFound, id)
}

// appendIndex adds one snapshot to the index.
func (s *Store) appendIndex(m Meta) error {
	if err := os.MkdirAll(s.StateDir, 0o700); err != nil {
		return err
	}
	line, err := json.Marshal(m)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(s.indexFile(), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Retention bounds what prune keeps: snapshots older than MaxAge go, and
// then the oldest until the rest fit in MaxBytes. Zero means no bound.
type Retention struct {
	MaxAge   time.Duration
	MaxBytes int64
	// Now frees the space of the dropped snapshots at once, instead of
	// leaving their objects for an hour. A human asks for it (snapshots
	// prune --now) when the disk is full.
	Now bool
}

// Prune deletes the snapshots retention does not keep and returns them.
func (s *Store) Prune(r Retention) ([]Meta, error) {
	all, err := s.List()
	if err != nil {
		return nil, err
	}
	now := s.now()
	var keep, drop []Meta
	var total int64
	for i := len(all) - 1; i >= 0; i-- { // newest first
		m := all[i]
		if r.MaxAge > 0 && now.Sub(m.Time) > r.MaxAge || r.MaxBytes > 0 && total+m.Size > r.MaxBytes {
			drop = append(drop, m)
			continue
		}
		total += m.Size
		keep = append(keep, m)
	}
	s.dropIncoming(r.Now)
	if len(drop) == 0 {
		return nil, nil
	}
	stores := map[string]bool{}
	for _, m := range drop {
		// A repository that is gone took its snapshot with it.
		_, _ = git(context.Background(), m.GitDir, "", nil, nil, "update-ref", "-d", RefPrefix+m.ID)
		if m.GitDir == s.storeDir(m.Root) {
			stores[m.GitDir] = true
		}
	}
	// The store is airlock's: nothing else ever collects it. Objects an
	// hour old that no snapshot reaches go; a snapshot being taken right
	// now has written (or freshened) its objects within its 30 seconds.
	expire := pruneExpire
	if r.Now {
		expire = "now"
	}
	for dir := range stores {
		_, _ = git(context.Background(), dir, "", nil, nil, "prune", "--expire="+expire)
	}
	var buf bytes.Buffer
	for i := len(keep) - 1; i >= 0; i-- {
		line, _ := json.Marshal(keep[i])
		buf.Write(append(line, '\n'))
	}
	tmp := s.indexFile() + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o600); err != nil {
		return nil, err
	}
	return drop, os.Rename(tmp, s.indexFile())
}

// git runs git on a repository (gitDir) and work tree, with the
// configuration that could change bytes or run programs switched off.
func git(ctx context.Context, gitDir, workTree string, env []string, stdin []byte, args ...string) ([]byte, error) {
	cmd := gitCmd(ctx, gitDir, workTree, env, args...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if ctx.Err() != nil {
			return nil, fmt.Errorf("git %s: %w", args[0], ctx.Err())
		}
		return nil, fmt.Errorf("git %s: %v: %s", args[0], err, msg)
	}
	return out.Bytes(), nil
}

// gitCmd is every git airlock runs for snapshots. Nothing the agent can
// write reaches it but the project's own repository, read for its file
// lists: no GIT_* variable of the caller's, no system or global
// configuration (the agent may write ~/.gitconfig), no replace objects
// (refs/replace in the project's repository would substitute what is
// read), no hooks, no automatic gc or maintenance.
func gitCmd(ctx context.Context, gitDir, workTree string, env []string, args ...string) *exec.Cmd {
	// Objects are stored uncompressed: zlib costs five times the hashing
	// on the hook's path (docs/BENCHMARKS.md), and a snapshot is
	// short-lived insurance.
	full := append([]string{"-c", "core.looseCompression=0", "-c", "core.autocrlf=false", "-c", "core.safecrlf=false", "-c", "core.fsmonitor=false",
		"-c", "core.hooksPath=/dev/null", "-c", "gc.auto=0", "-c", "maintenance.auto=false", "-c", "core.attributesFile=/dev/null"}, args...)
	cmd := exec.CommandContext(ctx, "git", full...)
	cmd.Env = append(cleanEnv(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_NO_REPLACE_OBJECTS=1",
		"GIT_ATTR_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0",
		"GIT_AUTHOR_NAME=airlock", "GIT_AUTHOR_EMAIL=airlock@localhost", "GIT_COMMITTER_NAME=airlock", "GIT_COMMITTER_EMAIL=airlock@localhost")
	if gitDir != "" {
		cmd.Env = append(cmd.Env, "GIT_DIR="+gitDir)
	}
	if workTree != "" {
		cmd.Env = append(cmd.Env, "GIT_WORK_TREE="+workTree)
		cmd.Dir = workTree
	}
	cmd.Env = append(cmd.Env, env...)
	return cmd
}

// cleanEnv is the environment without git's own variables, which could
// point git at another repository, index, object store or configuration.
func cleanEnv() []string {
	var out []string
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "GIT_") {
			out = append(out, e)
		}
	}
	return out
}
