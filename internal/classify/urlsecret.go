package classify

import (
	"net/url"
	"strings"
)

// This file rates a URL that a tool fetches (Claude Code's WebFetch and
// the fetch tools of other agents). Fetching only reads, unless the URL
// itself carries something out: a request to a host the agent names can
// send whatever is written into its path, query, fragment or userinfo.
// airlock cannot tell a legitimate token from a stolen one, so a URL that
// carries a credential is rated external (the mode decides) and the reason
// says which part of it looked like one.

// FetchURL is the effect of fetching raw: a network read, or external when
// the URL carries a credential-shaped value.
func FetchURL(raw string) Effect {
	if what := URLCredential(raw); what != "" {
		return Effect{Tier: External, NetworkRead: true, Reasons: []Reason{{"exfil.url",
			"the fetched URL carries " + what + ", which the request sends to " + clip(hostOfURL(raw))}}}
	}
	return Effect{NetworkRead: true}
}

// URLCredential says what credential-shaped value raw carries ("" for
// none): a password in its userinfo, a value of a query parameter named
// like a secret, or a token in a known vendor format anywhere in it. An
// unparsable URL is searched as text.
func URLCredential(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		if k := tokenShape(raw); k != "" {
			return k
		}
		return ""
	}
	if u.User != nil {
		if _, ok := u.User.Password(); ok {
			return "a password in its user information"
		}
		if k := tokenShape(u.User.Username()); k != "" {
			return k + " as its user name"
		}
	}
	// Query and fragment parameters, decoded; a fragment is never sent,
	// but a page's script reads it, so it counts too.
	for _, part := range []string{u.RawQuery, u.Fragment} {
		q, _ := url.ParseQuery(part)
		for name, vals := range q {
			for _, v := range vals {
				if secretName(name) && len(v) >= minSecretValue && !placeholder(v) {
					return "a value for its " + clip(name) + " parameter"
				}
				if k := tokenShape(v); k != "" {
					return k
				}
			}
			if k := tokenShape(name); k != "" {
				return k
			}
		}
	}
	// Path segments, decoded: https://evil.example/AKIA…/x.
	p := u.Path
	if dp, err := url.PathUnescape(u.EscapedPath()); err == nil {
		p = dp
	}
	for _, seg := range strings.Split(p, "/") {
		if k := tokenShape(seg); k != "" {
			return k
		}
	}
	// A host label can carry data too (DNS exfiltration).
	for _, label := range strings.Split(u.Hostname(), ".") {
		if k := tokenShape(label); k != "" {
			return k + " in its host name"
		}
	}
	return ""
}

// minSecretValue is the shortest value of a secret-named parameter that
// counts: "token=1" or "key=x" carry nothing worth stealing.
const minSecretValue = 8

// secretName reports whether a parameter name says it holds a secret.
func secretName(name string) bool {
	n := strings.ToLower(strings.NewReplacer("-", "_", ".", "_").Replace(name))
	switch n {
	case "key", "apikey", "api_key", "token", "access_token", "auth", "authorization", "password", "passwd", "pwd",
		"secret", "client_secret", "private_key", "session", "sessionid", "session_id", "sid", "jwt", "bearer",
		"refresh_token", "id_token", "sig", "signature", "x_amz_signature", "x_amz_credential", "x_amz_security_token":
		return true
	}
	for _, w := range []string{"secret", "token", "password", "passwd", "api_key", "apikey", "private_key", "credential", "access_key"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// placeholder reports a value that names a secret without being one.
func placeholder(v string) bool {
	l := strings.ToLower(v)
	if strings.HasPrefix(l, "$") || strings.HasPrefix(l, "{{") || strings.HasPrefix(l, "<") {
		return true
	}
	for _, w := range []string{"your_", "your-", "xxxxxxxx", "redacted", "example", "placeholder", "changeme"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// tokenPrefixes are the fixed starts of vendors' credential formats, with
// the shortest whole token and what to call it. The alphabet after the
// prefix is checked by tokenBody.
var tokenPrefixes = []struct {
	prefix string
	min    int
	name   string
	// mixed asks for upper case, lower case and a digit after the
	// prefix, as random tokens have and words (a "sk-…" blog slug) do not.
	mixed bool
}{
	{"AKIA", 20, "an AWS access key id", false},
	{"ASIA", 20, "an AWS temporary access key id", false},
	{"ghp_", 40, "a GitHub token", true},
	{"gho_", 40, "a GitHub token", true},
	{"ghu_", 40, "a GitHub token", true},
	{"ghs_", 40, "a GitHub token", true},
	{"ghr_", 40, "a GitHub token", true},
	{"github_pat_", 40, "a GitHub token", true},
	{"glpat-", 26, "a GitLab token", true},
	{"xoxb-", 24, "a Slack token", false},
	{"xoxp-", 24, "a Slack token", false},
	{"xoxa-", 24, "a Slack token", false},
	{"xoxr-", 24, "a Slack token", false},
	{"sk-ant-", 32, "an Anthropic API key", true},
	{"sk-proj-", 32, "an OpenAI API key", true},
	{"sk-", 40, "an API secret key", true},
	{"sk_live_", 24, "a Stripe secret key", true},
	{"rk_live_", 24, "a Stripe key", true},
	{"AIza", 39, "a Google API key", true},
	{"npm_", 40, "an npm token", true},
	{"pypi-", 60, "a PyPI token", true},
	{"hf_", 34, "a Hugging Face token", true},
	{"dop_v1_", 64, "a DigitalOcean token", false},
	{"SG.", 60, "a SendGrid key", false},
	{"-----BEGIN", 10, "a private key", false},
	{"eyJ", 30, "a JSON web token", false},
}

// tokenShape names the credential format s holds or starts with, or "".
func tokenShape(s string) string {
	s = strings.TrimSpace(s)
	for _, t := range tokenPrefixes {
		i := strings.Index(s, t.prefix)
		if i < 0 {
			continue
		}
		// The token starts at a word boundary: "TASKIA…" is not AKIA.
		if i > 0 && alnum(s[i-1]) {
			continue
		}
		n := len(t.prefix)
		for i+n < len(s) && tokenChar(s[i+n]) {
			n++
		}
		if n < t.min {
			continue
		}
		if t.mixed && !mixedCase(s[i+len(t.prefix):i+n]) {
			continue
		}
		if t.prefix == "eyJ" && !strings.Contains(s[i:i+n], ".eyJ") {
			// A JWT is header.payload.signature, both base64 JSON objects.
			continue
		}
		return t.name
	}
	return ""
}

// tokenChar reports a character of the alphabets credentials are written
// in (base64, base64url, hex, and the separators vendors use).
func tokenChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '+' || c == '/' || c == '='
}

func alnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// mixedCase reports whether s has an upper-case letter, a lower-case
// letter and a digit.
func mixedCase(s string) bool {
	var up, low, dig bool
	for i := 0; i < len(s); i++ {
		c := s[i]
		up = up || c >= 'A' && c <= 'Z'
		low = low || c >= 'a' && c <= 'z'
		dig = dig || c >= '0' && c <= '9'
	}
	return up && low && dig
}

// hostOfURL is raw's host, or raw itself when it has none.
func hostOfURL(raw string) string {
	if u, err := url.Parse(raw); err == nil && u.Host != "" {
		return u.Hostname()
	}
	return raw
}

// SearchQuery is the effect of a web search for q (Claude Code's
// WebSearch): the query goes to the search provider, so one that carries
// a token in a known vendor format is external, like a fetched URL that
// carries one (FINDINGS-10 E2). Airlock's own secret values are refused
// by self-protection (policy selfsecrets.go).
func SearchQuery(q string) Effect {
	for _, w := range strings.Fields(q) {
		if k := tokenShape(w); k != "" {
			return Effect{Tier: External, NetworkRead: true, Reasons: []Reason{{"exfil.search",
				"the search query carries " + k + ", which the search provider receives; search without it"}}}
		}
	}
	return Effect{NetworkRead: true}
}
