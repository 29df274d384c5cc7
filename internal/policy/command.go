package policy

import (
	"errors"
	"path"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
)

// commandPattern is an argv-prefix pattern such as "git push" or
// "gh pr *": the program name, then words each matched by a wildcard
// against the invocation's words in order.
type commandPattern struct {
	text  string
	words []string
}

var errEmptyPattern = errors.New("an empty command pattern")

func compileCommand(text string) (commandPattern, error) {
	words := strings.Fields(text)
	if len(words) == 0 {
		return commandPattern{}, errEmptyPattern
	}
	// The program is matched the way package shell normalises it: base
	// name, lower case, no ".exe".
	prog := strings.ToLower(path.Base(words[0]))
	words[0] = strings.TrimSuffix(prog, ".exe")
	return commandPattern{text: text, words: words}, nil
}

// match reports whether the invocation starts with the pattern. Options
// airlock knows the arity of may sit between the pattern's words, with
// their values, which is how "git -C dir push origin" matches "git push": the invocation has already been unwrapped of sudo,
// env, bash -c and the like by package shell.
func (c commandPattern) match(inv *classify.Invocation) bool {
	args := inv.Args
	if len(args) == 0 || !wildcard(c.words[0], args[0]) {
		return false
	}
	return matchWords(c.words[1:], args, 1)
}

// matchWords matches pattern words against args[i:], trying a match
// before a skip so the recursion stays shallow (at most one branch per
// pattern word).
func matchWords(pat, args []string, i int) bool {
	if len(pat) == 0 {
		return true
	}
	for ; i < len(args); i++ {
		// An option's value is not one of the pattern's words: "git
		// push -o origin evil" does not push to origin.
		if isValue(args, i) {
			continue
		}
		if wildcard(pat[0], args[i]) && matchWords(pat[1:], args, i+1) {
			return true
		}
		if !skippable(args, i) {
			return false
		}
	}
	return false
}

// skippable reports whether args[i] may be passed over while matching: an
// option whose arity the program's table knows, or the value after one
// that takes it in the next word (classify.OptionArity). Past an option of
// unknown arity the match fails: the next word may be a value or the
// host, remote or URL the pattern names, and guessing either way lets a
// rule allow more than its command (rulemake ends its patterns there too).
func skippable(args []string, i int) bool {
	if isOption(args[i]) {
		_, known := classify.OptionArity(args, i)
		return known
	}
	return isValue(args, i)
}

// isValue reports whether args[i] is the value of the option before it,
// by the program's option table.
func isValue(args []string, i int) bool {
	if i > 1 && isOption(args[i-1]) {
		sep, known := classify.OptionArity(args, i-1)
		return known && sep
	}
	return false
}

func isOption(w string) bool { return len(w) > 1 && w[0] == '-' && w != "--" }
