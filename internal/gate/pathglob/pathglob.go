// Package pathglob matches the exemption globs of the fact-forcing gate
// (GATEGUARD_EXEMPT_GLOBS and the policy's gate.exempt_globs) against file
// paths.
//
// The dialect is small and exact, so that an exemption never covers more
// than its author meant:
//
//   - paths and patterns use "/" separators ("\" is read as "/"), and match
//     without regard to case;
//   - "*" matches any run of characters within one path segment;
//   - "?" matches exactly one character other than "/";
//   - "**" must be a whole segment: "**/" at the start or in the middle
//     matches zero or more directories (so "**/tests/**" matches
//     "tests/foo.js"), a trailing "/**" matches everything below a
//     directory (one or more segments), and "**" alone matches any path;
//   - a pattern starting with "/" (or a drive such as "c:/") is absolute
//     and is matched against the absolute path; any other pattern is
//     relative to the project root and never matches a path outside it;
//   - everything else is a literal character.
//
// A pattern the dialect cannot read is malformed: "**" inside a segment
// ("a**", "***"), empty, "." or ".." segments, a trailing "/", a character
// class or alternation ("[", "]", "{", "}", which other dialects give a
// meaning this one does not have), or a control character. Compile
// reports it; a malformed pattern matches nothing.
package pathglob

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ErrMalformed is wrapped by the error Compile returns for a pattern the
// dialect cannot read.
var ErrMalformed = errors.New("malformed glob")

// Pattern is one compiled glob.
type Pattern struct {
	// Source is the pattern as written (trimmed).
	Source string
	// Absolute reports whether the pattern matches absolute paths.
	Absolute bool
	segs     []string
}

// Compile reads one pattern. Leading and trailing spaces are ignored.
func Compile(src string) (*Pattern, error) {
	src = strings.TrimSpace(src)
	bad := func(why string) (*Pattern, error) {
		return nil, fmt.Errorf("%w %q: %s", ErrMalformed, src, why)
	}
	if src == "" {
		return bad("empty")
	}
	norm := normalize(src)
	for _, r := range norm {
		switch {
		case r == utf8.RuneError:
			return bad("not valid UTF-8")
		case unicode.IsControl(r):
			return bad("holds a control character")
		case strings.ContainsRune("[]{}", r):
			return bad(fmt.Sprintf("%q has no meaning here (no character classes or alternatives; list each pattern, comma-separated)", r))
		}
	}
	p := &Pattern{Source: src}
	rest := norm
	switch {
	case strings.HasPrefix(rest, "/"):
		p.Absolute, rest = true, rest[1:]
	case isDrive(rest):
		p.Absolute = true
		// The drive stays as the first segment, "c:".
	}
	if strings.HasSuffix(rest, "/") {
		return bad("ends with \"/\"; write dir/** to cover a directory")
	}
	p.segs = strings.Split(rest, "/")
	for _, s := range p.segs {
		switch {
		case s == "":
			return bad("has an empty segment")
		case s == "." || s == "..":
			return bad("has a \".\" or \"..\" segment")
		case s != "**" && strings.Contains(s, "**"):
			return bad("\"**\" must be a whole segment (**/, /**/ or /**)")
		}
	}
	return p, nil
}

// isDrive reports whether s starts with a Windows drive, "c:/".
func isDrive(s string) bool {
	return len(s) >= 3 && s[1] == ':' && s[2] == '/' && (s[0] >= 'a' && s[0] <= 'z')
}

// normalize turns "\" into "/" and lowers the case.
func normalize(s string) string {
	return strings.ToLower(strings.ReplaceAll(s, `\`, "/"))
}

// MatchTarget reports whether the pattern covers target, a file path that
// is absolute or relative to root. root is the project root (absolute);
// a relative pattern matches the target's path relative to it, and never a
// target outside it.
func (p *Pattern) MatchTarget(target, root string) bool {
	abs := normalize(target)
	if !isAbs(abs) {
		if root == "" {
			return false
		}
		abs = path.Join(normalize(root), abs)
	}
	abs = path.Clean(abs)
	if p.Absolute {
		s := abs
		if strings.HasPrefix(s, "/") {
			s = s[1:]
		}
		return p.match(strings.Split(s, "/"))
	}
	if root == "" {
		return false
	}
	r := path.Clean(normalize(root))
	if !isAbs(r) {
		return false
	}
	var rel string
	switch {
	case r == "/":
		rel = strings.TrimPrefix(abs, "/")
	case strings.HasPrefix(abs, r+"/"):
		rel = abs[len(r)+1:]
	default:
		// The root itself, or outside it.
		return false
	}
	if rel == "" {
		return false
	}
	return p.match(strings.Split(rel, "/"))
}

func isAbs(s string) bool { return strings.HasPrefix(s, "/") || isDrive(s) }

// Match reports whether the pattern covers a path already split into
// lower-case segments the way MatchTarget does. It is exported for tests
// and for callers that hold a relative path.
func (p *Pattern) Match(rel string) bool {
	rel = strings.Trim(normalize(rel), "/")
	if rel == "" {
		return false
	}
	return p.match(strings.Split(rel, "/"))
}

func (p *Pattern) match(segs []string) bool {
	return matchSegs(p.segs, segs)
}

// matchSegs matches pattern segments against path segments. Patterns are a
// handful of segments, so plain recursion is cheap; "**" is the only
// construct that branches, and each "**" tries each split once.
func matchSegs(pat, segs []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			if len(pat) == 1 {
				// A trailing "**" (or "**" alone) needs one or more
				// segments: "services/**" covers what is inside services,
				// not a file named services.
				return len(segs) > 0
			}
			// "**/" matches zero or more directories.
			for i := 0; i < len(segs); i++ {
				if matchSegs(pat[1:], segs[i:]) {
					return true
				}
			}
			return false
		}
		if len(segs) == 0 || !matchSegment(pat[0], segs[0]) {
			return false
		}
		pat, segs = pat[1:], segs[1:]
	}
	return len(segs) == 0
}

// matchSegment matches one segment with "*" (any run) and "?" (one
// character), in linear time with one backtrack point.
func matchSegment(pat, s string) bool {
	p, i := 0, 0
	star, mark := -1, 0
	for i < len(s) {
		if p < len(pat) {
			switch c := pat[p]; c {
			case '*':
				star, mark = p, i
				p++
				continue
			case '?':
				_, n := utf8.DecodeRuneInString(s[i:])
				p++
				i += n
				continue
			default:
				if c == s[i] {
					p++
					i++
					continue
				}
			}
		}
		if star < 0 {
			return false
		}
		// Let the last "*" take one more character (a whole rune).
		_, n := utf8.DecodeRuneInString(s[mark:])
		mark += n
		p, i = star+1, mark
	}
	for p < len(pat) && pat[p] == '*' {
		p++
	}
	return p == len(pat)
}

// List is a set of compiled patterns.
type List []*Pattern

// ParseList reads a comma-separated list, as GATEGUARD_EXEMPT_GLOBS holds
// it. Empty entries are skipped; malformed ones are left out and returned
// as errors, so that they grant nothing while the others still work.
func ParseList(s string) (List, []error) {
	var l List
	var errs []error
	for _, item := range strings.Split(s, ",") {
		if strings.TrimSpace(item) == "" {
			continue
		}
		p, err := Compile(item)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		l = append(l, p)
	}
	return l, errs
}

// MatchTarget returns the first pattern that covers target, or nil.
func (l List) MatchTarget(target, root string) *Pattern {
	for _, p := range l {
		if p.MatchTarget(target, root) {
			return p
		}
	}
	return nil
}
