// Package server is airlock's team server: one review queue for every
// machine that joined it, kept in PostgreSQL (internal/team/store). It
// speaks the team protocol (internal/team/wire) to machines and
// reviewers, signs each reviewer's verdict with its ed25519 key so a
// machine can tell the decision came from the server it joined, and
// serves the team dashboard with the same guard as "airlock serve".
//
// Who may do what is decided by the token alone: a machine token pushes
// that machine's items and pulls that machine's decisions (the machine
// is never read from a body), a reviewer token reads the queue and
// settles items (the decision records that reviewer), and the admin
// token printed at each start logs a browser into the dashboard.
//
// Files: server.go (Open, the admin commands, routes), key.go (the
// signing key), api.go (the JSON API), dashboard.go (the pages).
package server

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/airlock-dev/airlock/internal/serve"
	"github.com/airlock-dev/airlock/internal/team/store"
	"github.com/airlock-dev/airlock/internal/team/wire"
)

// Limits bound what one request may ask of the server; each is named in
// the error of a request that goes over it.
type Limits struct {
	// PushBytes bounds a push's body (16 MiB when 0).
	PushBytes int64
	// PushRows bounds a push's items, and separately its settlements
	// (1000 when 0).
	PushRows int
	// ItemBytes bounds one held item as JSON (1 MiB when 0): a command
	// longer than that is no command a human reviews on a page; it stays
	// held on its machine, where "airlock queue" shows it.
	ItemBytes int
	// QueuePage bounds a queue page (500 when 0; 50 when not asked).
	QueuePage int
	// DecisionsPage bounds a page of decisions (1000 when 0; 100 when
	// not asked).
	DecisionsPage int
}

func (l *Limits) fill() {
	if l.PushBytes == 0 {
		l.PushBytes = 16 << 20
	}
	if l.PushRows == 0 {
		l.PushRows = 1000
	}
	if l.ItemBytes == 0 {
		l.ItemBytes = 1 << 20
	}
	if l.QueuePage == 0 {
		l.QueuePage = 500
	}
	if l.DecisionsPage == 0 {
		l.DecisionsPage = 1000
	}
}

// Options are what a server is opened with.
type Options struct {
	// KeyFile is the signing key's file, created (mode 0600) when
	// missing. Key, when set, is used instead (tests); with neither, a
	// key is made for this start only.
	KeyFile string
	Key     ed25519.PrivateKey
	// Addr is the address the listener is bound to (host:port): the
	// dashboard answers only to it (and to PublicURL's host). Without it
	// the dashboard's pages answer 404; the API works regardless.
	Addr string
	// TLS says the listener serves HTTPS.
	TLS bool
	// PublicURL is the URL people reach the server at when a reverse
	// proxy stands in front of it (https://team.example.com): the admin
	// URL uses it, and the dashboard accepts its Host and Origin.
	PublicURL string
	// Retention archives the items settled longer ago than this
	// (RunRetention); 0 keeps them.
	Retention time.Duration
	// Now is the clock (time.Now when nil).
	Now    func() time.Time
	Limits Limits
}

// Server is an open team server.
type Server struct {
	opts       Options
	st         *store.Store
	key        ed25519.PrivateKey
	pub        ed25519.PublicKey
	keyCreated bool
	admin      string
	dash       http.Handler
	// guard is the dashboard's; it makes the admin URL's login codes.
	guard *serve.Guard
}

// Open opens (and migrates) the database at dbURL, loads or creates the
// signing key, and makes the admin token of this start.
func Open(ctx context.Context, dbURL string, o Options) (*Server, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	o.Limits.fill()
	if o.PublicURL != "" {
		u, err := url.Parse(o.PublicURL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || (u.Path != "" && u.Path != "/") {
			return nil, fmt.Errorf("team server: public URL %q is not scheme://host[:port]", o.PublicURL)
		}
	}
	// The database first: a --db that is refused leaves no key behind.
	st, err := store.Open(ctx, dbURL)
	if err != nil {
		return nil, err
	}
	st.SetClock(o.Now)
	key, created := o.Key, false
	if key == nil && o.KeyFile != "" {
		if key, created, err = LoadKey(o.KeyFile); err != nil {
			st.Close()
			return nil, err
		}
	}
	if key == nil {
		if _, key, err = ed25519.GenerateKey(rand.Reader); err != nil {
			st.Close()
			return nil, err
		}
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		st.Close()
		return nil, err
	}
	s := &Server{opts: o, st: st, key: key, pub: key.Public().(ed25519.PublicKey), keyCreated: created, admin: hex.EncodeToString(b[:])}
	if o.Addr != "" {
		if s.dash, err = s.dashboard(); err != nil {
			st.Close()
			return nil, err
		}
	}
	return s, nil
}

// KeyCreated says whether Open created the key file (its first start).
func (s *Server) KeyCreated() bool { return s.keyCreated }

// Close closes the database pool.
func (s *Server) Close() { s.st.Close() }

// Store is the server's store (tests, the benchmark).
func (s *Server) Store() *store.Store { return s.st }

// PublicKey is the key machines pin at join.
func (s *Server) PublicKey() ed25519.PublicKey { return s.pub }

// Fingerprint is the key's fingerprint, which "team serve" prints and
// "team join" shows for comparison.
func (s *Server) Fingerprint() string { return wire.Fingerprint(s.pub) }

// AdminToken is the dashboard login token of this start.
func (s *Server) AdminToken() string { return s.admin }

// BaseURL is where people reach the server: PublicURL, or the listen
// address.
func (s *Server) BaseURL() string {
	if s.opts.PublicURL != "" {
		u, _ := url.Parse(s.opts.PublicURL)
		return u.Scheme + "://" + u.Host
	}
	scheme := "http"
	if s.opts.TLS {
		scheme = "https"
	}
	return scheme + "://" + s.opts.Addr
}

// AdminURL logs one browser into the dashboard as the admin, once,
// within serve.CodeLife: the first line "airlock team serve" prints. Each
// call makes a new code; the admin token is never in a URL (the history
// and the terminal's scrollback keep it: FINDINGS-10 L1).
func (s *Server) AdminURL() string {
	if s.guard == nil {
		return s.BaseURL() + "/login"
	}
	return s.BaseURL() + "/login?code=" + s.guard.IssueCode(adminName)
}

// Handler is the server's routes: the API under wire.PathPrefix, and the
// dashboard.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	s.apiRoutes(mux)
	if s.dash != nil {
		mux.Handle("/", s.dash)
	} else {
		mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "the team dashboard is not served here (the server was opened without its listen address)", http.StatusNotFound)
		})
	}
	return mux
}

// ArchiveNow moves the items settled longer ago than the retention to the
// archive and says how many; with no retention it does nothing.
func (s *Server) ArchiveNow(ctx context.Context) (int, error) {
	if s.opts.Retention <= 0 {
		return 0, nil
	}
	return s.st.Archive(ctx, s.opts.Now().Add(-s.opts.Retention))
}

// RunRetention archives at once, then every interval, until ctx ends;
// errors go to report.
func (s *Server) RunRetention(ctx context.Context, interval time.Duration, report func(moved int, err error)) {
	if s.opts.Retention <= 0 {
		return
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		n, err := s.ArchiveNow(ctx)
		if report != nil && (n > 0 || err != nil) && ctx.Err() == nil {
			report(n, err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// adminName is the reviewer a decision made through the admin login
// records. It is refused as the name of a machine or a reviewer.
const adminName = "admin"

// ErrReserved is the error of adding an identity with a reserved name.
var ErrReserved = errors.New(`team server: "admin" is reserved (it names the server's operator in decisions made from the admin login)`)

func add(ctx context.Context, dbURL, kind, name string) (string, error) {
	if name == adminName {
		return "", ErrReserved
	}
	st, err := store.Open(ctx, dbURL)
	if err != nil {
		return "", err
	}
	defer st.Close()
	return st.Add(ctx, kind, name)
}

// AddMachine adds a machine to the team database at dbURL and returns
// its join token (shown once: the database keeps its hash).
func AddMachine(ctx context.Context, dbURL, name string) (string, error) {
	return add(ctx, dbURL, store.Machine, name)
}

// AddReviewer adds a reviewer and returns its token.
func AddReviewer(ctx context.Context, dbURL, name string) (string, error) {
	return add(ctx, dbURL, store.Reviewer, name)
}

// Revoke revokes the machine or reviewer named name and says which it
// was ("machine" or "reviewer").
func Revoke(ctx context.Context, dbURL, name string) (string, error) {
	st, err := store.Open(ctx, dbURL)
	if err != nil {
		return "", err
	}
	defer st.Close()
	return st.Revoke(ctx, name)
}
