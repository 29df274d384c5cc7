// Command airlock is an output firewall for AI agents: it lets an agent do
// local work freely and holds anything that reaches the outside world for a
// human. See README.md.
package main

import (
	"os"

	// First of the module's packages to initialise: "airlock run" becomes
	// airlock-run there, before the rest is initialised for nothing.
	_ "github.com/airlock-dev/airlock/cmd/airlock/runfirst"
	"github.com/airlock-dev/airlock/internal/cli"
	// Initialised first: grows the stack before anything runs deep.
	_ "github.com/airlock-dev/airlock/internal/stackstart"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
