package notify

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/airlock-dev/airlock/internal/journal"
)

// A reply is what a notification's button posts to the reply topic: the
// decision about one item, its expiry and a nonce, with an HMAC keyed by
// the secret only airlock holds. The MAC also covers the hash of the held
// action (not sent: recomputed from the journal), so that a reply about an
// item is void if what the item holds is not what was shown.

// Decisions a reply can carry.
const (
	// DecisionApprove lets the agent's verbatim retry run once.
	DecisionApprove = "approve"
	// DecisionReject settles the item as refused.
	DecisionReject = "reject"
)

// replyVersion marks the reply format and MAC scheme.
const replyVersion = 1

// maxReply bounds a reply message read from the topic.
const maxReply = 2048

// maxReplyID bounds a reply's item id: a machine's queue id, or a team
// item's key (a machine's name, ':', and its id on that machine).
const maxReplyID = 200

// Reply is the body of a button's POST.
type Reply struct {
	V        int    `json:"airlock_reply"`
	ID       string `json:"id"`
	Decision string `json:"decision"`
	Expires  int64  `json:"exp"`
	Nonce    string `json:"nonce"`
	MAC      string `json:"mac"`
}

// Why a reply is refused.
var (
	// ErrMalformed: not a reply airlock wrote.
	ErrMalformed = errors.New("not an airlock reply")
	// ErrForged: the MAC does not verify.
	ErrForged = errors.New("the reply's signature does not verify (forged, or for another installation)")
	// ErrExpired: the reply came after its expiry.
	ErrExpired = errors.New("the reply has expired")
	// ErrReplayed: the reply's nonce was already used.
	ErrReplayed = errors.New("the reply was already used (replayed)")
	// ErrChanged: the item's held action is not the one the notification
	// showed.
	ErrChanged = errors.New("the held action is not the one the notification showed")
)

// actionHash binds a reply to the held action as the notification showed
// it: its kind, directory, command, tool, target and input digest.
func actionHash(it *journal.Item) string {
	h := sha256.New()
	for _, f := range []string{it.ID, it.Kind, it.Cwd, it.Command, it.Tool, it.URL, strings.Join(it.Paths, "\x00"), it.InputDigest, it.Session} {
		h.Write([]byte(strconv.Itoa(len(f))))
		h.Write([]byte{':'})
		h.Write([]byte(f))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// mac is the reply's MAC.
func replyMAC(key []byte, r *Reply, action string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(strings.Join([]string{"airlock-notify-v1", r.ID, r.Decision, strconv.FormatInt(r.Expires, 10), r.Nonce, action}, "\x00")))
	return hex.EncodeToString(m.Sum(nil))
}

// signReply builds the signed body of a button.
func signReply(key []byte, it *journal.Item, decision, nonce string, exp time.Time) string {
	r := &Reply{V: replyVersion, ID: it.ID, Decision: decision, Expires: exp.Unix(), Nonce: nonce}
	r.MAC = replyMAC(key, r, actionHash(it))
	b, _ := json.Marshal(r)
	return string(b)
}

// parseReply reads a reply message strictly.
func parseReply(msg string) (*Reply, error) {
	if len(msg) > maxReply {
		return nil, fmt.Errorf("%w: %d bytes", ErrMalformed, len(msg))
	}
	dec := json.NewDecoder(strings.NewReader(msg))
	dec.DisallowUnknownFields()
	r := &Reply{}
	if err := dec.Decode(r); err != nil || dec.More() {
		return nil, ErrMalformed
	}
	switch {
	case r.V != replyVersion:
		return nil, fmt.Errorf("%w: version %d", ErrMalformed, r.V)
	case r.Decision != DecisionApprove && r.Decision != DecisionReject:
		return nil, fmt.Errorf("%w: decision %q", ErrMalformed, r.Decision)
	case r.ID == "" || len(r.ID) > maxReplyID || len(r.Nonce) != 32 || len(r.MAC) != 64:
		return nil, ErrMalformed
	}
	return r, nil
}

// verifyMAC checks the reply's MAC against the hash of the action that
// was shown.
func verifyMAC(key []byte, r *Reply, action string) bool {
	return hmac.Equal([]byte(r.MAC), []byte(replyMAC(key, r, action)))
}
