package notify

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/classify"
	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/pipeline"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// env is a state directory with a journal, and a policy loaded from files
// written in a private home.
type env struct {
	t     *testing.T
	root  string
	state string
	j     *journal.Journal
}

func newEnv(t *testing.T) *env {
	t.Helper()
	root := t.TempDir()
	e := &env{t: t, root: root, state: filepath.Join(root, "state")}
	j, err := journal.Open(journal.DirIn(e.state))
	if err != nil {
		t.Fatal(err)
	}
	e.j = j
	return e
}

func (e *env) getenv(k string) string {
	switch k {
	case "HOME":
		return e.root
	case "XDG_CONFIG_HOME":
		return filepath.Join(e.root, "config")
	case "AIRLOCK_HOME":
		return e.state
	}
	return ""
}

func (e *env) write(rel, content string) string {
	e.t.Helper()
	p := filepath.Join(e.root, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		e.t.Fatal(err)
	}
	return p
}

// load loads the policy in effect from the project directory proj.
func (e *env) load(proj string) (*policy.Policy, error) {
	return policy.Load(policy.Options{Getenv: e.getenv, Cwd: filepath.Join(e.root, proj)})
}

// config writes the user's policy and decodes its notify section.
func (e *env) config(yaml string) *Config {
	e.t.Helper()
	e.write("config/airlock/policy.yaml", yaml)
	p, err := e.load("")
	if err != nil {
		e.t.Fatal(err)
	}
	c, err := Decode(p.Notify)
	if err != nil {
		e.t.Fatal(err)
	}
	return c
}

// hold records a deferred shell command and returns its queue id.
func (e *env) hold(cmd string) string {
	e.t.Helper()
	rec, err := e.j.Record(heldEvent(cmd))
	if err != nil {
		e.t.Fatal(err)
	}
	if rec.QueueID == "" {
		e.t.Fatal("not queued")
	}
	return rec.QueueID
}

// retry records the agent's retry of a held command, which a human's
// approval lets through.
func (e *env) retry(cmd string) {
	e.t.Helper()
	ev := heldEvent(cmd)
	rec, err := pipeline.Record(e.j, ev, heldVerdict())
	if err != nil {
		e.t.Fatal(err)
	}
	if rec.Approval == "" {
		e.t.Fatal("the retry was not let through")
	}
}

func heldEvent(cmd string) *vocab.Event {
	return &vocab.Event{
		Time: time.Now().UTC(), Agent: "claude-code", Name: "PreToolUse", Session: "sess-1234567890", Cwd: "/work/proj", Tool: "Bash",
		Action:  &policy.Action{Kind: policy.Shell, Tool: "Bash", Command: cmd, Cwd: "/work/proj"},
		Verdict: heldVerdict().Record(),
	}
}

// heldVerdict is the policy's hold of a git push.
func heldVerdict() *policy.Verdict {
	return &policy.Verdict{Decision: policy.Defer, Rule: "table.external", Message: "git push publishes commits",
		Effect:  classify.Effect{Tier: classify.External},
		Reasons: []classify.Reason{{Rule: "git.push", Message: "git push publishes commits to a remote"}}}
}

func (e *env) item(id string) *journal.Item {
	e.t.Helper()
	it, err := e.j.Item(id, time.Now())
	if err != nil {
		e.t.Fatal(err)
	}
	return it
}

// refusals returns the notes of the journal's refused replies.
func (e *env) refusals() []string {
	e.t.Helper()
	var out []string
	err := e.j.Each(func(en *journal.Entry) error {
		if en.Event == EventReplyRefused {
			out = append(out, en.Note)
		}
		return nil
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return out
}
