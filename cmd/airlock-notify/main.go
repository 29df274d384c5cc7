// Command airlock-notify is airlock's notification watcher ("airlock
// notify" starts it). It is a binary of its own so that the HTTP client
// and TLS stack it needs do not weigh on the airlock binary, which answers
// every tool call of every agent. Install it next to airlock. See
// docs/NOTIFY.md.
package main

import (
	"os"

	"github.com/airlock-dev/airlock/internal/notify/notifycmd"
)

func main() {
	os.Exit(notifycmd.Main(os.Args[1:], os.Stdout, os.Stderr, os.Getenv))
}
