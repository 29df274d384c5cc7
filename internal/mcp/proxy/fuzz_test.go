package proxy

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/airlock-dev/airlock/internal/mcp/guard"
)

// fuzzSeeds are client messages with ids and progress tokens of every
// JSON type, missing and mistyped fields, huge numbers and nested _meta.
var fuzzSeeds = []string{
	`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"work","arguments":{},"_meta":{"progressToken":7}}}`,
	`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"work","arguments":{},"_meta":{"progressToken":2.5}}}`,
	`{"jsonrpc":"2.0","id":"s","method":"tools/call","params":{"name":"work","arguments":{},"_meta":{"progressToken":"t"}}}`,
	`{"jsonrpc":"2.0","id":1e308,"method":"tools/call","params":{"name":"work","arguments":{},"_meta":{"progressToken":1e400}}}`,
	`{"jsonrpc":"2.0","id":-9223372036854775809,"method":"tools/call","params":{"name":"work","_meta":{"progressToken":123456789012345678901234567890}}}`,
	`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"work","arguments":{},"_meta":{"progressToken":null}}}`,
	`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"work","arguments":{},"_meta":{"progressToken":{"a":[1,{"b":true}]}}}}`,
	`{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"work","arguments":{},"_meta":{"progressToken":true,"x":{"y":{"z":[[[[1]]]]}}}}}`,
	`{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"send_message","arguments":{"to":"Alice","body":"hi"},"_meta":{"progressToken":[1]}}}`,
	`{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"read_messages"}}`,
	`{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"name":"send_message","arguments":{"to":7,"body":null}}}`,
	`{"jsonrpc":"2.0","id":15,"method":"tools/call","params":{"name":"send_message","arguments":"x","requestState":"a.b","inputResponses":{"airlock_confirm":{"action":"accept","content":{"approve":"yes"}}}}}`,
	`{"jsonrpc":"2.0","id":16,"method":"tools/call","params":{"name":"send_message","arguments":{"to":"Bob","body":"b"},"requestState":"","inputResponses":{"airlock_confirm":7}}}`,
	`{"jsonrpc":"2.0","id":17,"method":"tools/call","params":null}`,
	`{"jsonrpc":"2.0","id":18,"method":"tools/call"}`,
	`{"jsonrpc":"2.0","id":null,"method":"tools/list"}`,
	`{"jsonrpc":"2.0","id":true,"method":"ping"}`,
	`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`,
	`{"jsonrpc":"2.0","id":[1],"method":"tools/list","params":{"cursor":7}}`,
	`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":{}}}`,
	`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7,"progress":"x"}}`,
	`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`,
	`{"jsonrpc":"2.0","id":19,"method":"logging/setLevel","params":{"level":7}}`,
	`{"jsonrpc":"2.0","id":20,"method":"resources/read","params":{"uri":"\u0000"}}`,
	`{"jsonrpc":"2.0","id":21,"result":{}}`,
	`{"jsonrpc":"2.0","id":22,"error":{"code":"x"}}`,
	`{"jsonrpc":"1.0","id":23,"method":"ping"}`,
	`{"id":24,"method":"ping"}`,
	`[{"jsonrpc":"2.0","id":25,"method":"ping"}]`,
	`{}`,
	`null`,
	`7`,
	`{"jsonrpc":"2.0","id":26,"method":"tools/call","params":{"name":"work","arguments":{},"_meta":{"progressToken":7}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":26}}`,
}

const fuzzInit = `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"fuzz","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
`

// FuzzClientMessages drives the proxy's agent side with arbitrary
// client messages (one per line) on a fresh session after a real
// initialize: no panic kills the process, and the session still answers
// a ping afterwards.
//
//	go test ./internal/mcp/proxy/ -run '^$' -fuzz FuzzClientMessages -fuzztime 60s
func FuzzClientMessages(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	fx := newTextServer()
	fx.server.AddTool(&sdk.Tool{Name: "work", InputSchema: objectSchema}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		if tok := req.Params.GetProgressToken(); tok != nil {
			_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: tok, Progress: 1, Total: 1})
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "done"}}}, nil
	})
	st, ct := sdk.NewInMemoryTransports()
	if _, err := fx.server.Connect(context.Background(), st, nil); err != nil {
		f.Fatal(err)
	}
	mem := &guard.Memory{}
	p := New(Options{Server: "texts", Guard: &guard.Guard{Policy: loadPolicy(f, benchYAML(2, "elicit")+"        work: {class: neutral}\n"), History: mem}, Recorder: mem})
	if err := p.Connect(context.Background(), ct); err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { p.Close() })
	var n atomic.Int64

	f.Fuzz(func(t *testing.T, msgs string) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		r, w := StdioTransport(inR, outW, nil)
		ss, err := p.Server().Connect(ctx, &sdk.IOTransport{Reader: r, Writer: w}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer func() {
			// Closing must not hang either: it waits for the session's
			// handlers.
			inW.Close()
			outR.Close()
			closed := make(chan struct{})
			go func() { ss.Close(); close(closed) }()
			select {
			case <-closed:
			case <-time.After(20 * time.Second):
				t.Fatalf("closing the session hangs after %q", msgs)
			}
		}()
		ping := fmt.Sprintf("fuzz-ping-%d", n.Add(1))
		answered := make(chan bool, 1)
		go func() {
			sc := bufio.NewScanner(outR)
			sc.Buffer(make([]byte, 1<<20), 1<<24)
			for sc.Scan() {
				if strings.Contains(sc.Text(), `"id":"`+ping+`"`) {
					answered <- true
					io.Copy(io.Discard, outR)
					return
				}
			}
			answered <- false
		}()
		lines := strings.Split(msgs, "\n")
		if len(lines) > 8 {
			lines = lines[:8]
		}
		var b strings.Builder
		b.WriteString(fuzzInit)
		for _, l := range lines {
			// A line is one message on the stdio transport.
			b.WriteString(strings.ReplaceAll(l, "\r", ""))
			b.WriteString("\n")
		}
		b.WriteString(`{"jsonrpc":"2.0","id":"` + ping + `","method":"ping"}` + "\n")
		go func() { _, _ = io.WriteString(inW, b.String()) }()
		select {
		case ok := <-answered:
			if !ok {
				t.Fatalf("the session ended without answering the ping after %q", msgs)
			}
		case <-ctx.Done():
			t.Fatalf("no answer to the ping after %q", msgs)
		}
	})
}
