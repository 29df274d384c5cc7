package classify

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
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
		s.e.Add(local("interp.delete", s.who+" script empties the Trash").destroys())
	}
	src := strings.ToLower(code.src)
	if (strings.Contains(src, `application "mail"`) || strings.Contains(src, `app "mail"`) || strings.Contains(src, `application "microsoft outlook"`) || strings.Contains(src, `application "messages"`)) && strings.Contains(lower, "send") {
		s.write("interp.mail", s.who+" script sends a message")
	}
	if strings.Contains(lower, "open location") {
		s.reads = append(s.reads, "a URL (open location)")
	}
}

// ---------------------------------------------------------------- osascript invocations

var interpOsascriptSpec = &Spec{
	Programs: []string{"osascript"},
	Classify: func(c *Classifier, inv *shell.Invocation) Effect {
		o := interpOpts{lang: langAS, code: "e", value: "ls"}
		for i, a := range inv.Args {
			if (a == "-l" && i+1 < len(inv.Args) && strings.EqualFold(inv.Args[i+1], "JavaScript")) || strings.EqualFold(a, "-lJavaScript") {
				o.lang = langJS
			}
		}
		return interpClassify(c, inv, o)
	},
	Examples: []Example{
		{`osascript -e 'do shell script "git push"'`, "external"},
		{`osascript -e 'do shell script "rm -rf ~/Library/Caches/app" with administrator privileges'`, "local+destructive"},
		{`osascript -e 'do shell script "ls " & quoted form of p'`, "local"},
		{`osascript -e 'tell application "Terminal" to do script "npm publish"'`, "external"},
		{`osascript -e 'tell application "System Events" to keystroke "git push"'`, "local+opaque"},
		{`osascript -e 'tell application "Finder" to empty trash'`, "local+destructive"},
		{`osascript -e 'tell application "Mail" to send (make new outgoing message)'`, "external"},
		{`osascript -e 'display notification "Build done" with title "CI"'`, "local"},
		{`osascript -e 'tell application "Finder" to get name of every disk'`, "local"},
		{`osascript -l JavaScript -e 'Application.currentApplication().doShellScript("git push")'`, "external"},
		{`osascript -l JavaScript -e 'Application("Finder").name()'`, "local"},
		{`osascript notify.scpt`, "local"},
	},
}
