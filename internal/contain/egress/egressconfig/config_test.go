package egressconfig

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/strictyaml"
)

func load(t *testing.T, text string) (*policy.Policy, string, error) {
	t.Helper()
	dir := t.TempDir()
	f := filepath.Join(dir, "policy.yaml")
	if err := os.WriteFile(f, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"AIRLOCK_POLICY": f, "AIRLOCK_HOME": filepath.Join(dir, "state")}
	p, err := policy.Load(policy.Options{Getenv: func(k string) string { return env[k] }, Egress: Schema})
	return p, f, err
}

func TestSectionErrorsNameFileAndLine(t *testing.T) {
	for _, c := range []struct {
		text string
		line int
		want string
	}{
		{"version: 1\negress:\n  passthrough: [api.example.com]\n  bogus: true\n", 4, "unknown key"},
		{"version: 1\negress:\n  passthrough:\n    - api.example.com\n    - https://api.example.com\n", 5, "without scheme"},
		{"version: 1\negress:\n  never: [evil.example.com:443]\n", 3, "port"},
		{"version: 1\negress:\n  inspect: yes\n", 3, "true or false"},
		{"version: 1\negress:\n  read_hosts: []\n", 3, "empty"},
		{"version: 1\negress: [a]\n", 2, "mapping"},
	} {
		_, file, err := load(t, c.text)
		if err == nil {
			t.Errorf("%q: loaded", c.text)
			continue
		}
		var fe *strictyaml.FileError
		if !errors.As(err, &fe) || fe.File != file || fe.Line != c.line || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %s:%d with %q", c.text, err, file, c.line, c.want)
		}
	}
}

func TestSection(t *testing.T) {
	p, _, err := load(t, "version: 1\negress:\n  passthrough: [api.example.com, '*.models.example.net']\n  read_hosts: [docs.example.com]\n  write_only_hosts: [hooks.example.org]\n  never: [evil.example.com]\n  inspect: true\n")
	if err != nil {
		t.Fatal(err)
	}
	c, err := Of(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []struct {
		host        string
		passthrough bool
		listed      string
	}{
		{"api.example.com", true, policy.ListedUnlisted},
		{"eu.models.example.net", true, policy.ListedUnlisted},
		{"models.example.net", false, policy.ListedUnlisted},
		{"DOCS.example.com", false, ""},
		{"hooks.example.org", false, policy.ListedWriteOnly},
		{"evil.example.com", false, policy.ListedNever},
	} {
		if got := c.IsPassthrough(x.host); got != x.passthrough {
			t.Errorf("IsPassthrough(%s) = %v", x.host, got)
		}
		if got := c.Listed(x.host); got != x.listed {
			t.Errorf("Listed(%s) = %q, want %q", x.host, got, x.listed)
		}
	}
	if !c.Inspect() {
		t.Error("inspect: true turned inspection off")
	}
	// Defaults: nothing passed through, any host read, inspection on.
	var none *Config
	if none.IsPassthrough("x.example.com") || none.Listed("x.example.com") != "" || !none.Inspect() {
		t.Error("the defaults are not: no passthrough, any host, inspect")
	}
}

// An untrusted project file may only tighten.
func TestUntrustedOnlyTightens(t *testing.T) {
	c := &Config{}
	user, _ := c.Decode(node(t, "passthrough: [api.example.com]\nread_hosts: [a.example.com, b.example.com]\n"))
	if err := user("user.yaml", true); err != nil {
		t.Fatal(err)
	}
	proj, _ := c.Decode(node(t, "passthrough: [exfil.example.com]\nread_hosts: [b.example.com, c.example.com]\nnever: [d.example.com]\ninspect: false\n"))
	if err := proj("project.yaml", false); err != nil {
		t.Fatal(err)
	}
	if c.IsPassthrough("exfil.example.com") || !c.IsPassthrough("api.example.com") {
		t.Errorf("passthrough %v: an untrusted file added to it", c.Passthrough)
	}
	if c.Listed("a.example.com") != policy.ListedUnlisted || c.Listed("c.example.com") != policy.ListedUnlisted || c.Listed("b.example.com") != "" {
		t.Errorf("read_hosts %v: want the intersection (b)", c.ReadHosts)
	}
	if c.Listed("d.example.com") != policy.ListedNever {
		t.Error("an untrusted file's never host was dropped")
	}
	if !c.Inspect() {
		t.Error("an untrusted file turned inspection off")
	}
	if len(c.Ignored) != 2 {
		t.Errorf("ignored %q, want passthrough and inspect", c.Ignored)
	}
	// With authority the same file loosens.
	trusted, _ := c.Decode(node(t, "passthrough: [exfil.example.com]\ninspect: false\n"))
	trusted("project.yaml", true)
	if !c.IsPassthrough("exfil.example.com") || c.Inspect() {
		t.Error("a trusted file could not set passthrough and inspect")
	}
}

func TestHost(t *testing.T) {
	for in, want := range map[string]string{"API.Example.com": "api.example.com", "*.example.com": "*.example.com", "127.0.0.1": "127.0.0.1", "[::1]": "::1", "::1": "::1"} {
		if got, err := Host(in); err != nil || got != want {
			t.Errorf("Host(%q) = %q, %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "http://x.com", "x.com/path", "x.com:443", "a.*.com", "user@x.com", "x..com"} {
		if _, err := Host(bad); err == nil {
			t.Errorf("Host(%q) accepted", bad)
		}
	}
}

func node(t *testing.T, text string) *yaml.Node {
	t.Helper()
	n, err := strictyaml.Parse("x.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return n
}
