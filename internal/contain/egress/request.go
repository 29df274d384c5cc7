package egress

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/airlock-dev/airlock/internal/pipeline"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// maxOrigin bounds the origin kept with a request; maxShownURL the URL
// written back to the agent.
const (
	maxOrigin   = 1000
	maxShownURL = 2000
)

// request decides one HTTP request to t and forwards it, or answers it
// with the hold or the refusal.
func (p *Proxy) request(w http.ResponseWriter, r *http.Request, t target, origin string) {
	body, err := io.ReadAll(io.LimitReader(r.Body, p.o.MaxBody+1))
	if err != nil {
		writeRaw(w, http.StatusBadRequest, "Bad Request", "airlock's egress proxy could not read the request body: "+err.Error()+"\n", "")
		return
	}
	if int64(len(body)) > p.o.MaxBody {
		writeRaw(w, http.StatusRequestEntityTooLarge, "Refused by airlock: body over "+strconv.FormatInt(p.o.MaxBody, 10)+" bytes",
			"airlock refused this request: its body is larger than the egress proxy's limit of "+strconv.FormatInt(p.o.MaxBody, 10)+
				" bytes (it reads a body whole to decide on it). It was not sent and not queued. Go on with local work; a human can send it from outside the sandbox.\n", "")
		return
	}
	sum := sha256.Sum256(body)
	n := &vocab.NetRequest{
		Method: r.Method, Scheme: t.scheme, Host: t.host, Port: t.port,
		Path: r.URL.EscapedPath(), Query: r.URL.RawQuery,
		BodySize: int64(len(body)), BodyDigest: "sha256:" + hex.EncodeToString(sum[:]),
		Listed: p.o.Policy.Listed(t.host), Origin: origin, Carried: carried(r), Body: body,
	}
	if n.Path == "" {
		n.Path = "/"
	}
	url := t.scheme + "://" + t.authority() + n.Path
	if n.Query != "" || r.URL.ForceQuery {
		url += "?" + n.Query
	}
	out := p.decide(n, url)
	if out.Verdict.Decision.Holds() {
		if out.Verdict.Decision == policy.Defer && r.Method == http.MethodPost && strings.HasSuffix(n.Path, "/git-receive-pack") &&
			heldPush(w, r, body, out.Receipt.QueueID, heldWhy(out.Verdict)) {
			return
		}
		p.refuse(w, out, r.Method+" "+url)
		return
	}
	p.forward(w, r, t, url, body)
}

// framingHeaders say how the request travels (the connection, the
// body's length and coding), not what it says: the proxy rewrites or
// drops them, so they carry nothing to the server. Host is the target,
// decided as such.
var framingHeaders = map[string]bool{
	"Host": true, "Content-Length": true, "Transfer-Encoding": true, "Connection": true, "Proxy-Connection": true,
	"Keep-Alive": true, "Te": true, "Trailer": true, "Upgrade": true, "Expect": true, "Proxy-Authorization": true,
}

// carried lists the parts of a request besides its path and query that
// reach the server and can carry data out (vocab.NetRequest.Carried):
// every other header, cookies and the user agent included, and the
// URL's user information.
func carried(r *http.Request) []string {
	var out []string
	for k, vs := range r.Header {
		if framingHeaders[k] {
			continue
		}
		for _, v := range vs {
			out = append(out, k+": "+v)
		}
	}
	if r.URL != nil && r.URL.User != nil {
		out = append(out, "userinfo: "+r.URL.User.String())
	}
	return out
}

// decideTunnel decides a tunnel the proxy will not see into.
func (p *Proxy) decideTunnel(t target, origin string) pipeline.Outcome {
	n := &vocab.NetRequest{Method: http.MethodConnect, Scheme: "tcp", Host: t.host, Port: t.port,
		Tunnel: true, Listed: p.o.Policy.Listed(t.host), Origin: origin, BodySize: -1}
	return p.decide(n, "tcp://"+t.hostport())
}

// netDetail is what the journal keeps of a request, for the reviewer and
// for the approval: ArgsDigest binds the body and the headers
// (journal.sameAction).
type netDetail struct {
	Method     string `json:"method"`
	URL        string `json:"url"`
	Scheme     string `json:"scheme"`
	Host       string `json:"host"`
	Port       int    `json:"port"`
	Path       string `json:"path,omitempty"`
	Query      string `json:"query,omitempty"`
	BodySize   int64  `json:"body_size"`
	BodyDigest string `json:"body_sha256,omitempty"`
	ArgsDigest string `json:"args_digest,omitempty"`
	// Headers are the headers that reach the server (Carried), for the
	// reviewer: a credential's value is not shown (shownHeader).
	// HeadersDigest binds them all, values included.
	Headers       []string `json:"headers,omitempty"`
	HeadersDigest string   `json:"headers_sha256,omitempty"`
	Tunnel        bool     `json:"tunnel,omitempty"`
	Listed        string   `json:"listed,omitempty"`
	// Origin is the command that made the request, as the runner names
	// it: agent-controlled text.
	Origin string `json:"origin,omitempty"`
}

// decide runs the request's Net action through the pipeline. Nobody can
// answer a prompt in a proxied request, so what would be asked is held
// for review (NoHuman). The identity an approval binds is the method,
// the URL, the body's digest and every header that reaches the server
// (Carried: all but the connection's and the body's framing, which the
// proxy rewrites, and Proxy-Authorization, which it drops), in the
// directory the proxy serves: a retry that adds or changes a header is
// another request, held again, so an approval cannot carry data the
// human did not see.
func (p *Proxy) decide(n *vocab.NetRequest, url string) pipeline.Outcome {
	hd := headersDigest(n.Carried)
	d := netDetail{Method: n.Method, URL: url, Scheme: n.Scheme, Host: n.Host, Port: n.Port, Path: n.Path, Query: n.Query,
		BodySize: n.BodySize, BodyDigest: n.BodyDigest, ArgsDigest: argsDigest(n.BodyDigest, hd), Headers: shownHeaders(n.Carried),
		HeadersDigest: hd, Tunnel: n.Tunnel, Listed: n.Listed, Origin: n.Origin}
	detail, err1 := json.Marshal(d)
	raw, err2 := json.Marshal(map[string]any{"tool_input": map[string]any{"method": n.Method, "url": url, "body_sha256": n.BodyDigest, "headers_sha256": hd}})
	if err1 != nil || err2 != nil {
		// Plain fields cannot fail to marshal; a request whose facts
		// cannot be kept does not leave.
		return pipeline.Outcome{Verdict: policy.Verdict{Decision: policy.Deny, Rule: "egress.detail", Message: "airlock could not record this request's facts"}}
	}
	a := vocab.Action{Kind: vocab.Net, Tool: n.Method, URL: url, Cwd: p.o.Cwd, Net: n, NoHuman: true}
	return p.o.Decide(&pipeline.Request{
		Agent: Agent, Event: vocab.EventPreToolUse, Session: p.o.Session, Cwd: p.o.Cwd, Tool: n.Method,
		Action: a, Raw: raw, Detail: detail, NoHuman: true,
	})
}

// headersDigest is the SHA-256 of a request's carried headers, sorted:
// the same headers in another order are the same request.
func headersDigest(carried []string) string {
	c := append([]string(nil), carried...)
	sort.Strings(c)
	h := sha256.New()
	for _, l := range c {
		h.Write([]byte(l))
		h.Write([]byte{'\n'})
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// argsDigest is what an approval binds besides the method and the URL:
// the body and the headers.
func argsDigest(body, headers string) string {
	sum := sha256.Sum256([]byte(body + "\n" + headers))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// maxShownHeader bounds a header's value shown to the reviewer.
const maxShownHeader = 200

// shownHeaders are the carried headers as the reviewer sees them, sorted:
// a credential's value (Authorization, a cookie, the URL's user
// information, a header named for a token, key, secret, password or
// session) is replaced by its length, so that the journal does not keep
// it; the digest binds it all the same.
func shownHeaders(carried []string) []string {
	out := make([]string, 0, len(carried))
	for _, l := range carried {
		name, val, _ := strings.Cut(l, ":")
		low := strings.ToLower(name)
		secret := false
		for _, w := range []string{"authorization", "cookie", "userinfo", "token", "key", "secret", "password", "session", "auth"} {
			secret = secret || strings.Contains(low, w)
		}
		if secret {
			out = append(out, name+": ("+strconv.Itoa(len(strings.TrimSpace(val)))+" bytes, not shown)")
			continue
		}
		out = append(out, clip(name+":"+val, maxShownHeader))
	}
	sort.Strings(out)
	return out
}

// refuse answers a held or refused request with 403: the queue id in
// the status phrase, a header and the body, and a body written for the
// agent.
func (p *Proxy) refuse(w http.ResponseWriter, out pipeline.Outcome, what string) {
	v := out.Verdict
	what = clip(what, maxShownURL)
	why := heldWhy(v)
	id := out.Receipt.QueueID
	if v.Decision == policy.Defer && id != "" {
		body := fmt.Sprintf("airlock held this request; it did not leave this machine: %s\n"+
			"Queue item: %s\nWhy: %s (rule %s)\n\n"+
			"What to do: go on with local work that does not need this request, and do not retry it in another form or through another program. "+
			"A human reviews it outside the sandbox with `airlock queue show %s`, then approves or rejects it; "+
			"once approved, the identical request (same method, URL, headers and body) goes through once.\n", what, id, why, v.Rule, id)
		writeRaw(w, http.StatusForbidden, "Held by airlock: queue "+id, body, id)
		return
	}
	body := fmt.Sprintf("airlock refused this request; it did not leave this machine and is not queued: %s\nWhy: %s (rule %s)\n\n"+
		"What to do: go on with work that does not need it. A human decides what this sandbox may reach in airlock's policy (egress section).\n", what, why, v.Rule)
	writeRaw(w, http.StatusForbidden, "Refused by airlock", body, "")
}

// heldWhy is the reason a verdict gives, for the agent's answer.
func heldWhy(v policy.Verdict) string {
	why := v.Message
	if why == "" {
		var parts []string
		for _, r := range v.Reasons {
			if r.Message != "" {
				parts = append(parts, r.Message)
			}
		}
		why = strings.Join(parts, "; ")
	}
	if why == "" {
		why = "rule " + v.Rule
	}
	return why
}

// forward sends the decided request to its target and streams the
// answer back.
func (p *Proxy) forward(w http.ResponseWriter, r *http.Request, t target, url string, body []byte) {
	out, err := http.NewRequestWithContext(r.Context(), r.Method, url, bytes.NewReader(body))
	if err != nil {
		writeRaw(w, http.StatusBadRequest, "Bad Request", "airlock's egress proxy: "+err.Error()+"\n", "")
		return
	}
	copyHeader(out.Header, r.Header)
	out.Header.Del("Proxy-Authorization")
	out.Header.Del("Expect")
	out.ContentLength = int64(len(body))
	if len(body) == 0 && r.ContentLength == 0 && r.Method != http.MethodPost && r.Method != http.MethodPut && r.Method != http.MethodPatch {
		out.Body, out.GetBody = http.NoBody, nil
	}
	// The destination decided on is the one dialled; the Host header
	// follows it, so a different Host cannot reach another virtual host
	// than the one decided.
	out.Host = t.authority()
	resp, err := p.transport.RoundTrip(out)
	if err != nil {
		writeRaw(w, http.StatusBadGateway, "Bad Gateway", "airlock's egress proxy could not reach "+t.hostport()+": "+err.Error()+"\n", "")
		return
	}
	defer resp.Body.Close()
	copyHeader(w.Header(), resp.Header)
	w.WriteHeader(resp.StatusCode)
	if resp.ContentLength >= 0 {
		// A large buffer, copied by hand: io.Copy would hand the body to
		// the response's ReadFrom, which copies through 32 KiB at a time
		// (splice is only for a TCP source, and this one is the
		// transport's reader). 256 KiB reads and writes make a download
		// cost a quarter of the system calls (docs/BENCHMARKS.md).
		buf := copyBufs.Get().(*[]byte)
		io.CopyBuffer(writerOnly{w}, readerOnly{resp.Body}, *buf)
		copyBufs.Put(buf)
		return
	}
	// A stream of unknown length (git's side-band, server-sent events):
	// each piece goes out as it comes.
	rc := http.NewResponseController(w)
	buf := make([]byte, 32<<10)
	for {
		k, err := resp.Body.Read(buf)
		if k > 0 {
			if _, werr := w.Write(buf[:k]); werr != nil {
				return
			}
			rc.Flush()
		}
		if err != nil {
			return
		}
	}
}

// hopHeaders are the headers of one hop, not passed on (RFC 9110 7.6.1).
var hopHeaders = []string{"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

func copyHeader(dst, src http.Header) {
	skip := map[string]bool{}
	for _, h := range hopHeaders {
		skip[h] = true
	}
	for _, f := range strings.Split(src.Get("Connection"), ",") {
		if f = strings.TrimSpace(f); f != "" {
			skip[http.CanonicalHeaderKey(f)] = true
		}
	}
	for k, vs := range src {
		if skip[k] {
			continue
		}
		for _, v := range vs {
			dst.Add(k, v)
		}
	}
}

// writeRaw answers with status and a reason phrase of airlock's own
// (net/http writes only the standard phrase, so the connection is taken
// over when it can be), and closes the connection: a client that meant
// to send more on it starts again.
func writeRaw(w http.ResponseWriter, status int, phrase, body, queueID string) {
	phrase = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, phrase)
	hj, ok := w.(http.Hijacker)
	if ok {
		conn, rw, err := hj.Hijack()
		if err == nil {
			defer conn.Close()
			var b strings.Builder
			fmt.Fprintf(&b, "HTTP/1.1 %d %s\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\n", status, phrase, len(body))
			if queueID != "" {
				b.WriteString("X-Airlock-Queue: " + queueID + "\r\n")
			}
			b.WriteString("\r\n")
			b.WriteString(body)
			rw.WriteString(b.String())
			rw.Flush()
			return
		}
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if queueID != "" {
		w.Header().Set("X-Airlock-Queue", queueID)
	}
	w.Header().Set("Connection", "close")
	w.WriteHeader(status)
	io.WriteString(w, body)
}

// originFromAuth reads the command a runner named in the proxy user
// name: "Basic base64(user:password)", the user being the base64 of the
// command (sandbox-runtime's form) or the command itself.
func originFromAuth(h string) string {
	scheme, cred, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Basic") {
		return ""
	}
	dec, err := base64.StdEncoding.DecodeString(strings.TrimSpace(cred))
	if err != nil {
		return ""
	}
	user, _, _ := strings.Cut(string(dec), ":")
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if cmd, err := enc.DecodeString(user); err == nil && len(cmd) > 0 && utf8.Valid(cmd) {
			return string(cmd)
		}
	}
	if utf8.ValidString(user) {
		return user
	}
	return ""
}

// clip bounds s to n bytes, at a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// copyBufs are the buffers of forwarded bodies of known length.
var copyBufs = sync.Pool{New: func() any { b := make([]byte, 256<<10); return &b }}

// writerOnly and readerOnly hide ReadFrom and WriteTo, so that
// io.CopyBuffer uses the buffer it is given.
type writerOnly struct{ io.Writer }

type readerOnly struct{ io.Reader }
