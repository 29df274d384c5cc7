//go:build linux

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/hookd"
)

// The service's threads are kept for later requests (inDir): each request
// still runs in its own directory, whatever ran on the thread before, in
// parallel or one after another, and a directory that cannot be entered
// or a panic leaves the next request unharmed.
func TestInDirReusesThreadsInEachRequestsDirectory(t *testing.T) {
	dirs := []string{t.TempDir(), t.TempDir(), t.TempDir()}
	tids := map[int]bool{}
	for i := 0; i < 3*maxIdleDirWorkers; i++ {
		d := dirs[i%len(dirs)]
		var wd string
		var tid int
		if err := inDir(d, func() { wd, _ = syscall.Getwd(); tid = syscall.Gettid() }); err != nil {
			t.Fatal(err)
		}
		if wd != d {
			t.Fatalf("request %d ran in %s, want %s", i, wd, d)
		}
		tids[tid] = true
		if i == 4 {
			if err := inDir(filepath.Join(d, "missing"), func() { t.Error("ran in a directory it could not enter") }); err == nil {
				t.Error("a missing directory was entered")
			}
		}
	}
	if len(tids) >= 3*maxIdleDirWorkers {
		t.Errorf("%d requests one after another ran on %d threads: none was kept", 3*maxIdleDirWorkers, len(tids))
	}
	func() {
		defer func() {
			if p := recover(); p != "boom" {
				t.Errorf("the panic came back as %v", p)
			}
		}()
		inDir(dirs[0], func() { panic("boom") })
		t.Error("the panic did not reach the caller")
	}()
	var wg sync.WaitGroup
	errs := make(chan string, 4*maxIdleDirWorkers)
	start := make(chan struct{})
	for i := 0; i < 4*maxIdleDirWorkers; i++ {
		d := dirs[i%len(dirs)]
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			var wd string
			if err := inDir(d, func() { wd, _ = syscall.Getwd() }); err != nil || wd != d {
				errs <- "in parallel: ran in " + wd + ", want " + d
			}
		}()
	}
	close(start)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// A connection the service hands to a worker (goOnDirWorker) decides on
// that worker's own thread: inDir runs in place, in the request's
// directory, with no second hand-off; a directory that cannot be entered
// runs nothing; a panic reaches the caller and ends that worker's thread;
// and the process's own directory never moves.
func TestGoOnDirWorkerDecidesInPlace(t *testing.T) {
	before, _ := syscall.Getwd()
	dirs := []string{t.TempDir(), t.TempDir()}
	if err := inDir(dirs[0], func() {}); err != nil {
		t.Fatal(err)
	}
	type result struct {
		outer, inner int
		wd           string
		err          error
	}
	for i := 0; i < 2*maxIdleDirWorkers; i++ {
		d := dirs[i%2]
		waitIdleWorker(t)
		done := make(chan result, 1)
		goOnDirWorker(func() {
			var r result
			r.outer = syscall.Gettid()
			r.err = inDir(d, func() { r.inner = syscall.Gettid(); r.wd, _ = syscall.Getwd() })
			done <- r
		})
		r := <-done
		if r.err != nil || r.inner != r.outer || r.wd != d {
			t.Fatalf("call %d: ran on thread %d (handed over on %d) in %q, err %v; want in place in %s", i, r.inner, r.outer, r.wd, r.err, d)
		}
	}
	waitIdleWorker(t)
	errc := make(chan error, 1)
	goOnDirWorker(func() {
		errc <- inDir(filepath.Join(dirs[0], "missing"), func() { t.Error("ran in a directory it could not enter") })
	})
	if err := <-errc; err == nil {
		t.Error("a missing directory was entered")
	}
	waitIdleWorker(t)
	tidc := make(chan int, 1)
	onWorker := make(chan bool, 1)
	goOnDirWorker(func() {
		onWorker <- currentDirWorker() != nil
		defer func() {
			if p := recover(); p != "boom" {
				t.Errorf("the panic came back as %v", p)
			}
			tidc <- syscall.Gettid()
		}()
		inDir(dirs[0], func() { panic("boom") })
	})
	if !<-onWorker {
		t.Fatal("the connection did not run on a worker")
	}
	tid := <-tidc
	for i := 0; ; i++ {
		if _, ok := dirWorkers.Load(tid); !ok {
			break
		}
		if i > 1000 {
			t.Fatal("the worker a panic ran through is still kept")
		}
		time.Sleep(time.Millisecond)
	}
	if after, _ := syscall.Getwd(); after != before {
		t.Fatalf("the process's own directory moved from %s to %s", before, after)
	}
}

// waitIdleWorker waits until a worker is idle and no connection is in
// place (a worker goes back to the idle list just after its job is done).
func waitIdleWorker(t *testing.T) {
	t.Helper()
	for i := 0; len(idleDirWorkers) == 0 || inPlace.Load(); i++ {
		if i > 1000 {
			t.Fatal("no worker went idle")
		}
		time.Sleep(time.Millisecond)
	}
}

// With no idle worker (the first call), or with a connection already
// served in place (calls at once), goOnDirWorker runs a connection on a
// goroutine, never waiting for a thread to be made, and its inDir still
// decides on a worker, in the request's directory.
func TestGoOnDirWorkerBusyOrNoIdleWorker(t *testing.T) {
	d := t.TempDir()
	type result struct {
		worker bool
		wd     string
		err    error
	}
	viaGoroutine := func(what string) {
		t.Helper()
		done := make(chan result, 1)
		goOnDirWorker(func() {
			r := result{worker: currentDirWorker() != nil}
			r.err = inDir(d, func() { r.wd, _ = syscall.Getwd() })
			done <- r
		})
		r := <-done
		if r.worker || r.err != nil || r.wd != d {
			t.Fatalf("%s: on a worker %v, decided in %q, err %v; want a goroutine, deciding in %s", what, r.worker, r.wd, r.err, d)
		}
	}
	// One connection served in place and waiting: the next one goes to a
	// goroutine, though workers are idle.
	if err := inDir(d, func() {}); err != nil {
		t.Fatal(err)
	}
	waitIdleWorker(t)
	release, inside := make(chan struct{}), make(chan bool, 1)
	goOnDirWorker(func() {
		inside <- currentDirWorker() != nil
		<-release
	})
	if !<-inside {
		t.Fatal("the first connection did not run on a worker")
	}
	viaGoroutine("with a connection in place")
	close(release)
	for i := 0; inPlace.Load(); i++ {
		if i > 1000 {
			t.Fatal("the connection in place never finished")
		}
		time.Sleep(time.Millisecond)
	}
	var held []*dirWorker
	for len(idleDirWorkers) > 0 {
		held = append(held, <-idleDirWorkers)
	}
	defer func() {
		for _, w := range held {
			idleDirWorkers <- w
		}
	}()
	viaGoroutine("without an idle worker")
}

// Requests from different projects, one after another and more than the
// threads kept, each read their own relative policy file.
func TestHookdRequestsKeepTheirOwnDirectory(t *testing.T) {
	home := t.TempDir()
	state := filepath.Join(home, ".local", "state", "airlock")
	var projs []string
	for _, name := range []string{"alpha", "beta"} {
		p := t.TempDir()
		if err := os.WriteFile(filepath.Join(p, "pol.yaml"), []byte("rules:\n  - id: no-curl-"+name+"\n    match: {command: curl}\n    decision: deny\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		projs = append(projs, p)
	}
	h := hookdHandler(state)
	before, _ := os.Getwd()
	for i := 0; i < 2*maxIdleDirWorkers+2; i++ {
		p, name := projs[i%2], []string{"alpha", "beta"}[i%2]
		ev := `{"session_id":"s-pool","cwd":"` + p + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"curl https://example.com/"},"tool_use_id":"t1"}`
		r := h(&hookd.Request{Args: []string{"hook", "claude-code", "--event", "PreToolUse"},
			Env: []string{"HOME=" + home, "AIRLOCK_POLICY=pol.yaml"}, Cwd: p, Stdin: []byte(ev)})
		if r.Kind != hookd.KindAnswer || !strings.Contains(string(r.Stdout), "no-curl-"+name) {
			t.Fatalf("request %d in %s: %+v %s %s", i, p, r, r.Stdout, r.Stderr)
		}
	}
	if after, _ := os.Getwd(); after != before {
		t.Fatalf("the service's own directory moved from %s to %s", before, after)
	}
}

// BenchmarkHookdHandlerAllow: the service's own work for an allowed call
// (the handler, on a kept thread), without the socket and the client.
func BenchmarkHookdHandlerAllow(b *testing.B) {
	home := b.TempDir()
	state := filepath.Join(home, ".local", "state", "airlock")
	h := hookdHandler(state)
	req := &hookd.Request{Args: []string{"hook", "claude-code", "--event", "PreToolUse"},
		Env: []string{"HOME=" + home}, Cwd: "/tmp", Stdin: []byte(event("go test ./... && git status"))}
	b.ReportAllocs()
	for b.Loop() {
		// As in the service, each request on a goroutine of its own.
		done := make(chan *hookd.Response)
		go func() { done <- h(req) }()
		if r := <-done; r.Kind != hookd.KindAnswer || r.Status != 0 {
			b.Fatalf("%+v %s", r, r.Stderr)
		}
	}
}
