// Command airlock-bridge is the first process inside "airlock run"'s
// sandbox: it relays the loopback proxy port to airlock's egress proxy
// and runs the command. airlock-run starts it; nobody else should.
// It is its own small binary so that it starts fast (docs/BENCHMARKS.md).
package main

import (
	"os"

	"github.com/airlock-dev/airlock/internal/contain/bridge"
)

func main() {
	os.Exit(bridge.Main(os.Args[1:], os.Stderr))
}
