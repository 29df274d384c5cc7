//go:build linux

package runner

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"syscall"
)

// proc is bubblewrap, started with syscall.ForkExec rather than os/exec:
// os/exec's first start in a process probes the kernel's pidfd support
// by cloning a child of its own, and keeps a goroutine and a pidfd per
// process, all on the path of every contained start (about 0.5 ms of CPU
// and wall time here, docs/BENCHMARKS.md). The runner needs none of it:
// it waits for one child, by pid. The bridge inside starts the command
// the same way.
type proc struct {
	pid int
	// copies are the goroutines copying the child's output into a
	// stream that is not a file (tests' buffers): wait waits for them.
	copies sync.WaitGroup
}

// spawn starts path with argv and env. The three streams are handed over
// as they are when they are files (a terminal stays a terminal for the
// command, as an interactive agent needs); any other reader or writer
// gets a pipe and a goroutine that copies, and nil is /dev/null, as with
// os/exec. extra become the child's descriptors 3, 4, ...
func spawn(path string, argv, env []string, stdin io.Reader, stdout, stderr io.Writer, extra []*os.File, sys *syscall.SysProcAttr) (*proc, error) {
	p := &proc{}
	var childEnds []*os.File // closed here once the child has them
	var parentEnds []*os.File
	closeAll := func(fs []*os.File) {
		for _, f := range fs {
			f.Close()
		}
	}
	fail := func(err error) (*proc, error) {
		closeAll(childEnds)
		closeAll(parentEnds)
		return nil, err
	}
	var startCopies []func()
	in, err := inputFile(stdin, &childEnds, &parentEnds, &startCopies)
	if err != nil {
		return fail(err)
	}
	out, err := outputFile(stdout, &childEnds, &parentEnds, &startCopies, &p.copies)
	if err != nil {
		return fail(err)
	}
	errf := out
	if !sameWriter(stdout, stderr) {
		if errf, err = outputFile(stderr, &childEnds, &parentEnds, &startCopies, &p.copies); err != nil {
			return fail(err)
		}
	}
	files := []uintptr{in.Fd(), out.Fd(), errf.Fd()}
	for _, f := range extra {
		files = append(files, f.Fd())
	}
	pid, err := syscall.ForkExec(path, argv, &syscall.ProcAttr{Env: env, Files: files, Sys: sys})
	closeAll(childEnds)
	if err != nil {
		closeAll(parentEnds)
		return nil, &os.PathError{Op: "fork/exec", Path: path, Err: err}
	}
	p.pid = pid
	for _, f := range startCopies {
		f()
	}
	return p, nil
}

// wait waits for the child to end, then for its output to be copied.
func (p *proc) wait() (syscall.WaitStatus, error) { return p.waitOn(nil) }

// waitOn is wait, woken by chld (SIGCHLD, registered with signal.Notify
// before the child started) when it is not nil: the child is reaped with
// WNOHANG each time one arrives, instead of in a wait4 that blocks. A
// goroutine blocked in a system call keeps the runtime's monitor thread
// (sysmon) polling every 20 µs to 10 ms for as long as it lasts, about a
// millisecond of CPU over a contained start (docs/BENCHMARKS.md,
// containment start-up, round 3); a goroutine waiting on a channel lets
// it sleep.
func (p *proc) waitOn(chld <-chan os.Signal) (syscall.WaitStatus, error) {
	var ws syscall.WaitStatus
	flags := 0
	if chld != nil {
		flags = syscall.WNOHANG
	}
	for {
		pid, err := syscall.Wait4(p.pid, &ws, flags, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return ws, os.NewSyscallError("wait4", err)
		}
		if pid == p.pid {
			break
		}
		// Not yet: the next SIGCHLD (a signal that arrived since the
		// wait4 is in the channel already).
		<-chld
	}
	p.copies.Wait()
	return ws, nil
}

// describe says how a process ended, as os.ProcessState.String does.
func describe(ws syscall.WaitStatus) string {
	switch {
	case ws.Exited():
		return "exit status " + strconv.Itoa(ws.ExitStatus())
	case ws.Signaled():
		return "signal: " + ws.Signal().String()
	}
	return fmt.Sprintf("wait status %#x", uint32(ws))
}

func inputFile(r io.Reader, childEnds, parentEnds *[]*os.File, start *[]func()) (*os.File, error) {
	switch f := r.(type) {
	case nil:
		null, err := os.Open(os.DevNull)
		if err == nil {
			*childEnds = append(*childEnds, null)
		}
		return null, err
	case *os.File:
		return f, nil
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	*childEnds = append(*childEnds, pr)
	*parentEnds = append(*parentEnds, pw)
	// Not waited for: it ends when r does or when nobody reads any more
	// (the child's end closes with the sandbox).
	*start = append(*start, func() {
		go func() {
			_, _ = io.Copy(pw, r)
			pw.Close()
		}()
	})
	return pr, nil
}

func outputFile(w io.Writer, childEnds, parentEnds *[]*os.File, start *[]func(), copies *sync.WaitGroup) (*os.File, error) {
	switch f := w.(type) {
	case nil:
		null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		if err == nil {
			*childEnds = append(*childEnds, null)
		}
		return null, err
	case *os.File:
		return f, nil
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	*childEnds = append(*childEnds, pw)
	*parentEnds = append(*parentEnds, pr)
	copies.Add(1)
	*start = append(*start, func() {
		go func() {
			defer copies.Done()
			_, _ = io.Copy(w, pr)
			pr.Close()
		}()
	})
	return pw, nil
}

// sameWriter reports whether stdout and stderr are one writer (one pipe
// then carries both, in order, as with os/exec); a writer whose type
// cannot be compared is taken as another.
func sameWriter(a, b io.Writer) (same bool) {
	defer func() {
		if recover() != nil {
			same = false
		}
	}()
	return a != nil && a == b
}
