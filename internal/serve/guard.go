package serve

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"strings"
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

// guard sets the security headers on every answer and refuses a request
// whose Host is not the server's, or that comes from another Origin.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Cache-Control", "no-store")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		if s.cfg.TLS {
			h.Set("Strict-Transport-Security", "max-age=31536000")
		}
		if !s.hosts[strings.ToLower(r.Host)] {
			s.refuse(w, r, http.StatusForbidden, "this dashboard answers only to the address it listens on (the Host of this request is not it)")
			return
		}
		// Cross-origin changes: the standard library's check
		// (http.CrossOriginProtection) reads Sec-Fetch-Site, which no page
		// script can set, or else compares the Origin with the Host
		// checked above, and refuses an unsafe method from another origin.
		if err := s.crossOrigin.Check(r); err != nil {
			s.refuse(w, r, http.StatusForbidden, "a change from another site is refused (cross-origin protection)")
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
		ownOrigin := s.origins[origin]
		unsafe := r.Method != http.MethodGet && r.Method != http.MethodHead && r.Method != http.MethodOptions
		switch {
		case origin != "" && origin != "null" && !ownOrigin:
			s.refuse(w, r, http.StatusForbidden, "a request from another site is refused")
			return
		case unsafe && !ownOrigin && r.Header.Get("Sec-Fetch-Site") != "same-origin":
			s.refuse(w, r, http.StatusForbidden, "a change that does not show it comes from this dashboard's own pages (Origin, Sec-Fetch-Site) is refused")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// login turns the start's token into a session cookie, then redirects to
// drop the token from the address bar and the history.
func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	tok := r.URL.Query().Get("token")
	if tok == "" || subtle.ConstantTimeCompare([]byte(tok), []byte(s.token)) != 1 {
		s.refuse(w, r, http.StatusForbidden, "this login link is not the one airlock serve printed at its last start: use the first line it printed")
		return
	}
	id := randomHex(32)
	s.mu.Lock()
	now := s.cfg.Now()
	for k, t := range s.sessions {
		if now.Sub(t) > sessionLife {
			delete(s.sessions, k)
		}
	}
	s.sessions[id] = now
	s.mu.Unlock()
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: id, Path: "/", HttpOnly: true,
		Secure: s.cfg.TLS, SameSite: http.SameSiteStrictMode, MaxAge: int(sessionLife.Seconds())})
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// session is the request's live session id, or "".
func (s *Server) session(r *http.Request) string {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.sessions[c.Value]
	if !ok || s.cfg.Now().Sub(t) > sessionLife {
		return ""
	}
	return c.Value
}

// authed lets through only a logged-in browser.
func (s *Server) authed(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.session(r) == "" {
			s.refuse(w, r, http.StatusUnauthorized, "log in with the URL airlock serve printed on its first line (it is also in the state directory's secrets/serve.token)")
			return
		}
		h(w, r)
	}
}

// csrfToken is the token a session's forms carry: a MAC of the session
// id with this start's key, so it cannot be guessed from the cookie
// alone and dies with the server.
func (s *Server) csrfToken(session string) string {
	m := hmac.New(sha256.New, s.csrfKey)
	m.Write([]byte("airlock-serve-csrf\x00" + session))
	return hex.EncodeToString(m.Sum(nil))
}

// posted parses a bounded form and checks its CSRF token.
func (s *Server) posted(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, maxForm)
		if err := r.ParseForm(); err != nil {
			s.refuse(w, r, http.StatusBadRequest, "the form could not be read")
			return
		}
		want := s.csrfToken(s.session(r))
		if got := r.PostForm.Get("csrf"); got == "" || !hmac.Equal([]byte(got), []byte(want)) {
			s.refuse(w, r, http.StatusForbidden, "this form lacks this dashboard's CSRF token: reload the page and try again")
			return
		}
		h(w, r)
	}
}

// refuse answers with a short page that says why.
func (s *Server) refuse(w http.ResponseWriter, r *http.Request, status int, why string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	s.tmpl.ExecuteTemplate(w, "error.html", map[string]any{"Status": status, "Text": http.StatusText(status), "Why": why})
}
