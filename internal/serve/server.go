package serve

import (
	"crypto/rand"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/airlock-dev/airlock/internal/journal"
)

//go:embed assets
var assets embed.FS

// TokenFile is where the running dashboard's login token is kept, under
// the state directory: beside the human key, where self-protection keeps
// every agent tool call away.
const TokenFile = "secrets/serve.token"

// Config says what the dashboard serves and where.
type Config struct {
	// Journal is the journal the queue is read from and decisions are
	// written to.
	Journal *journal.Journal
	// Addr is the address the listener is bound to (host:port, after the
	// port is known): the only Host the server answers to, with its
	// loopback aliases when it is a loopback address.
	Addr string
	// TLS says the server is reached over HTTPS (cookies are Secure,
	// Origins are https).
	TLS bool
	// Getenv reads the environment for the policy files ("make it a
	// rule"); os.Getenv in the binary.
	Getenv func(string) string
	// Now is the clock (time.Now when nil).
	Now func() time.Time
	// Poll is how often the live queue looks at the journal for new
	// events (500ms when 0).
	Poll time.Duration
}

// Server is a running dashboard's state: its login token, its sessions
// and the key its CSRF tokens are made with. All of it is new at each
// start.
type Server struct {
	cfg   Config
	token string
	g     *Guard
	tmpl  *template.Template
	rows  rowsCache
}

// sessionLife is how long a dashboard login lasts.
const sessionLife = 12 * time.Hour

// New makes a dashboard with a fresh login token.
func New(cfg Config) (*Server, error) {
	if cfg.Journal == nil {
		return nil, errors.New("serve: no journal")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Getenv == nil {
		cfg.Getenv = func(string) string { return "" }
	}
	if cfg.Poll == 0 {
		cfg.Poll = 500 * time.Millisecond
	}
	s := &Server{cfg: cfg, token: randomHex(32)}
	var err error
	s.tmpl, err = template.New("").Funcs(funcs).ParseFS(assets, "assets/*.html")
	if err != nil {
		return nil, fmt.Errorf("serve: templates: %w", err)
	}
	s.g, err = NewGuard(GuardConfig{Addr: cfg.Addr, TLS: cfg.TLS, Templates: s.tmpl, Now: cfg.Now,
		LoginHint: "log in with the link airlock serve printed on its first line (good once, for " + CodeLife.String() + "), or paste the token kept in the state directory's secrets/serve.token below"})
	if err != nil {
		return nil, err
	}
	return s, nil
}

// Token is the login token of this start.
func (s *Server) Token() string { return s.token }

// LoginURL is a URL that logs one browser in once, within CodeLife: the
// first line airlock serve prints. Each call makes a new code; the
// long-lived token is never in it (logincode.go).
func (s *Server) LoginURL() string {
	scheme := "http"
	if s.cfg.TLS {
		scheme = "https"
	}
	return scheme + "://" + s.cfg.Addr + "/login?code=" + s.g.IssueCode("")
}

// WriteToken keeps the login token in <stateDir>/secrets/serve.token
// (mode 0600) for a later login (pasted into the form at /login; never a
// URL), and returns a function that removes it when the server stops.
func (s *Server) WriteToken(stateDir string) (func(), error) {
	path := filepath.Join(stateDir, filepath.FromSlash(TokenFile))
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	if err := os.WriteFile(path, []byte(s.token+"\n"), 0o600); err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	return func() { os.Remove(path) }, nil
}

// Handler is the dashboard's routes behind its guard.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /static/", Static())
	mux.HandleFunc("GET /login", s.login)
	mux.HandleFunc("POST /login", s.login)
	mux.HandleFunc("GET /{$}", s.authed(s.queuePage))
	mux.HandleFunc("GET /queue/rows", s.authed(s.queueRows))
	mux.HandleFunc("GET /events", s.authed(s.events))
	mux.HandleFunc("GET /item/{id}", s.authed(s.itemPage))
	mux.HandleFunc("POST /item/{id}/approve", s.authed(s.posted(s.approve)))
	mux.HandleFunc("POST /item/{id}/reject", s.authed(s.posted(s.reject)))
	mux.HandleFunc("GET /item/{id}/rule", s.authed(s.rulePage))
	mux.HandleFunc("POST /item/{id}/rule", s.authed(s.posted(s.ruleWrite)))
	mux.HandleFunc("GET /report", s.authed(s.reportPage))
	mux.HandleFunc("GET /audit", s.authed(s.auditPage))
	return s.guard(mux)
}

// Static serves the dashboard's style sheet and its one script (the live
// queue), for the team dashboard too: mount it at /static/.
func Static() http.Handler {
	static, _ := fs.Sub(assets, "assets/static")
	return http.StripPrefix("/static/", http.FileServerFS(static))
}

// ParseTemplates parses the dashboard's layout ("head", "foot") and
// error page, then the files of own matching patterns: the team
// dashboard's pages are made of the same frame and escape the same way.
func ParseTemplates(own fs.FS, patterns ...string) (*template.Template, error) {
	t, err := template.New("").Funcs(funcs).ParseFS(assets, "assets/layout.html", "assets/error.html")
	if err != nil {
		return nil, fmt.Errorf("serve: templates: %w", err)
	}
	if t, err = t.ParseFS(own, patterns...); err != nil {
		return nil, fmt.Errorf("serve: templates: %w", err)
	}
	return t, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("serve: no randomness: " + err.Error())
	}
	return hex.EncodeToString(b)
}

// IsLoopback reports whether a listen host is a loopback address or
// "localhost". Any other name may resolve anywhere, so it is not.
func IsLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
