package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// SubstCommand returns the argument vector of the command a word stands
// for when the word is nothing but one unquoted command substitution of
// one simple command whose words are all static ($(find . -name '*.pyc'),
// $(git ls-files '*.py' 2>/dev/null)): its output, split into fields, is
// the words the run gets. Package classify bounds what those can be, as
// it does for a feed's producer. ok is false for anything else: a quoted
// substitution (one word of all the output), text around it, a pipeline,
// an assignment, a redirection other than of errors to /dev/null.
func SubstCommand(word string) ([]string, bool) {
	if !strings.HasPrefix(word, "$(") || !strings.HasSuffix(word, ")") {
		return nil, false
	}
	var words []*syntax.Word
	err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Words(strings.NewReader(word), func(w *syntax.Word) bool {
		words = append(words, w)
		return len(words) < 2
	})
	if err != nil || len(words) != 1 || len(words[0].Parts) != 1 {
		return nil, false
	}
	cs, ok := words[0].Parts[0].(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 {
		return nil, false
	}
	st := cs.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || st.Coprocess || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return nil, false
	}
	for _, r := range st.Redirs {
		if r.N == nil || r.N.Value != "2" || r.Op != syntax.RdrOut || r.Word == nil || r.Word.Lit() != "/dev/null" {
			return nil, false
		}
	}
	var args []string
	for _, w := range call.Args {
		if !isStatic(w, false) {
			return nil, false
		}
		fields, ok := staticFields(w)
		if !ok {
			return nil, false
		}
		args = append(args, fields...)
	}
	return args, len(args) > 0
}
