package classify

import (
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

// browserPage rates a run that opens a local page in a browser.
func browserPage(inv *shell.Invocation) Effect {
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
		return external("browser.page", who+" opens the local page "+clip(v)+" and runs its script, which can send anything anywhere (a fetch, a form): airlock does not read a page's script. Serve it to a test that does not run scripts, read it as text, or ask the human to open it.")
	}
	return nothing
}
