package policy

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// netSecretPolicy is a policy whose state directory holds secrets (a
// 64-hex-digit token, a binary key), or none.
func netSecretPolicy(tb testing.TB, withSecrets bool) *Policy {
	tb.Helper()
	state := tb.TempDir()
	if withSecrets {
		os.MkdirAll(filepath.Join(state, "secrets"), 0o700)
		sum := sha256.Sum256([]byte("token"))
		os.WriteFile(filepath.Join(state, "secrets", "serve.token"), []byte(hex.EncodeToString(sum[:])), 0o600)
		key := sha256.Sum256([]byte("key"))
		os.WriteFile(filepath.Join(state, "secrets", "human.key"), key[:], 0o600)
		os.WriteFile(filepath.Join(state, "secrets", "notify.json"), []byte(`{"topic":"`+netTopic+`"}`), 0o600)
	}
	env := map[string]string{"AIRLOCK_HOME": state, "HOME": tb.TempDir()}
	p, err := Load(Options{Getenv: func(k string) string { return env[k] }, Cwd: tb.TempDir()})
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// netTopic is a notify topic as airlock makes one.
const netTopic = "airlock-q3x7mzk2lp5vb4nr6ty2wd7hjc"

func netGet(path, query string, carried ...string) Action {
	n := &NetRequest{Method: "GET", Scheme: "https", Host: "api.example.com", Port: 443, Path: path, Query: query, Carried: carried}
	return Action{Kind: Net, Tool: "GET", URL: "https://api.example.com" + path + "?" + query, Net: n, NoHuman: true}
}

// TestNetSecretForms: each form of a value is found in a request, the
// binary key's encodings too; a request without them is not refused.
func TestNetSecretForms(t *testing.T) {
	p := netSecretPolicy(t, true)
	sum := sha256.Sum256([]byte("token"))
	token := hex.EncodeToString(sum[:])
	key := sha256.Sum256([]byte("key"))
	for _, c := range []struct {
		name string
		a    Action
		want bool
	}{
		{"token in the query", netGet("/x", "t="+token), true},
		{"token's base64 in a header", netGet("/x", "", "X-A: "+base64.RawURLEncoding.EncodeToString([]byte(token))), true},
		{"the key's hex in the path", netGet("/"+hex.EncodeToString(key[:]), ""), true},
		{"the key's base64 in a cookie", netGet("/x", "", "Cookie: k="+base64.StdEncoding.EncodeToString(key[:])), true},
		{"a third of the token", netGet("/x", "a="+token[:22]), true},
		{"less than a third of it", netGet("/x", "a="+token[:11]), false},
		{"an ordinary read", netGet("/repos/o/r/commits/"+strings.Repeat("ab12", 10), "per_page=100", "Accept: application/json"), false},
		{"the topic", netGet("/"+netTopic+"/json", ""), true},
		{"the topic in pieces of four", netGet("/x", "a="+strings.Join(chunk4(netTopic[8:]), "&b=")), true},
		{"airlock's own words", netGet("/repos/airlock-dev/airlock/issues", "labels=airlock,alerts&q=airlock+topic+ntfy"), false},
	} {
		v := p.Decide(c.a)
		got := v.Rule == RuleSecretValue
		if got != c.want {
			t.Errorf("%s: rule %s (%s), want refused %v", c.name, v.Rule, v.Message, c.want)
		}
		if got && (strings.Contains(v.Message, token) || v.Decision != Deny) {
			t.Errorf("%s: %s %s", c.name, v.Decision, v.Message)
		}
	}
}

// BenchmarkNetSecretCheck: the decision of an ordinary GET through the
// egress proxy, with secrets to look for and without, in one run
// (docs/BENCHMARKS.md):
//
//	go test -run '^$' -bench NetSecretCheck -benchtime 20000x ./internal/policy/
func BenchmarkNetSecretCheck(b *testing.B) {
	a := netGet("/repos/octocat/Hello-World/commits/"+strings.Repeat("0123456789abcdef", 2)+"abcdef01", "per_page=100&page=2",
		"Accept: application/vnd.github+json", "User-Agent: GitHub CLI 2.45.0", "Authorization: token github_pat_"+strings.Repeat("AbC9", 20),
		`If-None-Match: W/"`+strings.Repeat("f00d", 16)+`"`)
	for _, with := range []bool{false, true} {
		name := "no-secrets"
		if with {
			name = "secrets"
		}
		b.Run(name, func(b *testing.B) {
			p := netSecretPolicy(b, with)
			p.Decide(a)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if v := p.Decide(a); v.Rule == RuleSecretValue {
					b.Fatal(v.Message)
				}
			}
		})
	}
}

func chunk4(s string) []string {
	var out []string
	for len(s) > 4 {
		out = append(out, s[:4])
		s = s[4:]
	}
	return append(out, s)
}
