package pipeline

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// recorder keeps events; approve, when set, plays the journal finding a
// human's approval of a claimed call (the claim decides what it means).
type recorder struct {
	events  []*vocab.Event
	err     error
	approve string
}

func (r *recorder) Record(ev *vocab.Event) (vocab.Receipt, error) {
	r.events = append(r.events, ev)
	if r.err != nil {
		return vocab.Receipt{}, r.err
	}
	if r.approve != "" && ev.Claim != nil {
		spend, err := ev.Claim.Settle(r.approve)
		if err != nil {
			return vocab.Receipt{}, err
		}
		if spend {
			return vocab.Receipt{Approval: r.approve}, nil
		}
	}
	return vocab.Receipt{QueueID: "q1"}, nil
}

// gate refuses every call it sees, and counts what it sees.
type gate struct{ pre, observe int }

func (g *gate) Pre(_ *policy.Policy, r *Request, _ *policy.Action, v *policy.Verdict) (string, string) {
	g.pre++
	v.Decision, v.Rule = policy.Deny, "gate.edit"
	return "present the facts about " + r.Tool, "gate warning"
}

func (g *gate) Observe(*Request, func() (*policy.Policy, error)) string {
	g.observe++
	return ""
}

func newPipeline(mode policy.Mode, rec vocab.Recorder, g Gate) *Pipeline {
	return &Pipeline{
		Policy: func(string) (*policy.Policy, error) {
			p := policy.Defaults()
			p.Mode = mode
			return p, nil
		},
		Recorder: rec,
		Gate:     g,
	}
}

func shell(cmd string) *Request {
	return &Request{Agent: "test", Event: EventPreToolUse, Session: "s", Cwd: "/tmp", Tool: "Bash",
		Action: policy.Action{Kind: policy.Shell, Tool: "Bash", Command: cmd, Cwd: "/tmp"}}
}

func mcp(tool string) *Request {
	return &Request{Agent: "test", Event: EventPreToolUse, Session: "s", Cwd: "/tmp", Tool: tool, Input: json.RawMessage(`{"text":"hi"}`),
		Action: policy.Action{Kind: policy.UnknownTool, Tool: tool, Cwd: "/tmp"}}
}

// TestStages checks that the outcome names the stage that decided, for
// each stage a shell command can reach.
func TestStages(t *testing.T) {
	for _, tc := range []struct {
		name     string
		req      *Request
		rec      *recorder
		gate     bool
		decision policy.Decision
		stage    string
	}{
		{"local", shell("ls"), &recorder{}, false, policy.Allow, StageRules},
		{"external held", shell("git push origin main"), &recorder{}, false, policy.Defer, StageRules},
		{"self-protection", shell("airlock off"), &recorder{}, false, policy.Deny, StageSelf},
		{"mcp firewall", mcp("mcp__slack__post_message"), &recorder{}, false, policy.Defer, StageMCP},
		{"gate refuses", shell("ls"), &recorder{}, true, policy.Deny, StageGate},
		{"approval lifts a hold", shell("git push origin main"), &recorder{approve: "a1"}, false, policy.Allow, StageApproval},
		{"journal fails", shell("ls"), &recorder{err: errors.New("disk full")}, false, policy.Deny, StageJournal},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var g Gate
			if tc.gate {
				g = &gate{}
			}
			o := newPipeline(policy.Unattended, tc.rec, g).Decide(tc.req)
			if o.Verdict.Decision != tc.decision || o.Stage != tc.stage {
				t.Fatalf("got %v at %q (rule %s), want %v at %q", o.Verdict.Decision, o.Stage, o.Verdict.Rule, tc.decision, tc.stage)
			}
			if len(tc.rec.events) != 1 || tc.rec.events[0].Verdict == nil || tc.rec.events[0].Verdict.Decision != tc.decision && tc.rec.err == nil {
				t.Errorf("recorded %+v", tc.rec.events)
			}
			if (o.Retry != "") != (tc.stage == StageGate) {
				t.Errorf("retry %q at stage %s", o.Retry, o.Stage)
			}
		})
	}
}

// TestGateSkipsHolds: a call an earlier stage held never reaches the gate,
// whose refusal would otherwise turn a queued hold into a retry.
func TestGateSkipsHolds(t *testing.T) {
	g := &gate{}
	o := newPipeline(policy.Unattended, &recorder{}, g).Decide(shell("git push origin main"))
	if g.pre != 0 || o.Verdict.Decision != policy.Defer || o.Retry != "" {
		t.Errorf("gate saw a held call: %d calls, %v, retry %q", g.pre, o.Verdict.Decision, o.Retry)
	}
}

// TestPolicyError: an unreadable policy refuses the call and says so to
// both readers; the refusal is still recorded.
func TestPolicyError(t *testing.T) {
	rec := &recorder{}
	p := &Pipeline{Policy: func(string) (*policy.Policy, error) { return nil, errors.New("bad rule") }, Recorder: rec}
	o := p.Decide(shell("ls"))
	if o.Verdict.Decision != policy.Deny || o.Stage != StagePolicyError || len(o.Warnings) != 1 || !strings.Contains(o.Warnings[0], "bad rule") {
		t.Fatalf("outcome %+v", o)
	}
	if len(rec.events) != 1 || rec.events[0].Verdict.Rule != "policy.error" {
		t.Errorf("recorded %+v", rec.events)
	}
}

// TestNoHuman: when nobody can answer, an ask becomes a hold, and the
// recorded action says nobody could.
func TestNoHuman(t *testing.T) {
	for _, noHuman := range []bool{false, true} {
		rec := &recorder{}
		r := shell("git push origin main")
		r.NoHuman = noHuman
		o := newPipeline(policy.Interactive, rec, nil).Decide(r)
		want := policy.Ask
		if noHuman {
			want = policy.Defer
		}
		if o.Verdict.Decision != want || o.Action.NoHuman != noHuman || rec.events[0].Action.NoHuman != noHuman {
			t.Errorf("noHuman %v: %v, action.NoHuman %v", noHuman, o.Verdict.Decision, o.Action.NoHuman)
		}
	}
}

// TestHeldWriteExcerpt: a held write carries what it would have written
// for the reviewer, cut at a rune boundary.
func TestHeldWriteExcerpt(t *testing.T) {
	rec := &recorder{}
	protected := "/tmp/airlock-pipeline-test/protected.txt"
	p := newPipeline(policy.Unattended, rec, nil)
	p.Policy = func(string) (*policy.Policy, error) {
		p, err := policy.Load(policy.Options{Getenv: func(string) string { return "" }, Protect: []string{protected}})
		if p != nil {
			p.Mode = policy.Unattended
		}
		return p, err
	}
	content := "x" + strings.Repeat("é", ExcerptMax) // the cut falls inside a rune
	input, _ := json.Marshal(map[string]string{"file_path": protected, "content": content})
	r := &Request{Agent: "test", Event: EventPreToolUse, Cwd: "/tmp", Tool: "Write", Input: input,
		Action: policy.Action{Kind: policy.Write, Tool: "Write", Paths: []string{protected}, Cwd: "/tmp", Content: content}}
	o := p.Decide(r)
	if !o.Verdict.Decision.Holds() {
		t.Fatalf("write to a protected file not held: %v %s", o.Verdict.Decision, o.Verdict.Rule)
	}
	var d struct {
		Excerpt string
		Bytes   int
	}
	if err := json.Unmarshal(rec.events[0].Detail, &d); err != nil || d.Bytes != len(content) || len(d.Excerpt) != ExcerptMax-1 || !strings.HasPrefix(content, d.Excerpt) {
		t.Errorf("detail %s (%v)", rec.events[0].Detail, err)
	}
}

// TestObserve: lifecycle events are recorded with no verdict, and only
// the events the gate learns from reach it.
func TestObserve(t *testing.T) {
	rec, g := &recorder{}, &gate{}
	p := newPipeline(policy.Unattended, rec, g)
	for _, ev := range []string{EventSessionStart, EventUserPromptSubmit, EventPostToolUse, EventStop, EventSessionEnd} {
		if w := p.Observe(&Request{Event: ev, Prompt: "fix it"}); len(w) != 0 {
			t.Errorf("%s: warnings %q", ev, w)
		}
	}
	if g.observe != 2 || g.pre != 0 || len(rec.events) != 5 || rec.events[0].Verdict != nil {
		t.Errorf("gate observed %d, pre %d; %d events", g.observe, g.pre, len(rec.events))
	}
	rec.err = errors.New("disk full")
	if w := p.Observe(&Request{Event: EventStop}); len(w) != 1 || !strings.Contains(w[0], "recording Stop: disk full") {
		t.Errorf("record error: %q", w)
	}
}
