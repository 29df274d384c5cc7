package proxy

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/airlock-dev/airlock/internal/mcp/guard"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// upstreamRig is a proxy in front of a server the test builds, with every
// tool neutral, and one client.
type upstreamRig struct {
	proxy *Proxy
	mem   *guard.Memory
	rec   vocab.Recorder
	log   *syncBuffer
	ctx   context.Context
}

// newUpstreamRig connects a proxy (recording to rec, or a fresh Memory)
// to up over in-memory transports.
func newUpstreamRig(t *testing.T, up *sdk.Server, rec vocab.Recorder) *upstreamRig {
	t.Helper()
	mem := &guard.Memory{}
	if rec == nil {
		rec = mem
	}
	// A stuck call fails the test instead of hanging it.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	r := &upstreamRig{mem: mem, rec: rec, log: &syncBuffer{}, ctx: ctx}
	r.proxy = New(Options{Server: "up", Guard: &guard.Guard{Policy: loadPolicy(t, "mcp:\n  servers:\n    up:\n      default: neutral\n"), History: mem}, Recorder: rec, Log: r.log})
	st, ct := sdk.NewInMemoryTransports()
	ss, err := up.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	if err := r.proxy.Connect(ctx, ct); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.proxy.Close() })
	return r
}

// client connects a new client session to the proxy.
func (r *upstreamRig) client(t *testing.T, opts *sdk.ClientOptions) *sdk.ClientSession {
	t.Helper()
	st, ct := sdk.NewInMemoryTransports()
	if _, err := r.proxy.Server().Connect(r.ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "agent", Version: "1"}, opts).Connect(r.ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

var objectSchema = map[string]any{"type": "object"}

// progressServer's "work" tool reports progress twice with the token it
// was given, then answers with the token's JSON. With delivered set it
// answers only once it receives from delivered (the client got the
// progress: notifications and responses are handled concurrently, and
// progress after the response is dropped).
func progressServer(delivered <-chan struct{}) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "progress", Version: "1"}, nil)
	s.AddTool(&sdk.Tool{Name: "work", InputSchema: objectSchema}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		tok := req.Params.GetProgressToken()
		if tok != nil {
			for i := 1; i <= 2; i++ {
				if err := req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: tok, Progress: float64(i), Total: 2, Message: "step\x1b[31m"}); err != nil {
					return nil, err
				}
			}
		}
		if tok != nil && delivered != nil {
			select {
			case <-delivered:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		b, _ := json.Marshal(tok)
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: string(b)}}}, nil
	})
	return s
}

// TestProgressTokens: every token type the spec allows (numbers, which
// reach the proxy as float64, including non-integral ones, and strings)
// is accepted; the progress comes back to the caller with its own token,
// sanitised, and the upstream sees a token of the proxy's. Before, a
// numeric token (what Claude Code sends) killed the process.
func TestProgressTokens(t *testing.T) {
	delivered := make(chan struct{})
	r := newUpstreamRig(t, progressServer(delivered), nil)
	for _, tok := range []any{7, 2, int64(1) << 53, "tok-1", "", 2.5, -3} {
		var mu sync.Mutex
		var got []*sdk.ProgressNotificationParams
		cs := r.client(t, &sdk.ClientOptions{ProgressNotificationHandler: func(_ context.Context, n *sdk.ProgressNotificationClientRequest) {
			mu.Lock()
			got = append(got, n.Params)
			if len(got) == 2 {
				delivered <- struct{}{}
			}
			mu.Unlock()
		}})
		params := &sdk.CallToolParams{Name: "work", Arguments: map[string]any{}}
		params.Meta = sdk.Meta{"progressToken": tok}
		res, err := cs.CallTool(r.ctx, params)
		if err != nil || res.IsError {
			t.Fatalf("token %#v: %v %+v", tok, err, res)
		}
		// The upstream saw a token of the proxy's own (an integer).
		if text := res.Content[0].(*sdk.TextContent).Text; !regexp.MustCompile(`^[1-9][0-9]*$`).MatchString(text) {
			t.Errorf("token %#v: upstream saw %s", tok, text)
		}
		mu.Lock()
		if len(got) != 2 {
			t.Errorf("token %#v: %d progress notifications, want 2", tok, len(got))
		}
		for _, n := range got {
			if k1, _ := tokenKey(n.ProgressToken); k1 != mustKey(t, tok) {
				t.Errorf("token %#v: progress came back with token %#v", tok, n.ProgressToken)
			}
			if strings.ContainsRune(n.Message, 0x1b) {
				t.Errorf("progress message not sanitised: %q", n.Message)
			}
		}
		mu.Unlock()
	}
	r.proxy.mu.Lock()
	defer r.proxy.mu.Unlock()
	if len(r.proxy.progress) != 0 {
		t.Errorf("%d progress routes left after the calls ended", len(r.proxy.progress))
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func mustKey(t *testing.T, v any) string {
	t.Helper()
	// What the proxy's server decodes: the JSON round trip.
	var back any
	if err := json.Unmarshal([]byte(mustJSON(v)), &back); err != nil {
		t.Fatal(err)
	}
	k, ok := tokenKey(back)
	if !ok {
		t.Fatalf("tokenKey(%#v) not ok", back)
	}
	return k
}

func TestTokenKey(t *testing.T) {
	same := [][]any{
		{2, int64(2), int32(2), 2.0, json.Number("2")},
		{"2"},
		{2.5, json.Number("2.5")},
		{-1, -1.0},
	}
	keys := map[string]int{}
	for i, group := range same {
		for _, v := range group {
			k, ok := tokenKey(v)
			if !ok {
				t.Fatalf("tokenKey(%#v) not ok", v)
			}
			if j, seen := keys[k]; seen && j != i {
				t.Errorf("%#v collides with group %d", v, j)
			}
			keys[k] = i
		}
	}
	if len(keys) != len(same) {
		t.Errorf("keys %v: want one per group", keys)
	}
	for _, v := range []any{nil, true, map[string]any{}, []any{1}, math.Inf(1), math.NaN()} {
		if _, ok := tokenKey(v); ok {
			t.Errorf("tokenKey(%#v) ok, want not a token", v)
		}
	}
}

// panicRecorder panics on its first Record, then records into mem.
type panicRecorder struct {
	mu     sync.Mutex
	panics int
	mem    *guard.Memory
}

func (p *panicRecorder) Record(ev *vocab.Event) (vocab.Receipt, error) {
	p.mu.Lock()
	if p.panics > 0 {
		p.panics--
		p.mu.Unlock()
		panic("boom in the recorder")
	}
	p.mu.Unlock()
	return p.mem.Record(ev)
}

// TestPanicFailsOneRequest: a panic while handling one call answers that
// call with a JSON-RPC error (non-zero code); the session, another
// session and the process go on, and the failure is journaled and
// logged.
func TestPanicFailsOneRequest(t *testing.T) {
	pr := &panicRecorder{panics: 1, mem: &guard.Memory{}}
	r := newUpstreamRig(t, progressServer(nil), pr)
	a, b := r.client(t, nil), r.client(t, nil)
	_, err := a.CallTool(r.ctx, &sdk.CallToolParams{Name: "work", Arguments: map[string]any{}})
	var we *jsonrpc.Error
	if !errors.As(err, &we) || we.Code != CodeInternal || !strings.Contains(we.Message, "internal error") {
		t.Fatalf("panicking call: %v, want a JSON-RPC error %d", err, CodeInternal)
	}
	for _, cs := range []*sdk.ClientSession{a, b} {
		if res, err := cs.CallTool(r.ctx, &sdk.CallToolParams{Name: "work", Arguments: map[string]any{}}); err != nil || res.IsError {
			t.Fatalf("the next call: %v %+v", err, res)
		}
	}
	d := pr.mem.Details()
	if len(d) == 0 || d[0].Decision != DecisionFailed || d[0].Tool != "work" || !strings.Contains(d[0].Reason, "boom") {
		t.Errorf("journal after the panic: %+v", d)
	}
	if !strings.Contains(r.log.String(), "boom in the recorder") {
		t.Errorf("the panic was not logged: %s", r.log.String())
	}
}

// TestUpstreamDiesMidCall: an upstream that closes its connection during
// a call gives the client a JSON-RPC error with a non-zero code saying
// so, and the journal records the call as failed after its "allow".
func TestUpstreamDiesMidCall(t *testing.T) {
	s := sdk.NewServer(&sdk.Implementation{Name: "dying", Version: "1"}, nil)
	s.AddTool(&sdk.Tool{Name: "die", InputSchema: objectSchema}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		// Closing waits for the handlers, this one included.
		go req.Session.Close()
		<-ctx.Done()
		return nil, ctx.Err()
	})
	r := newUpstreamRig(t, s, nil)
	cs := r.client(t, nil)
	_, err := cs.CallTool(r.ctx, &sdk.CallToolParams{Name: "die", Arguments: map[string]any{}})
	var we *jsonrpc.Error
	if !errors.As(err, &we) || we.Code == 0 || !strings.Contains(we.Message, "died or closed its connection") {
		t.Fatalf("call to a dying upstream: %#v, want a JSON-RPC error saying the upstream died", err)
	}
	d := r.mem.Details()
	if len(d) != 2 || d[0].Decision != "allow" || d[1].Decision != DecisionFailed || d[1].Phase != "result" || d[1].Tool != "die" {
		t.Errorf("journal: %+v, want allow then failed", d)
	}
	// The session still answers: with the upstream gone, with an error.
	if _, err := cs.CallTool(r.ctx, &sdk.CallToolParams{Name: "die", Arguments: map[string]any{}}); !errors.As(err, &we) || we.Code == 0 {
		t.Errorf("a call after the upstream died: %v", err)
	}
	if err := cs.Ping(r.ctx, nil); err != nil {
		t.Errorf("ping after the upstream died: %v", err)
	}
}
