package servecmd

import (
	"bytes"
	"strings"
	"testing"
)

func TestFlagsRefuseAnOpenDoor(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--listen", "0.0.0.0:7777"}, "names no single address"},
		{[]string{"--listen", "[::]:7777"}, "names no single address"},
		{[]string{"--listen", ":7777"}, "names no single address"},
		{[]string{"--listen", "192.0.2.1:7777"}, "is not a loopback address"},
		{[]string{"--listen", "dash.example:7777"}, "is not a loopback address"},
		{[]string{"--listen", "127.0.0.1:7777", "--tls-cert", "c.pem"}, "--tls-cert and --tls-key go together"},
		{[]string{"--listen", "7777"}, "is not HOST:PORT"},
		{[]string{"--bogus"}, "flag provided but not defined"},
		{[]string{"extra"}, "takes no operands"},
	} {
		var out, errb bytes.Buffer
		code := Main(Options{Args: tc.args, Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }})
		if code != 2 || !strings.Contains(errb.String(), tc.want) || !strings.HasPrefix(errb.String(), "airlock: error: ") {
			t.Errorf("%q: exit %d\n%s", tc.args, code, errb.String())
		}
		if out.Len() != 0 {
			t.Errorf("%q printed %q", tc.args, out.String())
		}
	}
	var errb bytes.Buffer
	Main(Options{Args: []string{"--listen", "192.0.2.1:7777"}, Stdout: &bytes.Buffer{}, Stderr: &errb, Getenv: func(string) string { return "" }})
	if !strings.Contains(errb.String(), "airlock: hint: add --tls-cert FILE --tls-key FILE") {
		t.Errorf("no TLS hint:\n%s", errb.String())
	}
}

func TestStartsAndPrintsTheLoginURLFirst(t *testing.T) {
	state := t.TempDir()
	stop := make(chan struct{})
	var out, errb bytes.Buffer
	done := make(chan int)
	go func() {
		done <- Main(Options{Args: []string{"--listen", "127.0.0.1:0"}, Stdout: &out, Stderr: &errb, Stop: stop,
			Getenv: func(k string) string { return map[string]string{"AIRLOCK_HOME": state}[k] }})
	}()
	close(stop)
	if code := <-done; code != 0 {
		t.Fatalf("exit %d\n%s", code, errb.String())
	}
	first, _, _ := strings.Cut(out.String(), "\n")
	if !strings.HasPrefix(first, "http://127.0.0.1:") || !strings.Contains(first, "/login?code=") || strings.Contains(first, "token") {
		t.Errorf("first line %q is not the login link with a single-use code", first)
	}
}
