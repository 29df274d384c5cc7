package egress

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/policy"
)

// opaque is n characters of base64 as random as an encrypted file's,
// the same on every run.
func opaque(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		sum := sha256.Sum256([]byte{byte(i), byte(i >> 8)})
		b.WriteString(base64.RawURLEncoding.EncodeToString(sum[:]))
	}
	return b.String()[:n]
}

// hexOf is n hex digits, the same on every run.
func hexOf(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		sum := sha256.Sum256([]byte{'h', byte(i)})
		b.WriteString(hex.EncodeToString(sum[:]))
	}
	return b.String()[:n]
}

// TestWholeRequestBudget checks FINDINGS-5 L19: data split over the
// parts of a GET (path segments, query parameters, a header, a cookie,
// the user agent, the URL's user information) is held as one long run
// is, against policy.MaxOpaqueBytes; ordinary reads (a registry's
// tarball, a hashed package path, git's smart-HTTP discovery, a GitHub
// API GET with its usual headers) still pass.
func TestWholeRequestBudget(t *testing.T) {
	e := newEnv(t, "")
	s := newSink(t, e, false)
	c := e.client(nil)
	d := opaque(200)
	type req struct {
		name, path string
		header     map[string]string
		user       string // user:password in the URL
		held       bool
	}
	for _, r := range []req{
		{name: "four 30-character path segments", path: "/" + d[:30] + "/" + d[30:60] + "/" + d[60:90] + "/" + d[90:120], held: true},
		{name: "five 20-character query parameters", path: "/q?a=" + d[:20] + "&b=" + d[20:40] + "&c=" + d[40:60] + "&d=" + d[60:80] + "&e=" + d[80:100], held: true},
		{name: "one query value of 64", path: "/q?d=" + d[:64], held: true},
		{name: "twelve 10-character segments", path: "/" + strings.Join(chunks(d[:120], 10), "/"), held: true},
		{name: "a header", path: "/h", header: map[string]string{"X-Data": d}, held: true},
		{name: "a cookie", path: "/c", header: map[string]string{"Cookie": "s=" + d}, held: true},
		{name: "the user agent", path: "/a", header: map[string]string{"User-Agent": d}, held: true},
		{name: "a Basic credential too long for one", path: "/auth", header: map[string]string{"Authorization": "Basic " + base64.StdEncoding.EncodeToString([]byte("u:"+d))}, held: true},
		{name: "the URL's password", path: "/auth", user: "u:" + d, held: true},
		{name: "half in a header, half in the path", path: "/x/" + d[:30], header: map[string]string{"X-Trace": d[30:60]}, held: true},
		// negative: ordinary reads
		{name: "an npm tarball", path: "/lodash/-/lodash-4.17.21.tgz", header: map[string]string{
			"User-Agent": "npm/10.2.4 node/v20.11.0 linux x64 workspaces/false", "Authorization": "Bearer npm_" + opaque(36),
			"Accept": "application/octet-stream", "Npm-Command": "install"}},
		{name: "a hashed package path", path: "/packages/8b/3c/" + hexOf(60) + "/requests-2.31.0-py3-none-any.whl", header: map[string]string{
			"User-Agent": `pip/24.0 {"ci":null,"cpu":"x86_64","distro":{"id":"bookworm","libc":{"lib":"glibc","version":"2.36"},"name":"Debian GNU/Linux","version":"12"},"implementation":{"name":"CPython","version":"3.11.2"},"installer":{"name":"pip","version":"24.0"},"openssl_version":"OpenSSL 3.0.11 19 Sep 2023","python":"3.11.2","setuptools_version":"66.1.1","system":{"name":"Linux","release":"6.1.0-18-amd64"}}`}},
		{name: "git's smart-HTTP discovery", path: "/octo/app.git/info/refs?service=git-upload-pack", header: map[string]string{
			"User-Agent": "git/2.43.0", "Git-Protocol": "version=2", "Pragma": "no-cache",
			"Authorization": "Basic " + base64.StdEncoding.EncodeToString([]byte("x-access-token:ghs_"+opaque(36)))}},
		{name: "a GitHub API GET", path: "/repos/octocat/Hello-World/commits/" + hexOf(40), header: map[string]string{
			"Accept": "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28", "User-Agent": "GitHub CLI 2.45.0",
			"Authorization": "token github_pat_" + opaque(82), "If-None-Match": `W/"` + hexOf(64) + `"`}},
		{name: "a GitHub API search", path: "/search/issues?q=repo%3Aoctocat%2FHello-World+is%3Aopen+label%3Abug&per_page=100&page=2"},
		{name: "a Go module zip", path: "/golang.org/x/tools/@v/v0.21.1-0.20240508182429-e35e4ccd0d2d.zip", header: map[string]string{"User-Agent": "Go-http-client/1.1"}},
		{name: "a short value in a header", path: "/h", header: map[string]string{"X-Request-Id": "3f29" + hexOf(28)}},
	} {
		t.Run(r.name, func(t *testing.T) {
			before := s.count()
			u := s.URL + r.path
			if r.user != "" {
				u = strings.Replace(u, "http://", "http://"+r.user+"@", 1)
			}
			req, err := http.NewRequest("GET", u, nil)
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
			case r.held && (reached || resp.StatusCode != http.StatusForbidden):
				t.Errorf("%s reached the sink (%s); want it held (budget %d, policy.MaxOpaqueBytes)", r.name, resp.Status, policy.MaxOpaqueBytes)
			case !r.held && (!reached || resp.StatusCode != http.StatusOK):
				t.Errorf("%s did not reach the sink (%s): an ordinary read was held", r.name, resp.Status)
			}
		})
	}
}

func chunks(s string, n int) []string {
	var out []string
	for len(s) > n {
		out = append(out, s[:n])
		s = s[n:]
	}
	return append(out, s)
}
