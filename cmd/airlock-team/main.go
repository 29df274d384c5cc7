// Command airlock-team is airlock's team mode ("airlock team" runs it):
// the team server on PostgreSQL, its admin commands, and the reviewer's
// commands. It is a binary of its own so that pgx and an HTTP stack do
// not weigh on the airlock binary, which answers every tool call of
// every agent. Install it next to airlock. See docs/TEAM.md.
package main

import (
	"os"

	"github.com/airlock-dev/airlock/internal/team/teamcmd"
)

func main() {
	os.Exit(teamcmd.Main(teamcmd.Options{Args: os.Args[1:], Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv}))
}
