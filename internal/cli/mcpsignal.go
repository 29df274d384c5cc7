package cli

import (
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"
)

// childGrace is how long a child has to exit after a forwarded signal
// before it is killed: airlock-mcp stops its HTTP server (up to 5 s for
// open streams) and its upstream within it.
const childGrace = 10 * time.Second

// runForwarding runs cmd, passing SIGINT, SIGTERM and SIGHUP on to it and
// waiting for it to exit (killed after childGrace), so that stopping
// "airlock mcp serve|run" stops the proxy and frees its port instead of
// leaving an orphan.
func runForwarding(cmd *exec.Cmd) error {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var kill <-chan time.Time
	for {
		select {
		case err := <-done:
			return err
		case sig := <-sigs:
			_ = cmd.Process.Signal(sig)
			if kill == nil {
				kill = time.After(childGrace)
			}
		case <-kill:
			_ = cmd.Process.Kill()
		}
	}
}
