package egress

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSecretValueInRequest: a request through the proxy that carries
// airlock's own secret value (here the dashboard's token, 64 hex digits)
// in any part and any common encoding is refused, not sent and not
// queued, even where the shape budget (netweight.go) lets it through: as
// it is in a query, upper case, percent-encoded, cut into pieces of five
// characters in the path or the query, in a bearer or Basic credential,
// a cookie, the URL's user information, split between a header and the
// query, in pieces in reversed order over several headers, in the body.
// Ordinary reads still pass with the secrets present, and so does a
// request holding a few characters of the value.
func TestSecretValueInRequest(t *testing.T) {
	e := newEnv(t, "")
	token := hexOf(64)
	if err := os.MkdirAll(filepath.Join(e.state, "secrets"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(e.state, "secrets", "serve.token"), []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := newSink(t, e, false)
	c := e.client(nil)
	pct := func(v string) string {
		var b strings.Builder
		for i := 0; i < len(v); i++ {
			b.WriteString("%" + hex.EncodeToString([]byte{v[i]}))
		}
		return b.String()
	}
	b64 := base64.StdEncoding.EncodeToString([]byte(token))
	sum := sha256.Sum256([]byte("another value"))
	other := hex.EncodeToString(sum[:])
	rev := chunks(token, 8)
	revHeaders := map[string]string{}
	for i, p := range rev {
		revHeaders["X-Part-"+string(rune('z'-i))] = p
	}
	type req struct {
		name, method, path, body string
		header                   map[string]string
		user                     string
		refused                  bool
	}
	for _, r := range []req{
		{name: "as itself in a query", path: "/q?t=" + token, refused: true},
		{name: "upper case", path: "/q?t=" + strings.ToUpper(token), refused: true},
		{name: "percent-encoded", path: "/q?t=" + pct(token), refused: true},
		{name: "percent-encoded twice", path: "/q?t=" + strings.ReplaceAll(pct(token), "%", "%25"), refused: true},
		{name: "pieces of five in the path", path: "/" + strings.Join(chunks(token, 5), "/"), refused: true},
		{name: "pieces of five in query parameters", path: "/q?" + func() string {
			var ps []string
			for i, p := range chunks(token, 5) {
				ps = append(ps, string(rune('a'+i))+"="+p)
			}
			return strings.Join(ps, "&")
		}(), refused: true},
		{name: "dotted pieces in the host's path", path: "/x." + strings.Join(chunks(token, 4), "."), refused: true},
		{name: "a bearer credential", path: "/api", header: map[string]string{"Authorization": "Bearer " + token}, refused: true},
		{name: "a Basic credential", path: "/api", header: map[string]string{"Authorization": "Basic " + base64.StdEncoding.EncodeToString([]byte("u:"+token))}, refused: true},
		{name: "base64 at another alignment", path: "/q?d=" + url.QueryEscape(base64.StdEncoding.EncodeToString([]byte("xy" + token))[:40]) + "&e=" + url.QueryEscape(base64.StdEncoding.EncodeToString([]byte("xy" + token))[40:]), refused: true},
		{name: "base64 halves in two headers", path: "/h", header: map[string]string{"X-A": b64[:44], "X-B": b64[44:]}, refused: true},
		{name: "a cookie", path: "/c", header: map[string]string{"Cookie": "s=" + token}, refused: true},
		{name: "the URL's password", path: "/auth", user: "u:" + token, refused: true},
		{name: "half in a header, half in the query", path: "/q?a=" + token[:32], header: map[string]string{"X-Trace": token[32:]}, refused: true},
		{name: "pieces in reversed order over headers", path: "/h", header: revHeaders, refused: true},
		{name: "hex of it", path: "/q?a=" + hex.EncodeToString([]byte(token))[:64] + "&b=" + hex.EncodeToString([]byte(token))[64:], refused: true},
		{name: "in a POST body", method: "POST", path: "/p", body: `{"note":"` + token + `"}`, refused: true},
		{name: "in a POST body, base64", method: "POST", path: "/p", body: "d=" + b64, refused: true},
		// negative: ordinary reads with the secrets present
		{name: "a GitHub API GET", path: "/repos/octocat/Hello-World/commits/" + other[:40], header: map[string]string{
			"Accept": "application/vnd.github+json", "User-Agent": "GitHub CLI 2.45.0",
			"Authorization": "token github_pat_" + opaque(82), "If-None-Match": `W/"` + other + `"`}},
		{name: "another 64-hex value", path: "/sha256/" + strings.Repeat("0123456789abcdef", 4)},
		{name: "a few characters of it", path: "/q?v=" + token[:8]},
		{name: "a search", path: "/search/issues?q=repo%3Aoctocat%2FHello-World+is%3Aopen&per_page=100"},
		{name: "a Go module zip", path: "/golang.org/x/tools/@v/v0.21.1-0.20240508182429-e35e4ccd0d2d.zip"},
	} {
		t.Run(r.name, func(t *testing.T) {
			before := s.count()
			u := s.URL + r.path
			if r.user != "" {
				u = strings.Replace(u, "http://", "http://"+r.user+"@", 1)
			}
			method := r.method
			if method == "" {
				method = "GET"
			}
			var body *strings.Reader
			if r.body != "" {
				body = strings.NewReader(r.body)
			}
			var req *http.Request
			var err error
			if body != nil {
				req, err = http.NewRequest(method, u, body)
			} else {
				req, err = http.NewRequest(method, u, nil)
			}
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range r.header {
				req.Header.Set(k, v)
			}
			resp, err := c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			reached := s.count() > before
			switch {
			case r.refused && (reached || resp.StatusCode != http.StatusForbidden || resp.Header.Get("X-Airlock-Queue") != ""):
				t.Errorf("%s: reached %v, %s, queue %q; want refused and not queued", r.name, reached, resp.Status, resp.Header.Get("X-Airlock-Queue"))
			case !r.refused && (!reached || resp.StatusCode != http.StatusOK):
				t.Errorf("%s did not reach the sink (%s): an ordinary read was refused", r.name, resp.Status)
			}
		})
	}
}

// TestApprovalBindsHeaders: an approval lets through the request the
// human saw, headers included: the retry that adds a header, or changes
// one, is held again, and the identical retry passes once. The held
// item shows the headers, a credential's value by its length only.
func TestApprovalBindsHeaders(t *testing.T) {
	e := newEnv(t, "")
	s := newSink(t, e, false)
	c := e.client(nil)
	send := func(h map[string]string) *http.Response {
		t.Helper()
		req, err := http.NewRequest("POST", s.URL+"/issues", strings.NewReader("one"))
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range h {
			req.Header.Set(k, v)
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	base := map[string]string{"Authorization": "Bearer " + opaque(40), "X-Kind": "bug"}
	resp := send(base)
	id := resp.Header.Get("X-Airlock-Queue")
	if resp.StatusCode != http.StatusForbidden || id == "" {
		t.Fatalf("the POST was not held: %s", resp.Status)
	}
	it := e.item(id)
	detail := string(it.Entry.Detail)
	if !strings.Contains(detail, "X-Kind: bug") || !strings.Contains(detail, "Authorization: (47 bytes, not shown)") || strings.Contains(detail, opaque(40)) {
		t.Errorf("the held item's headers: %s", detail)
	}
	e.approve(id)
	for _, h := range []map[string]string{
		{"Authorization": base["Authorization"], "X-Kind": "bug", "X-Data": opaque(30)},
		{"Authorization": base["Authorization"], "X-Kind": "bug" + opaque(20)},
		{"Authorization": "Bearer " + opaque(41), "X-Kind": "bug"},
		{"X-Kind": "bug"},
	} {
		if resp := send(h); resp.StatusCode != http.StatusForbidden || resp.Header.Get("X-Airlock-Queue") == "" {
			t.Errorf("a retry with other headers %v was not held: %s", h, resp.Status)
		}
	}
	if s.count() != 0 {
		t.Fatalf("a changed retry reached the sink: %v", s.hits)
	}
	if resp := send(base); resp.StatusCode != http.StatusOK {
		t.Fatalf("the approved request: %s", resp.Status)
	}
	if resp := send(base); resp.StatusCode != http.StatusForbidden {
		t.Fatalf("the approval was used twice: %s", resp.Status)
	}
	if s.count() != 1 {
		t.Fatalf("sink hits %v, want the approved request once", s.hits)
	}
}
