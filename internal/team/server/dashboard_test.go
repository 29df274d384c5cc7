package server

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/team/wire"
)

type browser struct {
	t      *testing.T
	tm     *team
	client *http.Client
}

func newBrowser(t *testing.T, tm *team) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, tm: tm, client: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

func (b *browser) do(method, path string, form url.Values, hdr map[string]string) (int, string, http.Header) {
	b.t.Helper()
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequest(method, b.tm.ts.URL+path, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := b.client.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out), resp.Header
}

var csrfRE = regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`)

func TestDashboard(t *testing.T) {
	tm := newTeam(t, Options{})
	a := tm.machines["laptop-a"]
	evil := heldItem("e1")
	evil.Command = "git push origin main\x1b[2K\r# harmless\u202e"
	other := heldItem("o1")
	other.Repo = "acme/api"
	tm.call(t, "POST", "/push", a, wire.Push{Items: []wire.HeldItem{evil, other}}, nil)
	tm.call(t, "POST", "/push", tm.machines["laptop-b"], wire.Push{Items: []wire.HeldItem{heldItem("b1")}}, nil)

	br := newBrowser(t, tm)
	if code, _, _ := br.do("GET", "/", nil, nil); code != 401 {
		t.Fatalf("queue before login: %d", code)
	}
	if code, _, _ := br.do("GET", "/login?token=wrong", nil, nil); code != 403 {
		t.Fatalf("a wrong token: %d", code)
	}
	if code, _, _ := br.do("GET", "/login?token="+a, nil, nil); code != 403 {
		t.Fatalf("a machine token logs in: %d", code)
	}
	// The admin URL holds a single-use code, never the admin token; the
	// token in a URL is not taken (FINDINGS-10 L1).
	adminURL, _ := url.Parse(tm.srv.AdminURL())
	if strings.Contains(adminURL.String(), tm.srv.AdminToken()) || adminURL.Path != "/login" || !adminURL.Query().Has("code") {
		t.Fatalf("admin URL %q", adminURL)
	}
	if code, _, _ := br.do("GET", "/login?token="+tm.srv.AdminToken(), nil, nil); code != 403 {
		t.Fatalf("the admin token in a URL: %d", code)
	}
	code, _, h := br.do("GET", adminURL.RequestURI(), nil, nil)
	if code != http.StatusSeeOther || h.Get("Location") != "/" {
		t.Fatalf("login: %d %q", code, h.Get("Location"))
	}
	if code, body, _ := newBrowser(t, tm).do("GET", adminURL.RequestURI(), nil, nil); code != 403 || !strings.Contains(body, "used already") {
		t.Fatalf("the admin link used twice: %d\n%s", code, body)
	}
	code, page, h := br.do("GET", "/", nil, nil)
	if code != 200 || !strings.Contains(page, "laptop-a:e1") || !strings.Contains(page, "laptop-b:b1") || h.Get("Content-Security-Policy") == "" {
		t.Fatalf("queue: %d\n%s", code, page)
	}
	if strings.Contains(page, "\x1b") || strings.Contains(page, "\u202e") {
		t.Fatal("the queue page holds the agent's control characters raw")
	}
	// Filters: machine, repository.
	if _, page, _ := br.do("GET", "/?machine=laptop-b", nil, nil); strings.Contains(page, "laptop-a:") || !strings.Contains(page, "laptop-b:b1") {
		t.Fatalf("machine filter:\n%s", page)
	}
	if _, page, _ := br.do("GET", "/queue/rows?repo=acme/api", nil, nil); !strings.Contains(page, "laptop-a:o1") || strings.Contains(page, "laptop-a:e1") {
		t.Fatalf("repo filter:\n%s", page)
	}
	if code, _, _ := br.do("GET", "/?min_age=soon", nil, nil); code != 400 {
		t.Fatalf("a bad filter: %d", code)
	}
	// Host: a DNS-rebound name is refused.
	req, _ := http.NewRequest("GET", tm.ts.URL+"/", nil)
	req.Host = "evil.example:80"
	if resp, err := br.client.Do(req); err != nil || resp.StatusCode != 403 {
		t.Fatalf("another Host: %v %v", resp.StatusCode, err)
	}
	// The item page renders the command, and its form carries a CSRF token.
	code, page, _ = br.do("GET", "/item/laptop-a:e1", nil, nil)
	if code != 200 || !strings.Contains(page, `\x1b[2K`) || strings.Contains(page, "\x1b") || !strings.Contains(page, `\u202e`) {
		t.Fatalf("item page: %d\n%s", code, page)
	}
	m := csrfRE.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no csrf token:\n%s", page)
	}
	origin := map[string]string{"Origin": tm.ts.URL}
	if code, _, _ := br.do("POST", "/item/laptop-a:e1/approve", url.Values{"for": {"1h"}}, origin); code != 403 {
		t.Fatalf("approve without csrf: %d", code)
	}
	if code, _, _ := br.do("POST", "/item/laptop-a:e1/approve", url.Values{"for": {"1h"}, "csrf": {m[1]}}, map[string]string{"Origin": "https://evil.example"}); code != 403 {
		t.Fatalf("approve from another origin: %d", code)
	}
	code, _, h = br.do("POST", "/item/laptop-a:e1/approve", url.Values{"for": {"1h"}, "note": {"fine"}, "csrf": {m[1]}}, origin)
	if code != http.StatusSeeOther || !strings.Contains(h.Get("Location"), "done=approved") {
		t.Fatalf("approve: %d %q", code, h.Get("Location"))
	}
	var ds wire.Decisions
	tm.call(t, "GET", "/decisions", a, nil, &ds)
	if len(ds.Decisions) != 1 || ds.Decisions[0].Reviewer != "admin" || ds.Decisions[0].TTLSeconds != 3600 || ds.Decisions[0].Note != "fine" {
		t.Fatalf("decision: %+v", ds)
	}
	if err := wire.Verify(tm.srv.PublicKey(), ds.Decisions[0], "laptop-a"); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := br.do("POST", "/item/laptop-a:e1/reject", url.Values{"csrf": {m[1]}}, origin); code != 409 {
		t.Fatalf("reject after approve: %d", code)
	}

	// A reviewer logs in with its own token; its decisions name it, and a
	// revoke ends its session.
	rb := newBrowser(t, tm)
	if code, _, _ := rb.do("GET", "/login?token="+tm.review["bob"], nil, nil); code != 403 {
		t.Fatalf("a reviewer token in a URL: %d", code)
	}
	if code, _, _ := rb.do("POST", "/login", url.Values{"token": {tm.review["bob"]}}, origin); code != http.StatusSeeOther {
		t.Fatalf("reviewer login: %d", code)
	}
	_, page, _ = rb.do("GET", "/item/laptop-b:b1", nil, nil)
	m = csrfRE.FindStringSubmatch(page)
	if m == nil || !strings.Contains(page, "Reject as bob") {
		t.Fatalf("reviewer's item page:\n%s", page)
	}
	if code, _, _ := rb.do("POST", "/item/laptop-b:b1/reject", url.Values{"csrf": {m[1]}}, origin); code != http.StatusSeeOther {
		t.Fatalf("reviewer reject: %d", code)
	}
	tm.call(t, "GET", "/decisions", tm.machines["laptop-b"], nil, &ds)
	if len(ds.Decisions) != 1 || ds.Decisions[0].Reviewer != "bob" || ds.Decisions[0].Verdict != wire.Reject {
		t.Fatalf("bob's decision: %+v", ds)
	}
	if _, err := Revoke(context.Background(), tm.db, "bob"); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := rb.do("GET", "/", nil, nil); code != 401 {
		t.Fatalf("a revoked reviewer's session: %d", code)
	}
}
