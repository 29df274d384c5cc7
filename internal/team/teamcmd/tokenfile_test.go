package teamcmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTokenFile: a reviewer's token from a file or stdin reaches the
// client, so that it need not be in argv and the shell's history
// (FINDINGS-10 L1); with --token as well, the command refuses.
func TestTokenFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(f, []byte("altr_abc\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	o := Options{Getenv: func(string) string { return "" }, Stdin: strings.NewReader("altr_stdin\n")}
	for _, c := range []struct {
		flags reviewerFlags
		want  string
	}{
		{reviewerFlags{server: "http://127.0.0.1:1", tokenFile: f}, "altr_abc"},
		{reviewerFlags{server: "http://127.0.0.1:1", tokenFile: "-"}, "altr_stdin"},
	} {
		cl, err := c.flags.client(o, "queue list")
		if err != nil || cl.token != c.want {
			t.Errorf("%+v: %v %v", c.flags, cl, err)
		}
	}
	both := reviewerFlags{server: "http://127.0.0.1:1", token: "x", tokenFile: f}
	if _, err := both.client(o, "queue list"); err == nil {
		t.Error("--token and --token-file together were taken")
	}
	empty := filepath.Join(t.TempDir(), "empty")
	os.WriteFile(empty, nil, 0o600)
	if _, err := (&reviewerFlags{server: "http://127.0.0.1:1", tokenFile: empty}).client(o, "queue list"); err == nil {
		t.Error("an empty token file was taken")
	}
}
