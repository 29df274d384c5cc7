package serve

import (
	"crypto/subtle"
	"net/http"
	"time"
)

// A dashboard's login (FINDINGS-10 L1). The URL a dashboard prints and
// the human opens stays in the browser's history file and in the
// terminal's scrollback, both of which an agent of the same user can
// read. So that URL holds a login code, not the long-lived token: the
// code logs one browser in once, within CodeLife of being made, and is
// spent by that first use; a second use gets a page that says so. The
// long-lived token is never in a URL: a later login pastes it into the
// form at /login, which posts it (a POST's body is in neither the
// history nor the address bar).

// CodeLife is how long a printed login code stays good.
const CodeLife = 10 * time.Minute

// maxCodes bounds the codes a guard remembers, spent or not.
const maxCodes = 1024

// loginCode is one code: who it logs in, when it was made, and whether
// it was used.
type loginCode struct {
	who   string
	made  time.Time
	spent bool
}

// IssueCode makes a single-use login code for who (the name a dashboard
// records on that browser's acts).
func (g *Guard) IssueCode(who string) string {
	code := randomHex(24)
	g.mu.Lock()
	defer g.mu.Unlock()
	now := g.now()
	if g.codes == nil {
		g.codes = map[string]*loginCode{}
	}
	for k, c := range g.codes {
		if now.Sub(c.made) > 2*CodeLife || len(g.codes) >= maxCodes {
			delete(g.codes, k)
		}
	}
	g.codes[code] = &loginCode{who: who, made: now}
	return code
}

// spend uses code once: who it logs in, or why not.
func (g *Guard) spend(code string) (who, why string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	var c *loginCode
	for k, v := range g.codes {
		if subtle.ConstantTimeCompare([]byte(k), []byte(code)) == 1 {
			c = v
		}
	}
	switch {
	case c == nil:
		return "", "this login link is not one this dashboard printed since its last start: use the first line it printed, or log in below with the token"
	case c.spent:
		return "", "this login link was used already: each one logs one browser in once. If that was not you, stop the dashboard and start it again (every session and link ends with it); to log in again, paste the token below"
	case g.now().Sub(c.made) > CodeLife:
		c.spent = true
		return "", "this login link has expired (it is good for " + CodeLife.String() + " after the dashboard printed it): log in below with the token"
	}
	c.spent = true
	return c.who, ""
}

// Login is a dashboard's /login: GET with ?code= spends a printed code;
// GET without one shows the form; POST checks the pasted token with
// check, which says who it logs in. A token in the URL (?token=, the
// older links) is refused and not looked at: it would stay in the
// history.
func (g *Guard) Login(check func(token string) (who string, ok bool)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		switch {
		case r.Method == http.MethodPost:
			r.Body = http.MaxBytesReader(w, r.Body, 4<<10)
			if err := r.ParseForm(); err != nil {
				g.loginPage(w, http.StatusBadRequest, "the form could not be read")
				return
			}
			tok := r.PostForm.Get("token")
			if who, ok := check(tok); tok != "" && ok {
				g.StartSession(w, r, who)
				return
			}
			g.loginPage(w, http.StatusForbidden, "that token does not log in here")
		case q.Has("token"):
			g.loginPage(w, http.StatusForbidden, "a token in a link is not taken: the link would stay in the browser's history. Paste the token below instead (it is sent in the form's body)")
		case q.Has("code"):
			who, why := g.spend(q.Get("code"))
			if why != "" {
				g.loginPage(w, http.StatusForbidden, why)
				return
			}
			g.StartSession(w, r, who)
		default:
			g.loginPage(w, http.StatusOK, g.loginMsg)
		}
	}
}

// loginPage is the error page with the login form under the reason.
func (g *Guard) loginPage(w http.ResponseWriter, status int, why string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	g.tmpl.ExecuteTemplate(w, "error.html", map[string]any{"Status": status, "Text": http.StatusText(status), "Why": why, "Login": true})
}
