package notify

import (
	"math"
	"regexp"
	"sort"
	"strings"

	"github.com/airlock-dev/airlock/internal/render"
)

// Redaction hides secrets an agent's command may carry (a token on a
// curl line, a password in a URL) before the text leaves the machine in a
// notification: a push service, a phone's lock screen and a chat channel
// are all places a credential must not reach.
//
// It works on the raw text, by structure rather than by a list of known
// commands, in four passes whose spans are merged:
//
//   - values airlock itself holds (the ntfy token, the webhook's header
//     values), wherever they appear;
//   - credential formats with a fixed shape (GitHub, GitLab, Slack,
//     OpenAI- and Anthropic-style sk- keys, AWS key ids, Google API keys,
//     npm, PyPI, Hugging Face and ntfy tokens, JWTs, PEM private keys);
//   - values after a name that says "secret" (PASSWORD=…, --token …,
//     "api_key": "…", Authorization: Bearer …, ?access_token=…), the
//     password of a URL (https://user:PASS@host) and of curl -u user:PASS;
//   - long high-entropy words (32 characters or more, letters and digits,
//     mixed case or entropy of 4.2 bits a character; hex only past 40
//     characters, so that commit ids stay readable).
//
// A redacted span is shown as ⟨secret redacted⟩. The marker is put in
// after rendering (internal/render), which writes every ⟨ of the text as
// an escape, so an agent cannot forge one; the raw text is replaced first
// by a random placeholder, so that a cut in rendering cannot leave half a
// secret. This is best effort: a secret without a name, a shape or
// entropy (a short dictionary password given positionally) is shown.
type redactor struct {
	known       []string
	placeholder string
}

// newRedactor hides the given values too (empty ones are skipped).
func newRedactor(known ...string) *redactor {
	r := &redactor{placeholder: "AIRLOCKREDACTED" + randomHex(8)}
	for _, k := range known {
		if len(k) >= 4 {
			r.known = append(r.known, k)
		}
	}
	return r
}

// Marker is what a redacted span is shown as.
const Marker = "⟨secret redacted⟩"

var (
	shapedSecret = regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?s:.*?)(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)` +
		`|\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_\-]{20,}|xox[abposre]-[A-Za-z0-9\-]{10,}` +
		`|sk-[A-Za-z0-9_\-]{20,}|(?:AKIA|ASIA)[0-9A-Z]{16}|AIza[0-9A-Za-z_\-]{35}|npm_[A-Za-z0-9]{36}|tk_[a-z0-9]{29}` +
		`|pypi-[A-Za-z0-9_\-]{50,}|hf_[A-Za-z0-9]{30,}|eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,})`)
	// secretName is a name that says its value is a secret, and what
	// separates it from the value.
	secretName  = regexp.MustCompile(`(?i)([A-Za-z0-9_.\-]*(?:secret|token|passw|pwd|api[_\-]?key|access[_\-]?key|private[_\-]?key|credential|authorization|cookie|signature|client[_\-]?key)[A-Za-z0-9_.\-]*)(["']?(?:\s*[:=]\s*|\s+))`)
	urlPassword = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.\-]*://[^/\s:@]*:([^/\s@]+)@`)
	curlUser    = regexp.MustCompile(`(?:^|\s)(?:-u|--user|--proxy-user)(?:\s+|=)?["']?[^\s:"']*:([^\s"']+)`)
	longWord    = regexp.MustCompile(`[A-Za-z0-9+/=_\-]{32,}`)
)

// spans returns the byte ranges of s to hide, merged and sorted.
func (r *redactor) spans(s string) [][2]int {
	var out [][2]int
	add := func(a, b int) {
		if b > a {
			out = append(out, [2]int{a, b})
		}
	}
	for _, k := range r.known {
		for i := 0; ; {
			j := strings.Index(s[i:], k)
			if j < 0 {
				break
			}
			add(i+j, i+j+len(k))
			i += j + len(k)
		}
	}
	for _, m := range shapedSecret.FindAllStringIndex(s, -1) {
		add(m[0], m[1])
	}
	for _, m := range urlPassword.FindAllStringSubmatchIndex(s, -1) {
		add(m[2], m[3])
	}
	for _, m := range curlUser.FindAllStringSubmatchIndex(s, -1) {
		add(m[2], m[3])
	}
	for _, m := range secretName.FindAllStringSubmatchIndex(s, -1) {
		name, sep := strings.ToLower(s[m[2]:m[3]]), s[m[4]:m[5]]
		switch {
		case !strings.ContainsAny(sep, ":=") && !strings.HasPrefix(name, "-"):
			// "NAME value" counts only for a flag (--token VALUE): in
			// prose, "token" followed by a word is not an assignment.
			continue
		case strings.HasSuffix(name, "file") || strings.HasSuffix(name, "path") || strings.HasSuffix(name, "dir") || strings.HasSuffix(name, "env"):
			// --password-file PATH names where a secret is, not the secret.
			continue
		}
		a, b := valueAfter(s, m[1])
		if strings.HasSuffix(s[:m[2]], "//") {
			// The user part of a URL (https://x-access-token:PASS@host):
			// the value ends at the host, which the reviewer must see.
			if at := strings.IndexAny(s[a:b], "@/"); at >= 0 {
				b = a + at
			}
		}
		if b > a {
			add(a, b)
		}
	}
	for _, m := range longWord.FindAllStringIndex(s, -1) {
		w := s[m[0]:m[1]]
		if m[0] > 0 && strings.IndexByte("/.~", s[m[0]-1]) >= 0 || strings.HasPrefix(w, "/") {
			// A path: its components are judged one by one, so that a
			// temporary directory's digits do not hide the whole path.
			off := m[0]
			for _, part := range strings.Split(w, "/") {
				if len(part) >= 32 && highEntropy(part) {
					add(off, off+len(part))
				}
				off += len(part) + 1
			}
			continue
		}
		if highEntropy(w) {
			add(m[0], m[1])
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	merged := out[:0]
	for _, sp := range out {
		if n := len(merged); n > 0 && sp[0] <= merged[n-1][1] {
			merged[n-1][1] = max(merged[n-1][1], sp[1])
			continue
		}
		merged = append(merged, sp)
	}
	return merged
}

// valueAfter finds the value that starts at i: quoted (to its closing
// quote) or bare (to a blank or a delimiter), after an optional
// authorization scheme word. A variable ($TOKEN) is not a secret: it
// names one, and the human should see which.
func valueAfter(s string, i int) (int, int) {
	q := byte(0)
	if i < len(s) && (s[i] == '"' || s[i] == '\'') {
		q = s[i]
		i++
	}
	for _, scheme := range []string{"Bearer ", "Basic ", "Token ", "token ", "Digest ", "bearer ", "basic "} {
		if strings.HasPrefix(s[i:], scheme) {
			i += len(scheme)
			break
		}
	}
	if i < len(s) && s[i] == '$' {
		return i, i
	}
	j := i
	for j < len(s) {
		c := s[j]
		if q != 0 && c == q {
			break
		}
		if q == 0 && (c == ' ' || c == '\t' || c == '\n' || c == '\r' || strings.IndexByte(`"'&;,|)}`, c) >= 0) {
			break
		}
		j++
	}
	return i, j
}

// highEntropy reports whether a long word looks random: letters and
// digits, and mixed case or a high entropy; hex only when longer than a
// SHA-1 commit id.
func highEntropy(w string) bool {
	var lower, upper, digit bool
	hex := true
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c >= 'a' && c <= 'z':
			lower = true
			hex = hex && c <= 'f'
		case c >= 'A' && c <= 'Z':
			upper = true
			hex = false
		case c >= '0' && c <= '9':
			digit = true
		default:
			hex = false
		}
	}
	if !digit || !(lower || upper) {
		return false
	}
	if hex {
		return len(w) > 40
	}
	return lower && upper || entropy(w) >= 4.2
}

// entropy is the Shannon entropy of w in bits a character.
func entropy(w string) float64 {
	var counts [256]int
	for i := 0; i < len(w); i++ {
		counts[w[i]]++
	}
	h := 0.0
	n := float64(len(w))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// hide replaces each secret of s by the placeholder.
func (r *redactor) hide(s string) string {
	sp := r.spans(s)
	if len(sp) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, x := range sp {
		b.WriteString(s[last:x[0]])
		b.WriteString(r.placeholder)
		last = x[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// mark turns the placeholders of rendered text into the marker. A
// placeholder that a cut in rendering split shows as it is: it carries no
// secret, and only the whole random placeholder (which the agent cannot
// know) may become a marker.
func (r *redactor) mark(rendered string) string {
	return strings.ReplaceAll(rendered, r.placeholder, Marker)
}

// Line is render.Line of s with its secrets hidden.
func (r *redactor) Line(s string, max int) string {
	return r.mark(render.Line(r.hide(s), max))
}
