// Command airlock-run is "airlock run": it runs a command in a sandbox
// (bubblewrap) where the project is writable, airlock's state is absent,
// its files and every agent's settings are read-only, and the network is
// one door, airlock's egress proxy (airlock-proxy, started at the
// sandbox's first connection). It is a binary of its own so that the
// network stack stays out of the airlock binary, which answers every tool
// call. Install it next to airlock and airlock-proxy. See docs/CONTAIN.md.
package main

import (
	"os"

	"github.com/airlock-dev/airlock/internal/contain/run/runner"
)

func main() {
	os.Exit(runner.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
