package policy

import (
	"net/url"
	"sort"
	"strings"
)

// This file weighs the whole of a request through the egress proxy for
// data on its way out (FINDINGS-5 L19). One long opaque run is held by
// exfilShape's per-part limits; data split into short path segments,
// many query parameters, a header, a cookie, the user agent or the URL's
// user information is caught only by adding the parts up. Each part is
// cut into pieces (runs of letters and digits); a piece weighs its length
// when it looks like encoded data (letters mixed with digits, or case
// changing often, or very long), half of it when it is hex (4 bits a
// character), nothing when it is a word, a number or a version. The sum
// is held to MaxOpaqueBytes.

// credentialHeader reports whether a part holds one credential (or a
// validator the server gave, an ETag), allowed MaxCredential before it
// weighs.
func credentialHeader(name string) bool {
	switch name {
	case "authorization", "userinfo", "if-none-match", "if-match":
		return true
	}
	return false
}

// opaqueWeight is the data-shaped weight of a request and the parts that
// carry it, named for the reason.
func opaqueWeight(n *NetRequest) (int, string) {
	total := 0
	where := map[string]bool{}
	add := func(part string, w int) {
		if w > 0 {
			total += w
			where[part] = true
		}
	}
	for _, seg := range strings.Split(n.Path, "/") {
		if u, err := url.PathUnescape(seg); err == nil {
			seg = u
		}
		add("the path", textWeight(seg))
	}
	for _, part := range strings.FieldsFunc(n.Query, func(r rune) bool { return r == '&' || r == ';' }) {
		if u, err := url.QueryUnescape(part); err == nil {
			part = u
		}
		add("the query", textWeight(part))
	}
	for _, c := range n.Carried {
		name, val, _ := strings.Cut(c, ":")
		name = strings.ToLower(strings.TrimSpace(name))
		w := textWeight(val)
		if credentialHeader(name) {
			w = max(0, w-MaxCredential)
		}
		// A header's name is the sender's text too (FINDINGS-9 N1: 40
		// headers named X-<48 data-shaped characters>).
		w += textWeight(name)
		what := "the " + name + " header"
		switch name {
		case "cookie":
			what = "a cookie"
		case "user-agent":
			what = "the user agent"
		case "userinfo":
			what = "the URL's user information"
		}
		add(what, w)
	}
	parts := make([]string, 0, len(where))
	for p := range where {
		parts = append(parts, p)
	}
	sort.Strings(parts)
	return total, strings.Join(parts, ", ")
}

// textWeight is the data-shaped weight of one part: the sum of its
// pieces' weights.
func textWeight(s string) int {
	total := 0
	start := -1
	for i := 0; i <= len(s); i++ {
		if i < len(s) && isAlnum(s[i]) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			total += pieceWeight(s[start:i])
			start = -1
		}
	}
	return total
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// pieceWeight weighs one run of letters and digits.
func pieceWeight(p string) int {
	if len(p) < MinOpaqueToken {
		return 0
	}
	var lower, upper, digit, hexOnly, changes = 0, 0, 0, true, 0
	prevUpper := -1
	for i := 0; i < len(p); i++ {
		c := p[i]
		up := -1
		switch {
		case c >= 'a' && c <= 'z':
			lower++
			up = 0
			hexOnly = hexOnly && c <= 'f'
		case c >= 'A' && c <= 'Z':
			upper++
			up = 1
			hexOnly = hexOnly && c <= 'F'
		default:
			digit++
		}
		if up >= 0 {
			if prevUpper >= 0 && up != prevUpper {
				changes++
			}
			prevUpper = up
		}
	}
	letters := lower + upper
	data := letters > 0 && digit > 0 || changes >= 3 || len(p) > MaxPlainToken
	switch {
	case !data:
		return 0
	case hexOnly && (lower == 0 || upper == 0):
		return len(p) / 2
	}
	return len(p)
}
