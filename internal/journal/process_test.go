package journal

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The tests below start this test binary again as separate writer
// processes, since the journal's guarantees are about processes (hooks
// run in parallel), not goroutines.
const childEnv = "AIRLOCK_JOURNAL_TEST_CHILD"

func TestMain(m *testing.M) {
	switch os.Getenv(childEnv) {
	case "defer-once":
		os.Exit(childDeferOnce())
	case "append-forever":
		os.Exit(childAppendForever())
	}
	os.Exit(m.Run())
}

func child(t *testing.T, mode, dir string) *exec.Cmd {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+mode, "AIRLOCK_JOURNAL_TEST_DIR="+dir)
	return cmd
}

func childDeferOnce() int {
	j, err := Open(os.Getenv("AIRLOCK_JOURNAL_TEST_DIR"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ev := held("git push origin pid-"+strconv.Itoa(os.Getpid()), "/p")
	ev.Time = time.Now()
	if _, err := j.Record(ev); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// childAppendForever appends deferred events and prints each one's
// sequence number once Record has returned (so it is on disk).
func childAppendForever() int {
	j, err := Open(os.Getenv("AIRLOCK_JOURNAL_TEST_DIR"))
	if err != nil {
		return 1
	}
	j.MaxSegment = 32 << 10 // rotate often, so kills land around rotations too
	out := bufio.NewWriter(os.Stdout)
	for i := 0; ; i++ {
		if _, err := j.Record(held(fmt.Sprintf("curl -X POST https://example.test/%d/%d", os.Getpid(), i), "/p")); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		out.WriteString(fmt.Sprintf("curl -X POST https://example.test/%d/%d\n", os.Getpid(), i))
		out.Flush()
	}
}

func TestFiftyParallelHookProcessesLoseNothing(t *testing.T) {
	j := open(t)
	const n = 50
	cmds := make([]*exec.Cmd, n)
	for i := range cmds {
		cmds[i] = child(t, "defer-once", j.Dir())
	}
	// Start them all before waiting for any, so they contend for the lock.
	for _, c := range cmds {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for _, c := range cmds {
		wg.Add(1)
		go func(c *exec.Cmd) {
			defer wg.Done()
			if err := c.Wait(); err != nil {
				errs <- err
			}
		}(c)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	items, err := j.Queue(time.Now())
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	cmdsSeen := map[string]bool{}
	for _, it := range items {
		ids[it.ID] = true
		cmdsSeen[it.Command] = true
	}
	if len(items) != n || len(ids) != n || len(cmdsSeen) != n {
		t.Fatalf("%d queue items, %d ids, %d commands; want %d of each", len(items), len(ids), len(cmdsSeen), n)
	}
	if a := mustVerify(t, j); a.Entries != n {
		t.Fatalf("%d entries, want %d", a.Entries, n)
	}
}

func TestWritersKilledMidStreamLoseNoCompleteEvent(t *testing.T) {
	if testing.Short() {
		t.Skip("kills writer processes in a loop")
	}
	j := open(t)
	acked := map[string]bool{} // commands the writers reported as recorded
	for round := 0; round < 12; round++ {
		cmd := child(t, "append-forever", j.Dir())
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(stdout)
		// Kill after a varying number of acknowledged events, so the kill
		// lands at different points of a write.
		for k := 0; k < 20+round*13 && sc.Scan(); k++ {
			acked[sc.Text()] = true
		}
		cmd.Process.Signal(syscall.SIGKILL)
		for sc.Scan() {
			acked[sc.Text()] = true
		}
		cmd.Wait()
		// Every few rounds, tear the tail by hand as a crash mid-write
		// would, since a kill rarely lands inside one write call.
		if round%3 == 0 {
			segs, _ := segments(j.Dir())
			f, err := os.OpenFile(segs[len(segs)-1].path, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString(`{"seq":999999,"event":"PreTo`)
			f.Close()
		}
	}
	if _, err := j.Repair(); err != nil {
		t.Fatal(err)
	}
	a := mustVerify(t, j)
	es, err := j.Entries()
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(es)) != a.Entries {
		t.Fatalf("%d entries read, %d verified", len(es), a.Entries)
	}
	kept := map[string]bool{}
	for _, e := range es {
		kept[e.Command] = true
	}
	for c := range acked {
		if !kept[c] {
			t.Fatalf("acknowledged event %q is not in the journal", c)
		}
	}
	if len(acked) < 200 {
		t.Fatalf("only %d events acknowledged: the writers hardly ran", len(acked))
	}
	if a.SetAside < 4 {
		t.Fatalf("%d torn lines set aside, want at least the 4 made by hand", a.SetAside)
	}
	segs, _ := segments(j.Dir())
	if len(segs) < 2 {
		t.Fatalf("%d segments: the writers never rotated", len(segs))
	}
}
