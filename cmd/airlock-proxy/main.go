// Command airlock-proxy is airlock's egress proxy ("airlock proxy"
// starts it): the one door to the network for programs in a sandbox.
// It is a binary of its own so that its TLS and HTTP stacks do not weigh
// on the airlock binary, which answers every tool call of every agent.
// Install it next to airlock. See docs/CONTAIN.md.
package main

import (
	"os"

	"github.com/airlock-dev/airlock/internal/contain/egress/egresscmd"
)

func main() {
	os.Exit(egresscmd.Main(egresscmd.Options{Args: os.Args[1:], Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Getwd: os.Getwd}))
}
