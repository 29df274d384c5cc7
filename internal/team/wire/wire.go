// Package wire is the team protocol: what a machine, a reviewer and the
// team server say to each other over HTTP(S), and how a team decision is
// signed so that the machine that applies it can tell it came from the
// server it joined. It is the one contract between the server
// (internal/team/server) and the machine side (internal/team/sync); both
// import it, and neither redefines a shape.
//
// The endpoints, all under PathPrefix, all JSON, all authenticated by
// "Authorization: Bearer TOKEN":
//
//	machine token:
//	  GET  /hello                           → Hello
//	  POST /push            Push            → PushResult
//	  GET  /decisions?after=N&limit=M       → Decisions (Seq > N, oldest first)
//	reviewer token:
//	  GET  /queue?machine=&repo=&min_age=&status=&limit=&offset= → QueueList
//	  GET  /queue/{key}                     → TeamItem
//	  POST /queue/{key}/approve   Verdict   → TeamItem   (409 when settled)
//	  POST /queue/{key}/reject    Verdict   → TeamItem   (409 when settled)
//
// {key} is ItemKey(machine, id). Errors are Error with a 4xx/5xx status.
// The queue's min_age is a duration ("90m", "2h") or days ("3d"); status
// is empty for the open items (pending, expired), "all", or one status;
// offset skips that many items (paging, newest held first).
package wire

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"
)

// Version is the protocol version; Hello carries it and a machine refuses
// a server that speaks another.
const Version = 1

// PathPrefix is where the API lives on the team server.
const PathPrefix = "/api/team/v1"

// Verdicts a reviewer can give.
const (
	Approve = "approve"
	Reject  = "reject"
)

// Hello is the server's answer to a machine: who the token says the
// machine is, and the server's signing key, which "airlock team join"
// pins (compare Fingerprint with what "airlock team serve" printed).
type Hello struct {
	Version   int    `json:"version"`
	Machine   string `json:"machine"`
	ServerKey string `json:"server_key"` // base64 (std) ed25519 public key
}

// Reason is one reason of a held call's verdict.
type Reason struct {
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

// HeldItem is one held call as a machine ships it: the journal line that
// held it, and what review needs. The machine is not a field: the server
// takes it from the token, never from the body.
type HeldItem struct {
	ID       string    `json:"id"`        // the machine's queue id
	HeldHash string    `json:"held_hash"` // hash of the held journal line
	Seq      int64     `json:"seq"`       // its seq in the machine's journal
	Time     time.Time `json:"time"`
	Agent    string    `json:"agent,omitempty"`
	Session  string    `json:"session,omitempty"`
	Story    string    `json:"story,omitempty"`
	Cwd      string    `json:"cwd,omitempty"`
	Repo     string    `json:"repo,omitempty"` // the project's name or remote, for filtering
	Tool     string    `json:"tool,omitempty"`
	Kind     string    `json:"kind,omitempty"`
	Command  string    `json:"command,omitempty"`
	Paths    []string  `json:"paths,omitempty"`
	URL      string    `json:"url,omitempty"`
	Decision string    `json:"decision,omitempty"`
	Rule     string    `json:"rule,omitempty"`
	Message  string    `json:"message,omitempty"`
	Mode     string    `json:"mode,omitempty"`
	Effect   string    `json:"effect,omitempty"`
	Reasons  []Reason  `json:"reasons,omitempty"`
	// InputDigest and Input are a non-shell call's input (bounded).
	InputDigest string          `json:"input_digest,omitempty"`
	Input       json.RawMessage `json:"input,omitempty"`
}

// Settlement is what became of an item on the machine: settled there by
// a local human (Channel "cli", "dashboard", "phone"), by a team decision
// it applied (Channel "team", DecisionID set), used by the agent's retry,
// or expired.
type Settlement struct {
	ID         string    `json:"id"`
	Status     string    `json:"status"` // approved, rejected, ran, used, expired, acknowledged, dismissed
	Time       time.Time `json:"time"`
	Channel    string    `json:"channel,omitempty"`
	Reviewer   string    `json:"reviewer,omitempty"`
	DecisionID string    `json:"decision_id,omitempty"`
	// Refused is set when the machine refused a team decision (bad
	// signature, wrong machine, item already settled locally): why.
	Refused string `json:"refused,omitempty"`
}

// StatusRefused is the Status of a Settlement that reports a team
// decision the machine refused (Refused says why, DecisionID which): it
// reports, and does not change the item's status, which the machine's
// own settlements say. A machine sends refusals in a push of their own,
// so a server that does not take them cannot hold up the rest.
const StatusRefused = "refused"

// Push is a machine's batch. Items and settlements already known to the
// server are ignored (by machine and ID, and by ID and Status), so a push
// may be repeated any number of times.
type Push struct {
	Items       []HeldItem   `json:"items,omitempty"`
	Settlements []Settlement `json:"settlements,omitempty"`
}

// PushResult says how many of a push's rows were new.
type PushResult struct {
	NewItems       int `json:"new_items"`
	NewSettlements int `json:"new_settlements"`
}

// Decision is a reviewer's verdict on one machine's item, signed by the
// server. A machine applies it only when Verify passes with the key it
// pinned at join, Machine is its own name, and the item's held line still
// has HeldHash.
type Decision struct {
	Seq        int64  `json:"seq"` // server order; not signed (only a cursor)
	DecisionID string `json:"decision_id"`
	Machine    string `json:"machine"`
	ItemID     string `json:"item_id"`
	HeldHash   string `json:"held_hash"`
	Verdict    string `json:"verdict"` // Approve or Reject
	Reviewer   string `json:"reviewer"`
	Note       string `json:"note,omitempty"`
	Time       string `json:"time"` // RFC 3339, UTC: a string, so it signs the same on both sides
	TTLSeconds int64  `json:"ttl_seconds,omitempty"`
	Sig        string `json:"sig"` // base64 (std) ed25519 over SigningBytes
}

// Decisions is a page of decisions for the asking machine.
type Decisions struct {
	Decisions []Decision `json:"decisions"`
	// Next is the cursor for the next ask (the last Seq returned, or the
	// asked-for cursor when there was none).
	Next int64 `json:"next"`
}

// TeamItem is one item of the team queue as a reviewer sees it.
type TeamItem struct {
	Key      string    `json:"key"` // ItemKey(Machine, Item.ID)
	Machine  string    `json:"machine"`
	Item     HeldItem  `json:"item"`
	Status   string    `json:"status"` // pending, approved, rejected, or the machine's last Settlement.Status
	Received time.Time `json:"received"`
	// Decision is the team's verdict, if a reviewer gave one.
	Decision *Decision `json:"decision,omitempty"`
	// Settlement is the machine's last report on the item.
	Settlement *Settlement `json:"settlement,omitempty"`
}

// QueueList is a filtered page of the team queue.
type QueueList struct {
	Items []TeamItem `json:"items"`
}

// Verdict is a reviewer's approve or reject request.
type Verdict struct {
	Note       string `json:"note,omitempty"`
	TTLSeconds int64  `json:"ttl_seconds,omitempty"`
}

// Error is the body of every error answer.
type Error struct {
	Error string `json:"error"`
	Hint  string `json:"hint,omitempty"`
}

var nameRE = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{0,62}$`)

// CheckName reports whether name can name a machine or a reviewer:
// lower-case letters, digits, '.', '_' and '-', at most 63, starting with
// a letter or digit (it appears in keys, URLs and journal lines).
func CheckName(name string) error {
	if !nameRE.MatchString(name) {
		return fmt.Errorf("team: %q is not a valid name (lower-case letters, digits, '.', '_', '-'; at most 63; starting with a letter or digit)", name)
	}
	return nil
}

// ItemKey is the team-wide key of a machine's item.
func ItemKey(machine, id string) string { return machine + ":" + id }

// SplitKey undoes ItemKey.
func SplitKey(key string) (machine, id string, err error) {
	m, id, ok := strings.Cut(key, ":")
	if !ok || CheckName(m) != nil || id == "" {
		return "", "", fmt.Errorf("team: %q is not an item key (MACHINE:ID)", key)
	}
	return m, id, nil
}

// signingDomain separates this signature from any other the key could make.
const signingDomain = "airlock-team-decision-v1\n"

// SigningBytes is what the server signs: every field but Seq and Sig.
func (d Decision) SigningBytes() []byte {
	d.Seq, d.Sig = 0, ""
	b, err := json.Marshal(d)
	if err != nil { // a struct of strings and ints always marshals
		panic(err)
	}
	return append([]byte(signingDomain), b...)
}

// Sign sets d.Sig.
func Sign(priv ed25519.PrivateKey, d *Decision) {
	d.Sig = base64.StdEncoding.EncodeToString(ed25519.Sign(priv, d.SigningBytes()))
}

// Errors of Verify.
var (
	ErrBadSignature = errors.New("team decision: the signature does not verify with the pinned server key")
	ErrWrongMachine = errors.New("team decision: signed for another machine")
	ErrMalformed    = errors.New("team decision: malformed")
)

// Verify checks a decision for machine against the pinned key.
func Verify(pub ed25519.PublicKey, d Decision, machine string) error {
	if len(pub) != ed25519.PublicKeySize {
		return fmt.Errorf("%w: no pinned key", ErrBadSignature)
	}
	sig, err := base64.StdEncoding.DecodeString(d.Sig)
	if err != nil || !ed25519.Verify(pub, d.SigningBytes(), sig) {
		return ErrBadSignature
	}
	if d.Machine != machine {
		return fmt.Errorf("%w: %q, not %q", ErrWrongMachine, d.Machine, machine)
	}
	if d.Verdict != Approve && d.Verdict != Reject {
		return fmt.Errorf("%w: verdict %q", ErrMalformed, d.Verdict)
	}
	if d.DecisionID == "" || d.ItemID == "" || d.HeldHash == "" || d.Reviewer == "" {
		return fmt.Errorf("%w: a required field is empty", ErrMalformed)
	}
	if _, err := time.Parse(time.RFC3339Nano, d.Time); err != nil {
		return fmt.Errorf("%w: time %q", ErrMalformed, d.Time)
	}
	if d.TTLSeconds < 0 {
		return fmt.Errorf("%w: negative ttl", ErrMalformed)
	}
	return nil
}

// EncodeKey and DecodeKey carry a public key in Hello and in the pinned
// file.
func EncodeKey(pub ed25519.PublicKey) string { return base64.StdEncoding.EncodeToString(pub) }

// DecodeKey parses EncodeKey's form.
func DecodeKey(s string) (ed25519.PublicKey, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, errors.New("team: not an ed25519 public key")
	}
	return ed25519.PublicKey(b), nil
}

// Fingerprint is how a human compares the key "team serve" prints with
// the one "team join" pins: "SHA256:" and the unpadded base64 of the
// key's SHA-256.
func Fingerprint(pub ed25519.PublicKey) string {
	sum := sha256.Sum256(pub)
	return "SHA256:" + base64.RawStdEncoding.EncodeToString(sum[:])
}
