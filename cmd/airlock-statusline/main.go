// Command airlock-statusline prints airlock's segment of an agent's status
// line, exactly as "airlock statusline" does, in a binary that links only
// the status line's reader (internal/statusline): the agent runs it every
// few hundred milliseconds, and the airlock binary's start-up (every
// package it links is initialised before main) costs about twice a bare Go
// program's (docs/BENCHMARKS.md). "airlock install claude-code
// --statusline" runs it when it sits beside airlock.
package main

import (
	"os"

	"github.com/airlock-dev/airlock/internal/statusline"
)

func main() {
	if len(os.Args) > 1 {
		// It takes no arguments; "airlock statusline --help" explains it.
		os.Stderr.WriteString("usage: airlock-statusline < status.json\n(it takes no arguments; see: airlock statusline --help)\n")
		if a := os.Args[1]; a == "-h" || a == "--help" || a == "-help" {
			os.Exit(0)
		}
		os.Exit(2)
	}
	os.Exit(statusline.Run(os.Stdin, os.Stdout, os.Getenv, os.Getwd))
}
