package egress

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestPushCommands(t *testing.T) {
	var b bytes.Buffer
	pkt(&b, strings.Repeat("a", 40)+" "+strings.Repeat("b", 40)+" refs/heads/main\x00 report-status-v2 side-band-64k agent=git/2\n")
	pkt(&b, strings.Repeat("c", 40)+" "+strings.Repeat("d", 40)+" refs/tags/v1\n")
	b.WriteString("0000PACK...")
	refs, caps, ok := pushCommands(b.Bytes())
	if !ok || strings.Join(refs, ",") != "refs/heads/main,refs/tags/v1" || !hasCap(caps, "side-band-64k") {
		t.Fatalf("pushCommands = %q %q %v", refs, caps, ok)
	}
	for _, bad := range []string{"", "zzzz", "0008ab\n", "0032" + strings.Repeat("a", 46), "000aonly\n0000"} {
		if _, _, ok := pushCommands([]byte(bad)); ok {
			t.Errorf("pushCommands(%q) read a push", bad)
		}
	}
	// Without report-status the client could not show a reason: the
	// proxy answers with its 403 instead.
	var nb bytes.Buffer
	pkt(&nb, strings.Repeat("a", 40)+" "+strings.Repeat("b", 40)+" refs/heads/main\x00 side-band-64k\n")
	nb.WriteString("0000")
	r := httptest.NewRequest("POST", "http://x/r.git/git-receive-pack", nil)
	r.Header.Set("Content-Type", "application/x-git-receive-pack-request")
	if heldPush(httptest.NewRecorder(), r, nb.Bytes(), "q1", "why") {
		t.Fatal("answered in git's protocol without report-status")
	}
	w := httptest.NewRecorder()
	if !heldPush(w, r, b.Bytes(), "q1", "why\nwith a newline") || w.Code != http.StatusOK ||
		!strings.Contains(w.Body.String(), "ng refs/heads/main held by airlock: queue q1") || strings.Contains(w.Body.String(), "why\nwith") {
		t.Fatalf("held push answer: %d %q", w.Code, w.Body.String())
	}
}
