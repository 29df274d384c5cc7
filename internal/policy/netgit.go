package policy

import (
	"slices"
	"strconv"
	"strings"
)

// Limits of a git fetch negotiation read as a read (GitFetchBody).
const (
	// maxFetchObjects bounds the object ids (want, have, shallow) one
	// negotiation may list.
	maxFetchObjects = 4096
	// maxFetchText bounds the free text of one negotiation: capabilities,
	// the agent string, ref names and prefixes, filter specs.
	maxFetchText = 2048
)

// GitFetchBody reports whether a body POSTed to git-upload-pack is git's
// fetch negotiation (protocol v0, v1 or v2): pkt-lines that each name an
// object by its id, a ref, a capability or a command git sends there,
// within the bounds above. Anything else (a file's bytes sent to a URL
// that ends in /git-upload-pack: FINDINGS-7 C3) is not, and the request
// is a write. why names what failed. Object ids can still carry data in
// made-up ids: that is bounded (maxFetchObjects), not closed.
func GitFetchBody(body []byte) (ok bool, why string) {
	objects, text := 0, 0
	// Object ids are SHA-1 (40 hex digits) unless the negotiation names
	// object-format=sha256 before them (FINDINGS-9 N2: 64-digit ids in a
	// SHA-1 fetch are 60% more room for made-up ids).
	idLen := 40
	seen := map[string]bool{}
	freeText := func(s string) bool {
		text += len(s)
		return text <= maxFetchText && printableASCII(s)
	}
	for len(body) > 0 {
		if len(body) < 4 {
			return false, "a torn pkt-line"
		}
		n, err := strconv.ParseUint(string(body[:4]), 16, 16)
		if err != nil {
			return false, "a line that is not a pkt-line"
		}
		if n <= 2 { // flush, delimiter, response end
			body = body[4:]
			continue
		}
		if n < 4 || int(n) > len(body) {
			return false, "a pkt-line longer than the body"
		}
		line := strings.TrimSuffix(string(body[4:n]), "\n")
		body = body[n:]
		word, rest, _ := strings.Cut(line, " ")
		switch word {
		case "want", "have", "shallow":
			oid, caps, _ := strings.Cut(rest, " ")
			if word == "want" && objects == 0 && slices.Contains(strings.Fields(caps), "object-format=sha256") {
				idLen = 64 // protocol v0/v1: the first want's capabilities
			}
			if !objectID(oid) || len(oid) != idLen {
				return false, "a " + word + " line whose object id is not one"
			}
			if objects++; objects > maxFetchObjects {
				return false, "more than " + strconv.Itoa(maxFetchObjects) + " object ids"
			}
			if caps != "" && (word != "want" || !freeText(caps)) {
				return false, "text after an object id"
			}
		case "done", "thin-pack", "no-progress", "include-tag", "ofs-delta", "sideband-all", "wait-for-done",
			"deepen-relative", "peel", "symrefs", "unborn":
			if rest != "" {
				return false, "text after " + word
			}
		case "deepen", "deepen-since":
			// A number carries data too: counted as free text
			// (FINDINGS-8 C2), and one of each is all git sends.
			if _, err := strconv.ParseInt(rest, 10, 64); err != nil || !freeText(rest) {
				return false, "a " + word + " line that is not one number within the free-text bound"
			}
			if seen[word] {
				return false, "more than one " + word + " line"
			}
			seen[word] = true
		case "deepen-not", "want-ref", "ref-prefix", "filter", "packfile-uris":
			if rest == "" || !freeText(rest) {
				return false, "a " + word + " line past the free-text bound"
			}
		default:
			key, val, isKV := strings.Cut(line, "=")
			switch {
			case isKV && key == "command" && (val == "fetch" || val == "ls-refs" || val == "object-info"):
			case isKV && key == "object-format" && (val == "sha1" || val == "sha256") && objects == 0 && !seen[key]:
				seen[key] = true
				if val == "sha256" {
					idLen = 64
				}
			case isKV && (key == "agent" || key == "session-id" || key == "server-option") && freeText(val):
			default:
				return false, "a line git's fetch does not send"
			}
		}
	}
	return true, ""
}

// objectID reports a SHA-1 or SHA-256 object id in lower-case hex.
func objectID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}
