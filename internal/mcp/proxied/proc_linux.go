//go:build linux

package proxied

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// stat reads a process's parent, start time and command name.
func stat(pid int) (ppid int, p Process, comm string, err error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, Process{}, "", err
	}
	s := string(b)
	open, closing := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || closing < open {
		return 0, Process{}, "", fmt.Errorf("proxied: /proc/%d/stat: unexpected format", pid)
	}
	comm = s[open+1 : closing]
	f := strings.Fields(s[closing+1:])
	// After the command: state(0) ppid(1) ... starttime(19).
	if len(f) < 20 {
		return 0, Process{}, "", fmt.Errorf("proxied: /proc/%d/stat: too few fields", pid)
	}
	ppid, err1 := strconv.Atoi(f[1])
	start, err2 := strconv.ParseUint(f[19], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, Process{}, "", fmt.Errorf("proxied: /proc/%d/stat: bad fields", pid)
	}
	return ppid, Process{PID: pid, Start: start}, comm, nil
}

// ancestors lists up to n ancestors of pid, nearest first.
func ancestors(pid, n int) ([]Process, error) {
	var out []Process
	for len(out) < n {
		ppid, _, _, err := stat(pid)
		if err != nil {
			return nil, err
		}
		if ppid <= 1 {
			break
		}
		_, p, _, err := stat(ppid)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
		pid = ppid
	}
	return out, nil
}

// selfAndClient identifies this process and the agent that started it:
// the first ancestor that is not airlock or airlock-mcp.
func selfAndClient() (self, client Process, err error) {
	pid := os.Getpid()
	ppid, self, _, err := stat(pid)
	if err != nil {
		return Process{}, Process{}, err
	}
	for range 4 {
		if ppid <= 1 {
			break
		}
		next, p, comm, err := stat(ppid)
		if err != nil {
			return Process{}, Process{}, err
		}
		if comm != "airlock" && comm != "airlock-mcp" {
			return self, p, nil
		}
		ppid = next
	}
	return Process{}, Process{}, errors.New("proxied: no client process above the proxy")
}

// hold writes body to path and keeps an exclusive lock on it.
func hold(path string, body []byte) (func(), error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, fmt.Errorf("proxied: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, fmt.Errorf("proxied: locking %s: %w", path, err)
	}
	if _, err := f.Write(body); err != nil {
		f.Close()
		return nil, fmt.Errorf("proxied: %w", err)
	}
	return func() {
		_ = os.Remove(path)
		f.Close()
	}, nil
}

// readLive reads a registration whose proxy still holds its lock.
func readLive(path string) (Registration, bool) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return Registration{}, false
	}
	defer f.Close()
	// A shared lock is granted only when no proxy holds the file.
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB)
	if err == nil {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		return Registration{}, false
	}
	if !errors.Is(err, syscall.EWOULDBLOCK) {
		return Registration{}, false
	}
	b, err := io.ReadAll(io.LimitReader(f, 64<<10))
	if err != nil {
		return Registration{}, false
	}
	var r Registration
	if json.Unmarshal(b, &r) != nil {
		return Registration{}, false
	}
	// The lock's holder must be the proxy the file names, alive.
	st, err := f.Stat()
	sys, ok := st.Sys().(*syscall.Stat_t)
	if err != nil || !ok || !lockedBy(sys.Ino, r.Proxy.PID) {
		return Registration{}, false
	}
	if _, p, _, err := stat(r.Proxy.PID); err != nil || p != r.Proxy {
		return Registration{}, false
	}
	return r, true
}

// lockedBy reports whether /proc/locks shows a flock on inode ino held by
// pid ("1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF").
func lockedBy(ino uint64, pid int) bool {
	// /proc/locks is read in pieces, each from a position in the kernel's
	// list: a lock another process drops between two pieces shifts the
	// list, and the line after it can be missed. A lock that is held is
	// listed in some read, and one that is not is listed in none, so a
	// few more reads only find a held lock that one read skipped (the
	// journal's locks come and go while tests and hooks run).
	for try := 0; try < 4; try++ {
		b, err := os.ReadFile("/proc/locks")
		if err != nil {
			return false
		}
		if locksList(b, ino, pid) {
			return true
		}
	}
	return false
}

// locksList reports whether /proc/locks's text lists a write flock of
// inode ino held by pid.
func locksList(b []byte, ino uint64, pid int) bool {
	want := ":" + strconv.FormatUint(ino, 10)
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		// Blocked waiters are listed as "1: -> FLOCK ...".
		if len(f) < 6 || f[1] != "FLOCK" || f[3] != "WRITE" {
			continue
		}
		if f[4] == strconv.Itoa(pid) && strings.HasSuffix(f[5], want) {
			return true
		}
	}
	return false
}
