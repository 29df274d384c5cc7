package journal

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// A human's act (approve, reject, run) counts only when the human's path
// wrote it: each such line carries a MAC keyed by a random key kept in
// <state>/secrets/human.key, which only airlock's human verbs create and
// self-protection keeps every agent tool call away from. A line that
// anything else appends, even with a correct seq and prev, has no valid
// MAC: the queue ignores it and audit verify reports it.

// HumanKeyFile is where the human key lives under the state directory.
const HumanKeyFile = "secrets/human.key"

// macPrefix marks the MAC scheme in the line.
const macPrefix = "hmac-sha256:"

// humanAct reports whether an event is a human's act on the queue.
func humanAct(event string) bool {
	return event == EventApprove || event == EventReject || event == EventRun ||
		event == EventAck || event == EventDismiss
}

// humanKeyPath is the key's path for the journal in dir
// (<state>/journal).
func humanKeyPath(dir string) string {
	return filepath.Join(filepath.Dir(dir), filepath.FromSlash(HumanKeyFile))
}

// loadHumanKey reads the human key; with create, it makes one (32 random
// bytes, mode 0600, in a 0700 directory) when there is none. Without
// create a missing key is (nil, nil): nothing can be authenticated.
func loadHumanKey(dir string, create bool) ([]byte, error) {
	path := humanKeyPath(dir)
	f, err := openFile(path, os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		if !create {
			return nil, nil
		}
		if err := safeDir(filepath.Dir(path)); err != nil {
			return nil, fmt.Errorf("journal: human key: %w", err)
		}
		key := make([]byte, 32)
		if _, err := rand.Read(key); err != nil {
			return nil, fmt.Errorf("journal: human key: %w", err)
		}
		nf, err := openFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			return loadHumanKey(dir, false) // another human verb made it first
		}
		if err != nil {
			return nil, fmt.Errorf("journal: human key: %w", err)
		}
		_, werr := nf.Write(key)
		serr := nf.Sync()
		cerr := nf.Close()
		if err := firstErr(werr, serr, cerr); err != nil {
			return nil, fmt.Errorf("journal: human key: %w", err)
		}
		return key, nil
	}
	if err != nil {
		return nil, fmt.Errorf("journal: human key: %w", err)
	}
	defer f.Close()
	key, err := io.ReadAll(io.LimitReader(f, 1024))
	if err != nil {
		return nil, fmt.Errorf("journal: human key: %w", err)
	}
	if len(key) < 32 {
		return nil, fmt.Errorf("journal: human key %s is too short (%d bytes)", path, len(key))
	}
	return key, nil
}

// humanMAC is the MAC of a human act: over its place in the chain (seq,
// prev, which vouches for everything before it), every field that says
// what the human did, and the hash of the held line it is about.
func humanMAC(key []byte, e *Entry) string {
	exp := ""
	if e.Expires != nil {
		exp = e.Expires.UTC().Format(time.RFC3339Nano)
	}
	fields := []string{"airlock-human-v1", strconv.FormatInt(e.Seq, 10), e.Prev,
		e.Time.UTC().Format(time.RFC3339Nano), e.Event, e.Ref, exp, e.Note, e.Session, e.Story, e.HeldHash}
	if t := e.Team; t != nil {
		// A team act's record is part of what the human key vouches for
		// (acts without one MAC as they always did).
		fields = append(fields, t.macFields()...)
	}
	m := hmac.New(sha256.New, key)
	io.WriteString(m, strings.Join(fields, "\x00"))
	return macPrefix + hex.EncodeToString(m.Sum(nil))
}

// macChecker returns a check of human acts' MACs against the key in the
// journal's state directory, read once when first needed.
func (j *Journal) macChecker() func(e *Entry) bool {
	var key []byte
	loaded := false
	return func(e *Entry) bool {
		if !loaded {
			key, _ = loadHumanKey(j.dir, false)
			loaded = true
		}
		return validMAC(key, e)
	}
}

// validMAC reports whether a human act carries the MAC of key.
func validMAC(key []byte, e *Entry) bool {
	if len(key) == 0 || e.MAC == "" {
		return false
	}
	return hmac.Equal([]byte(e.MAC), []byte(humanMAC(key, e)))
}
