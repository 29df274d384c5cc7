package interp

import "strings"

// Clip shortens text quoted in a message to 80 bytes. Package classify
// quotes with the same bound, through this function, so a reason reads
// the same whichever package wrote it.
func Clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// ReadMethod reports whether an HTTP method only reads (GET, HEAD,
// OPTIONS), in any case. Any other verb, including ones airlock has never
// heard of, may change the server's state. Package classify rates its
// HTTP clients' methods through this function too.
func ReadMethod(m string) bool {
	switch strings.ToUpper(m) {
	case "GET", "HEAD", "OPTIONS":
		return true
	}
	return false
}

// Host returns the host part of a URL for messages, or the URL itself
// when it has no recognisable host, clipped.
func Host(u string) string {
	rest := u
	if i := strings.Index(rest, "://"); i >= 0 {
		rest = rest[i+3:]
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		rest = rest[i+1:]
	}
	if rest == "" {
		return Clip(u)
	}
	return Clip(rest)
}
