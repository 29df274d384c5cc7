package notify

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/journal"
)

// TestBadStreamLinesAreSkipped checks that one reply line over the limit
// (1 MB) and one line that is not JSON are journaled as skipped, and that
// phone approvals go on working after them, both when polling and when
// following the stream.
func TestBadStreamLinesAreSkipped(t *testing.T) {
	for _, follow := range []bool{false, true} {
		t.Run(fmt.Sprintf("follow=%v", follow), func(t *testing.T) {
			e := newNtfyEnv(t, "")
			sec, err := loadSecrets(e.state, StateDir)
			if err != nil {
				t.Fatal(err)
			}
			id := e.hold("git push origin main")
			huge := fmt.Sprintf(`{"id":"{ID}","event":"message","topic":%q,"message":"%s"}`, sec.ReplyTopic, strings.Repeat("x", 1<<20))
			e.srv.PublishRaw(sec.ReplyTopic, []byte(huge))
			e.srv.PublishRaw(sec.ReplyTopic, []byte("this is not json"))
			if !follow {
				e.once() // sends the notification, reads the two bad lines
				if err := e.srv.Press("Approve"); err != nil {
					t.Fatal(err)
				}
				e.once()
			} else {
				events := make(chan Event, 100)
				w, err := New(e.cfg, e.j, Options{StateDir: e.state, Interval: 10 * time.Millisecond, Report: func(ev Event) { events <- ev }})
				if err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithCancel(context.Background())
				done := make(chan error)
				go func() { done <- w.Run(ctx) }()
				wait := func(kind string) {
					t.Helper()
					deadline := time.After(30 * time.Second) // a hang, not a speed check
					for {
						select {
						case ev := <-events:
							if ev.Kind == kind {
								return
							}
						case <-deadline:
							t.Fatalf("no %s event", kind)
						}
					}
				}
				wait("sent")
				if err := e.srv.Press("Approve"); err != nil {
					t.Fatal(err)
				}
				wait("approved")
				cancel()
				if err := <-done; err != nil {
					t.Fatal(err)
				}
			}
			if it := e.item(id); it.Status != journal.Approved {
				t.Fatalf("after two bad lines the press did not count: %s", it.Status)
			}
			got := e.refusals()
			if len(got) != 2 || !strings.Contains(got[0], "over the limit") || !strings.Contains(got[1], "not JSON") {
				t.Fatalf("refusals %q, want one over the limit and one not JSON", got)
			}
		})
	}
}

func TestLineReader(t *testing.T) {
	in := "short\n" + strings.Repeat("y", 100) + "\n" + `{"id":"abc","message":"` + strings.Repeat("z", 100) + "\"}\nlast"
	l := &lineReader{r: newBufReader(in), max: 50}
	var got []string
	for {
		line, err := l.next()
		if err != nil {
			break
		}
		switch {
		case line.skipped != nil:
			got = append(got, "skip:"+line.id)
		default:
			got = append(got, string(line.data))
		}
	}
	want := []string{"short", "skip:", "skip:abc", "last"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("lines %q, want %q", got, want)
	}
}

func newBufReader(s string) *bufioReader { return bufioNewReaderSize(bytes.NewReader([]byte(s)), 16) }

type bufioReader = bufio.Reader

var bufioNewReaderSize = bufio.NewReaderSize
