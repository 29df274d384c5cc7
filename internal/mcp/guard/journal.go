package guard

import (
	"encoding/json"
	"time"

	"github.com/airlock-dev/airlock/internal/journal"
)

// Journal reads the firewall's history from airlock's journal.
type Journal struct {
	J *journal.Journal
}

// Since returns the MCP firewall's entries (those with a Detail of its
// own) and the human's approvals, rejections and runs, at or after t.
// Approvals are kept whatever their age: they refer to held calls, and
// the caller matches them by queue id.
func (h Journal) Since(t time.Time) ([]Past, error) {
	var out []Past
	// Only the firewall's own lines carry a detail; the human's acts are
	// few. Decode nothing else.
	needles := [][]byte{[]byte(`"detail":`), journal.Field("event", journal.EventApprove),
		journal.Field("event", journal.EventReject), journal.Field("event", journal.EventRun)}
	err := h.J.EachContaining(needles, func(e *journal.Entry) error {
		switch e.Event {
		case journal.EventApprove:
			out = append(out, Past{Time: e.Time, Ref: e.Ref, Approved: true, Expires: e.Expires})
			return nil
		case journal.EventReject:
			out = append(out, Past{Time: e.Time, Ref: e.Ref, Rejected: true})
			return nil
		case journal.EventRun:
			out = append(out, Past{Time: e.Time, Ref: e.Ref, Used: true})
			return nil
		}
		if e.Time.Before(t) || len(e.Detail) == 0 || e.Agent != Agent && !mcpTool(e.Tool) {
			return nil
		}
		var d Detail
		if err := json.Unmarshal(e.Detail, &d); err != nil || d.Server == "" || d.Phase == "" {
			// Another entry point's detail: not the firewall's.
			return nil
		}
		out = append(out, Past{Time: e.Time, QueueID: e.ID, Ref: e.Ref, Used: e.Ref != "" && e.Rule == journal.RuleApproved, Detail: &d})
		return nil
	})
	return out, err
}

// Agent is the agent name the proxy records its events under.
const Agent = "mcp-proxy"

func mcpTool(name string) bool {
	return len(name) > 5 && name[:5] == "mcp__"
}
