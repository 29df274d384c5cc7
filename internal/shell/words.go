package shell

import (
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// staticConfig expands static words only: no environment (a tilde stays a
// tilde), no globbing, no command substitution.
var staticConfig = &expand.Config{Env: expand.ListEnviron("HOME=~")}

// words expands a list of words. Static words become their values (brace
// expansion may make several); a dynamic word stays one field holding its
// source text, marked dynamic.
func (s *stmtWalker) words(list []*syntax.Word) ([]string, []bool) {
	args := make([]string, 0, len(list))
	dyn := make([]bool, 0, len(list))
	for _, w := range list {
		from := len(args)
		args, dyn = s.word(w, args, dyn)
		// ~+ and ~- are the directory and the previous one (dirvars.go).
		if r, d, ok := s.tildeDir(w); ok {
			for i := from; i < len(args); i++ {
				if len(args[i]) >= 2 && args[i][0] == '~' && (args[i][1] == '+' || args[i][1] == '-') {
					args[i] = r + args[i][2:]
					dyn[i] = dyn[i] || d
				}
			}
		}
	}
	return args, dyn
}

// word appends the fields of one word.
func (s *stmtWalker) word(w *syntax.Word, args []string, dyn []bool) ([]string, []bool) {
	if !s.isStatic(w, false) {
		if fields, ok := s.expandFields(w); ok {
			for _, f := range fields {
				args = append(args, f)
				dyn = append(dyn, false)
			}
			return args, dyn
		}
		if a, d, ok := s.arrayRef(w); ok {
			return append(args, a...), append(dyn, d...)
		}
		args = append(args, s.render(w))
		dyn = append(dyn, true)
		// A whole array known only in part, inside a longer word
		// ("of=${a[@]}"), gives one word per element: each element
		// is a word of its own too, so that each is seen.
		for _, e := range s.arrayElems(w.Parts) {
			args = append(args, e)
			dyn = append(dyn, true)
		}
		return args, dyn
	}
	fields, ok := staticFields(w)
	if !ok {
		return append(args, s.source(w)), append(dyn, true)
	}
	for _, f := range fields {
		args = append(args, f)
		dyn = append(dyn, false)
	}
	return args, dyn
}

// maxBraceFields bounds brace expansion of one word ({1..99999999}); a
// word that would expand further is kept whole and treated as dynamic.
const maxBraceFields = 256

// staticFields expands a static word into its fields.
func staticFields(w *syntax.Word) ([]string, bool) {
	// Fast path: one plain literal or single-quoted part needs no
	// expansion (most words of a script).
	if len(w.Parts) == 1 {
		switch p := w.Parts[0].(type) {
		case *syntax.Lit:
			if !strings.ContainsAny(p.Value, "{}~\\") {
				return []string{p.Value}, true
			}
		case *syntax.SglQuoted:
			if !p.Dollar {
				return []string{p.Value}, true
			}
		}
	}
	var fields []string
	for f, err := range expand.FieldsSeq(staticConfig, w) {
		if err != nil || len(fields) == maxBraceFields {
			return nil, false
		}
		fields = append(fields, f)
	}
	return fields, true
}

// static returns the value of a word that holds no run-time expansion.
func (s *stmtWalker) static(w *syntax.Word, heredoc bool) (string, bool) {
	if !heredoc {
		if r, d, ok := s.tildeDir(w); ok {
			if d {
				return "", false // render puts the directory's text in
			}
			v, known := s.staticNoDir(w, false)
			if known && len(v) >= 2 && v[0] == '~' {
				v = r + v[2:]
			}
			return v, known
		}
	}
	return s.staticNoDir(w, heredoc)
}

// staticNoDir is static without ~+ and ~-.
func (s *stmtWalker) staticNoDir(w *syntax.Word, heredoc bool) (string, bool) {
	if !s.isStatic(w, heredoc) {
		return s.expandLiteral(w, heredoc)
	}
	var v string
	var err error
	if heredoc {
		v, err = expand.Document(staticConfig, w)
	} else {
		v, err = expand.Literal(staticConfig, w)
	}
	return v, err == nil
}

// isStatic reports whether a word's value is fixed in the text.
func isStatic(w *syntax.Word, heredoc bool) bool {
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit, *syntax.SglQuoted:
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if _, ok := q.(*syntax.Lit); !ok {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// echoText is what echo prints for static arguments, if it can be told.
// Escapes are read where the text says they are (-e) and only as \n, \t
// and \\; any other backslash makes it unknown: bash with xpg_echo and
// zsh's echo read escapes without -e, and \x2f or \057 is "/" to them
// (echo -e '\x2f' prints "/"), and which shell runs the command is not
// known.
func echoText(args []string) (string, bool) {
	escapes := false
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && strings.Trim(args[0][1:], "neE") == "" {
		if strings.Contains(args[0], "e") {
			escapes = true
		}
		args = args[1:]
	}
	text := strings.Join(args, " ")
	if !strings.Contains(text, `\`) {
		return text, true
	}
	if !escapes {
		return "", false
	}
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		if text[i] != '\\' {
			b.WriteByte(text[i])
			continue
		}
		if i+1 == len(text) {
			return "", false
		}
		i++
		switch text[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case '\\':
			b.WriteByte('\\')
		default:
			return "", false
		}
	}
	return b.String(), true
}

// Output returns the text a run prints when it can be told statically:
// echo or printf of static words, or cat (or tee) copying a literal
// heredoc, here-string or echoed text on its input.
func Output(inv *Invocation) (string, bool) {
	if len(inv.Dynamic) > 0 {
		return "", false
	}
	switch inv.Name() {
	case "echo":
		text, ok := echoText(inv.Args[1:])
		return text + "\n", ok
	case "printf":
		return printfText(inv.Args[1:])
	case "cat", "tee":
		if inv.Name() == "cat" && len(inv.Args) > 1 {
			return "", false
		}
		if inv.StdinKnown {
			return inv.StdinText, true
		}
	}
	return "", false
}
