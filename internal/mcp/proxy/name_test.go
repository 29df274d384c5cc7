package proxy

import (
	"context"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/airlock-dev/airlock/internal/mcp/guard"
)

func TestDefaultName(t *testing.T) {
	for _, tt := range []struct{ info, fallback, want string }{
		{"mcp-servers/everything", "npx", "everything"},
		{"texts", "python3", "texts"},
		{"", "python3", "python3"},
		{"  ", "node", "node"},
		{"a__b", "x", "a_-b"},
		{"weird name\x1b[31m!", "x", "weird-name--31m"},
		{"@scope/pkg", "x", "pkg"},
		{"", "", "upstream"},
		{"///", "__", "upstream"},
	} {
		if got := DefaultName(tt.info, tt.fallback); got != tt.want {
			t.Errorf("DefaultName(%q, %q) = %q, want %q", tt.info, tt.fallback, got, tt.want)
		}
	}
	long := DefaultName(strings.Repeat("ab", 100), "")
	if len(long) > 64 {
		t.Errorf("name of %d bytes", len(long))
	}
}

// TestNameFromServerInfo: without a name, two servers run by the same
// interpreter get the names they give themselves, so their pins and
// policy entries stay apart.
func TestNameFromServerInfo(t *testing.T) {
	for _, server := range []string{"notes", "mail"} {
		up := sdk.NewServer(&sdk.Implementation{Name: server, Version: "1"}, nil)
		up.AddTool(&sdk.Tool{Name: "t", InputSchema: objectSchema}, func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			return &sdk.CallToolResult{}, nil
		})
		st, ct := sdk.NewInMemoryTransports()
		ss, err := up.Connect(context.Background(), st, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ss.Close()
		p := New(Options{Fallback: "python3", Guard: &guard.Guard{Policy: loadPolicy(t, "mode: supervised\n"), History: &guard.Memory{}}, Recorder: &guard.Memory{}})
		if err := p.Connect(context.Background(), ct); err != nil {
			t.Fatal(err)
		}
		defer p.Close()
		if p.Name() != server {
			t.Errorf("name %q, want %q", p.Name(), server)
		}
	}
}
