// Package pin keeps the hashes of MCP tool descriptions, per server, so
// that a server cannot change what a tool says it does after a human
// accepted it (a "rug pull"), nor slip in a new tool unseen.
//
// A tool's hash covers its name, title, description, input and output
// schemas and annotations: everything the model reads about it. The first
// time airlock sees a server, its tools are pinned as they are (trust on
// first sight), and tools the server adds during that same first session
// are pinned too, because real servers register some tools only after the
// client's initialization. After that, a new tool is pending (hidden) and
// a changed one is pending (refused) until a human runs airlock mcp
// approve. Repeated list_changed notifications with unchanged hashes
// change nothing.
package pin

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/airlock-dev/airlock/internal/safefile"
)

// Def is what a tool tells the model about itself.
type Def struct {
	Name         string          `json:"name"`
	Title        string          `json:"title,omitempty"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema,omitempty"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	Annotations  json.RawMessage `json:"annotations,omitempty"`
}

// InstructionsName is the pseudo-tool under which a server's instructions
// (model-facing text sent at initialization) are pinned.
const InstructionsName = "(instructions)"

// Hash is the SHA-256 of the canonical JSON of d: object keys sorted at
// every depth, so that key order on the wire does not count as a change.
func Hash(d Def) string {
	canon := func(raw json.RawMessage) any {
		if len(raw) == 0 {
			return nil
		}
		var v any
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			// Not JSON: hash the bytes as a string; any change still shows.
			return string(raw)
		}
		if m, ok := v.(map[string]any); ok && len(m) == 0 {
			return nil
		}
		return v
	}
	b, _ := json.Marshal(map[string]any{
		"name": d.Name, "title": d.Title, "description": d.Description,
		"inputSchema": canon(d.InputSchema), "outputSchema": canon(d.OutputSchema), "annotations": canon(d.Annotations),
	})
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Status is what the store says of one tool.
type Status int8

// The statuses of a tool.
const (
	// Pinned: the tool is as it was accepted.
	Pinned Status = iota
	// New: the server did not have the tool when it was pinned; hidden
	// until approved.
	New
	// Changed: the tool's description, schemas or annotations differ from
	// the pinned ones; refused until approved.
	Changed
)

var statusNames = [...]string{"pinned", "new", "changed"}

func (s Status) String() string { return statusNames[s] }

// MarshalText renders the status name.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Entry is one pinned or pending tool.
type Entry struct {
	Hash string `json:"hash"`
	Def  Def    `json:"def"`
	// Since is when the entry was pinned or first seen pending.
	Since time.Time `json:"since"`
	// By says how it was pinned: "first-sight" or "approve"; for a
	// pending entry, "new" or "changed".
	By string `json:"by"`
}

// Server is the pins of one server.
type Server struct {
	// FirstSession is the session that first saw the server: until it
	// ends, tools the server adds are pinned on first sight.
	FirstSession string           `json:"first_session"`
	Created      time.Time        `json:"created"`
	Tools        map[string]Entry `json:"tools"`
	Pending      map[string]Entry `json:"pending,omitempty"`
}

type fileDoc struct {
	Version int                `json:"version"`
	Servers map[string]*Server `json:"servers"`
}

// Store is the pin file. Several processes may use it at once (proxies,
// the approve command): every change is read, modified and replaced
// under a lock file.
type Store struct {
	file string
	// Session identifies this process's view for first-sight pinning.
	Session string
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// File is where the pins live, under airlock's state directory.
const File = "mcp/pins.json"

// Open returns the store in file with a fresh session id.
func Open(file string) *Store {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return &Store{file: file, Session: hex.EncodeToString(b)}
}

// Path is the store's file.
func (s *Store) Path() string { return s.file }

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// Result is the outcome of checking one tool.
type Result struct {
	Status Status
	// Pinned is the accepted definition (for a changed tool, the one the
	// proxy keeps showing).
	Pinned *Def
	// Alarm is set the first time the store sees this new or changed
	// definition: the caller tells the human once, not on every
	// list_changed.
	Alarm bool
}

// Check compares the tools a server offers now with the pins and records
// what it learns: first-sight pins, and pending entries for new and
// changed tools.
func (s *Store) Check(server string, defs []Def) (map[string]Result, error) {
	out := make(map[string]Result, len(defs))
	err := s.update(func(doc *fileDoc) (bool, error) {
		srv := doc.Servers[server]
		dirty := false
		if srv == nil {
			srv = &Server{FirstSession: s.Session, Created: s.now(), Tools: map[string]Entry{}}
			doc.Servers[server] = srv
			dirty = true
		}
		firstSight := srv.FirstSession == s.Session
		for _, d := range defs {
			h := Hash(d)
			cur, pinned := srv.Tools[d.Name]
			switch {
			case pinned && cur.Hash == h:
				def := cur.Def
				out[d.Name] = Result{Status: Pinned, Pinned: &def}
			case !pinned && firstSight:
				srv.Tools[d.Name] = Entry{Hash: h, Def: d, Since: s.now(), By: "first-sight"}
				dirty = true
				def := d
				out[d.Name] = Result{Status: Pinned, Pinned: &def}
			default:
				r := Result{Status: New}
				by := "new"
				if pinned {
					def := cur.Def
					r.Status, r.Pinned, by = Changed, &def, "changed"
				}
				if p, ok := srv.Pending[d.Name]; !ok || p.Hash != h {
					if srv.Pending == nil {
						srv.Pending = map[string]Entry{}
					}
					srv.Pending[d.Name] = Entry{Hash: h, Def: d, Since: s.now(), By: by}
					dirty, r.Alarm = true, true
				}
				out[d.Name] = r
			}
		}
		return dirty, nil
	})
	return out, err
}

// ErrNothingPending is returned by Approve when there is nothing to
// approve.
var ErrNothingPending = errors.New("nothing pending")

// Approve pins the pending definitions of the named tools (all pending
// tools of the server when none are named) and returns the names pinned.
func (s *Store) Approve(server string, tools []string) ([]string, error) {
	var done []string
	err := s.update(func(doc *fileDoc) (bool, error) {
		srv := doc.Servers[server]
		if srv == nil || len(srv.Pending) == 0 {
			return false, fmt.Errorf("%w for server %q", ErrNothingPending, server)
		}
		if len(tools) == 0 {
			for n := range srv.Pending {
				tools = append(tools, n)
			}
			sort.Strings(tools)
		}
		for _, n := range tools {
			p, ok := srv.Pending[n]
			if !ok {
				return false, fmt.Errorf("%w: server %q has no pending tool %q", ErrNothingPending, server, n)
			}
			srv.Tools[n] = Entry{Hash: p.Hash, Def: p.Def, Since: s.now(), By: "approve"}
			delete(srv.Pending, n)
			done = append(done, n)
		}
		return true, nil
	})
	return done, err
}

// Servers returns a copy of every server's pins.
func (s *Store) Servers() (map[string]*Server, error) {
	doc, err := s.read()
	return doc.Servers, err
}

// Stamp is the file's modification time and size, for noticing that a
// human approved something while a proxy runs.
func (s *Store) Stamp() string {
	fi, err := os.Stat(s.file)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%d/%d", fi.ModTime().UnixNano(), fi.Size())
}

func (s *Store) read() (*fileDoc, error) {
	doc := &fileDoc{Version: 1, Servers: map[string]*Server{}}
	data, err := os.ReadFile(s.file)
	if errors.Is(err, fs.ErrNotExist) {
		return doc, nil
	}
	if err != nil {
		return doc, fmt.Errorf("pins: %w", err)
	}
	if err := json.Unmarshal(data, doc); err != nil {
		return doc, fmt.Errorf("pins: %s is damaged (%v); move it away to pin every server afresh", s.file, err)
	}
	if doc.Servers == nil {
		doc.Servers = map[string]*Server{}
	}
	return doc, nil
}

// update runs fn on the file's content under the lock and writes the
// result when fn says it changed something.
func (s *Store) update(fn func(*fileDoc) (bool, error)) error {
	if s.file == "" {
		return errors.New("pins: no state directory (set HOME, XDG_STATE_HOME or AIRLOCK_HOME)")
	}
	if err := os.MkdirAll(filepath.Dir(s.file), 0o700); err != nil {
		return fmt.Errorf("pins: %w", err)
	}
	unlock, err := lock(s.file + ".lock")
	if err != nil {
		return err
	}
	defer unlock()
	doc, err := s.read()
	if err != nil {
		return err
	}
	dirty, err := fn(doc)
	if err != nil || !dirty {
		return err
	}
	data, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return fmt.Errorf("pins: %w", err)
	}
	if err := safefile.Replace(s.file, append(data, '\n'), safefile.Options{}); err != nil {
		return fmt.Errorf("pins: %w", err)
	}
	return nil
}

// staleLock is how old a lock file may get before it is taken to be left
// by a process that died holding it.
const staleLock = 10 * time.Second

// lock takes the lock file, waiting while another process holds it.
func lock(file string) (func(), error) {
	deadline := time.Now().Add(2 * staleLock)
	for {
		f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			f.Close()
			return func() { os.Remove(file) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("pins: %w", err)
		}
		if fi, serr := os.Stat(file); serr == nil && time.Since(fi.ModTime()) > staleLock {
			os.Remove(file)
			continue
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("pins: %s is held by another process", file)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
