package journal

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/classify"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// forgetFacts zeroes the report facts of every posting, as an index
// written by the release before them has: every line is then read and
// decoded, which is the slow path a report is compared with.
func forgetFacts(t testing.TB, j *Journal) {
	t.Helper()
	dir := filepath.Join(j.Dir(), indexDir)
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, de := range ents {
		path := filepath.Join(dir, de.Name())
		b, err := os.ReadFile(path)
		if err != nil || len(b)%recordSize != 0 {
			continue // HEAD
		}
		for off := 0; off < len(b); off += recordSize {
			b[off+46] = 0
		}
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// A session's or a story's report counts plain allowed calls from their
// postings without reading them; it must be the report that reading
// every line gives, on a generated journal with every kind of line.
func TestReportFromPostingsEqualsTheSlowPath(t *testing.T) {
	j := open(t)
	clock := t0
	j.Now = func() time.Time { return clock }
	rnd := rand.New(rand.NewSource(7))
	sessions := []string{"alpha-1", "alpha-2", "beta"}
	stories := []string{"", "3", "7"}
	decisions := []policy.Decision{policy.Allow, policy.Allow, policy.Allow, policy.Warn, policy.Ask, policy.Defer, policy.Deny}
	var ids []string
	for i := 0; i < 400; i++ {
		clock = clock.Add(time.Minute)
		ev := held(fmt.Sprintf("cmd %d", i%37), "/p")
		ev.Time, ev.Session, ev.Story = clock, sessions[rnd.Intn(len(sessions))], stories[rnd.Intn(len(stories))]
		d := decisions[rnd.Intn(len(decisions))]
		ev.Verdict = (&policy.Verdict{Decision: d, Rule: fmt.Sprintf("rule.%d", rnd.Intn(4)), Effect: classify.Effect{Tier: classify.External}}).Record()
		if i%50 == 0 { // held, approved by a human, retried: an approved retry
			push := held(fmt.Sprintf("git push origin b%d", i), "/p")
			push.Time, push.Session, push.Story = clock, ev.Session, ev.Story
			id := record(t, j, push).QueueID
			if _, err := j.Settle(EventApprove, id, "", time.Hour); err != nil {
				t.Fatal(err)
			}
			if r := record(t, j, push); r.Approval != id {
				t.Fatalf("the retry did not use its approval: %+v", r)
			}
		}
		switch rnd.Intn(12) {
		case 0: // a line with no decision (an MCP result, a prompt)
			ev.Verdict, ev.Name = nil, "tools/result"
			ev.Detail = json.RawMessage(`{"phase":"result","decision":"allow"}`)
		case 1:
			ev.Name, ev.Agent, ev.Finding = EventScanFinding, "scan", &vocab.Finding{Source: "out", Line: i, Status: "executed"}
		case 2: // a human settles something
			if len(ids) > 0 {
				ev := EventApprove
				if rnd.Intn(2) == 0 {
					ev = EventReject
				}
				j.Settle(ev, ids[rnd.Intn(len(ids))], "", time.Hour)
				continue
			}
		}
		if id := record(t, j, ev).QueueID; id != "" {
			ids = append(ids, id)
		}
	}
	now := clock.Add(time.Minute)
	scopes := []Scope{{Stories: []string{"3"}}, {Stories: []string{"3", "7"}}, {Session: "beta", Since: t0.Add(100 * time.Minute)}}
	for _, s := range sessions {
		scopes = append(scopes, Scope{Session: s})
	}
	fast := map[int]string{}
	for i, sc := range scopes {
		r, err := j.MakeReport(sc, now)
		if err != nil {
			t.Fatal(err)
		}
		if r.Counts.Allowed == 0 || r.Counts.Held == 0 {
			t.Fatalf("scope %+v: a generated scope without allowed or held calls tests nothing: %+v", sc, r.Counts)
		}
		b, _ := json.Marshal(r)
		fast[i] = string(b) + r.Text()
	}
	forgetFacts(t, j)
	for i, sc := range scopes {
		r, err := j.MakeReport(sc, now)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(r)
		if slow := string(b) + r.Text(); slow != fast[i] {
			t.Fatalf("scope %+v: the report from postings differs from the one that reads every line:\nfast %s\nslow %s", sc, fast[i], slow)
		}
	}
	// The whole journal in one session: the session's report from
	// postings and the report that walks the journal count alike.
	all, err := j.MakeReport(Scope{}, now)
	if err != nil {
		t.Fatal(err)
	}
	var sum Counts
	for _, s := range sessions {
		r, _ := j.MakeReport(Scope{Session: s}, now)
		sum.Allowed += r.Counts.Allowed
		sum.Approved += r.Counts.Approved
		sum.Held += r.Counts.Held
		sum.Denied += r.Counts.Denied
		sum.Warned += r.Counts.Warned
		sum.Detected += r.Counts.Detected
	}
	if sum != all.Counts || sum.Approved == 0 || sum.Detected == 0 || !strings.Contains(all.Text(), "allowed") {
		t.Fatalf("sessions sum to %+v, the journal has %+v", sum, all.Counts)
	}
	// An index with facts mixed with one without (a release upgrade
	// mid-journal) still verifies as rebuilt, never as a wrong report.
	if a := mustVerify(t, j); !strings.HasPrefix(a.Index, "rebuilt") {
		t.Fatalf("verify did not notice the index lost its facts: %s", a.Index)
	}
}
