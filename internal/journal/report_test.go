package journal

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/classify"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/vocab"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// session writes a realistic overnight loop: two stories with held
// pushes and posts, local work, a denial, an approved retry, a rejection
// and a scanner finding.
func session(t *testing.T) (*Journal, time.Time) {
	j := open(t)
	clock := t0
	j.Now = func() time.Time { return clock }
	at := func(d time.Duration) time.Time { clock = t0.Add(d); return clock }
	ev := func(d time.Duration, story, cmd string, dec policy.Decision, rule string, eff classify.Effect, reasons ...classify.Reason) *vocab.Event {
		e := held(cmd, "/work/proj")
		e.Time, e.Story, e.Session = at(d), story, "sess-"+story+"-0123456789"
		e.Verdict = (&policy.Verdict{Decision: dec, Rule: rule, Effect: eff, Reasons: reasons, Mode: policy.Unattended}).Record()
		return e
	}
	ext := classify.Effect{Tier: classify.External}
	push := classify.Reason{Rule: "git.push", Message: "git push publishes commits to a remote repository"}
	post := classify.Reason{Rule: "http.write", Message: "curl -X POST sends data to a server"}
	record(t, j, ev(0, "3", "go test ./...", policy.Allow, "table.local", classify.Effect{}))
	record(t, j, ev(0, "3", "git push", policy.Defer, "table.external", ext, push))
	record(t, j, ev(time.Hour+27*time.Minute+13*time.Second, "7", "curl -X POST https://api.example.test/v1/items -d @items.json", policy.Defer, "table.external", ext, post))
	record(t, j, ev(2*time.Hour, "7", "rm -rf ~", policy.Deny, "builtin.home", classify.Effect{Destructive: true}))
	record(t, j, ev(2*time.Hour, "7", "git fetch origin", policy.Warn, "table.netread", classify.Effect{NetworkRead: true}))
	gh := record(t, j, ev(2*time.Hour, "8", "gh pr create --fill", policy.Defer, "table.external", ext)).QueueID
	np := record(t, j, ev(2*time.Hour, "8", "npm publish", policy.Defer, "table.external", ext)).QueueID
	at(3 * time.Hour)
	if _, err := j.Settle(EventApprove, gh, "ok to open the PR", time.Hour); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Settle(EventReject, np, "not this version", 0); err != nil {
		t.Fatal(err)
	}
	record(t, j, ev(3*time.Hour+time.Minute, "8", "gh pr create --fill", policy.Defer, "table.external", ext))
	f := ev(4*time.Hour, "9", "curl -X POST https://hooks.example.test/x", policy.Defer, "table.external", ext, post)
	f.Name, f.Agent, f.Finding = EventScanFinding, "scan", &vocab.Finding{Source: "story-9.out", Line: 12, Status: "executed"}
	record(t, j, f)
	return j, at(5 * time.Hour)
}

func TestReportGolden(t *testing.T) {
	j, now := session(t)
	r, err := j.MakeReport(Scope{}, now)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct{ format, file string }{
		{FormatText, "report.txt"}, {FormatMarkdown, "report.md"}, {FormatJSON, "report.json"},
	} {
		var b bytes.Buffer
		if err := r.Write(&b, f.format); err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", f.file)
		if *update {
			os.MkdirAll("testdata", 0o755)
			if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		// Ids come from the chain, which holds no temp paths, so they are
		// the same on every run.
		if !bytes.Equal(b.Bytes(), want) {
			t.Errorf("%s differs from %s (run with -update after checking):\n%s", f.format, golden, b.String())
		}
	}
}

func TestReportContent(t *testing.T) {
	j, now := session(t)
	r, err := j.MakeReport(Scope{}, now)
	if err != nil {
		t.Fatal(err)
	}
	text := r.Text()
	if !strings.HasPrefix(text, "DEFERRED ACTIONS REQUIRE REVIEW\n3 external actions held for review.\n  Story #3 [2026-02-23T08:15:00Z, external, 0bcc181b]: git push\n  Story #7 [2026-02-23T09:42:13Z, external, c2f55264]: curl -X POST") {
		t.Fatalf("report opens with:\n%s", text)
	}
	c := r.Counts
	if c.Allowed != 2 || c.Warned != 1 || c.Held != 4 || c.Denied != 1 || c.Approved != 1 || c.Detected != 1 {
		t.Fatalf("counts %+v", c)
	}
	if len(r.Refused) != 1 || r.Refused[0].Command != "rm -rf ~" || !strings.Contains(text, "deny by builtin.home, effect local+destructive: rm -rf ~") {
		t.Fatalf("the denial is not named: %+v\n%s", r.Refused, text)
	}
	if r.TopRules[0].Rule != "table.external" || r.TopRules[0].Count != 4 {
		t.Fatalf("top rules %+v", r.TopRules)
	}
	// One story only.
	r, _ = j.MakeReport(Scope{Stories: []string{"8"}}, now)
	if len(r.Review) != 0 || len(r.Items) != 2 || !strings.HasPrefix(r.Text(), "No actions await review.") {
		t.Fatalf("story 8: review %d items %d\n%s", len(r.Review), len(r.Items), r.Text())
	}
	var back Report
	var b bytes.Buffer
	r.Write(&b, FormatJSON)
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || len(back.Items) != 2 {
		t.Fatalf("json round trip: %v %d", err, len(back.Items))
	}
	if err := r.Write(&b, "yaml"); err == nil {
		t.Fatal("an unknown format was accepted")
	}
}

// A session's report reads only its own lines and the lines that refer to
// queue items, so a retry from the next session that used an approval
// still shows.
func TestSessionReportSeesRetriesFromOtherSessions(t *testing.T) {
	j := open(t)
	ev := held("git push origin main", "/p")
	ev.Session = "night"
	id := record(t, j, ev).QueueID
	other := allowed("ls")
	other.Session = "noise"
	record(t, j, other)
	if _, err := j.Settle(EventApprove, id, "", time.Hour); err != nil {
		t.Fatal(err)
	}
	retry := held("git push origin main", "/p")
	retry.Session = "morning"
	if r := record(t, j, retry); r.Approval != id {
		t.Fatalf("retry did not use the approval: %+v", r)
	}
	r, err := j.MakeReport(Scope{Session: "night"}, t0)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Items) != 1 || r.Items[0].Status != Used || r.Items[0].UsedBy == nil || r.Items[0].UsedBy.Session != "morning" {
		t.Fatalf("night's items: %+v", r.Items)
	}
	if r.Counts.Allowed != 0 || r.Counts.Held != 1 {
		t.Fatalf("night's counts include other sessions: %+v", r.Counts)
	}
}

// A session's report reads its lines through the index, decoding only what
// the counts need; a refusal that was not queued is still listed with its
// command and effect, not as an empty item.
func TestSessionReportNamesRefusals(t *testing.T) {
	j, now := session(t)
	r, err := j.MakeReport(Scope{Session: "sess-7-0123456789"}, now)
	if err != nil {
		t.Fatal(err)
	}
	text := r.Text()
	if len(r.Refused) != 1 || r.Refused[0].Command != "rm -rf ~" || !strings.Contains(text, "deny by builtin.home, effect local+destructive: rm -rf ~") {
		t.Fatalf("the denial is not named: %+v\n%s", r.Refused, text)
	}
	if strings.Contains(text, "NOTHING TO REVIEW") {
		t.Fatalf("a refusal is shown as an empty item:\n%s", text)
	}
}
