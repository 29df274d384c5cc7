package serve

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"
)

// events is the live queue: a server-sent event "queue" each time the
// journal grows (a hook held an action, a human settled one), which the
// page answers by fetching the table again. Hooks are other processes,
// so the stream looks at the journal directory's newest segment, a stat
// per poll, and never reads the journal itself.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	// The state is taken before the client hears back, so an event
	// written right after the stream opens is one the stream reports.
	last := s.journalStamp()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	fmt.Fprint(w, "retry: 2000\n\n")
	fl.Flush()
	tick := time.NewTicker(s.cfg.Poll)
	defer tick.Stop()
	beat := 0
	for {
		select {
		case <-r.Context().Done():
			return
		case <-tick.C:
		}
		if now := s.journalStamp(); now != last {
			last = now
			fmt.Fprintf(w, "event: queue\ndata: %s\n\n", now)
			fl.Flush()
			continue
		}
		// A comment now and then, so a proxy or a sleeping phone notices
		// a dead connection.
		if beat++; beat*int(s.cfg.Poll/time.Millisecond) >= 15000 {
			beat = 0
			fmt.Fprint(w, ": beat\n\n")
			fl.Flush()
		}
	}
}

// journalStamp names the journal's state: its newest segment's name,
// size and time. It changes with every event written.
func (s *Server) journalStamp() string {
	ents, err := os.ReadDir(s.cfg.Journal.Dir())
	if err != nil {
		return "unreadable"
	}
	newest := ""
	for _, e := range ents {
		if n := e.Name(); strings.HasPrefix(n, "journal-") && strings.HasSuffix(n, ".jsonl") && n > newest {
			newest = n
		}
	}
	if newest == "" {
		return "empty"
	}
	st, err := os.Stat(s.cfg.Journal.Dir() + string(os.PathSeparator) + newest)
	if err != nil {
		return "unreadable"
	}
	return fmt.Sprintf("%s-%d-%d", newest, st.Size(), st.ModTime().UnixNano())
}
