package proxy

import (
	"context"
	"path/filepath"
	"regexp"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/mcp/guard"
	"github.com/airlock-dev/airlock/internal/mcp/pin"
)

// TestApprovedCallRunsOnce: parallel retries of one held call a human
// approved, against the real journal, through the proxy. The approval is
// consumed under the journal's lock, so exactly one retry reaches the
// upstream server; the others are refused.
func TestApprovedCallRunsOnce(t *testing.T) {
	const retries = 8
	j, err := journal.Open(filepath.Join(t.TempDir(), "journal"))
	if err != nil {
		t.Fatal(err)
	}
	fx := newTextServer()
	p := New(Options{Server: "texts", Guard: &guard.Guard{Policy: loadPolicy(t, benchYAML(0, "elicit")), History: guard.Journal{J: j}},
		Recorder: j, Pins: pin.Open(filepath.Join(t.TempDir(), "pins.json")), Log: &syncBuffer{}})
	ctx := context.Background()
	if err := p.Connect(ctx, fx.connect(t)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	st, ct := sdk.NewInMemoryTransports()
	if _, err := p.Server().Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "agent", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	r := &rig{fx: fx, proxy: p, cs: cs}

	r.call(t, "read_messages", map[string]any{})
	res, text := r.send(t, "Bob", "hello")
	m := regexp.MustCompile(`queue id ([0-9a-f]+)`).FindStringSubmatch(text)
	if !res.IsError || m == nil {
		t.Fatalf("not held with a queue id: %s", text)
	}
	if _, err := j.Settle(journal.EventApprove, m[1], "fine", 0); err != nil {
		t.Fatal(err)
	}
	errs := make([]bool, retries)
	var wg sync.WaitGroup
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "send_message", Arguments: map[string]any{"to": "Bob", "body": "hello"}})
			errs[i] = err != nil || res.IsError
		}()
	}
	wg.Wait()
	ran := 0
	for _, e := range errs {
		if !e {
			ran++
		}
	}
	if ran != 1 || len(fx.sends()) != 1 {
		t.Fatalf("%d of %d parallel retries ran (%d sent), want exactly 1", ran, retries, len(fx.sends()))
	}
}
