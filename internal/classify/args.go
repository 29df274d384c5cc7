package classify

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
)

// hasAny reports whether any of args equals one of the words.
func hasAny(args []string, words ...string) bool {
	for _, a := range args {
		for _, w := range words {
			if a == w {
				return true
			}
		}
	}
	return false
}

// firstOf returns the first of words found in args.
func firstOf(args []string, words ...string) string {
	for _, a := range args {
		for _, w := range words {
			if a == w {
				return a
			}
		}
	}
	return ""
}

// hasLongPrefix reports whether a long option was given as full or as an
// unambiguous abbreviation of at least min characters after "--", as
// getopt_long and git's parse-options accept.
func hasLongPrefix(p argv.Parsed, full string, min int) bool {
	for _, f := range p.Flags {
		if !strings.HasPrefix(f.Name, "--") {
			continue
		}
		if f.Name == full || len(f.Name)-2 >= min && strings.HasPrefix(full, f.Name) {
			return true
		}
	}
	return false
}

// operandsOf returns the words that do not start with a dash.
func operandsOf(args []string) []string {
	var out []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			out = append(out, a)
		}
	}
	return out
}

// operandsAfter returns the operands after the first n.
func operandsAfter(p argv.Parsed, n int) []string {
	if len(p.Operands) <= n {
		return nil
	}
	return p.Operands[n:]
}
