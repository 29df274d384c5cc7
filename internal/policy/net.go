package policy

import (
	"strconv"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
)

// This file decides what a request through airlock's egress proxy does
// (a Net action): the proxy sees the request itself, whatever program
// made it, so the judgement is on the request's structure, not on text
// that spells it.

// The limits past which a read looks like data on its way out: a GET can
// carry data in its URL as well as a POST in its body.
const (
	// MaxOpaqueRun is the longest run of URL-safe, base64 or hex
	// characters (no dot) one path segment or query value may hold and
	// still be read as a name: a SHA-256 in hex is 64, a UUID 36.
	MaxOpaqueRun = 79
	// MaxHostRun is the longest run of letters and digits one label of
	// the host name may hold: a name resolved is a message sent (to the
	// name's DNS servers), and 32 hex digits is 16 bytes of data.
	MaxHostRun = 31
	// MaxReadQuery is the longest query string a read may carry.
	MaxReadQuery = 1024
	// MaxReadPath is the longest path a read may carry.
	MaxReadPath = 2048
	// MaxUploadPackBody bounds the body of a git-upload-pack POST read as
	// a fetch: its body lists the objects the client wants and has.
	MaxUploadPackBody = 1 << 20
	// MaxOpaqueBytes is the budget of data-shaped bytes one read may carry
	// in all its parts together: path segments, query names and values,
	// headers (cookies and the user agent included) and the URL's user
	// information (FINDINGS-5 L19: 120 characters split into four path
	// segments, or in a header, passed where one long run was held). A
	// git commit id (40 hex digits) weighs 20, a SHA-256 in hex 32, a
	// package registry's hashed path about 30.
	MaxOpaqueBytes = 48
	// MinOpaqueToken is the shortest piece (a run of letters and digits)
	// that is weighed; shorter ones are version numbers and words.
	MinOpaqueToken = 6
	// MaxPlainToken is the longest piece of one kind of character (all
	// lower case, all digits) still read as a word or a number.
	MaxPlainToken = 24
	// MaxCredential is what a credential header (Authorization) or the
	// URL's user information may hold before the rest weighs against
	// MaxOpaqueBytes: one access token (a GitHub token is 40 to 93
	// characters, an npm token 40, git's Basic credentials about 72).
	MaxCredential = 128
)

// The values of NetRequest.Listed: what the egress section of the policy
// says of the request's host.
const (
	ListedNever     = "never"
	ListedWriteOnly = "write-only"
	ListedUnlisted  = "unlisted"
)

// netRefused is the refusal of a request to a host the policy's egress
// section never allows: denied outright, not queued, since no human
// approval is meant to open it.
func netRefused(a *Action) (rule, msg string, refused bool) {
	if a.Kind != Net || a.Net == nil || a.Net.Listed != ListedNever {
		return "", "", false
	}
	return "egress.never", "the policy's egress section never allows " + clipHost(a.Net.Host) +
		": every request to it is refused and not queued; go on with work that does not need it", true
}

// netSubject is what rules see of a request through the proxy: its host
// (so a rule's host: can name it) and what it does.
func netSubject(a *Action) subject {
	s := subject{tool: a.Tool}
	if a.Net == nil {
		s.effect = netEffect("net.unknown", "a network request whose details airlock does not have")
		return s
	}
	if a.Net.Host != "" {
		s.hosts = []string{strings.ToLower(a.Net.Host)}
	}
	s.effect = NetEffect(a.Net, a.URL)
	return s
}

// NetEffect is what one request through the egress proxy does. A GET or
// HEAD reads, unless its host is one the policy names as write-only or
// read_hosts leaves out, or its URL carries data out (a credential, as
// classify judges URLs, or a long opaque path or query); every other
// method writes outward, and so does a tunnel the proxy cannot see into.
// A POST to git-upload-pack is a read by structure (below).
func NetEffect(n *NetRequest, rawURL string) classify.Effect {
	where := clipHost(n.Host)
	if n.Port != 0 {
		where += ":" + strconv.Itoa(n.Port)
	}
	if n.Tunnel {
		return netEffect("net.tunnel", "a tunnel to "+where+" that airlock cannot see into (not TLS it inspects, or inspection is off for it): what it carries cannot be known")
	}
	method := strings.ToUpper(n.Method)
	read := method == "GET" || method == "HEAD"
	if !read && uploadPack(n) {
		// git fetch and clone over smart HTTP: the client POSTs the list
		// of objects it wants and has to .../git-upload-pack and the
		// server answers with a pack. The body names objects, it does not
		// carry the client's files (GitFetchBody reads its structure: a
		// file's bytes sent to a URL ending in /git-upload-pack are not a
		// fetch, FINDINGS-7 C3); a push goes to git-receive-pack, which
		// stays a write. The list could still smuggle data as made-up
		// object ids, so the ids and the body are bounded.
		read = true
	}
	if !read {
		return netEffect("net.write", "an HTTP "+clipMethod(method)+" to "+where+" sends data out")
	}
	if n.BodySize > 0 && !uploadPack(n) {
		// A GET or HEAD with a body (a length or chunks): servers may
		// read it, so it carries data out like a POST.
		return netEffect("net.body", "an HTTP "+clipMethod(method)+" to "+where+" carries a body of "+strconv.FormatInt(n.BodySize, 10)+" bytes: data on its way out")
	}
	switch n.Listed {
	case ListedWriteOnly:
		return netEffect("egress.write-only", "the policy's egress section names "+clipHost(n.Host)+" as a host that only receives data (write_only_hosts), so even a read of it is held")
	case ListedUnlisted:
		return netEffect("egress.unlisted", "the policy's egress section lists the hosts reads may go to (read_hosts), and "+clipHost(n.Host)+" is not one of them")
	}
	if e := classify.FetchURL(rawURL); e.Tier >= classify.External {
		return e
	}
	if why := exfilShape(n); why != "" {
		return netEffect("net.exfil-shape", "the request to "+where+" carries "+why+", the shape of data on its way out rather than a name")
	}
	return classify.Effect{NetworkRead: true, Reasons: []classify.Reason{{Rule: "net.read", Message: "an HTTP " + method + " of " + where + " reads"}}}
}

// uploadPack reports whether the request is git's fetch negotiation.
func uploadPack(n *NetRequest) bool {
	if strings.ToUpper(n.Method) != "POST" || !strings.HasSuffix(n.Path, "/git-upload-pack") || n.Query != "" || n.BodySize > MaxUploadPackBody {
		return false
	}
	ok, _ := GitFetchBody(n.Body)
	return ok && int64(len(n.Body)) == n.BodySize
}

// exfilShape says what data-shaped part the request's URL has ("" for
// none).
func exfilShape(n *NetRequest) string {
	if len(n.Query) > MaxReadQuery {
		return "a query of " + strconv.Itoa(len(n.Query)) + " bytes (more than " + strconv.Itoa(MaxReadQuery) + ")"
	}
	if len(n.Path) > MaxReadPath {
		return "a path of " + strconv.Itoa(len(n.Path)) + " bytes (more than " + strconv.Itoa(MaxReadPath) + ")"
	}
	for _, label := range strings.Split(n.Host, ".") {
		if r := alnumRun(label); r > MaxHostRun {
			return "a host name label with a run of " + strconv.Itoa(r) + " letters and digits"
		}
	}
	for _, seg := range strings.Split(n.Path, "/") {
		if r := opaqueRun(seg); r > MaxOpaqueRun {
			return "a path segment with a run of " + strconv.Itoa(r) + " opaque characters"
		}
	}
	for _, part := range strings.FieldsFunc(n.Query, func(r rune) bool { return r == '&' || r == ';' }) {
		_, val, _ := strings.Cut(part, "=")
		if r := opaqueRun(val); r > MaxOpaqueRun {
			return "a query value with a run of " + strconv.Itoa(r) + " opaque characters"
		}
	}
	if w, where := opaqueWeight(n); w > MaxOpaqueBytes {
		return "about " + strconv.Itoa(w) + " bytes of data-shaped text across " + where + " (more than " + strconv.Itoa(MaxOpaqueBytes) + ", policy.MaxOpaqueBytes)"
	}
	return ""
}

// opaqueRun is the longest run of characters that encode data (letters,
// digits, base64's + / = and URL-safe - _, and percent escapes) in s.
func opaqueRun(s string) int {
	best, cur := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '+' || c == '/' || c == '=' || c == '-' || c == '_' || c == '%' {
			cur++
			if cur > best {
				best = cur
			}
			continue
		}
		cur = 0
	}
	return best
}

// alnumRun is the longest run of letters and digits in s.
func alnumRun(s string) int {
	best, cur := 0, 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			cur++
			best = max(best, cur)
			continue
		}
		cur = 0
	}
	return best
}

func netEffect(rule, msg string) classify.Effect {
	return classify.Effect{Tier: classify.External, Reasons: []classify.Reason{{Rule: rule, Message: msg}}}
}

// clipHost bounds a host name for a message (the agent chose it).
func clipHost(h string) string {
	if len(h) > 100 {
		return h[:100] + "…"
	}
	return h
}

// clipMethod bounds a method for a message.
func clipMethod(m string) string {
	if len(m) > 20 {
		return m[:20] + "…"
	}
	return m
}
