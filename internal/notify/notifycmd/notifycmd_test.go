package notifycmd

import (
	"bytes"
	"strings"
	"testing"
)

// TestHelp: airlock-notify --help prints its help and exits 0, and a
// mistake is a usage error on standard error.
func TestHelp(t *testing.T) {
	getenv := func(string) string { return "" }
	for _, h := range []string{"-h", "--help"} {
		var stdout, stderr bytes.Buffer
		if code := Main([]string{h}, &stdout, &stderr, getenv); code != 0 || !strings.Contains(stdout.String(), "airlock notify [--once] [--json]") || stderr.Len() != 0 {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", h, code, stdout.String(), stderr.String())
		}
	}
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"--nope"}, &stdout, &stderr, getenv); code != 2 || !strings.Contains(stderr.String(), "-nope") || stdout.Len() != 0 {
		t.Errorf("--nope: exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}
