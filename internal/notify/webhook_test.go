package notify

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The webhook gets one JSON POST per held item, with the configured
// headers, the item rendered and redacted, and no way to approve.
func TestWebhookPayload(t *testing.T) {
	type got struct {
		header http.Header
		body   []byte
	}
	posts := make(chan got, 10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		posts <- got{r.Header.Clone(), b}
	}))
	defer srv.Close()
	e := newEnv(t)
	cfg := e.config("notify:\n  webhook:\n    url: " + srv.URL + "/hook\n    headers:\n      X-Auth: hook-secret-value\n")
	id := e.hold("git push https://bob:pa55word@github.com/o/r.git main # \x1b]0;owned\x07")
	w, err := New(cfg, e.j, Options{StateDir: e.state})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if err := w.Once(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if len(posts) != 1 {
		t.Fatalf("%d posts, want 1 (sent once)", len(posts))
	}
	p := <-posts
	if p.header.Get("X-Auth") != "hook-secret-value" || p.header.Get("Content-Type") != "application/json" {
		t.Errorf("headers %v", p.header)
	}
	var pl WebhookPayload
	dec := json.NewDecoder(strings.NewReader(string(p.body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&pl); err != nil {
		t.Fatalf("%v: %s", err, p.body)
	}
	it := pl.Item
	if pl.Source != "airlock" || pl.Event != "held" || it.ID != id || it.Effect != "external" || it.Cwd != "/work/proj" ||
		it.Session != "sess-1234567890" || it.Time.IsZero() || len(it.Reasons) != 1 || !strings.Contains(pl.Approve, "not over this webhook") {
		t.Fatalf("payload %s", p.body)
	}
	if strings.Contains(string(p.body), "pa55word") || strings.Contains(it.Command, "\x1b") || !strings.Contains(it.Command, Marker) || !strings.Contains(it.Command, `\x1b]0;owned\x07`) {
		t.Fatalf("command not rendered or not redacted: %q", it.Command)
	}
	if strings.Contains(string(p.body), "mac") || strings.Contains(string(p.body), "nonce") {
		t.Fatalf("a webhook carries a signed reply: %s", p.body)
	}
}
