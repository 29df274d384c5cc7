package cli

import (
	"fmt"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
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
// Called on a worker's own thread (the service serves whole connections
// there: goOnDirWorker), inDir changes that thread's directory and runs
// fn in place: no hand-off to another thread and back. The thread is
// recognised by its thread id, which only a worker registers.
//
// When dir cannot be entered, fn does not run and the error says why. A
// panic in fn is raised again in the caller (the service declines the
// request), and that worker ends with its thread.
func inDir(dir string, fn func()) error {
	if w := currentDirWorker(); w != nil {
		return w.runHere(dir, fn)
	}
	w, err := dirWorkerFor()
	if err != nil {
		return err
	}
	j := dirJob{dir: dir, fn: fn, done: make(chan dirResult, 1)}
	w.jobs <- j
	r := <-j.done
	if r.panicked {
		panic(r.panic)
	}
	return r.err
}

// goOnDirWorker runs fn on an idle worker's thread and returns at once;
// fn's own inDir then runs in place (see inDir). The service gives it
// each connection, so that reading the request, the decision and the
// answer all run on one thread, handed over once. That is for a call
// that finds the service otherwise idle, one agent's calls one after
// another: with another connection already served in place (calls at
// once, a burst), or no idle worker (the first call), fn runs on a
// goroutine of its own, where inDir hands the decision to a worker once
// the request is read, as before. So the loop that accepts connections
// never waits for a thread to be made, a burst is read and decided as
// before, and a connection that sends nothing holds at most one thread.
func goOnDirWorker(fn func()) {
	if !inPlace.CompareAndSwap(false, true) {
		go fn()
		return
	}
	select {
	case w := <-idleDirWorkers:
		w.jobs <- dirJob{fn: func() {
			defer inPlace.Store(false)
			fn()
		}}
	default:
		inPlace.Store(false)
		go fn()
	}
}

// inPlace is set while a connection is served in place (goOnDirWorker).
var inPlace atomic.Bool

// dirWorkerFor is an idle worker, or a new one.
func dirWorkerFor() (*dirWorker, error) {
	select {
	case w := <-idleDirWorkers:
		return w, nil
	default:
		return startDirWorker()
	}
}

// maxIdleDirWorkers bounds the threads kept for later requests; past it a
// worker ends with its thread after its request, as before.
const maxIdleDirWorkers = 16

var idleDirWorkers = make(chan *dirWorker, maxIdleDirWorkers)

// dirWorkers are the workers by the id of their thread: only a worker's
// own goroutine adds or removes itself, so a thread id found here names
// the calling worker's thread.
var dirWorkers sync.Map // int (thread id) -> *dirWorker

// A dirWorker is one worker: its jobs, and whether it must end once the
// job in hand is done (a panic ran through it).
type dirWorker struct {
	jobs   chan dirJob
	retire bool
}

// A dirJob is a request to run in dir (done receives how it went), or,
// with no done, a function to run on the thread (goOnDirWorker).
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

// currentDirWorker is the worker whose thread the caller runs on, nil
// when it runs on any other thread.
func currentDirWorker() *dirWorker {
	w, ok := dirWorkers.Load(syscall.Gettid())
	if !ok {
		return nil
	}
	return w.(*dirWorker)
}

// runHere runs fn in dir on the worker's own thread (the caller is the
// worker's goroutine); a panic marks the worker to end after this job.
func (w *dirWorker) runHere(dir string, fn func()) error {
	if err := syscall.Chdir(dir); err != nil {
		return err
	}
	defer func() {
		if p := recover(); p != nil {
			w.retire = true
			panic(p)
		}
	}()
	fn()
	return nil
}

// startDirWorker starts a worker on a thread of its own (see inDir).
func startDirWorker() (*dirWorker, error) {
	w := &dirWorker{jobs: make(chan dirJob)}
	started := make(chan error, 1)
	go func() {
		// Never unlocked: when this goroutine returns, its thread ends.
		runtime.LockOSThread()
		if err := syscall.Unshare(syscall.CLONE_FS); err != nil {
			started <- fmt.Errorf("a working directory of its own (unshare CLONE_FS): %w", err)
			return
		}
		tid := syscall.Gettid()
		dirWorkers.Store(tid, w)
		defer dirWorkers.Delete(tid)
		started <- nil
		for j := range w.jobs {
			if j.done == nil {
				j.fn()
			} else if !runDirJob(j) {
				return
			}
			if w.retire {
				return
			}
			select {
			case idleDirWorkers <- w:
			default:
				return
			}
		}
	}()
	if err := <-started; err != nil {
		return nil, err
	}
	return w, nil
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

// serviceSlack is the service's timer slack: how late the kernel may wake
// a thread of it from a timed sleep, so as to wake it with other timers.
// The default is 50 µs. The Go runtime's monitor thread (sysmon) sleeps
// 20 µs at a time while any goroutine runs, so during each call it woke
// every 20–70 µs: a third of the service's context switches and about a
// tenth of its CPU (docs/BENCHMARKS.md, "The service's timer slack").
// With 1 ms it wakes at most about once per call. The service's own
// timers are seconds long (the idle and socket checks, the journal
// lock's 10 s wait), so 1 ms later changes nothing they do.
const serviceSlack = 1_000_000 // nanoseconds

// slackEnv marks a service that has set its slack and executed itself
// again, so that it never does so twice.
const slackEnv = "AIRLOCK_HOOKD_SLACK"

// serviceTimerSlack gives every thread of the service the timer slack
// serviceSlack. A thread's slack is its own (prctl PR_SET_TIMERSLACK) and
// only a thread it starts inherits it; the runtime's monitor thread is
// started before any of airlock's code runs. So the service sets the slack
// on its own thread and executes its own binary again (/proc/self/exe,
// the same file, the same arguments, environment and process): the new
// program's threads all start from that thread. Called before the service
// opens anything. When the slack is already in place, or anything fails,
// the service goes on as it is: the slack is only a cost.
func serviceTimerSlack() {
	const prSetTimerslack, prGetTimerslack = 29, 30
	if os.Getenv(slackEnv) != "" {
		return
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if cur, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prGetTimerslack, 0, 0); errno == 0 && cur >= serviceSlack {
		return
	}
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, prSetTimerslack, serviceSlack, 0); errno != 0 {
		return
	}
	syscall.Exec("/proc/self/exe", os.Args, append(os.Environ(), slackEnv+"=1"))
	// Still here: the slack stays on this thread alone.
}
