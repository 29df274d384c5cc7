package classify

import (
	"errors"
	"io/fs"
	"path"
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// This file reads a browser as an interpreter (FINDINGS-10 Y1): a
// browser, headless or the human's own, runs the script of the page it
// opens, and a page's fetch or form can send anything anywhere. A page
// of the project, or one the same command writes, is code airlock does
// not read, with network reach: held as a write beyond the machine. A
// remote page is rated as a request to its URL (exfil.url and the
// network rules), as before.

// browserNames are the programs that open a page and run its script:
// browsers, PDF and image renderers built on one, and the launchers that
// hand a file to the human's browser.
func browserNames(name string) bool {
	switch name {
	case "chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "google-chrome-beta",
		"google-chrome-unstable", "chrome", "chrome-headless-shell", "brave", "brave-browser", "microsoft-edge",
		"microsoft-edge-stable", "msedge", "vivaldi", "opera", "firefox", "firefox-esr", "librewolf",
		"waterfox", "epiphany", "midori", "qutebrowser", "surf", "falkon", "konqueror", "wkhtmltopdf",
		"wkhtmltoimage", "xdg-open", "sensible-browser", "x-www-browser", "gnome-www-browser", "www-browser",
		"open", "shot-scraper", "electron", "nwjs", "nw":
		return true
	}
	return false
}

// pageProgram returns the words of a run that opens pages: a browser
// itself, python -m webbrowser, gio open, and playwright's CLI (npx
// playwright screenshot …); ok false for any other run.
func pageProgram(inv *shell.Invocation) (from int, who string, ok bool) {
	name := inv.Name()
	args := inv.Args
	switch {
	case browserNames(name):
		return 1, name, true
	case name == "gio" && len(args) > 1 && args[1] == "open":
		return 2, "gio open", true
	case strings.HasPrefix(name, "python"):
		for i := 1; i+1 < len(args); i++ {
			if args[i] == "-m" && (args[i+1] == "webbrowser" || args[i+1] == "antigravity") {
				return i + 2, name + " -m webbrowser", true
			}
		}
	}
	// playwright's and puppeteer's CLIs, alone or through a package
	// runner.
	for i := 0; i < len(args) && i < 4; i++ {
		w := normWord(args[i])
		switch w {
		case "playwright", "@playwright/test", "playwright-core", "puppeteer", "@puppeteer/browsers":
			if i == 0 || name == "npx" || name == "bunx" || name == "pnpx" || name == "pnpm" || name == "yarn" || name == "bun" || name == "uvx" || name == "pipx" || strings.HasPrefix(name, "python") {
				return i + 1, w, true
			}
		}
	}
	return 0, "", false
}

// pageFile reports whether a word of a browser's run names a local page:
// a file:// URL, or a file whose extension is a page's.
func pageFile(word string) bool {
	lw := strings.ToLower(word)
	if strings.HasPrefix(lw, "file:") {
		return true
	}
	if strings.Contains(lw, "://") || strings.HasPrefix(lw, "-") {
		return false
	}
	if i := strings.IndexAny(lw, "?#"); i >= 0 {
		lw = lw[:i]
	}
	switch path.Ext(lw) {
	case ".html", ".htm", ".xhtml", ".shtml", ".svg", ".mhtml", ".mht", ".xht":
		return true
	}
	return false
}

// browserPage rates a run that opens a local page in a browser: held
// when the page has a script or reaches the network, or cannot be read
// beforehand (a name known at run time, a page the same command writes).
// A page that is not there runs nothing; one with neither is a document.
func (c *Classifier) browserPage(inv *shell.Invocation) Effect {
	from, who, ok := pageProgram(inv)
	if !ok {
		return nothing
	}
	for i := from; i < len(inv.Args); i++ {
		a := inv.Args[i]
		// An option's value (--screenshot=x.png, --print-to-pdf=x.pdf)
		// is the program's output, not a page; a page given as one
		// (--app=file://…) is a page.
		v := a
		if strings.HasPrefix(a, "-") {
			_, after, has := strings.Cut(a, "=")
			if !has {
				continue
			}
			v = after
		}
		if !pageFile(v) {
			continue
		}
		why, held := c.pageRuns(inv, i, v)
		if !held {
			continue
		}
		return external("browser.page", who+" opens the local page "+clip(v)+", which "+why+": a page's script can send anything anywhere (a fetch, a form), and airlock does not read it. Read the page as text, or ask the human to open it.")
	}
	return nothing
}

// pageRuns says whether the page a browser opens may run code or reach
// the network, and why.
func (c *Classifier) pageRuns(inv *shell.Invocation, i int, v string) (string, bool) {
	name := v
	if rest, ok := strings.CutPrefix(strings.ToLower(v), "file:"); ok {
		name = v[len(v)-len(rest):]
		name = strings.TrimPrefix(name, "//")
		if strings.HasPrefix(name, "localhost/") {
			name = name[len("localhost"):]
		}
	}
	if inv.IsDynamic(i) || strings.ContainsAny(name, "$`*?[") {
		return "is named only at run time", true
	}
	if c.cc.writtenElsewhere(inv, name) {
		return "the same command writes", true
	}
	if c.FS == nil {
		return "cannot be read beforehand", true
	}
	data, err := c.readFile(name)
	switch {
	case err == nil:
	case errors.Is(err, fs.ErrNotExist):
		return "", false // nothing to open: the browser shows an error
	default:
		return "cannot be read beforehand", true
	}
	if pageActive(data) {
		return "has a script or reaches the network", true
	}
	return "", false
}

// pageActive reports a page with a script (a script element, a
// javascript: link, an event handler) or a reference to another host
// (an image, a style, a refresh), which a page the agent wrote can use
// to carry data out.
func pageActive(data []byte) bool {
	t := strings.ToLower(string(data))
	for _, w := range []string{"<script", "javascript:", "://", "=\"//", "='//", "=//", "url(", "@import", "http-equiv", "<iframe", "<object", "<embed", "<base", "<form"} {
		if strings.Contains(t, w) {
			return true
		}
	}
	return pageHandler(t)
}

// pageHandler reports an event handler attribute (onload=, onerror =)
// in lower-cased page text; a scan, not a regular expression, so that
// nothing is compiled when the package starts.
func pageHandler(t string) bool {
	for i := 1; i+2 < len(t); i++ {
		if t[i] != 'o' || t[i+1] != 'n' || !strings.ContainsRune(" \t\n\"'/", rune(t[i-1])) {
			continue
		}
		j := i + 2
		for j < len(t) && t[j] >= 'a' && t[j] <= 'z' {
			j++
		}
		for j < len(t) && (t[j] == ' ' || t[j] == '\t') {
			j++
		}
		if j > i+2 && j < len(t) && t[j] == '=' {
			return true
		}
	}
	return false
}
