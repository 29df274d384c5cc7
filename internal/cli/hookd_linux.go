package cli

import (
	"fmt"
	"runtime"
	"syscall"
)

// inDir runs fn on an OS thread whose working directory is dir and no
// other goroutine's. Each such thread belongs to one worker goroutine that
// locked itself to it for good and unshared the thread's file-system
// attributes (CLONE_FS: working directory, root, umask) from the rest of
// the process, so its chdir moves no other thread. No other goroutine
// ever runs on that thread; threads the runtime starts meanwhile are made
// by its template thread, not this one (the runtime does so for locked
// threads for this very reason). The hook's code starts no goroutine, so
// fn's whole decision runs on the worker's thread.
//
// A worker changes to each request's directory before it runs it, so a
// request never runs in the directory of the one before. Idle workers
// are kept (at most maxIdleDirWorkers) for the next requests: making a
// thread per request and ending it after (what the service did before)
// cost it a clone and a thread's exit on every call. Requests still run
// in parallel: a request that finds no idle worker starts one.
//
// When dir cannot be entered, fn does not run and the error says why. A
// panic in fn is raised again in the caller (the service declines the
// request), and that worker ends with its thread.
func inDir(dir string, fn func()) error {
	var w chan dirJob
	select {
	case w = <-idleDirWorkers:
	default:
		var err error
		if w, err = startDirWorker(); err != nil {
			return err
		}
	}
	j := dirJob{dir: dir, fn: fn, done: make(chan dirResult, 1)}
	w <- j
	r := <-j.done
	if r.panicked {
		panic(r.panic)
	}
	return r.err
}

// maxIdleDirWorkers bounds the threads kept for later requests; past it a
// worker ends with its thread after its request, as before.
const maxIdleDirWorkers = 16

var idleDirWorkers = make(chan chan dirJob, maxIdleDirWorkers)

type dirJob struct {
	dir  string
	fn   func()
	done chan dirResult
}

type dirResult struct {
	err      error
	panicked bool
	panic    any
}

// startDirWorker starts a worker on a thread of its own (see inDir).
func startDirWorker() (chan dirJob, error) {
	jobs := make(chan dirJob)
	started := make(chan error, 1)
	go func() {
		// Never unlocked: when this goroutine returns, its thread ends.
		runtime.LockOSThread()
		if err := syscall.Unshare(syscall.CLONE_FS); err != nil {
			started <- fmt.Errorf("a working directory of its own (unshare CLONE_FS): %w", err)
			return
		}
		started <- nil
		for j := range jobs {
			if !runDirJob(j) {
				return
			}
			select {
			case idleDirWorkers <- jobs:
			default:
				return
			}
		}
	}()
	if err := <-started; err != nil {
		return nil, err
	}
	return jobs, nil
}

// runDirJob runs one request in its directory; false when it panicked
// (the worker then ends).
func runDirJob(j dirJob) (ok bool) {
	defer func() {
		if p := recover(); p != nil {
			j.done <- dirResult{panicked: true, panic: p}
			ok = false
		}
	}()
	if err := syscall.Chdir(j.dir); err != nil {
		j.done <- dirResult{err: err}
		return true
	}
	j.fn()
	j.done <- dirResult{}
	return true
}

// terminate asks the service with process id pid to stop.
func terminate(pid int) error { return syscall.Kill(pid, syscall.SIGTERM) }
