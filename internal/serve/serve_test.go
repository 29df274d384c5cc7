package serve

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/classify"
	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/pipeline"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// fixture is a dashboard over a fresh journal, served by httptest on
// 127.0.0.1, and a client whose requests look like the browser's.
type fixture struct {
	t      *testing.T
	state  string
	j      *journal.Journal
	s      *Server
	ts     *httptest.Server
	client *http.Client
	origin string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	state := t.TempDir()
	j, err := journal.Open(journal.DirIn(state))
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, state: state, j: j}
	f.ts = httptest.NewUnstartedServer(nil)
	addr := f.ts.Listener.Addr().String()
	home := filepath.Join(state, "home")
	env := map[string]string{"HOME": home, "AIRLOCK_MODE": "unattended"}
	f.s, err = New(Config{Journal: j, Addr: addr, Getenv: func(k string) string { return env[k] }, Poll: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	f.ts.Config.Handler = f.s.Handler()
	f.ts.Start()
	t.Cleanup(f.ts.Close)
	jar, _ := cookiejar.New(nil)
	f.client = &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	f.origin = "http://" + addr
	return f
}

// hold records a deferred shell command, as a hook does.
func (f *fixture) hold(cmd string) string {
	f.t.Helper()
	rec, err := f.j.Record(&vocab.Event{
		Time: time.Now(), Agent: "claude-code", Name: "PreToolUse", Session: "sess-1", Cwd: "/tmp/repo", Tool: "Bash",
		Action:  &policy.Action{Kind: policy.Shell, Tool: "Bash", Command: cmd, Cwd: "/tmp/repo"},
		Verdict: (&policy.Verdict{Decision: policy.Defer, Rule: "table.external", Effect: classify.Effect{Tier: classify.External}}).Record(),
	})
	if err != nil || rec.QueueID == "" {
		f.t.Fatalf("hold %q: %v %+v", cmd, err, rec)
	}
	return rec.QueueID
}

// retry records the agent's verbatim retry and returns its decision.
func (f *fixture) retry(cmd string) policy.Decision {
	f.t.Helper()
	v := &policy.Verdict{Decision: policy.Defer, Rule: "table.external"}
	if _, err := pipeline.Record(f.j, &vocab.Event{
		Time: time.Now(), Agent: "claude-code", Name: "PreToolUse", Session: "sess-1", Cwd: "/tmp/repo", Tool: "Bash",
		Action: &policy.Action{Kind: policy.Shell, Tool: "Bash", Command: cmd, Cwd: "/tmp/repo"},
	}, v); err != nil {
		f.t.Fatal(err)
	}
	return v.Decision
}

func (f *fixture) do(method, path string, form url.Values, hdr map[string]string) (*http.Response, string) {
	f.t.Helper()
	return f.doWith(f.client, method, path, form, hdr)
}

// doWith is do with another browser (client).
func (f *fixture) doWith(client *http.Client, method, path string, form url.Values, hdr map[string]string) (*http.Response, string) {
	f.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, f.ts.URL+path, body)
	if err != nil {
		f.t.Fatal(err)
	}
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(b)
}

func (f *fixture) login() {
	f.t.Helper()
	resp, _ := f.do("GET", f.codePath(), nil, nil)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" {
		f.t.Fatalf("login: %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
}

// codePath is the path of a fresh login link (LoginURL without its
// scheme and host).
func (f *fixture) codePath() string {
	u, err := url.Parse(f.s.LoginURL())
	if err != nil {
		f.t.Fatal(err)
	}
	return u.RequestURI()
}

var csrfRE = regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`)

// post submits a form as the browser would: with this session's CSRF
// token (the one its pages carry) and the dashboard's Origin.
func (f *fixture) post(path string, form url.Values) (*http.Response, string) {
	f.t.Helper()
	u, _ := url.Parse(f.ts.URL)
	session := ""
	for _, c := range f.client.Jar.Cookies(u) {
		if c.Name == sessionCookie {
			session = c.Value
		}
	}
	form.Set("csrf", f.s.csrfToken(session))
	return f.do("POST", path, form, map[string]string{"Origin": f.origin})
}

func TestLoginAndHeaders(t *testing.T) {
	f := newFixture(t)
	resp, _ := f.do("GET", "/", nil, nil)
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("queue before login: %d, want 401", resp.StatusCode)
	}
	// The login link holds a code, never the token (FINDINGS-10 L1).
	link := f.codePath()
	if strings.Contains(link, f.s.Token()) || !strings.HasPrefix(link, "/login?code=") {
		t.Fatalf("the login link %q holds the token, or no code", link)
	}
	for _, bad := range []string{"/login?code=wrong", "/login?token=wrong", "/login?token=" + f.s.Token()} {
		if resp, _ := f.do("GET", bad, nil, nil); resp.StatusCode != http.StatusForbidden {
			t.Errorf("%s: %d, want 403 (a token in a URL is not taken, even the right one)", bad, resp.StatusCode)
		}
	}
	// A code or token of another start does not log in either.
	other, err := New(Config{Journal: f.j, Addr: "127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	if other.Token() == f.s.Token() {
		t.Fatal("two starts share a token")
	}
	u, _ := url.Parse(other.LoginURL())
	if resp, _ := f.do("GET", u.RequestURI(), nil, nil); resp.StatusCode != http.StatusForbidden {
		t.Errorf("another start's code: %d, want 403", resp.StatusCode)
	}
	if resp, _ := f.do("POST", "/login", url.Values{"token": {other.Token()}}, map[string]string{"Origin": f.origin}); resp.StatusCode != http.StatusForbidden {
		t.Errorf("another start's token posted: %d, want 403", resp.StatusCode)
	}
	resp, _ = f.do("GET", link, nil, nil)
	var c *http.Cookie
	for _, k := range resp.Cookies() {
		if k.Name == sessionCookie {
			c = k
		}
	}
	if c == nil || !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || strings.Contains(c.Value, f.s.Token()) {
		t.Fatalf("session cookie: %+v", c)
	}
	if loc := resp.Header.Get("Location"); loc != "/" {
		t.Errorf("login redirects to %q, want / (the code leaves the address bar)", loc)
	}
	// The code is spent: the same link, from the history or the
	// scrollback, logs nothing in and says why.
	fresh := &http.Client{CheckRedirect: f.client.CheckRedirect}
	fresh.Jar, _ = cookiejar.New(nil)
	if again, body := f.doWith(fresh, "GET", link, nil, nil); again.StatusCode != http.StatusForbidden || !strings.Contains(body, "used already") {
		t.Errorf("the link used a second time: %d\n%s", again.StatusCode, body)
	}
	// The token posted in the form logs in (a later login).
	if pr, _ := f.doWith(fresh, "POST", "/login", url.Values{"token": {f.s.Token()}}, map[string]string{"Origin": f.origin}); pr.StatusCode != http.StatusSeeOther {
		t.Errorf("the token posted in the form: %d, want 303", pr.StatusCode)
	}
	if lp, body := f.doWith(&http.Client{}, "GET", "/login", nil, nil); lp.StatusCode != http.StatusOK || !strings.Contains(body, `name="token"`) {
		t.Errorf("the login form: %d\n%s", lp.StatusCode, body)
	}
	resp, body := f.do("GET", "/", nil, nil)
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, "nothing awaits review") {
		t.Fatalf("queue after login: %d\n%s", resp.StatusCode, body)
	}
	for k, want := range map[string]string{
		"X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff",
	} {
		if got := resp.Header.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") || !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") {
		t.Errorf("CSP = %q", csp)
	}
	if strings.Contains(body, "<script>") {
		t.Errorf("the page carries an inline script, which the CSP forbids")
	}
}

func TestHostAndOrigin(t *testing.T) {
	f := newFixture(t)
	f.login()
	id := f.hold("git push origin main")
	_, port, _ := strings.Cut(strings.TrimPrefix(f.origin, "http://"), ":")
	// A DNS name rebound to 127.0.0.1 reaches the server with its own
	// Host: refused, whatever the cookie.
	for _, host := range []string{"evil.example:" + port, "attacker.test", "127.0.0.1.nip.io:" + port} {
		if resp, _ := f.do("GET", "/", nil, map[string]string{"Host": host}); resp.StatusCode != http.StatusForbidden {
			t.Errorf("Host %s: %d, want 403", host, resp.StatusCode)
		}
	}
	// The loopback names of the same port pass the Host check (then the
	// login: a cookie of 127.0.0.1 is not sent to localhost).
	if resp, _ := f.do("GET", f.codePath(), nil, map[string]string{"Host": "localhost:" + port}); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("Host localhost:%s: %d, want 303", port, resp.StatusCode)
	}
	// A POST from another site, or without an Origin, is refused even
	// with a valid CSRF token.
	_, page := f.do("GET", "/item/"+id, nil, nil)
	tok := csrfRE.FindStringSubmatch(page)[1]
	form := url.Values{"csrf": {tok}, "for": {"1h"}}
	for _, origin := range []string{"http://evil.example", "null", ""} {
		hdr := map[string]string{}
		if origin != "" {
			hdr["Origin"] = origin
		}
		if resp, _ := f.do("POST", "/item/"+id+"/approve", form, hdr); resp.StatusCode != http.StatusForbidden {
			t.Errorf("POST with Origin %q: %d, want 403", origin, resp.StatusCode)
		}
	}
	// A page on another port of localhost is same-site, not same-origin.
	for _, hdr := range []map[string]string{
		{"Origin": "null", "Sec-Fetch-Site": "same-site"},
		{"Origin": "null", "Sec-Fetch-Site": "cross-site"},
		{"Sec-Fetch-Site": "same-site"},
		{"Origin": "http://localhost:1", "Sec-Fetch-Site": "same-origin"},
	} {
		if resp, _ := f.do("POST", "/item/"+id+"/approve", form, hdr); resp.StatusCode != http.StatusForbidden {
			t.Errorf("POST with %v: %d, want 403", hdr, resp.StatusCode)
		}
	}
	if it, _ := f.j.Item(id, time.Now()); it.Status != journal.Pending {
		t.Errorf("after refused POSTs the item is %s", it.Status)
	}
	// A form of the dashboard's own page, under its no-referrer policy,
	// says "Origin: null" and Sec-Fetch-Site: same-origin.
	if resp, body := f.do("POST", "/item/"+id+"/approve", form, map[string]string{"Origin": "null", "Sec-Fetch-Site": "same-origin"}); resp.StatusCode != http.StatusSeeOther {
		t.Errorf("same-origin form POST: %d\n%s", resp.StatusCode, body)
	}
}

// TestCrossOriginProtection: the standard library's cross-origin check
// (http.CrossOriginProtection) is what refuses a POST its browser marks
// cross-site or same-site, even one that carries this dashboard's Origin
// and a valid CSRF token; a same-origin POST passes it.
func TestCrossOriginProtection(t *testing.T) {
	f := newFixture(t)
	f.login()
	id := f.hold("git push origin main")
	_, page := f.do("GET", "/item/"+id, nil, nil)
	form := url.Values{"csrf": {csrfRE.FindStringSubmatch(page)[1]}, "for": {"1h"}}
	for _, site := range []string{"cross-site", "same-site"} {
		resp, body := f.do("POST", "/item/"+id+"/approve", form, map[string]string{"Origin": f.origin, "Sec-Fetch-Site": site})
		if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "cross-origin protection") {
			t.Errorf("POST with Sec-Fetch-Site %s: %d, want 403 from the cross-origin check\n%s", site, resp.StatusCode, body)
		}
	}
	// Without Sec-Fetch-Site the check compares the Origin with the Host.
	resp, body := f.do("POST", "/item/"+id+"/approve", form, map[string]string{"Origin": "http://evil.example", "Host": strings.TrimPrefix(f.origin, "http://")})
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "cross-origin protection") {
		t.Errorf("POST from another origin: %d, want 403 from the cross-origin check\n%s", resp.StatusCode, body)
	}
	if it, _ := f.j.Item(id, time.Now()); it.Status != journal.Pending {
		t.Fatalf("after refused POSTs the item is %s", it.Status)
	}
	resp, body = f.do("POST", "/item/"+id+"/approve", form, map[string]string{"Origin": f.origin, "Sec-Fetch-Site": "same-origin"})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("same-origin POST: %d\n%s", resp.StatusCode, body)
	}
	if it, _ := f.j.Item(id, time.Now()); it.Status == journal.Pending {
		t.Errorf("after the same-origin approval the item is still pending")
	}
}

func TestCSRF(t *testing.T) {
	f := newFixture(t)
	f.login()
	id := f.hold("git push origin main")
	for _, tok := range []string{"", "00", strings.Repeat("a", 64)} {
		form := url.Values{"for": {"1h"}}
		if tok != "" {
			form.Set("csrf", tok)
		}
		resp, _ := f.do("POST", "/item/"+id+"/approve", form, map[string]string{"Origin": f.origin})
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("POST with csrf %q: %d, want 403", tok, resp.StatusCode)
		}
	}
	// Another session's token does not pass for this one.
	if resp, _ := f.do("POST", "/item/"+id+"/approve", url.Values{"for": {"1h"}, "csrf": {f.s.csrfToken("other")}}, map[string]string{"Origin": f.origin}); resp.StatusCode != http.StatusForbidden {
		t.Errorf("POST with another session's token: %d, want 403", resp.StatusCode)
	}
	if it, _ := f.j.Item(id, time.Now()); it.Status != journal.Pending {
		t.Errorf("after refused POSTs the item is %s", it.Status)
	}
}

func TestApproveOnceAndReject(t *testing.T) {
	f := newFixture(t)
	f.login()
	push := f.hold("git push origin main")
	post := f.hold("curl -X POST https://api.example.com/v1 -d x")
	resp, _ := f.post("/item/"+push+"/approve", url.Values{"for": {"15m"}, "note": {"looks fine"}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("approve: %d", resp.StatusCode)
	}
	it, _ := f.j.Item(push, time.Now())
	if it.Status != journal.Approved || it.Settled.MAC == "" || it.Settled.Note != "looks fine" {
		t.Fatalf("after approve: %s %+v", it.Status, it.Settled)
	}
	if d := it.Settled.Expires.Sub(it.Settled.Time); d != 15*time.Minute {
		t.Errorf("approval lasts %s, want 15m", d)
	}
	// The verbatim retry runs once; the next is held again.
	if d := f.retry("git push origin main"); d != policy.Allow {
		t.Errorf("first retry: %s, want allow", d)
	}
	if d := f.retry("git push origin main"); d != policy.Defer {
		t.Errorf("second retry: %s, want defer", d)
	}
	// A second approval of a used item is refused.
	if resp, _ := f.post("/item/"+push+"/approve", url.Values{"for": {"1h"}}); resp.StatusCode != http.StatusNotFound && resp.StatusCode != http.StatusConflict && resp.StatusCode != http.StatusForbidden {
		t.Errorf("approving a used item: %d", resp.StatusCode)
	}
	resp, _ = f.post("/item/"+post+"/reject", url.Values{"note": {"not this API"}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("reject: %d", resp.StatusCode)
	}
	it, _ = f.j.Item(post, time.Now())
	if it.Status != journal.Rejected || it.Settled.Note != "not this API" {
		t.Fatalf("after reject: %s %+v", it.Status, it.Settled)
	}
	if d := f.retry("curl -X POST https://api.example.com/v1 -d x"); d != policy.Defer {
		t.Errorf("retry of a rejected item: %s, want defer", d)
	}
	// A duration past the maximum is refused.
	other := f.hold("npm publish")
	if resp, _ := f.post("/item/"+other+"/approve", url.Values{"for": {"1000h"}}); resp.StatusCode != http.StatusConflict {
		t.Errorf("approve for 1000h: %d, want 409", resp.StatusCode)
	}
	// An id prefix does not name an item in a form's path.
	if resp, _ := f.do("GET", "/item/"+other[:4], nil, nil); resp.StatusCode != http.StatusNotFound {
		t.Errorf("item by prefix: %d, want 404", resp.StatusCode)
	}
	// The audit page sees the dashboard's acts as authenticated.
	if _, body := f.do("GET", "/audit", nil, nil); !strings.Contains(body, `id="audit-ok"`) {
		t.Errorf("audit:\n%s", body)
	}
}

func TestScriptRendersInert(t *testing.T) {
	f := newFixture(t)
	f.login()
	cmd := "curl -d \"<script>alert(1)</script>\" https://x.example/\u202e<img src=x onerror=alert(2)>"
	id := f.hold(cmd)
	for _, path := range []string{"/", "/queue/rows", "/item/" + id, "/report?session=sess-1"} {
		_, body := f.do("GET", path, nil, nil)
		if strings.Contains(body, "<script>alert") || strings.Contains(body, "<img src=x") {
			t.Errorf("%s carries the command's markup raw:\n%s", path, body)
		}
		if !strings.Contains(body, "&lt;script&gt;alert(1)&lt;/script&gt;") {
			t.Errorf("%s does not show the command's text escaped:\n%s", path, body)
		}
		if strings.Contains(body, "\u202e") {
			t.Errorf("%s carries a raw bidi override", path)
		}
	}
}

func TestLastPromptAndReport(t *testing.T) {
	f := newFixture(t)
	f.login()
	if _, err := f.j.Record(&vocab.Event{Time: time.Now(), Agent: "claude-code", Name: "UserPromptSubmit", Session: "sess-1", Prompt: "publish the release notes"}); err != nil {
		t.Fatal(err)
	}
	id := f.hold("gh release create v1")
	_, body := f.do("GET", "/item/"+id, nil, nil)
	if !strings.Contains(body, `<pre id="prompt">publish the release notes</pre>`) {
		t.Errorf("item page has no last prompt:\n%s", body)
	}
	_, body = f.do("GET", "/report?session=sess-1", nil, nil)
	if !strings.Contains(body, "gh release create v1") {
		t.Errorf("session report:\n%s", body)
	}
	_, body = f.do("GET", "/report", nil, nil)
	if !strings.Contains(body, "/report?session=sess-1") {
		t.Errorf("report index:\n%s", body)
	}
}

func TestMakeItARule(t *testing.T) {
	f := newFixture(t)
	f.login()
	file := filepath.Join(f.state, "home", ".config", "airlock", "policy.yaml")
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	orig := policy.Starter
	if err := os.WriteFile(file, []byte(orig), 0o644); err != nil {
		t.Fatal(err)
	}
	id := f.hold("git push origin feature/x")
	_, body := f.do("GET", "/item/"+id+"/rule", nil, nil)
	if !strings.Contains(body, "git push origin") || !strings.Contains(body, `id="rule-yaml"`) {
		t.Fatalf("rule page:\n%s", body)
	}
	if got, _ := os.ReadFile(file); string(got) != orig {
		t.Fatal("showing the rule changed the file")
	}
	// A confirmation of another plan writes nothing.
	if resp, _ := f.post("/item/"+id+"/rule", url.Values{"plan": {"0000"}}); resp.StatusCode != http.StatusConflict {
		t.Errorf("wrong plan: %d, want 409", resp.StatusCode)
	}
	plan := regexp.MustCompile(`name="plan" value="([0-9a-f]+)"`).FindStringSubmatch(body)[1]
	resp, _ := f.post("/item/"+id+"/rule", url.Values{"plan": {plan}})
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("write rule: %d", resp.StatusCode)
	}
	got, _ := os.ReadFile(file)
	if !strings.HasPrefix(string(got), orig) || !strings.Contains(string(got), `"git push origin"`) {
		t.Fatalf("policy file after the rule:\n%s", got)
	}
	p, err := policy.Load(policy.Options{Getenv: func(k string) string {
		return map[string]string{"HOME": filepath.Join(f.state, "home")}[k]
	}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range p.RunExamples() {
		if !r.OK() {
			t.Errorf("example of %s fails", r.Rule.ID)
		}
	}
	// A destructive or opaque command is not made a rule.
	for _, cmd := range []string{"git push --force origin main", "$(which git) push"} {
		id := f.hold(cmd)
		_, body := f.do("GET", "/item/"+id+"/rule", nil, nil)
		if !strings.Contains(body, `id="refused"`) {
			t.Errorf("rule page for %q offers a rule:\n%s", cmd, body)
		}
	}
}

func TestEventsSayWhenAHookDefers(t *testing.T) {
	f := newFixture(t)
	f.login()
	// The deadline only keeps a broken stream from hanging the run.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", f.ts.URL+"/events", nil)
	resp, err := f.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	f.hold("git push origin main")
	buf := make([]byte, 4096)
	var got strings.Builder
	for !strings.Contains(got.String(), "event: queue") {
		n, err := resp.Body.Read(buf)
		if err != nil {
			t.Fatalf("stream ended before the event: %v (%q)", err, got.String())
		}
		got.Write(buf[:n])
	}
}

func TestIsLoopback(t *testing.T) {
	for host, want := range map[string]bool{"127.0.0.1": true, "::1": true, "localhost": true, "127.1.2.3": true,
		"0.0.0.0": false, "": false, "192.168.1.2": false, "localhost.evil.example": false, "::": false} {
		if got := IsLoopback(host); got != want {
			t.Errorf("IsLoopback(%q) = %v, want %v", host, got, want)
		}
	}
}

// TestLoginCodeExpires: a printed code not used within CodeLife logs
// nothing in, and says so (FINDINGS-10 L1).
func TestLoginCodeExpires(t *testing.T) {
	f := newFixture(t)
	now := time.Now()
	s, err := New(Config{Journal: f.j, Addr: "127.0.0.1:7777", Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(s.LoginURL())
	now = now.Add(CodeLife + time.Second)
	req := httptest.NewRequest("GET", u.RequestURI(), nil)
	req.Host = "127.0.0.1:7777"
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)
	if rec.Code != http.StatusForbidden || !strings.Contains(rec.Body.String(), "expired") {
		t.Errorf("a code past its life: %d\n%s", rec.Code, rec.Body.String())
	}
}
