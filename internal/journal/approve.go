package journal

import (
	"bytes"
	"time"
)

// DefaultApprovalExpiry is how long an approval lets the agent's verbatim
// retry through, unless the human says otherwise.
const DefaultApprovalExpiry = 24 * time.Hour

// approvalFor finds an approval, not expired at now and not yet used,
// of a held shell command with exactly this text and directory. It is
// called with the lock held, so two parallel retries cannot both use
// one approval.
func (j *Journal) approvalFor(command, cwd string, now time.Time) (string, error) {
	// Approvals are rare: find them from their bytes first, and decode
	// nothing else when there are none.
	approve := field("event", EventApprove)
	refs := map[string]bool{}
	err := j.eachWhere(func(line []byte) bool { return bytes.Contains(line, approve) }, func(e *Entry) error {
		if e.Event == EventApprove && e.Ref != "" {
			refs[e.Ref] = true
		}
		return nil
	})
	if err != nil || len(refs) == 0 {
		return "", err
	}
	// Then read only the lines about the approved items: the items
	// themselves and what refers to them.
	var needles [][]byte
	for id := range refs {
		needles = append(needles, field("id", id), field("ref", id))
	}
	about := func(line []byte) bool {
		for _, n := range needles {
			if bytes.Contains(line, n) {
				return true
			}
		}
		return false
	}
	held := map[string]bool{} // ids of held actions with this command and cwd
	var order []string        // the same ids, oldest first
	open := map[string]bool{} // approved ids still usable
	err = j.eachWhere(about, func(e *Entry) error {
		switch {
		case e.ID != "" && e.Decision == "defer" && e.Command == command && e.Cwd == cwd:
			held[e.ID] = true
			order = append(order, e.ID)
		case e.Event == EventApprove && held[e.Ref]:
			open[e.Ref] = e.Expires == nil || now.Before(*e.Expires)
		case e.Event == EventReject && held[e.Ref]:
			open[e.Ref] = false
		case e.Ref != "" && held[e.Ref] && (e.Rule == RuleApproved || e.Event == EventRun):
			open[e.Ref] = false // used once already
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	// The oldest usable approval goes first.
	for _, id := range order {
		if open[id] {
			return id, nil
		}
	}
	return "", nil
}
