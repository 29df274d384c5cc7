// Command airlock-teamsync is the machine's side of team mode ("airlock
// team join" and "airlock team sync" start it). It is a binary of its own
// so that the HTTP client and TLS stack it needs do not weigh on the
// airlock binary, which answers every tool call of every agent, and so
// that a machine links no database driver. Install it next to airlock.
// See docs/TEAM.md.
package main

import (
	"os"

	"github.com/airlock-dev/airlock/internal/team/sync/synccmd"
)

func main() {
	os.Exit(synccmd.Main(os.Args[1:], os.Stdout, os.Stderr, os.Getenv))
}
