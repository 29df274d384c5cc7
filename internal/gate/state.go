package gate

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/airlock-dev/airlock/internal/safefile"
)

// State is what the gate remembers about one session: one small JSON file
// per session in the state directory.
type State struct {
	// Version is the file format, 1.
	Version int `json:"v"`
	// Checked holds what the agent has been asked about, or has shown
	// evidence for, with when: "file:<abs path>" (first edit or
	// creation), "bash:<digest>" (a destructive command), "routine" (the
	// once-per-session Bash gate). A checked key never gates again. It
	// comes first in the file so that the fast path of a cleared call
	// stops reading after it.
	Checked map[string]int64 `json:"checked"`
	// Updated is when the file was last written. Times are Unix seconds:
	// compact, and quick to read on the hook's path.
	Updated int64 `json:"updated"`
	// Denials counts the gate's denials this session; the next denial's
	// ordinal is Denials+1.
	Denials int `json:"denials"`
	// Prompt is the user's latest instruction (UserPromptSubmit), verbatim
	// up to maxPrompt bytes, and PromptAt when it came.
	Prompt   string `json:"prompt,omitempty"`
	PromptAt int64  `json:"prompt_at,omitempty"`
	// Reads and Searches are the evidence ledger, oldest first.
	Reads    []Read   `json:"reads,omitempty"`
	Searches []Search `json:"searches,omitempty"`
	// Warned lists configuration warnings already reported this session.
	Warned []string `json:"warned,omitempty"`
}

// Read is a file the agent read (Read, NotebookRead, or a read-only shell
// command such as cat or head).
type Read struct {
	Path  string `json:"path"`
	At    int64  `json:"at"`
	Agent string `json:"agent,omitempty"`
}

// Search is a search the agent ran: the Grep and Glob tools, or a
// read-only shell search (grep, rg, git grep, ag, ack).
type Search struct {
	// Tool is "Grep", "Glob" or the program ("rg", "grep", "git grep").
	Tool string `json:"tool"`
	// Pattern is what was searched for; for a shell search, every pattern
	// given, space-separated.
	Pattern string `json:"pattern"`
	// Paths are where it searched, absolute; none means the working
	// directory, which is then given.
	Paths []string `json:"paths,omitempty"`
	// Content is true for a search of file contents (Grep, grep, rg, …)
	// and false for a search of file names (Glob).
	Content bool   `json:"content"`
	At      int64  `json:"at"`
	Agent   string `json:"agent,omitempty"`
}

// Bounds keep a session's file small however long it runs.
const (
	maxPrompt   = 8 << 10
	maxChecked  = 1000
	maxReads    = 200
	maxSearches = 100
	maxWarned   = 50
	// staleAfter is when a state file of a finished session is removed.
	staleAfter = 7 * 24 * time.Hour
	// lockWait bounds the wait for another hook process of the session.
	lockWait = 2 * time.Second
)

// ErrState is wrapped by every error about the gate's own state. The gate
// answers it by allowing the action (it fails open on its own state, so it
// can never lock the agent in a loop) and warning the human.
var ErrState = errors.New("the fact-forcing gate's state")

// store keeps session state files in one directory.
type store struct {
	dir string
	now func() time.Time
}

// sessionKey turns a session id into a file name: the id itself when it is
// short and plain, a digest otherwise. Without a session id the transcript
// path, then the project root, identify the session.
func sessionKey(session, transcript, root string) string {
	if s := strings.TrimSpace(session); s != "" {
		plain := len(s) <= 64 && strings.IndexFunc(s, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_')
		}) < 0
		if plain {
			return s
		}
		return "sid-" + digest(s)
	}
	if t := strings.TrimSpace(transcript); t != "" {
		return "tx-" + digest(t)
	}
	return "proj-" + digest(root)
}

func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:12])
}

func (s *store) file(key string) string { return filepath.Join(s.dir, key+".json") }

// load reads a session's state without taking the lock: the file is only
// ever replaced whole, so a reader sees the old or the new content. A
// missing file is an empty state.
func (s *store) load(key string) (*State, error) {
	if s.dir == "" {
		return nil, fmt.Errorf("%w: no state directory (HOME is not set)", ErrState)
	}
	data, err := os.ReadFile(s.file(key))
	if errors.Is(err, fs.ErrNotExist) {
		return newState(), nil
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrState, err)
	}
	st := newState()
	if err := json.Unmarshal(data, st); err != nil || st.Version != 1 {
		// A torn or foreign file is started afresh: at worst a file is
		// gated once more, which the retry passes.
		return newState(), nil
	}
	if st.Checked == nil {
		st.Checked = map[string]int64{}
	}
	return st, nil
}

// checked reads only the Checked marks of a session, without the lock:
// the fast path of a call already cleared. The marks come first in the
// file, so it stops reading there and decodes nothing else.
func (s *store) checked(key string) (map[string]int64, error) {
	if s.dir == "" {
		return nil, ErrState
	}
	f, err := os.Open(s.file(key))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	dec := json.NewDecoder(bufio.NewReaderSize(f, 4096))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, ErrState
	}
	var version int
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, ErrState
		}
		switch t {
		case "v":
			if err := dec.Decode(&version); err != nil {
				return nil, ErrState
			}
		case "checked":
			var m map[string]int64
			if err := dec.Decode(&m); err != nil || version != 1 {
				return nil, ErrState
			}
			return m, nil
		default:
			return nil, ErrState
		}
	}
	return nil, ErrState
}

func newState() *State { return &State{Version: 1, Checked: map[string]int64{}} }

// update runs fn on the session's state under the session's lock and, if
// fn reports a change, replaces the file atomically (a temporary file
// renamed over it). Parallel hook processes of one session therefore never
// lose each other's updates where file locks exist; where they do not, an
// update may be lost, which only ever means one more denial that its retry
// passes.
func (s *store) update(key string, fn func(st *State) bool) error {
	if s.dir == "" {
		return fmt.Errorf("%w: no state directory (HOME is not set)", ErrState)
	}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return fmt.Errorf("%w: %v", ErrState, err)
	}
	unlock, err := lockFile(s.file(key)+".lock", lockWait)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrState, err)
	}
	defer unlock()
	fresh := false
	if _, err := os.Stat(s.file(key)); errors.Is(err, fs.ErrNotExist) {
		fresh = true
	}
	st, err := s.load(key)
	if err != nil {
		return err
	}
	if !fn(st) {
		return nil
	}
	st.Updated = s.now().Unix()
	st.bound()
	data, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrState, err)
	}
	if err := writeAtomic(s.file(key), data); err != nil {
		return fmt.Errorf("%w: %v", ErrState, err)
	}
	if fresh {
		// Once per session: clear out the files of long-finished ones.
		s.prune(key)
	}
	return nil
}

// writeAtomic replaces name with data. The state is evidence the gate
// can do without, so it is not synced: a flush on every hook call that
// records a read would cost more than losing the last one.
func writeAtomic(name string, data []byte) error {
	return safefile.Replace(name, data, safefile.Options{NoSync: true})
}

// prune removes the state, lock and stray temporary files of sessions
// untouched for staleAfter.
func (s *store) prune(keep string) {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return
	}
	cutoff := s.now().Add(-staleAfter)
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, keep+".") || !strings.Contains(name, ".json") {
			continue
		}
		if info, err := e.Info(); err == nil && info.ModTime().Before(cutoff) {
			os.Remove(filepath.Join(s.dir, name))
		}
	}
}

// bound trims the state to its limits, dropping the oldest entries.
func (st *State) bound() {
	if len(st.Prompt) > maxPrompt {
		st.Prompt = clipBytes(st.Prompt, maxPrompt)
	}
	if n := len(st.Reads) - maxReads; n > 0 {
		st.Reads = append([]Read(nil), st.Reads[n:]...)
	}
	if n := len(st.Searches) - maxSearches; n > 0 {
		st.Searches = append([]Search(nil), st.Searches[n:]...)
	}
	if n := len(st.Warned) - maxWarned; n > 0 {
		st.Warned = append([]string(nil), st.Warned[n:]...)
	}
	if n := len(st.Checked) - maxChecked; n > 0 {
		// Keep the routine mark: dropping it would gate Bash again.
		type kv struct {
			k string
			t int64
		}
		all := make([]kv, 0, len(st.Checked))
		for k, t := range st.Checked {
			if k != keyRoutine {
				all = append(all, kv{k, t})
			}
		}
		sort.Slice(all, func(i, j int) bool { return all[i].t < all[j].t })
		for _, e := range all[:min(n, len(all))] {
			delete(st.Checked, e.k)
		}
	}
}

// warnOnce reports whether a warning is new this session, and records it.
func (st *State) warnOnce(key string) bool {
	for _, w := range st.Warned {
		if w == key {
			return false
		}
	}
	st.Warned = append(st.Warned, key)
	return true
}
