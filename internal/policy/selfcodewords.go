package policy

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
)

// A program that runs code (sed, awk, python3) is refused when its code
// mentions airlock's files, since airlock cannot tell what the code does
// with them. A file it is given to read is not its code: `sed -n p
// .claude/settings.json` reads the hook settings as cat does (FINDINGS-10
// B13), and the read rules check it. So the words classify gives the
// role "read" are left out of the text searched for mentions; every other
// word (the program, an option's value, a file written) stays in.

// codeWords returns the arguments of a run that may be code, and the
// words left out as files it only reads.
func codeWords(inv *classify.Invocation) (words, read []string) {
	skip := map[int]bool{}
	for _, o := range inv.Operands {
		if o.Arg > 0 && o.Role == classify.RoleRead && !o.Dynamic {
			skip[o.Arg] = true
		}
	}
	for _, o := range inv.Operands {
		if o.Arg > 0 && o.Role != classify.RoleRead {
			delete(skip, o.Arg) // a word with a second role is not only read
		}
	}
	for i, a := range inv.Args[1:] {
		if skip[i+1] {
			read = append(read, a)
			continue
		}
		words = append(words, a)
	}
	return words, read
}

// withoutWords drops from shell text the blank-separated fields that are
// one of words, bare or quoted whole.
func withoutWords(text string, words []string) string {
	if len(words) == 0 {
		return text
	}
	fields := strings.Fields(text)
	out := fields[:0]
	for _, f := range fields {
		bare := f
		if len(f) >= 2 && (f[0] == '\'' || f[0] == '"') && f[len(f)-1] == f[0] {
			bare = f[1 : len(f)-1]
		}
		drop := false
		for _, w := range words {
			drop = drop || bare == w
		}
		if !drop {
			out = append(out, f)
		}
	}
	return strings.Join(out, " ")
}
