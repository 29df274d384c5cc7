package journal

import (
	"bytes"
	"sort"
	"time"
)

// Scope selects the entries a report covers. The zero Scope covers the
// whole journal.
type Scope struct {
	// Session keeps one session's entries.
	Session string
	// Stories keeps the entries of these stories (a loop run's).
	Stories []string
	// Since keeps entries at or after this time.
	Since time.Time
}

func (s *Scope) keeps(e *Entry) bool {
	if s.Session != "" && e.Session != s.Session {
		return false
	}
	if !s.Since.IsZero() && e.Time.Before(s.Since) {
		return false
	}
	if len(s.Stories) > 0 {
		for _, st := range s.Stories {
			if e.Story == st {
				return true
			}
		}
		return false
	}
	return true
}

// lines returns a test on raw journal lines that keeps every line the
// scope can use, so that a report on one session or story decodes only
// its own lines, and the lines that refer to queue items (a human's
// decision or a retry may come from another session). nil keeps all.
func (s *Scope) lines() func([]byte) bool {
	var needles [][]byte
	switch {
	case s.Session != "":
		needles = append(needles, field("session", s.Session))
	case len(s.Stories) > 0:
		for _, st := range s.Stories {
			needles = append(needles, field("story", st))
		}
	default:
		return nil
	}
	refers := []byte(`"ref":"`)
	return func(line []byte) bool {
		if bytes.Contains(line, refers) {
			return true
		}
		for _, n := range needles {
			if bytes.Contains(line, n) {
				return true
			}
		}
		return false
	}
}

// Report is the end-of-session summary: what awaits a human, every held or
// detected action with its reasons, and how the calls were decided.
type Report struct {
	Scope       ReportScope `json:"scope"`
	GeneratedAt time.Time   `json:"generated_at"`
	// Review lists the items still waiting for a human: pending, or
	// approved but expired unused.
	Review []*Item `json:"review"`
	// Items lists every held or detected action in scope, oldest first.
	Items  []*Item `json:"items"`
	Counts Counts  `json:"counts"`
	// TopRules are the rules that decided the most non-allowed calls.
	TopRules []RuleCount `json:"top_rules"`
	// Refused names every call in scope that was denied, or asked about
	// in the agent's own prompt, and not queued, oldest first: a count
	// alone does not tell a human what was refused.
	Refused []*Entry `json:"refused"`
	// Snapshots names every snapshot airlock took before a destruction
	// in scope let run, oldest first, with the command that ran: each
	// can be restored with airlock undo ID.
	Snapshots []SnapshotTaken `json:"snapshots"`
	// RunReviews are the reviews after contained runs in scope, oldest
	// first: the files a run made or changed that run code at a later
	// start outside, set aside or named (EventRunReview).
	RunReviews []RunReviewed `json:"run_reviews"`
}

// RunReviewed is one contained run's review a report names.
type RunReviewed struct {
	Time    time.Time `json:"time"`
	Project string    `json:"project"`
	Note    string    `json:"note"`
}

// SnapshotTaken is one snapshot a report names.
type SnapshotTaken struct {
	ID      string    `json:"id"`
	Time    time.Time `json:"time"`
	Command string    `json:"command"`
	Undo    string    `json:"undo"`
}

// ReportScope is the scope as written in a report.
type ReportScope struct {
	Session string    `json:"session,omitempty"`
	Stories []string  `json:"stories,omitempty"`
	Since   time.Time `json:"since,omitzero"`
}

// Counts are how the decided calls went.
type Counts struct {
	Allowed  int `json:"allowed"`
	Warned   int `json:"warned"`
	Held     int `json:"held"`
	Denied   int `json:"denied"`
	Approved int `json:"approved_retries"`
	Detected int `json:"detected_after"`
}

// RuleCount is how often a rule decided a call.
type RuleCount struct {
	Rule  string `json:"rule"`
	Count int    `json:"count"`
}

// ExternalPending counts the review items whose effect is external.
func (r *Report) ExternalPending() int {
	n := 0
	for _, it := range r.Review {
		if tierOf(it.Effect) == "external" {
			n++
		}
	}
	return n
}

// MakeReport projects the journal into a report over scope at now.
func (j *Journal) MakeReport(scope Scope, now time.Time) (*Report, error) {
	r := &Report{
		Scope:       ReportScope{Session: scope.Session, Stories: scope.Stories, Since: scope.Since},
		GeneratedAt: now.UTC(),
		Review:      []*Item{}, Items: []*Item{}, TopRules: []RuleCount{}, Refused: []*Entry{}, Snapshots: []SnapshotTaken{},
		RunReviews: []RunReviewed{},
	}
	items, each, err := j.scoped(scope, now)
	if err != nil {
		return nil, err
	}
	for _, it := range items {
		if !scope.keeps(it.Entry) {
			continue
		}
		r.Items = append(r.Items, it)
		if it.Status == Pending || it.Status == Expired {
			r.Review = append(r.Review, it)
		}
	}
	rules := map[string]int{}
	err = each(func(e *Entry) error {
		if e.Event == EventRunReview && scope.keeps(e) {
			r.RunReviews = append(r.RunReviews, RunReviewed{Time: e.Time, Project: e.Cwd, Note: e.Note})
			return nil
		}
		if e.Decision == "" || !scope.keeps(e) {
			return nil
		}
		if e.Event == EventScanFinding {
			r.Counts.Detected++
			return nil
		}
		if id := e.SnapshotTaken(); id != "" {
			r.Snapshots = append(r.Snapshots, SnapshotTaken{ID: id, Time: e.Time, Command: e.Command, Undo: "airlock undo " + id})
		}
		switch e.Decision {
		case "allow":
			r.Counts.Allowed++
			if e.Rule == RuleApproved {
				r.Counts.Approved++
			}
			return nil
		case "warn":
			r.Counts.Warned++
		case "ask", "defer":
			r.Counts.Held++
			if e.Decision == "ask" && !e.Held() {
				r.Refused = append(r.Refused, e)
			}
		case "deny":
			r.Counts.Denied++
			if !e.Held() {
				r.Refused = append(r.Refused, e)
			}
		}
		rules[e.Rule]++
		return nil
	})
	if err != nil {
		return nil, err
	}
	for rule, n := range rules {
		r.TopRules = append(r.TopRules, RuleCount{Rule: rule, Count: n})
	}
	sort.Slice(r.TopRules, func(a, b int) bool {
		if r.TopRules[a].Count != r.TopRules[b].Count {
			return r.TopRules[a].Count > r.TopRules[b].Count
		}
		return r.TopRules[a].Rule < r.TopRules[b].Rule
	})
	if len(r.TopRules) > 5 {
		r.TopRules = r.TopRules[:5]
	}
	return r, nil
}

// LastSession is the session of the newest entry that has one, skipping
// entries written by humans and the scanner.
func (j *Journal) LastSession() (string, error) {
	return j.lastSession()
}

// tierOf reads the tier out of an effect label ("external+destructive").
func tierOf(label string) string {
	for i := 0; i < len(label); i++ {
		if label[i] == '+' {
			return label[:i]
		}
	}
	return label
}
