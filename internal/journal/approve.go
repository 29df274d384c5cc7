package journal

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// DefaultApprovalExpiry is how long an approval lets the agent's verbatim
// retry through, unless the human says otherwise.
const DefaultApprovalExpiry = 24 * time.Hour

// MaxApprovalExpiry is the longest an approval may let a retry through:
// an approval is for an action the human looked at now, not a standing
// permission.
const MaxApprovalExpiry = 7 * 24 * time.Hour

// approvalFor finds an approval, not expired at now and not yet used, of
// a held action that is the same action as e: for a shell command, the
// same text in the same directory, whose files read as they did when it
// was held; for any other tool, the same tool, target, directory and
// complete input. When the only approvals of e's text are of files that
// read differently now, changed says which (for the reason of the hold
// that follows). It is called with the lock
// held, so two parallel retries cannot both use one approval. It reads
// the postings of e's action only (index/a-HASH: its held items and what
// was done about them), the lines of its approved items, and the queue's
// postings since such an approval (stillApproved): its cost does not grow
// with the queue.
func (w *writer) approvalFor(e *Entry, now time.Time) (id, changed string, err error) {
	id, changed, err = w.approvalOf(e, now)
	if id != "" || err != nil {
		changed = ""
	}
	return id, changed, err
}

func (w *writer) approvalOf(e *Entry, now time.Time) (string, string, error) {
	var changed string
	states, err := w.actionStates(e, now)
	if err != nil {
		return "", "", err
	}
	r := &lineReader{dir: w.j.dir}
	defer r.close()
	for _, q := range states {
		if q.status != Approved {
			continue
		}
		held, line, err := r.entry(q.held)
		if err != nil {
			return "", "", err
		}
		if held.Decision != "defer" || !sameAction(held, e) {
			continue
		}
		if ok, err := w.stillApproved(q); err != nil || !ok {
			if err != nil {
				return "", "", err
			}
			continue
		}
		if ok, err := w.authentic(r, q.settled, lineHash(line)); err != nil || !ok {
			return "", "", err
		}
		if d := filesChanged(e.Cwd, held.Files, e.Files); d != "" {
			changed = "queue item " + q.id + " was approved, but " + d
			continue
		}
		return q.id, "", nil
	}
	return "", changed, nil
}

// approvalByID is the approval of item id when it is there to use. e is
// the retry naming it: the item is looked for among e's action's postings
// first (bounded, as approvalFor), then in the whole queue (a retry may
// name the approval of an item its action file does not hold).
func (w *writer) approvalByID(e *Entry, id string, now time.Time) (string, error) {
	var q *qstate
	states, err := w.actionStates(e, now)
	if err != nil {
		return "", err
	}
	for _, s := range states {
		if s.id == id {
			q = s
			break
		}
	}
	if q != nil && q.status == Approved {
		ok, err := w.stillApproved(q)
		if err != nil || !ok {
			return "", err
		}
	} else if q == nil {
		if q, err = w.queueItem(id, now); err != nil {
			return "", err
		}
	}
	if q == nil || q.status != Approved {
		return "", nil
	}
	r := &lineReader{dir: w.j.dir}
	defer r.close()
	_, line, err := r.entry(q.held)
	if err != nil {
		return "", err
	}
	if ok, err := w.authentic(r, q.settled, lineHash(line)); err != nil || !ok {
		return "", err
	}
	return id, nil
}

// authentic re-reads a human act and checks its MAC with the key itself
// (the index's flag says what the indexer saw, but the index is only a
// cache, and one who can write files can write it too), and that the held
// line still hashes to what the human acted on: a held line edited after
// its approval is not the approved action, whatever it says now.
func (w *writer) authentic(r *lineReader, p *posting, heldHash string) (bool, error) {
	if p == nil {
		return false, nil
	}
	e, _, err := r.entry(*p)
	if err != nil {
		return false, err
	}
	key, err := loadHumanKey(w.j.dir, false)
	if err != nil {
		return false, err
	}
	if !validMAC(key, e) {
		return false, errIndex
	}
	return e.HeldHash == heldHash, nil
}

// heldHash is the hash of item id's held line, for a human act about it.
func (w *writer) heldHash(id string) (string, error) {
	q, err := w.queueItem(id, w.j.now())
	if err != nil {
		return "", err
	}
	if q == nil {
		return "", fmt.Errorf("%w: %q", ErrNotFound, id)
	}
	r := &lineReader{dir: w.j.dir}
	defer r.close()
	_, line, err := r.entry(q.held)
	if err != nil {
		return "", err
	}
	return lineHash(line), nil
}

// sameAction reports whether a retry is the action a human approved.
func sameAction(held, e *Entry) bool {
	if held.Kind != e.Kind || held.Cwd != e.Cwd || held.Command != e.Command {
		return false
	}
	if held.Kind == "shell" {
		return true
	}
	return held.Tool == e.Tool && held.URL == e.URL && slices.Equal(held.Paths, e.Paths) &&
		held.InputDigest == e.InputDigest && argsDigest(held.Detail) == argsDigest(e.Detail)
}

// argsDigest is the MCP firewall's digest of a call's complete
// arguments, from its detail ("" when there is none).
func argsDigest(detail json.RawMessage) string {
	if len(detail) == 0 {
		return ""
	}
	var d struct {
		ArgsDigest string `json:"args_digest"`
	}
	if json.Unmarshal(detail, &d) != nil {
		return "unreadable"
	}
	return d.ArgsDigest
}

// inputDigest is the SHA-256 of the tool_input of an agent's raw hook
// event, with object keys sorted: "" when there is none.
func inputDigest(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var in struct {
		ToolInput json.RawMessage `json:"tool_input"`
	}
	if json.Unmarshal(raw, &in) != nil || len(bytes.TrimSpace(in.ToolInput)) == 0 {
		return ""
	}
	dec := json.NewDecoder(bytes.NewReader(in.ToolInput))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return ""
	}
	canon, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(canon)
	return "sha256:" + hex.EncodeToString(sum[:])
}
