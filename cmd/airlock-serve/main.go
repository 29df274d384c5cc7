// Command airlock-serve is airlock's review dashboard ("airlock serve"
// starts it). It is a binary of its own so that its HTTP server and
// templates do not weigh on the airlock binary, which answers every tool
// call of every agent. Install it next to airlock. See docs/DASHBOARD.md.
package main

import (
	"os"

	"github.com/airlock-dev/airlock/internal/serve/servecmd"
)

func main() {
	os.Exit(servecmd.Main(servecmd.Options{Args: os.Args[1:], Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv}))
}
