package synccmd

import (
	"bytes"
	"strings"
	"testing"
)

// TestUsage: help exits 0 on stdout; mistakes are usage errors (2) with a
// hint; sync on a machine that has not joined says how to join.
func TestUsage(t *testing.T) {
	home := t.TempDir()
	getenv := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	cases := []struct {
		args     []string
		code     int
		out, err string
	}{
		{[]string{"--help"}, 0, "airlock team join SERVER_URL --token TOKEN", ""},
		{[]string{"join", "-h"}, 0, "pins the server's signing key", ""},
		{[]string{"join", "http://127.0.0.1:1"}, 2, "", "join takes the server's URL and --token"},
		{[]string{"join", "--token", "t"}, 2, "", "join takes the server's URL and --token"},
		{[]string{"join", "--nope"}, 2, "", "-nope"},
		{[]string{"sync", "extra"}, 2, "", "sync takes no operand"},
		{[]string{"sync", "--interval", "10ms"}, 2, "", "shorter than a second"},
		{[]string{"sync", "--once"}, 2, "", "airlock: hint: airlock team join SERVER_URL --token TOKEN"},
		{[]string{"frobnicate"}, 2, "", "unknown command"},
		// A server that is not there: the join fails (1) and writes nothing.
		{[]string{"join", "http://127.0.0.1:1", "--token", "t"}, 1, "", "team server:"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := Main(c.args, &out, &errb, getenv)
		if code != c.code || !strings.Contains(out.String(), c.out) || !strings.Contains(errb.String(), c.err) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %d, %q, %q", c.args, code, out.String(), errb.String(), c.code, c.out, c.err)
		}
	}
}

func TestPlainRemote(t *testing.T) {
	for server, want := range map[string]bool{
		"http://127.0.0.1:7780": false, "http://localhost:7780": false, "http://[::1]:7780": false,
		"https://team.example.com": false, "http://team.example.com": true, "http://192.0.2.2:7780": true,
	} {
		if got := plainRemote(server); got != want {
			t.Errorf("plainRemote(%q) = %v, want %v", server, got, want)
		}
	}
}
