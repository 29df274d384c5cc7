package policy

import "strings"

// wildcard matches s against a pattern where "*" stands for any run of
// characters (slashes included) and "?" for one character. Argument words
// and host names have no path structure, so unlike path globs a "*" here
// crosses "/" and ".". It runs in linear time with one backtrack point and
// compiles nothing.
func wildcard(pattern, s string) bool {
	p, i := 0, 0
	star, mark := -1, 0
	for i < len(s) {
		switch {
		case p < len(pattern) && (pattern[p] == '?' || pattern[p] == s[i]):
			p++
			i++
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, i
			p++
		case star >= 0:
			p = star + 1
			mark++
			i = mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}

// hostMatch matches a host name against a glob, ignoring case; a pattern
// "*.example.com" also matches "example.com" itself, as people mean it.
func hostMatch(pattern, host string) bool {
	pattern, host = strings.ToLower(pattern), strings.ToLower(host)
	if wildcard(pattern, host) {
		return true
	}
	return strings.HasPrefix(pattern, "*.") && host == pattern[2:]
}
