//go:build linux

// Command ipcfloor measures the lower bound of one design for the hook: a
// tiny client process that hands the event to a resident decision service
// over a unix socket and prints its reply. It decides nothing: it sends
// standard input to the socket named by $IPCFLOOR_SOCK and prints what
// comes back.
//
// It uses raw system calls (no net package, whose initialisation it would
// otherwise pay), as a real hook client would to stay near the floor. With
// no service it exits 2, which is how a hook client has to fail: closed.
// bench/hooktime -ipc serves the socket from its own process (a fixed
// reply, like the floor's) and times this client beside the floor.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"
)

func main() {
	if err := client(os.Getenv("IPCFLOOR_SOCK")); err != nil {
		fmt.Fprintln(os.Stderr, "ipcfloor: no decision service, the call is blocked:", err)
		os.Exit(2)
	}
}
func client(path string) error {
	if path == "" {
		return errors.New("IPCFLOOR_SOCK is not set")
	}
	event, err := io.ReadAll(os.Stdin)
	if err != nil {
		return err
	}
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	if err := syscall.Connect(fd, &syscall.SockaddrUnix{Name: path}); err != nil {
		return err
	}
	for len(event) > 0 {
		n, err := syscall.Write(fd, event)
		if err != nil {
			return err
		}
		event = event[n:]
	}
	if err := syscall.Shutdown(fd, syscall.SHUT_WR); err != nil {
		return err
	}
	buf := make([]byte, 4096)
	var out []byte
	for {
		n, err := syscall.Read(fd, buf)
		if err != nil {
			return err
		}
		if n == 0 {
			break
		}
		out = append(out, buf[:n]...)
	}
	if len(out) == 0 {
		return errors.New("empty reply")
	}
	_, err = os.Stdout.Write(out)
	return err
}
