package mcp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkToolsCall measures one tools/call round trip from a go-sdk
// client to the fixture server's echo tool, directly and through
// "airlock mcp run" (which decides, journals and forwards each call). It
// reports the median (p50-µs) and p90 besides the mean; the difference of
// the two medians is the latency the proxy adds.
//
//	go test ./e2e/mcp -run '^$' -bench ToolsCall -benchtime 2000x
func BenchmarkToolsCall(b *testing.B) {
	for _, tc := range []struct {
		name    string
		proxied bool
	}{{"direct", false}, {"proxied", true}} {
		b.Run(tc.name, func(b *testing.B) {
			root := b.TempDir()
			policy := filepath.Join(root, "policy.yaml")
			if err := os.WriteFile(policy, []byte(benchPolicy), 0o644); err != nil {
				b.Fatal(err)
			}
			cmd := exec.Command(bin.textserver)
			if tc.proxied {
				cmd = exec.Command(bin.airlock, "mcp", "run", "--config", policy, "--name", "texts", "--", bin.textserver)
			}
			cmd.Env = []string{"HOME=" + filepath.Join(root, "home"), "XDG_STATE_HOME=" + filepath.Join(root, "state"), "PATH=" + os.Getenv("PATH")}
			ctx := context.Background()
			cs, err := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
			if err != nil {
				b.Fatal(err)
			}
			defer cs.Close()
			params := &sdk.CallToolParams{Name: "echo", Arguments: map[string]any{"message": "hello"}}
			// Warm up: first calls pay for pinning, journal creation and
			// the server's lazy set-up.
			for i := 0; i < 20; i++ {
				if _, err := cs.CallTool(ctx, params); err != nil {
					b.Fatal(err)
				}
			}
			took := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				start := time.Now()
				res, err := cs.CallTool(ctx, params)
				took = append(took, time.Since(start))
				if err != nil || res.IsError {
					b.Fatalf("call %d: %v %v", i, err, res)
				}
			}
			b.StopTimer()
			sort.Slice(took, func(i, j int) bool { return took[i] < took[j] })
			b.ReportMetric(float64(took[len(took)/2].Microseconds()), "p50-µs")
			b.ReportMetric(float64(took[len(took)*9/10].Microseconds()), "p90-µs")
		})
	}
}
