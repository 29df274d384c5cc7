package guard

import (
	"encoding/json"
	"time"

	"github.com/airlock-dev/airlock/internal/journal"
)

// Journal reads the firewall's history from airlock's journal.
type Journal struct {
	J *journal.Journal
	// Now is the clock approvals are judged by (time.Now when nil).
	Now func() time.Time
}

// Since returns the MCP firewall's entries (those with a Detail of its
// own) at or after t, and the human's approvals of held calls whatever
// their age, with what became of them: a used approval as Used, an
// approval that only the human's path wrote (its MAC verifies) as
// Approved. It asks the journal two typed questions, answered from its
// index: it never reads the whole journal.
func (h Journal) Since(t time.Time) ([]Past, error) {
	now := time.Now()
	if h.Now != nil {
		now = h.Now()
	}
	entries, standings, err := h.J.Recent(t, now)
	if err != nil {
		return nil, err
	}
	var out []Past
	for _, e := range entries {
		if e.Agent != Agent && !mcpTool(e.Tool) {
			continue
		}
		var d Detail
		if err := json.Unmarshal(e.Detail, &d); err != nil || d.Server == "" || d.Phase == "" {
			// Another entry point's detail: not the firewall's.
			continue
		}
		out = append(out, Past{Time: e.Time, QueueID: e.ID, Ref: e.Ref, Used: e.SpentApproval() != "", Detail: &d})
	}
	for _, s := range standings {
		switch s.Status {
		case journal.Approved, journal.Expired:
			out = append(out, Past{Ref: s.ID, Approved: true, Expires: s.Expires})
		case journal.Used:
			out = append(out, Past{Ref: s.ID, Approved: true, Expires: s.Expires}, Past{Ref: s.ID, Used: true})
		}
	}
	return out, nil
}

// Agent is the agent name the proxy records its events under.
const Agent = "mcp-proxy"

func mcpTool(name string) bool {
	return len(name) > 5 && name[:5] == "mcp__"
}
