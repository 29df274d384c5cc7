package serve

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// sessionCookie names the dashboard's session cookie.
const sessionCookie = "airlock_session"

// maxForm bounds a POST body: a note and a few fields.
const maxForm = 64 << 10

// csp lets the page load only its own script, style and event stream,
// never be framed, and post forms only to itself: an injected tag that
// got past the escaping still runs nothing.
const csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
	"form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// Guard is what a dashboard trusts a browser with, shared by "airlock
// serve" and the team server's dashboard: the security headers, the Host
// and Origin checks against the address it listens on, sessions made by
// a login, and the CSRF token of every form. Everything in it is new at
// each start.
type Guard struct {
	tls      bool
	now      func() time.Time
	hosts    map[string]bool
	origins  map[string]bool
	csrfKey  []byte
	tmpl     *template.Template // holds error.html
	loginMsg string
	mu       sync.Mutex
	sessions map[string]session
	// codes are the login codes made since the start (logincode.go).
	codes map[string]*loginCode
	// crossOrigin is the standard library's cross-origin check.
	crossOrigin *http.CrossOriginProtection
}

// session is one logged-in browser: since when, and who (the name a
// dashboard records on that browser's acts; "" for airlock serve, whose
// one human is the machine's).
type session struct {
	start time.Time
	who   string
}

// GuardConfig says what a Guard guards.
type GuardConfig struct {
	// Addr is the listen address (host:port, after the port is known).
	Addr string
	// TLS says browsers reach it over HTTPS.
	TLS bool
	// Public are more URLs (scheme://host[:port]) browsers reach it at,
	// through a reverse proxy: their Hosts and Origins are accepted too.
	Public []string
	// Templates holds "error.html" (ParseTemplates parses it).
	Templates *template.Template
	// LoginHint is what a browser without a session is told.
	LoginHint string
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// NewGuard makes a guard with a fresh CSRF key and no sessions.
func NewGuard(c GuardConfig) (*Guard, error) {
	if c.Now == nil {
		c.Now = time.Now
	}
	g := &Guard{tls: c.TLS, now: c.Now, tmpl: c.Templates, loginMsg: c.LoginHint, sessions: map[string]session{}, csrfKey: make([]byte, 32)}
	if _, err := rand.Read(g.csrfKey); err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	var err error
	if g.hosts, g.origins, err = allowedHosts(c.Addr, c.TLS); err != nil {
		return nil, err
	}
	for _, p := range c.Public {
		u, err := url.Parse(p)
		if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
			return nil, fmt.Errorf("serve: public URL %q is not scheme://host[:port]", p)
		}
		g.hosts[strings.ToLower(u.Host)] = true
		g.origins[u.Scheme+"://"+strings.ToLower(u.Host)] = true
	}
	// No trusted origins and no bypass: the Host check admits only the
	// dashboard's own addresses, and an Origin must match the Host.
	g.crossOrigin = http.NewCrossOriginProtection()
	return g, nil
}

// allowedHosts are the Host values the server answers to, and the
// Origins it takes a POST from: the address it listens on, and for a
// loopback address its loopback names on the same port. A DNS name that
// rebinds to 127.0.0.1 arrives with its own Host and is refused.
func allowedHosts(addr string, tls bool) (map[string]bool, map[string]bool, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, nil, fmt.Errorf("serve: listen address %q: %w", addr, err)
	}
	hosts := map[string]bool{net.JoinHostPort(host, port): true}
	if IsLoopback(host) {
		for _, h := range []string{"localhost", "127.0.0.1", "::1"} {
			hosts[net.JoinHostPort(h, port)] = true
		}
	}
	scheme := "http://"
	if tls {
		scheme = "https://"
	}
	origins := map[string]bool{}
	for h := range hosts {
		origins[scheme+h] = true
	}
	return hosts, origins, nil
}

// Wrap sets the security headers on every answer and refuses a request
// whose Host is not the server's, or that comes from another Origin.
func (g *Guard) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Cache-Control", "no-store")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		if g.tls {
			h.Set("Strict-Transport-Security", "max-age=31536000")
		}
		if !g.hosts[strings.ToLower(r.Host)] {
			g.Refuse(w, r, http.StatusForbidden, "this dashboard answers only to the address it listens on (the Host of this request is not it)")
			return
		}
		// Cross-origin changes: the standard library's check
		// (http.CrossOriginProtection) reads Sec-Fetch-Site, which no page
		// script can set, or else compares the Origin with the Host
		// checked above, and refuses an unsafe method from another origin.
		if err := g.crossOrigin.Check(r); err != nil {
			g.Refuse(w, r, http.StatusForbidden, "a change from another site is refused (cross-origin protection)")
			return
		}
		// What that check leaves open on purpose, closed here: it lets
		// through a request that names no origin at all (it takes it for a
		// program, not a browser), and it trusts Sec-Fetch-Site over an
		// Origin that disagrees. The dashboard has no program clients: a
		// change must show it comes from this dashboard's own pages, and
		// an Origin that is not the dashboard's is refused whatever the
		// method and whatever else the request says. With this page's
		// no-referrer policy a browser sends "Origin: null" on a form's
		// POST, with Sec-Fetch-Site: same-origin.
		origin := r.Header.Get("Origin")
		ownOrigin := g.origins[origin]
		unsafe := r.Method != http.MethodGet && r.Method != http.MethodHead && r.Method != http.MethodOptions
		switch {
		case origin != "" && origin != "null" && !ownOrigin:
			g.Refuse(w, r, http.StatusForbidden, "a request from another site is refused")
			return
		case unsafe && !ownOrigin && r.Header.Get("Sec-Fetch-Site") != "same-origin":
			g.Refuse(w, r, http.StatusForbidden, "a change that does not show it comes from this dashboard's own pages (Origin, Sec-Fetch-Site) is refused")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// StartSession logs the browser in as who (the caller checked its
// token or code), then redirects to "/" to drop the code from the
// address bar (the history keeps it: it is spent, logincode.go).
func (g *Guard) StartSession(w http.ResponseWriter, r *http.Request, who string) {
	id := randomHex(32)
	g.mu.Lock()
	now := g.now()
	for k, s := range g.sessions {
		if now.Sub(s.start) > sessionLife {
			delete(g.sessions, k)
		}
	}
	g.sessions[id] = session{start: now, who: who}
	g.mu.Unlock()
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: id, Path: "/", HttpOnly: true,
		Secure: g.tls, SameSite: http.SameSiteStrictMode, MaxAge: int(sessionLife.Seconds())})
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// Session is the request's live session id and who it is, or "".
func (g *Guard) Session(r *http.Request) (id, who string) {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return "", ""
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	s, ok := g.sessions[c.Value]
	if !ok || g.now().Sub(s.start) > sessionLife {
		return "", ""
	}
	return c.Value, s.who
}

// Authed lets through only a logged-in browser.
func (g *Guard) Authed(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if id, _ := g.Session(r); id == "" {
			g.Refuse(w, r, http.StatusUnauthorized, g.loginMsg)
			return
		}
		h(w, r)
	}
}

// CSRFToken is the token a session's forms carry: a MAC of the session
// id with this start's key, so it cannot be guessed from the cookie
// alone and dies with the server.
func (g *Guard) CSRFToken(session string) string {
	m := hmac.New(sha256.New, g.csrfKey)
	m.Write([]byte("airlock-serve-csrf\x00" + session))
	return hex.EncodeToString(m.Sum(nil))
}

// Posted parses a bounded form and checks its CSRF token.
func (g *Guard) Posted(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, maxForm)
		if err := r.ParseForm(); err != nil {
			g.Refuse(w, r, http.StatusBadRequest, "the form could not be read")
			return
		}
		id, _ := g.Session(r)
		want := g.CSRFToken(id)
		if got := r.PostForm.Get("csrf"); got == "" || !hmac.Equal([]byte(got), []byte(want)) {
			g.Refuse(w, r, http.StatusForbidden, "this form lacks this dashboard's CSRF token: reload the page and try again")
			return
		}
		h(w, r)
	}
}

// Refuse answers with a short page that says why.
func (g *Guard) Refuse(w http.ResponseWriter, r *http.Request, status int, why string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	g.tmpl.ExecuteTemplate(w, "error.html", map[string]any{"Status": status, "Text": http.StatusText(status), "Why": why})
}

// The dashboard's own uses of its guard.

func (s *Server) guard(next http.Handler) http.Handler { return s.g.Wrap(next) }

// login turns a printed code, or the start's token posted in the form,
// into a session cookie (logincode.go).
func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	s.g.Login(func(tok string) (string, bool) {
		return "", hmac.Equal([]byte(tok), []byte(s.token))
	})(w, r)
}

// session is the request's live session id, or "".
func (s *Server) session(r *http.Request) string {
	id, _ := s.g.Session(r)
	return id
}

func (s *Server) authed(h http.HandlerFunc) http.HandlerFunc { return s.g.Authed(h) }
func (s *Server) csrfToken(session string) string            { return s.g.CSRFToken(session) }
func (s *Server) posted(h http.HandlerFunc) http.HandlerFunc { return s.g.Posted(h) }
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, status int, why string) {
	s.g.Refuse(w, r, status, why)
}
