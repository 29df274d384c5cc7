package record

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Proxy is the record of airlock's egress proxy listening on a TCP port
// of this machine's loopback ("airlock proxy --listen 127.0.0.1:PORT"),
// which "airlock install claude-code --contain" points Claude Code's
// sandbox at (sandbox.network.httpProxyPort).
type Proxy struct {
	Proc
	Port int `json:"port"`
	// Exe is the proxy's binary (os.Executable) when it started.
	Exe string `json:"exe"`
	// Listen is the address it listens on, as it printed it.
	Listen string `json:"listen"`
}

// proxyPath is where the record of the proxy on port is kept.
func proxyPath(stateDir string, port int) string {
	return filepath.Join(stateDir, Dir, "proxy", strconv.Itoa(port)+".json")
}

// WriteProxy records the calling process as airlock's proxy on port, and
// returns what removes the record when the proxy stops (only if it is
// still this process's: a later proxy's record on the same port stays).
func WriteProxy(stateDir string, port int, listen string) (remove func(), err error) {
	if !filepath.IsAbs(stateDir) || port <= 0 || port > 65535 {
		return nil, fmt.Errorf("record: no state directory or no port (%q, %d)", stateDir, port)
	}
	self, err := Self()
	if err != nil {
		return nil, fmt.Errorf("record: this process's start time: %w", err)
	}
	exe, _ := os.Executable()
	rec := Proxy{Proc: self, Port: port, Exe: exe, Listen: listen}
	path := proxyPath(stateDir, port)
	if err := write(path, rec); err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	return func() {
		var now Proxy
		if read(path, &now) == nil && now.Proc == self {
			os.Remove(path)
		}
	}, nil
}

// ErrNotAirlockProxy says a port is not known to be airlock's proxy.
var ErrNotAirlockProxy = errors.New("not airlock's egress proxy")

// CheckProxy reports whether the proxy on port is airlock's: nil when
// airlock's proxy recorded that port in stateDir, that process still
// runs (same pid and start time) from the binary it recorded, and every
// TCP socket listening on that port on this machine is that process's
// (so no other program, on another loopback address or the other IP
// family, answers there). Otherwise an error that wraps
// ErrNotAirlockProxy says why.
func CheckProxy(stateDir string, port int) error {
	if port <= 0 || port > 65535 {
		return fmt.Errorf("%w: %d is not a port", ErrNotAirlockProxy, port)
	}
	if !filepath.IsAbs(stateDir) {
		return fmt.Errorf("%w: airlock's state directory is unknown", ErrNotAirlockProxy)
	}
	var rec Proxy
	if err := read(proxyPath(stateDir, port), &rec); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: no airlock proxy recorded on port %d (start it: airlock proxy --listen 127.0.0.1:%d)", ErrNotAirlockProxy, port, port)
	} else if err != nil {
		return fmt.Errorf("%w: %v", ErrNotAirlockProxy, err)
	}
	if rec.Port != port || !rec.Alive() {
		return fmt.Errorf("%w: the proxy recorded on port %d (pid %d) no longer runs", ErrNotAirlockProxy, port, rec.Pid)
	}
	if exe, err := os.Readlink("/proc/" + strconv.Itoa(rec.Pid) + "/exe"); err != nil || rec.Exe == "" || strings.TrimSuffix(exe, " (deleted)") != rec.Exe {
		return fmt.Errorf("%w: pid %d does not run the binary recorded for it", ErrNotAirlockProxy, rec.Pid)
	}
	inodes, err := listening(port)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotAirlockProxy, err)
	}
	if len(inodes) == 0 {
		return fmt.Errorf("%w: nothing listens on port %d", ErrNotAirlockProxy, port)
	}
	mine, err := sockets(rec.Pid)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotAirlockProxy, err)
	}
	for _, ino := range inodes {
		if !mine[ino] {
			return fmt.Errorf("%w: another process listens on port %d too", ErrNotAirlockProxy, port)
		}
	}
	return nil
}

// listening returns the inodes of the TCP sockets (IPv4 and IPv6) in
// the LISTEN state on port, from /proc/net/tcp and tcp6.
func listening(port int) ([]string, error) {
	want := fmt.Sprintf("%04X", port)
	var out []string
	read := 0
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		file, err := os.Open(f)
		if errors.Is(err, fs.ErrNotExist) {
			continue // no IPv6 here
		}
		if err != nil {
			return nil, err
		}
		read++
		sc := bufio.NewScanner(file)
		sc.Scan() // the header
		for sc.Scan() {
			// sl local_address rem_address st ... uid timeout inode
			fl := strings.Fields(sc.Text())
			if len(fl) < 10 || fl[3] != "0A" {
				continue
			}
			_, p, ok := strings.Cut(fl[1], ":")
			if ok && p == want {
				out = append(out, fl[9])
			}
		}
		err = sc.Err()
		file.Close()
		if err != nil {
			return nil, err
		}
	}
	if read == 0 {
		return nil, errors.New("no /proc/net/tcp: the listening sockets cannot be read")
	}
	return out, nil
}

// sockets returns the socket inodes process pid holds open.
func sockets(pid int) (map[string]bool, error) {
	dir := "/proc/" + strconv.Itoa(pid) + "/fd"
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, e := range ents {
		l, err := os.Readlink(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		if ino, ok := strings.CutPrefix(l, "socket:["); ok {
			out[strings.TrimSuffix(ino, "]")] = true
		}
	}
	return out, nil
}
