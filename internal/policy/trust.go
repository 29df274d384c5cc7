package policy

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/airlock-dev/airlock/internal/safefile"
)

// TrustStore records which project policy files the user has reviewed and
// trusted, by SHA-256 of their content. A file that changes after being
// trusted no longer matches and is untrusted again.
type TrustStore struct {
	file string
	// Files maps an absolute policy file path to the hex SHA-256 trusted.
	Files map[string]string
}

// trustDoc is the on-disk form of the store.
type trustDoc struct {
	Version int               `json:"version"`
	Files   map[string]string `json:"files"`
}

// maxTrustBytes bounds the trust store: it holds one hash per trusted
// file, so a larger one is not airlock's.
const maxTrustBytes = 4 << 20

// LoadTrust reads the store at file; a missing file is an empty store.
func LoadTrust(file string) (*TrustStore, error) {
	t := &TrustStore{file: file, Files: map[string]string{}}
	if file == "" {
		return t, nil
	}
	data, err := safefile.ReadRegular(file, safefile.ReadOptions{Limit: maxTrustBytes})
	if errors.Is(err, fs.ErrNotExist) {
		return t, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading trust store: %w", err)
	}
	var doc trustDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, &FileError{File: file, Err: fmt.Errorf("%w: not a trust store: %v", ErrBadValue, err)}
	}
	if doc.Files != nil {
		t.Files = doc.Files
	}
	return t, nil
}

// Trust records data's hash as trusted for file.
func (t *TrustStore) Trust(file string, data []byte) string {
	h := contentHash(data)
	t.Files[file] = h
	return h
}

// Revoke forgets file; it reports whether it was trusted.
func (t *TrustStore) Revoke(file string) bool {
	_, ok := t.Files[file]
	delete(t.Files, file)
	return ok
}

// Save writes the store atomically (a crash leaves the old or the new
// store, never half of one), creating the state directory if needed.
func (t *TrustStore) Save() error {
	if t.file == "" {
		return errors.New("no state directory: set HOME, XDG_STATE_HOME or AIRLOCK_HOME")
	}
	if err := os.MkdirAll(filepath.Dir(t.file), 0o700); err != nil {
		return err
	}
	data, err := json.MarshalIndent(trustDoc{Version: 1, Files: t.Files}, "", "  ")
	if err != nil {
		return err
	}
	return safefile.Replace(t.file, append(data, '\n'), safefile.Options{})
}

// contentHash is the hex SHA-256 of a policy file's content.
func contentHash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
