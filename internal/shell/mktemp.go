package shell

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// IsMktemp reports whether a command substitution is only mktemp making a
// new name in the temporary directory: no template, a template in /tmp or
// /var/tmp (mktemp /tmp/out.XXXX), or a bare one put there by -t, -p or
// --tmpdir naming one of them. A template elsewhere, or a bare one without
// -t (made in the current directory, which may be ~/.claude), is not.
func IsMktemp(cs *syntax.CmdSubst) bool {
	if len(cs.Stmts) != 1 || len(cs.Stmts[0].Redirs) > 0 {
		return false
	}
	call, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(call.Assigns) > 0 || len(call.Args) == 0 || call.Args[0].Lit() != "mktemp" {
		return false
	}
	tmpDir := func(d string) bool {
		d = path.Clean(d)
		return d == "/tmp" || d == "/var/tmp"
	}
	inTmp, template := false, ""
	args := call.Args[1:]
	for i := 0; i < len(args); i++ {
		lit := args[i].Lit()
		switch {
		case lit == "":
			return false // a run-time word
		case lit == "-p" && i+1 < len(args):
			if !tmpDir(args[i+1].Lit()) {
				return false
			}
			inTmp = true
			i++
		case strings.HasPrefix(lit, "--tmpdir="):
			if !tmpDir(strings.TrimPrefix(lit, "--tmpdir=")) {
				return false
			}
			inTmp = true
		case lit == "--tmpdir":
			inTmp = true
		case strings.HasPrefix(lit, "--suffix="):
			if strings.Contains(lit, "/") {
				return false
			}
		case lit == "--directory" || lit == "--quiet" || lit == "--dry-run":
		case strings.HasPrefix(lit, "-") && len(lit) > 1 && lit[1] != '-':
			if strings.Trim(lit[1:], "dqut") != "" {
				return false
			}
			inTmp = inTmp || strings.Contains(lit, "t")
		case strings.HasPrefix(lit, "-"):
			return false
		default:
			if template != "" {
				return false
			}
			template = lit
		}
	}
	switch {
	case template == "":
		return true
	case strings.Contains(template, "/"):
		return !inTmp && tmpDir(path.Dir(template)) && !strings.Contains(template, "..")
	default:
		return inTmp
	}
}

// MktempWord reports whether a word is a substitution of mktemp making a
// new name in the temporary directory (IsMktemp), perhaps quoted, and
// returns the static text after it ("$(mktemp -d)"/out gives "/out").
func MktempWord(src string) (rest string, ok bool) {
	word, ok := ParseWord(src)
	if !ok {
		return "", false
	}
	var parts []syntax.WordPart
	for _, p := range word.Parts {
		if dq, isDq := p.(*syntax.DblQuoted); isDq {
			parts = append(parts, dq.Parts...)
			continue
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return "", false
	}
	cs, isCs := parts[0].(*syntax.CmdSubst)
	if !isCs || !IsMktemp(cs) {
		return "", false
	}
	var b strings.Builder
	for _, p := range parts[1:] {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "\\*?[") {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		default:
			return "", false
		}
	}
	return b.String(), true
}

// ParseWord parses src as one shell word; false when it does not parse or
// is not exactly one word.
func ParseWord(src string) (*syntax.Word, bool) {
	var word *syntax.Word
	err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Words(strings.NewReader(src), func(w *syntax.Word) bool {
		if word != nil {
			word = nil
			return false
		}
		word = w
		return true
	})
	if word != nil {
		DecodeANSIC(word)
	}
	return word, err == nil && word != nil
}

// NamesAFile reports whether a command word computed at run time holds a
// "/" in its static text ("$out/p", "$(mktemp -d)"/app): whatever its
// value, the shell runs the file of that path, never a builtin or a
// function, so the run cannot assign the shell's variables or change its
// directory (read, cd, eval, source have no "/" in their names).
func NamesAFile(src string) bool {
	word, ok := ParseWord(src)
	if !ok {
		return false
	}
	var has func(ps []syntax.WordPart) bool
	has = func(ps []syntax.WordPart) bool {
		for _, p := range ps {
			switch p := p.(type) {
			case *syntax.Lit:
				if strings.Contains(p.Value, "/") {
					return true
				}
			case *syntax.SglQuoted:
				if strings.Contains(p.Value, "/") {
					return true
				}
			case *syntax.DblQuoted:
				if has(p.Parts) {
					return true
				}
			}
		}
		return false
	}
	return has(word.Parts)
}
