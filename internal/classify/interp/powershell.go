package interp

import "strings"

// ---------------------------------------------------------------- PowerShell

// PowerShellText is what PowerShell command text does, as far as its
// cmdlets show: classify turns each fact into an effect, and rates each
// statement that may run a native program (git push inside PowerShell
// text) by its first word, which only classify's program table can name.
type PowerShellText struct {
	// Spawns: the text starts processes or evaluates text it builds at
	// run time (Start-Process, Invoke-Expression, [scriptblock]::Create).
	Spawns bool
	// Mail: the text sends mail (Send-MailMessage).
	Mail bool
	// Web: the text makes a web request; WebWrite when it has a write
	// method, a body or an input file.
	Web, WebWrite bool
	// Removes: the text removes a tree of files (Remove-Item -Recurse).
	Removes bool
	// Statements are the text's statements, trimmed and without the call
	// operator &, that are not web requests: each may run a native
	// program.
	Statements []string
}

// The PowerShell patterns, compiled on first use (see lazyRegexp).
var (
	psWeb       = lazyRegexp(`(?i)\b(invoke-restmethod|irm|invoke-webrequest|iwr)\b`)
	psWrite     = lazyRegexp(`(?i)-method\s+['"]?(post|put|patch|delete|merge)\b|-body\b|-infile\b`)
	psSpawn     = lazyRegexp(`(?i)\b(start-process|saps|invoke-expression|iex|invoke-command|icm|invoke-item|new-object\s+system\.net\.sockets)\b|\[scriptblock\]::create`)
	psDestroy   = lazyRegexp(`(?i)\b(remove-item|rm|del|rmdir|rd|erase|ri)\b[^;\n]*-r(ecurse)?\b`)
	psMail      = lazyRegexp(`(?i)\bsend-mailmessage\b`)
	psStatement = lazyRegexp(`[;\n|]`)
)

// PowerShell reads PowerShell command text.
func PowerShell(text string) PowerShellText {
	t := PowerShellText{
		Spawns:  psSpawn().MatchString(text),
		Mail:    psMail().MatchString(text),
		Web:     psWeb().MatchString(text),
		Removes: psDestroy().MatchString(text),
	}
	t.WebWrite = t.Web && psWrite().MatchString(text)
	for _, st := range psStatement().Split(text, -1) {
		st = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(st), "&"))
		if f := strings.Fields(st); len(f) > 0 && !psWeb().MatchString(f[0]) {
			t.Statements = append(t.Statements, st)
		}
	}
	return t
}
