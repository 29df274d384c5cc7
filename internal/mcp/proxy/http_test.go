package proxy

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/airlock-dev/airlock/internal/mcp/guard"
)

func TestCheckListen(t *testing.T) {
	for _, tt := range []struct {
		addr string
		ok   bool
	}{
		{"127.0.0.1:8080", true}, {"localhost:8080", true}, {"[::1]:8080", true}, {"127.0.0.2:1", true},
		{"0.0.0.0:8080", false}, {":8080", false}, {"192.168.1.5:8080", false}, {"example.com:80", false},
	} {
		err := CheckListen(tt.addr)
		if (err == nil) != tt.ok || !tt.ok && !errors.Is(err, ErrNotLoopback) {
			t.Errorf("CheckListen(%q) = %v", tt.addr, err)
		}
	}
}

// TestHTTP runs the proxy over streamable HTTP on loopback: a client
// without Origin works, a foreign Origin is refused.
func TestHTTP(t *testing.T) {
	fx := newTextServer()
	p := New(Options{Server: "texts", Guard: &guard.Guard{Policy: loadPolicy(t, benchYAML(0, "elicit")), History: &guard.Memory{}}, Recorder: &guard.Memory{}})
	if err := p.Connect(context.Background(), fx.connect(t)); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	srv := httptest.NewUnstartedServer(p.Handler(port, []string{"https://allowed.example"}, SessionLimits{}))
	srv.Listener = ln
	srv.Start()
	defer srv.Close()

	cs, err := sdk.NewClient(&sdk.Implementation{Name: "agent"}, nil).Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: srv.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "send_message", Arguments: map[string]any{"to": "Alice", "body": "hi"}})
	if err != nil || res.IsError || len(fx.sends()) != 1 {
		t.Fatalf("call over HTTP: %v %+v", err, res)
	}

	for _, tt := range []struct {
		origin string
		want   int
	}{
		{"http://evil.example:" + port, http.StatusForbidden},
		{"http://localhost:1", http.StatusForbidden},
		{"http://127.0.0.1:" + port, http.StatusBadRequest}, // accepted; the empty body is then a bad request
		{"https://allowed.example", http.StatusBadRequest},
	} {
		req, _ := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader("{}"))
		req.Header.Set("Origin", tt.origin)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if (resp.StatusCode == http.StatusForbidden) != (tt.want == http.StatusForbidden) {
			t.Errorf("Origin %s: status %d", tt.origin, resp.StatusCode)
		}
	}
}
