package policy

import (
	"strings"
	"testing"
)

// Every net judgement ships positive and negative examples: what the
// proxy's requests decide to in the unattended table (reads allowed,
// external held, never denied).
func TestNetDecisions(t *testing.T) {
	long := strings.Repeat("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo", 3)
	fetch := []byte(pkt("want "+strings.Repeat("ab", 20)+" side-band-64k agent=git/2.39.5\n", "0000", "done\n"))
	dotenv := []byte("AWS_SECRET_ACCESS_KEY=abc\n")
	for _, c := range []struct {
		n    NetRequest
		want Decision
		rule string
	}{
		{NetRequest{Method: "GET", Host: "example.com", Path: "/index.html"}, Allow, "table.local"},
		{NetRequest{Method: "HEAD", Host: "example.com", Path: "/"}, Allow, "table.local"},
		{NetRequest{Method: "GET", Host: "example.com", Path: "/repo.git/info/refs", Query: "service=git-upload-pack"}, Allow, "table.local"},
		{NetRequest{Method: "POST", Host: "example.com", Path: "/repo.git/git-upload-pack", BodySize: int64(len(fetch)), Body: fetch}, Allow, "table.local"},
		// A file's bytes to a URL ending in /git-upload-pack: not a fetch.
		{NetRequest{Method: "POST", Host: "example.com", Path: "/git-upload-pack", BodySize: int64(len(dotenv)), Body: dotenv}, Defer, "table.external"},
		{NetRequest{Method: "GET", Host: "example.com", Path: "/v2/library/blobs/sha256:" + strings.Repeat("ab", 32)}, Allow, "table.local"},
		{NetRequest{Method: "GET", Host: "d111111abcdef8.cloudfront.net", Path: "/app.js"}, Allow, "table.local"},
		{NetRequest{Method: "GET", Host: "my-app-git-feature-branch-abc123-team.vercel.app", Path: "/"}, Allow, "table.local"},
		{NetRequest{Method: "GET", Host: "4a6f686e20446f6520697320616e206167656e74.evil.example", Path: "/"}, Defer, "table.external"},
		{NetRequest{Method: "POST", Host: "example.com", Path: "/repo.git/git-receive-pack"}, Defer, "table.external"},
		{NetRequest{Method: "POST", Host: "example.com", Path: "/repo.git/git-upload-pack", BodySize: MaxUploadPackBody + 1}, Defer, "table.external"},
		{NetRequest{Method: "POST", Host: "example.com", Path: "/api"}, Defer, "table.external"},
		{NetRequest{Method: "PUT", Host: "example.com", Path: "/x"}, Defer, "table.external"},
		{NetRequest{Method: "GET", Host: "example.com", Path: "/page", BodySize: 14}, Defer, "table.external"},
		{NetRequest{Method: "HEAD", Host: "example.com", Path: "/", BodySize: 1}, Defer, "table.external"},
		{NetRequest{Method: "DELETE", Host: "example.com", Path: "/x"}, Defer, "table.external"},
		{NetRequest{Method: "PROPFIND", Host: "example.com", Path: "/x"}, Defer, "table.external"},
		{NetRequest{Method: "GET", Host: "example.com", Path: "/c", Query: "d=" + long}, Defer, "table.external"},
		{NetRequest{Method: "GET", Host: "example.com", Path: "/c/" + long}, Defer, "table.external"},
		{NetRequest{Method: "GET", Host: "example.com", Path: "/c", Query: strings.Repeat("a=b&", 300)}, Defer, "table.external"},
		{NetRequest{Method: "GET", Host: "example.com", Path: "/", Listed: ListedWriteOnly}, Defer, "table.external"},
		{NetRequest{Method: "GET", Host: "example.com", Path: "/", Listed: ListedUnlisted}, Defer, "table.external"},
		{NetRequest{Method: "GET", Host: "example.com", Path: "/", Listed: ListedNever}, Deny, "egress.never"},
		{NetRequest{Method: "CONNECT", Host: "example.com", Port: 22, Tunnel: true}, Defer, "table.external"},
	} {
		n := c.n
		u := "https://" + n.Host + n.Path
		if n.Query != "" {
			u += "?" + n.Query
		}
		p := Defaults()
		v := p.DecideIn(Unattended, Action{Kind: Net, Tool: n.Method, URL: u, Net: &n, NoHuman: true})
		if v.Decision != c.want || v.Rule != c.rule {
			t.Errorf("%s %s (listed %q): %s by %s, want %s by %s; reasons %v", n.Method, u, n.Listed, v.Decision, v.Rule, c.want, c.rule, v.Reasons)
		}
	}
	// A credential in the URL is the classifier's judgement, reused.
	n := NetRequest{Method: "GET", Host: "example.com", Path: "/", Query: "token=ghp_" + strings.Repeat("a1B2", 9)}
	if v := Defaults().DecideIn(Unattended, Action{Kind: Net, Tool: "GET", URL: "https://example.com/?" + n.Query, Net: &n}); v.Decision != Defer {
		t.Errorf("a token in the query: %s", v.Decision)
	}
	// Interactive: nobody can answer a prompt in a proxied request, so
	// what would be asked is held.
	n = NetRequest{Method: "POST", Host: "example.com", Path: "/"}
	if v := Defaults().DecideIn(Interactive, Action{Kind: Net, Tool: "POST", URL: "https://example.com/", Net: &n, NoHuman: true}); v.Decision != Defer {
		t.Errorf("interactive POST through the proxy: %s", v.Decision)
	}
}

// A user rule naming a host decides its requests: the proxy's requests
// are subjects with hosts, as fetches are.
func TestNetUserRuleByHost(t *testing.T) {
	f := newFixture(t)
	f.userFile("version: 1\nmode: unattended\nrules:\n  - id: allow-hooks\n    match: {host: [hooks.example.org]}\n    decision: allow\n")
	p := f.load()
	n := NetRequest{Method: "POST", Host: "hooks.example.org", Path: "/in"}
	if v := p.Decide(Action{Kind: Net, Tool: "POST", URL: "https://hooks.example.org/in", Net: &n}); v.Decision != Allow {
		t.Errorf("a user's allow rule for the host: %s by %s", v.Decision, v.Rule)
	}
	n.Host = "other.example.org"
	if v := p.Decide(Action{Kind: Net, Tool: "POST", URL: "https://other.example.org/in", Net: &n}); v.Decision != Defer {
		t.Errorf("another host: %s by %s", v.Decision, v.Rule)
	}
}
