package sync

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/airlock-dev/airlock/internal/team/wire"
)

// JoinOptions say which server a machine joins, with what.
type JoinOptions struct {
	StateDir string
	// Server is the team server's URL; Token, the machine token "airlock
	// team add-machine" printed.
	Server string
	Token  string
	// Pin is the key's fingerprint (SHA256:…) as "airlock team serve"
	// printed it: join refuses a server whose key is another. Empty:
	// the key the server presents is pinned (trust on first use), and
	// its fingerprint is printed for the human to compare.
	Pin  string
	HTTP *http.Client
	Now  func() time.Time
}

// ErrPinMismatch: the server's key is not the one the human said.
var ErrPinMismatch = errors.New("the team server's key does not match")

// Join asks the server who the token says this machine is, checks the
// protocol version, pins the server's key and writes the membership into
// the secrets directory. Joining again is allowed (a new token, a moved
// server); a key that differs from the one pinned before needs --pin.
func Join(ctx context.Context, o JoinOptions) (*Config, error) {
	server, err := normalServer(o.Server)
	if err != nil {
		return nil, err
	}
	token := strings.TrimSpace(o.Token)
	if token == "" {
		return nil, errors.New("team: no token (airlock team add-machine NAME prints one)")
	}
	if strings.ContainsAny(token, " \t\r\n") {
		return nil, errors.New("team: the token holds white space; paste it as add-machine printed it")
	}
	h, err := newClient(server, token, o.HTTP).hello(ctx)
	if err != nil {
		if unauthorized(err) {
			return nil, fmt.Errorf("%w (the token was not accepted: revoked, mistyped, or for another server)", err)
		}
		return nil, err
	}
	if h.Version != wire.Version {
		return nil, fmt.Errorf("team: the server speaks protocol version %d, this airlock speaks %d: upgrade the older side", h.Version, wire.Version)
	}
	if err := wire.CheckName(h.Machine); err != nil {
		return nil, fmt.Errorf("team: the server names this machine badly: %w", err)
	}
	key, err := wire.DecodeKey(h.ServerKey)
	if err != nil {
		return nil, fmt.Errorf("team: the server's key: %w", err)
	}
	fp := wire.Fingerprint(key)
	pin := strings.TrimSpace(o.Pin)
	if pin != "" && pin != fp {
		return nil, fmt.Errorf("%w: it presents %s, you said %s; nothing was written", ErrPinMismatch, fp, pin)
	}
	if old, err := LoadConfig(o.StateDir); err == nil && old.ServerKey != h.ServerKey && pin == "" {
		return nil, fmt.Errorf("%w: this machine pinned %s (at %s), the server now presents %s; if the server's key really changed, join again with --pin %s",
			ErrPinMismatch, old.Fingerprint, old.Server, fp, fp)
	}
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	c := &Config{Server: server, Machine: h.Machine, Token: token, ServerKey: h.ServerKey, Fingerprint: fp, Joined: now().UTC()}
	if err := SaveConfig(o.StateDir, c); err != nil {
		return nil, err
	}
	return c, nil
}
