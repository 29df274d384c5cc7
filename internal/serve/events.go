package serve

import (
	"fmt"
	"net/http"
	"time"
)

// events is the live queue: a server-sent event "queue" each time the
// queue moves (a hook held an action, a human settled one, a retry used
// an approval), which the page answers by fetching the table again.
// Hooks are other processes, so the stream looks at the queue's stamp
// (journal.QueueStamp), a stat per poll, and never reads the journal.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	// The state is taken before the client hears back, so an event
	// written right after the stream opens is one the stream reports.
	last := s.cfg.Journal.QueueStamp()
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
		if now := s.cfg.Journal.QueueStamp(); now != last {
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
