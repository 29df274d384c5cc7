package proxy

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpRig serves a proxy (in front of progressServer) over streamable
// HTTP on loopback with lim.
func httpRig(t *testing.T, lim SessionLimits) (*upstreamRig, string) {
	t.Helper()
	r := newUpstreamRig(t, progressServer(nil), nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	srv := httptest.NewUnstartedServer(r.proxy.Handler(port, nil, lim))
	srv.Listener = ln
	srv.Start()
	t.Cleanup(func() {
		// Open event streams would hold Close forever.
		srv.CloseClientConnections()
		srv.Close()
	})
	return r, srv.URL
}

func (r *upstreamRig) sessions() int {
	n := 0
	for range r.proxy.Server().Sessions() {
		n++
	}
	return n
}

// waitSessions polls until the proxy holds want sessions; it fails only
// after a generous bound, so that a slow machine does not make it flaky.
func (r *upstreamRig) waitSessions(t *testing.T, want int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for r.sessions() != want {
		if time.Now().After(deadline) {
			t.Fatalf("%d sessions, want %d", r.sessions(), want)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// httpClient connects over HTTP as clients do today (2025-11-25): the
// SDK's newer revision first sends a server/discover probe whose
// short-lived session is torn down asynchronously, which would make the
// bound's count racy in a test.
func httpClient(ctx context.Context, url string) (*sdk.ClientSession, error) {
	return sdk.NewClient(&sdk.Implementation{Name: "agent"}, nil).Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, &sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
}

// TestSessionBound: beyond the bound a new session is refused with a
// message naming the bound; the sessions held keep working, and once one
// ends a new one is accepted.
func TestSessionBound(t *testing.T) {
	r, url := httpRig(t, SessionLimits{Max: 2, IdleTTL: time.Hour})
	a, err := httpClient(r.ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	b, err := httpClient(r.ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, err := httpClient(r.ctx, url); err == nil || !strings.Contains(err.Error(), "Service Unavailable") {
		t.Fatalf("third session: %v, want refused (503)", err)
	}
	// What a human sees: the body says why, and the log too.
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "too many MCP sessions") || !strings.Contains(string(body), "--max-sessions") {
		t.Errorf("refusal: %d %s", resp.StatusCode, body)
	}
	if !strings.Contains(r.log.String(), "refused a new session") {
		t.Errorf("the refusal was not logged: %s", r.log.String())
	}
	if res, err := b.CallTool(r.ctx, &sdk.CallToolParams{Name: "work", Arguments: map[string]any{}}); err != nil || res.IsError {
		t.Fatalf("a held session after the refusal: %v %+v", err, res)
	}
	a.Close()
	r.waitSessions(t, 1)
	c, err := httpClient(r.ctx, url)
	if err != nil {
		t.Fatalf("a session after one ended: %v\n%s", err, r.log.String())
	}
	c.Close()
}

// TestSessionExpiry: a session without requests for the TTL is closed
// and its memory released; one that keeps calling stays.
func TestSessionExpiry(t *testing.T) {
	const ttl = 300 * time.Millisecond
	r, url := httpRig(t, SessionLimits{Max: 10, IdleTTL: ttl})
	idle, err := httpClient(r.ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	busy, err := httpClient(r.ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	busyID := busy.ID()
	// The busy client calls more often than the TTL until the idle
	// session is gone: it must outlive it.
	deadline := time.Now().Add(20 * time.Second)
	for {
		if err := busy.Ping(r.ctx, nil); err != nil {
			t.Fatalf("the busy session expired: %v", err)
		}
		alive := map[string]bool{}
		for ss := range r.proxy.Server().Sessions() {
			alive[ss.ID()] = true
		}
		if !alive[idle.ID()] {
			if !alive[busyID] {
				t.Fatal("the busy session was closed with the idle one")
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the idle session never expired")
		}
		time.Sleep(ttl / 6)
	}
}
