// Package sync is the machine's side of team mode: "airlock team join"
// pins the team server's key and keeps the machine's token, and "airlock
// team sync" ships the machine's held items and what became of them to
// the server, and applies the team's decisions to the machine's journal.
//
// It runs beside the service, never on the hook's path: the hook decides,
// holds and queues locally whether or not the server answers, and sync
// catches up when it can. A decision counts only once it is written into
// the journal as a human act (journal.SettleTeam), and sync hands the
// journal only decisions whose signature verifies with the key pinned at
// join and that name this machine; the journal checks the rest (the
// item, its held line, exactly once) under its lock. Everything else is
// refused, journaled and reported back to the server.
package sync

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/airlock-dev/airlock/internal/safefile"
	"github.com/airlock-dev/airlock/internal/team/wire"
)

// ConfigFile is where join keeps the machine's membership, under the
// state directory: in the secrets directory, which self-protection keeps
// every agent tool call from reading or writing (the token is the
// machine's credential; the pinned key is what every decision is checked
// against).
const ConfigFile = "secrets/team.json"

// Config is what join wrote.
type Config struct {
	// Server is the team server's base URL (without wire.PathPrefix).
	Server string `json:"server"`
	// Machine is this machine's name, as the server knows it.
	Machine string `json:"machine"`
	// Token is the machine's token.
	Token string `json:"token"`
	// ServerKey is the server's pinned ed25519 public key (wire.EncodeKey).
	ServerKey string `json:"server_key"`
	// Fingerprint is the key's wire.Fingerprint, for a human reading it.
	Fingerprint string    `json:"fingerprint"`
	Joined      time.Time `json:"joined"`
}

// ErrNotJoined: this machine has not joined a team.
var ErrNotJoined = errors.New("this machine has not joined a team")

// ConfigPath is the file's path under stateDir.
func ConfigPath(stateDir string) string {
	return filepath.Join(stateDir, filepath.FromSlash(ConfigFile))
}

// LoadConfig reads the membership join wrote.
func LoadConfig(stateDir string) (*Config, error) {
	path := ConfigPath(stateDir)
	data, err := safefile.ReadRegular(path, safefile.ReadOptions{Limit: 64 << 10})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w (no %s)", ErrNotJoined, path)
	}
	if err != nil {
		return nil, fmt.Errorf("team: %w", err)
	}
	var c Config
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("team: %s: %w", path, err)
	}
	if _, err := c.key(); err != nil {
		return nil, fmt.Errorf("team: %s: the pinned server key: %w", path, err)
	}
	if err := wire.CheckName(c.Machine); err != nil {
		return nil, fmt.Errorf("team: %s: %w", path, err)
	}
	if c.Server == "" || c.Token == "" {
		return nil, fmt.Errorf("team: %s has no server or no token; run airlock team join again", path)
	}
	return &c, nil
}

func (c *Config) key() ([]byte, error) { return wire.DecodeKey(c.ServerKey) }

// SaveConfig writes the membership: 0600, in a 0700 secrets directory,
// replaced atomically.
func SaveConfig(stateDir string, c *Config) error {
	path := ConfigPath(stateDir)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("team: %w", err)
	}
	if err := os.Chmod(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("team: %w", err)
	}
	data, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	if err := safefile.Replace(path, append(data, '\n'), safefile.Options{Perm: 0o600}); err != nil {
		return fmt.Errorf("team: writing %s: %w", path, err)
	}
	return nil
}

// normalServer checks a server URL and strips what join should not keep
// (a trailing slash, the API's prefix pasted in by hand).
func normalServer(raw string) (string, error) {
	s := strings.TrimSpace(raw)
	s = strings.TrimRight(s, "/")
	s = strings.TrimSuffix(s, wire.PathPrefix)
	if !strings.HasPrefix(s, "https://") && !strings.HasPrefix(s, "http://") {
		return "", fmt.Errorf("team: %q is not an http(s) URL", raw)
	}
	if strings.ContainsAny(s, "?# \t\n") {
		return "", fmt.Errorf("team: %q: give the server's base URL, without a query or fragment", raw)
	}
	return s, nil
}
