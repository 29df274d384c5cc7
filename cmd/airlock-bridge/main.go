//go:debug containermaxprocs=0
//go:debug updatemaxprocs=0

// Command airlock-bridge is the first process inside "airlock run"'s
// sandbox: it relays the loopback proxy port to airlock's egress proxy
// and runs the command. airlock-run starts it; nobody else should.
// It is its own small binary so that it starts fast (docs/BENCHMARKS.md).
//
// It keeps the runtime's processor count (the go:debug lines above): the
// cgroup-aware default reads /proc/self/cgroup and /proc/self/mountinfo
// at every start, and again now and then while it runs, for a program
// that waits far more than it computes (docs/BENCHMARKS.md, containment
// start-up, round 4).
package main

import (
	"os"

	"github.com/airlock-dev/airlock/internal/contain/bridge"
)

func main() {
	os.Exit(bridge.Main(os.Args[1:], os.Stderr))
}
