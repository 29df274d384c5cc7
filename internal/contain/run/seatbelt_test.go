package run

import (
	"strings"
	"testing"
)

func TestSeatbeltProfile(t *testing.T) {
	s := Seatbelt{ProxyPort: 7779, HookSocket: "/Users/me/.local/state/airlock/hookd.sock",
		Writable:  []string{"/Users/me/src/proj", "/private/tmp"},
		DenyWrite: []string{"/Users/me/.config/airlock", "/Users/me/.claude/settings.json", "/Users/me/src/proj/.claude/settings.json"},
		DenyRead:  []string{"/Users/me/.local/state/airlock"}}
	p, err := s.Profile()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"(version 1)",
		"(deny network*)",
		`(allow network-outbound (remote ip "localhost:7779"))`,
		`(allow network-outbound (remote unix-socket (path-literal "/Users/me/.local/state/airlock/hookd.sock")))`,
		`(deny file-write* (require-not (require-any (subpath "/Users/me/src/proj") (subpath "/private/tmp"))))`,
		`(deny file-write* (literal "/Users/me/.config/airlock") (subpath "/Users/me/.config/airlock") (literal "/Users/me/.claude/settings.json")`,
		`(deny file-read* (literal "/Users/me/.local/state/airlock") (subpath "/Users/me/.local/state/airlock"))`,
	} {
		if !strings.Contains(p, want) {
			t.Errorf("the profile lacks %s:\n%s", want, p)
		}
	}
	// The protected paths' denials come after the writable directories
	// (later rules win), and no other host or port is allowed.
	if strings.Index(p, "(deny file-write* (literal") < strings.Index(p, "(require-not") {
		t.Errorf("the protected paths are denied before the writable ones are allowed:\n%s", p)
	}
	if strings.Count(p, "(allow network") != 2 {
		t.Errorf("more network allowed than the proxy and the hook socket:\n%s", p)
	}
}

func TestSeatbeltQuoting(t *testing.T) {
	// A path with a quote and parentheses stays one string literal.
	s := Seatbelt{ProxyPort: 7779, Writable: []string{`/tmp/a") (allow default) ("`}, DenyWrite: []string{`/x\y"z`}}
	p, err := s.Profile()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p, `(subpath "/tmp/a\") (allow default) (\"")`) || !strings.Contains(p, `(literal "/x\\y\"z")`) {
		t.Errorf("a path with a quote, a backslash or parentheses was not escaped:\n%s", p)
	}
	if strings.Count(p, "(allow default)") != 1+strings.Count(p, `(allow default) (\"`) {
		t.Errorf("the path added a rule of its own:\n%s", p)
	}
	for _, bad := range []string{"/tmp/a\n(allow network*)", "/tmp/\x00", "relative/path"} {
		if _, err := (Seatbelt{ProxyPort: 7779, Writable: []string{bad}}).Profile(); err == nil {
			t.Errorf("the path %q was accepted", bad)
		}
	}
	if _, err := (Seatbelt{ProxyPort: 0}).Profile(); err == nil {
		t.Error("port 0 was accepted")
	}
}

func TestSeatbeltFor(t *testing.T) {
	env := map[string]string{"HOME": "/Users/me"}
	s := SeatbeltFor(Config{Getenv: func(k string) string { return env[k] }, Cwd: "/Users/me/src/proj", Executable: "/usr/local/bin/airlock"}, 7779)
	p, err := s.Profile()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`(subpath "/Users/me/src/proj")`,
		`(literal "/Users/me/.local/state/airlock/secrets")`,
		`(literal "/usr/local/bin/airlock")`,
		`(literal "/Users/me/.claude/settings.json")`,
		`(literal "/Users/me/.bashrc")`,
		`(literal "/Users/me/src/proj/.claude/settings.json")`,
		`(path-literal "/Users/me/.local/state/airlock/hookd.sock")`,
	} {
		if !strings.Contains(p, want) {
			t.Errorf("the profile lacks %s", want)
		}
	}
	if i := strings.Index(p, "(deny file-read*"); i < 0 || !strings.Contains(p[i:], `"/Users/me/.local/state/airlock"`) {
		t.Errorf("airlock's state is readable:\n%s", p)
	}
}
