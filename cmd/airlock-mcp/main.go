// Command airlock-mcp is airlock's MCP firewall proxy ("airlock mcp run"
// and "airlock mcp serve" start it). It is a binary of its own so that the
// MCP SDK does not weigh on the airlock binary, which answers every tool
// call of every agent. Install it next to airlock. See docs/MCP.md.
package main

import (
	"os"

	"github.com/airlock-dev/airlock/internal/mcp/mcpcmd"
)

func main() {
	os.Exit(mcpcmd.Main(os.Args[1:], mcpcmd.OS()))
}
