//go:build linux

package bridge

import (
	"io"
	"net"
	"strconv"
	"testing"
)

// The bridge's listener, made with the system calls themselves, is a
// loopback TCP listener like net.Listen's: on 127.0.0.1 (or ::1), at the
// port asked, accepting connections, and the port is then taken.
func TestListenLoopback(t *testing.T) {
	for _, v6 := range []bool{false, true} {
		ln, err := listenLoopback(v6, 0)
		if v6 && err != nil {
			t.Logf("no IPv6 loopback here: %v", err)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		a := ln.Addr().(*net.TCPAddr)
		want := "127.0.0.1"
		if v6 {
			want = "::1"
		}
		if a.IP.String() != want || a.Port == 0 {
			t.Fatalf("listening on %v, want %s and a port", a, want)
		}
		if again, err := listenLoopback(v6, a.Port); err == nil {
			again.Close()
			t.Fatalf("a second listener on %v was made: the port is not taken", a)
		}
		go func() {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("bridge"))
			c.Close()
		}()
		c, err := net.Dial("tcp", net.JoinHostPort(want, strconv.Itoa(a.Port)))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(c)
		c.Close()
		ln.Close()
		if string(got) != "bridge" {
			t.Fatalf("read %q through the listener", got)
		}
	}
}
