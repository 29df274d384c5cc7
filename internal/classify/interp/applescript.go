package interp

import (
	"strings"
)

// ---------------------------------------------------------------- AppleScript

func (s *interpScan) applescript() {
	code := s.code
	lower := strings.ToLower(code.masked)
	for _, phrase := range []string{"do shell script", "do script", "write text"} {
		for from := 0; ; {
			k := strings.Index(lower[from:], phrase)
			if k < 0 {
				break
			}
			p := from + k + len(phrase)
			from = p
			for p < len(lower) && (lower[p] == ' ' || lower[p] == '\t') {
				p++
			}
			i, ok := code.litAt[p]
			if !ok {
				s.hide("interp.spawn.dynamic", s.who+" script runs a shell command ("+phrase+") only known at run time")
				continue
			}
			l := code.lits[i]
			text := l.val
			rest := strings.TrimLeft(code.masked[l.end:], " \t")
			if strings.HasPrefix(rest, "&") {
				text += interpPlaceholder
			}
			s.spawnText(text)
		}
	}
	for _, w := range []string{"keystroke", "key code", "run script", "do javascript"} {
		if strings.Contains(lower, w) {
			s.hide("interp.ui", s.who+" script uses "+w+", which can make other applications do anything")
		}
	}
	if strings.Contains(lower, "empty trash") || strings.Contains(lower, "empty the trash") {
		s.add(Finding{Kind: Delete, Rule: "interp.delete", Message: s.who + " script empties the Trash"})
	}
	src := strings.ToLower(code.src)
	if (strings.Contains(src, `application "mail"`) || strings.Contains(src, `app "mail"`) || strings.Contains(src, `application "microsoft outlook"`) || strings.Contains(src, `application "messages"`)) && strings.Contains(lower, "send") {
		s.write("interp.mail", s.who+" script sends a message")
	}
	if strings.Contains(lower, "open location") {
		s.r.Reads = append(s.r.Reads, "a URL (open location)")
	}
}
