package notify

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"time"
)

// StateDir is notify's directory under airlock's state directory: what
// was sent, which reply nonces were used, where the reply stream stopped.
const StateDir = "notify"

// maxState bounds the state file: it holds open items and live nonces,
// O(pending), never the history.
const maxState = 16 << 20

// state is what the watcher remembers between runs.
type state struct {
	// Sent maps an item id to what was sent for it.
	Sent map[string]*sentItem `json:"sent"`
	// Used maps a used reply nonce to its expiry (unix seconds); it is
	// forgotten once expired, when the expiry check refuses it anyway.
	Used map[string]int64 `json:"used"`
	// Cursor is the id of the last reply message read (ntfy's since=).
	Cursor string `json:"cursor,omitempty"`
	// Skipped holds the digests of the bad lines (too long, not JSON,
	// with no id to move the cursor to) read since the cursor last
	// moved, so a line is journaled once however often it is read
	// again. At most maxSkipped are kept.
	Skipped []string `json:"skipped,omitempty"`
}

// maxSkipped bounds state.Skipped: past it the oldest digest is dropped,
// and a line that old may be journaled a second time.
const maxSkipped = 64

// sentItem is one item's notifications.
type sentItem struct {
	// Nonce is shared by the item's buttons: one decision per item.
	Nonce string `json:"nonce"`
	// Action is the hash of the held action the notification showed.
	Action  string    `json:"action"`
	Expires time.Time `json:"expires"`
	Ntfy    bool      `json:"ntfy,omitempty"`
	Webhook bool      `json:"webhook,omitempty"`
}

// store reads and writes the state under its lock.
type store struct{ dir string }

// newStore keeps the state of the watcher called name (StateDir for the
// machine's) in <stateDir>/<name>/.
func newStore(stateDir, name string) *store { return &store{dir: filepath.Join(stateDir, name)} }

// update runs fn on the state with the lock held and writes it back when
// fn returns no error.
func (s *store) update(fn func(st *state) error) error {
	return withLock(s.dir, func() error {
		path := filepath.Join(s.dir, "state.json")
		data, err := readSmall(path, maxState)
		if err != nil {
			return fmt.Errorf("notify: state: %w", err)
		}
		st := &state{}
		if data != nil {
			if err := json.Unmarshal(data, st); err != nil {
				return fmt.Errorf("notify: state %s: %w", path, err)
			}
		}
		if st.Sent == nil {
			st.Sent = map[string]*sentItem{}
		}
		if st.Used == nil {
			st.Used = map[string]int64{}
		}
		if err := fn(st); err != nil {
			return err
		}
		out, err := json.Marshal(st)
		if err != nil {
			return err
		}
		return writeAtomic(path, out)
	})
}
