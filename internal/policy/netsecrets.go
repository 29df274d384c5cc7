package policy

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// This file looks for airlock's secret values (selfsecrets.go) in a
// request through the egress proxy (FINDINGS-5 L19), which sees the
// request itself: its path, query, headers, the URL's user information
// and its body. The shape budget (netweight.go) does not protect them: a
// 64-hex-digit token weighs 32 of its 48, a value cut into pieces of
// five characters weighs nothing, and a credential header carries 128
// characters free. Here a value is looked for as itself and as its
// encodings, however the request cuts it up:
//
//   - forms: the value, its hex, and its base64 at each of the three
//     alignments (the characters that depend on the value alone, so that
//     "x:"+value and value+"…" are found too; the standard and URL
//     alphabets and padding alike);
//   - each part of the request is percent-decoded twice (url-encoded,
//     and url-encoded again) and reduced to its letters and digits in
//     lower case; a form is reduced the same way, so separators,
//     quoting and case put between the pieces change nothing;
//   - a form counts as carried when the request's parts hold pieces of
//     it covering a third of it, at least 16 characters (all of it when
//     shorter: a value's public words, airlock's "airlock-" prefix of a
//     topic, cover less): pieces of 4 characters or more (grams) in the URL, the
//     headers and the user information, in any order and any part; of
//     8 or more in the body, which may be large and is held as a write
//     anyway.
//
// Not found: pieces shorter than 4 characters mixed with other text,
// encodings other than these (base32, a cipher), and a value sent a
// third at a time over several requests; docs/CONTAIN.md says so.

const (
	// netGram and bodyGram are the piece lengths looked for.
	netGram  = 4
	bodyGram = 8
	// minNetCover is the fewest characters of a form that count as
	// carrying it; minForm the shortest form looked for.
	minNetCover = 16
	minForm     = 12
	// maxFormLen bounds a form (a long value's first characters).
	maxFormLen = 512
)

// secretForm is one encoding of one value, reduced (letters and digits,
// lower case).
type secretForm struct {
	text string
	val  int // index into the values
}

// gramRef is where a gram occurs in a form.
type gramRef struct {
	form int32
	pos  int32
}

// secretIndex is the forms of a set of values and their grams.
type secretIndex struct {
	forms []secretForm
	grams [2]map[uint64][]gramRef // netGram, bodyGram
}

// secretIndexCache keeps the index of the last set of values: the proxy
// loads the policy for each request, and the values rarely change.
var secretIndexCache struct {
	mu  sync.Mutex
	key [32]byte
	idx *secretIndex
}

// netSecretIndex is the index of vals, built once per set of values.
func netSecretIndex(vals []secretValue) *secretIndex {
	h := sha256.New()
	for _, v := range vals {
		h.Write([]byte(v.raw))
		h.Write([]byte{0})
	}
	var key [32]byte
	copy(key[:], h.Sum(nil))
	secretIndexCache.mu.Lock()
	defer secretIndexCache.mu.Unlock()
	if secretIndexCache.idx != nil && secretIndexCache.key == key {
		return secretIndexCache.idx
	}
	idx := &secretIndex{}
	for i, v := range vals {
		for _, f := range secretForms(v.raw) {
			idx.forms = append(idx.forms, secretForm{text: f, val: i})
		}
	}
	for k, g := range []int{netGram, bodyGram} {
		m := map[uint64][]gramRef{}
		for fi, f := range idx.forms {
			for p := 0; p+g <= len(f.text); p++ {
				key := packGram(f.text[p : p+g])
				m[key] = append(m[key], gramRef{int32(fi), int32(p)})
			}
		}
		idx.grams[k] = m
	}
	secretIndexCache.key, secretIndexCache.idx = key, idx
	return idx
}

// secretForms are the reduced encodings of a value looked for.
func secretForms(raw string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		s = string(reduce(nil, s))
		if len(s) > maxFormLen {
			s = s[:maxFormLen]
		}
		if len(s) >= minForm && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	add(raw)
	add(hex.EncodeToString([]byte(raw)))
	n := len(raw)
	for k := 0; k < 3; k++ {
		// k bytes before the value: the characters holding none of their
		// bits and none of what follows are the value's own.
		enc := base64.StdEncoding.EncodeToString(append(make([]byte, k, k+n), raw...))
		from := (8*k + 5) / 6
		to := 8 * (k + n) / 6
		if from < to && to <= len(enc) {
			add(enc[from:to])
		}
	}
	return out
}

// reduce appends s's letters and digits, in lower case, to dst.
func reduce(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			dst = append(dst, c)
		case c >= 'A' && c <= 'Z':
			dst = append(dst, c+('a'-'A'))
		}
	}
	return dst
}

// unescape decodes the percent escapes of s that are well formed and
// leaves the rest as it is.
func unescape(s string) string {
	if strings.IndexByte(s, '%') < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
				b = append(b, byte(v))
				i += 2
				continue
			}
		}
		b = append(b, s[i])
	}
	return string(b)
}

func packGram(s string) uint64 {
	var k uint64
	for i := 0; i < len(s); i++ {
		k = k<<8 | uint64(s[i])
	}
	return k
}

// cover marks, in covered, the positions of the forms that text's grams
// of length g hit.
func (idx *secretIndex) cover(text []byte, g int, m map[uint64][]gramRef, covered map[int32][]bool) {
	for p := 0; p+g <= len(text); p++ {
		refs := m[packGram(string(text[p:p+g]))]
		for _, r := range refs {
			c := covered[r.form]
			if c == nil {
				c = make([]bool, len(idx.forms[r.form].text))
				covered[r.form] = c
			}
			for q := r.pos; q < r.pos+int32(g); q++ {
				c[q] = true
			}
		}
	}
}

// netPart is one part of a request as it is looked through.
func netPart(s string) []byte { return reduce(nil, unescape(unescape(s))) }

// netSecretRefusal refuses a request through the egress proxy that
// carries one of airlock's secret values (above).
func (g *guard) netSecretRefusal(a *Action) *refusal {
	n := a.Net
	if n == nil {
		return nil
	}
	vals := g.values.load()
	if len(vals) == 0 {
		return nil
	}
	idx := netSecretIndex(vals)
	covered := map[int32][]bool{}
	where := map[string]bool{}
	look := func(what string, text []byte, k int) {
		before := 0
		for _, c := range covered {
			before += count(c)
		}
		gram := netGram
		if k == 1 {
			gram = bodyGram
		}
		idx.cover(text, gram, idx.grams[k], covered)
		after := 0
		for _, c := range covered {
			after += count(c)
		}
		if after > before {
			where[what] = true
		}
	}
	// The URL's parts in one stream (a value cut at a "/" or an "&" is
	// whole again once the separators are gone), then each header, then
	// the body.
	look("the URL", netPart(n.Host+"/"+n.Path+"?"+n.Query), 0)
	carried := append([]string(nil), n.Carried...)
	sort.Strings(carried)
	for _, c := range carried {
		name, val, _ := strings.Cut(c, ":")
		what := "the " + strings.ToLower(strings.TrimSpace(name)) + " header"
		if strings.EqualFold(strings.TrimSpace(name), "userinfo") {
			what = "the URL's user information"
		}
		// The name is looked through with the value (FINDINGS-9 N1:
		// X-<airlock's token>: 1 carries the token in its name).
		look(what, netPart(name+":"+val), 0)
	}
	if len(n.Body) > 0 {
		body := n.Body
		if len(body) > maxSecretScanBytes {
			body = body[:maxSecretScanBytes]
		}
		look("the body", netPart(string(body)), 1)
	}
	for fi, c := range covered {
		f := idx.forms[fi]
		need := max(minNetCover, (len(f.text)+2)/3)
		if need > len(f.text) {
			need = len(f.text)
		}
		if count(c) < need {
			continue
		}
		parts := make([]string, 0, len(where))
		for w := range where {
			parts = append(parts, w)
		}
		sort.Strings(parts)
		return &refusal{RuleSecretValue, "the request carries the value of " + vals[f.val].from +
			" (not shown), or enough of it, in " + strings.Join(parts, ", ") +
			" (as written, hex, base64 or percent-encoded, whole or in pieces); sending it is reading " + kindSecret.String() +
			", which the agent may not do: with it a held action could be approved without the human. It is refused and not queued." + instead}
	}
	return nil
}

func count(c []bool) int {
	k := 0
	for _, b := range c {
		if b {
			k++
		}
	}
	return k
}
