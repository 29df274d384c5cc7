package scan

import (
	"bytes"
)

// shape is what the start of a plain-text line says about the text after
// it.
type shape struct {
	// start is where the command text starts: after indentation and any
	// shell prompt or trace marker.
	start int
	// prompt: a shell prompt precedes the command ("$ ", "user@host:~$ ",
	// "❯ "); trace: the line is a shell trace ("+ cmd", from set -x),
	// which a shell prints only for commands it runs.
	prompt, trace bool
	// indented: four spaces or a tab, markdown's code block.
	indented bool
}

// shapeOf reads the start of a line.
func shapeOf(line []byte) shape {
	var s shape
	w := 0
	for w < len(line) && (line[w] == ' ' || line[w] == '\t') {
		w++
	}
	s.indented = w > 0 && (line[0] == '\t' || w >= 4)
	s.start = w
	rest := line[w:]
	if len(rest) == 0 {
		return s
	}
	// set -x: one "+" per nesting level, at the very start of the line.
	if w == 0 && rest[0] == '+' {
		i := 0
		for i < len(rest) && rest[i] == '+' {
			i++
		}
		if i < len(rest) && rest[i] == ' ' && i < 4 {
			s.trace, s.start = true, w+i+1
			return s
		}
	}
	// Bare prompts.
	for _, p := range [...]string{"$ ", "❯ ", "λ ", "» "} {
		if bytes.HasPrefix(rest, []byte(p)) {
			s.prompt, s.start = true, w+len(p)
			return s
		}
	}
	// oh-my-zsh: "➜  dir git:(branch) ✗ cmd".
	if bytes.HasPrefix(rest, []byte("➜")) {
		f := bytes.Fields(rest[len("➜"):])
		skip := 1 // the directory
		if len(f) > skip && bytes.HasPrefix(f[skip], []byte("git:(")) {
			skip++
		}
		if len(f) > skip && bytes.Equal(f[skip], []byte("✗")) {
			skip++
		}
		if len(f) > skip {
			// Find the command after the skipped fields, in order: the
			// branch field may hold the command's own name ("git:(main)").
			at := len("➜")
			for i := 0; i <= skip; i++ {
				at += bytes.Index(rest[at:], f[i])
				if i < skip {
					at += len(f[i])
				}
			}
			s.prompt, s.start = true, w+at
		}
		return s
	}
	// A prompt with a prefix: "user@host:~/dir$ ", "[root@host dir]# ",
	// "(venv) ~/proj $ ", "PS C:\src> ".
	limit := len(rest)
	if limit > 120 {
		limit = 120
	}
	for i := 1; i+1 < limit; i++ {
		c := rest[i]
		if rest[i+1] != ' ' || (c != '$' && c != '#' && c != '%' && c != '>') {
			continue
		}
		if promptPrefix(rest[:i], c) {
			s.prompt, s.start = true, w+i+2
		}
		break
	}
	return s
}

// promptPrefix reports whether p looks like what a shell prints before its
// prompt character c: a user, host, directory, virtualenv or PowerShell
// location, and no prose.
func promptPrefix(p []byte, c byte) bool {
	p = bytes.TrimRight(p, " ")
	if len(p) == 0 {
		return false
	}
	if c == '>' {
		return bytes.HasPrefix(p, []byte("PS ")) || bytes.Contains(p, []byte(":\\"))
	}
	spaces, marked := 0, false
	for _, b := range p {
		switch {
		case b == ' ':
			spaces++
		case b == '@' || b == ':' || b == '~' || b == '/' || b == ']' || b == ')':
			marked = true
		case b >= 'a' && b <= 'z', b >= 'A' && b <= 'Z', b >= '0' && b <= '9',
			b == '_', b == '-', b == '.', b == '[', b == '(', b == '+', b == '=':
		default:
			return false
		}
	}
	if spaces > 3 || !marked {
		return false
	}
	if c == '#' {
		// Root prompts; keeps "# comment" and markdown headings out.
		return bytes.ContainsAny(p, "@]")
	}
	return true
}

// isFence reports whether a line opens or closes a markdown code block.
func isFence(line []byte) bool {
	t := bytes.TrimLeft(line, " \t")
	return bytes.HasPrefix(t, []byte("```")) || bytes.HasPrefix(t, []byte("~~~"))
}

// leadInCues are words that, in a line ending with a colon, introduce a
// suggestion rather than a record: "To publish, run:", "You can try:".
var leadInCues = [][]byte{
	[]byte("run"), []byte("try"), []byte("you"), []byte("example"), []byte("e.g"),
	[]byte("manual"), []byte("yourself"), []byte("next"), []byte("instead"), []byte("following"),
	[]byte("would"), []byte("should"), []byte("could"), []byte("need"), []byte("want"),
	[]byte("please"), []byte("suggest"), []byte("recommend"), []byte("later"), []byte("when ready"),
}

// isLeadIn reports whether a line introduces commands as a suggestion.
func isLeadIn(line []byte) bool {
	t := bytes.TrimRight(line, " \t\r")
	if len(t) == 0 || t[len(t)-1] != ':' {
		return false
	}
	lower := bytes.ToLower(t)
	for _, c := range leadInCues {
		if bytes.Contains(lower, c) {
			return true
		}
	}
	return false
}
