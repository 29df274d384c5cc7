package notify

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/policy"
)

func TestDecode(t *testing.T) {
	e := newEnv(t)
	c := e.config(`notify:
  ntfy:
    server: https://ntfy.example.org/
    topic: alerts
    reply_topic: alerts-replies
    token_file: /home/me/.local/state/airlock/secrets/ntfy-token
    expire_after: 2h
    approve_for: 30m
  webhook:
    url: https://hooks.example.com/services/T0/B0/X
    headers:
      X-Team: ops
`)
	n := c.Ntfy
	if n.Server != "https://ntfy.example.org" || n.Topic != "alerts" || n.ReplyTopic != "alerts-replies" || n.ExpireAfter != 2*time.Hour || n.ApproveFor != 30*time.Minute {
		t.Fatalf("%+v", n)
	}
	if c.Webhook.URL != "https://hooks.example.com/services/T0/B0/X" || c.Webhook.Headers["X-Team"] != "ops" {
		t.Fatalf("%+v", c.Webhook)
	}
	// Defaults.
	c = e.config("notify:\n  ntfy:\n    server: http://127.0.0.1:8080\n")
	if c.Ntfy.ExpireAfter != DefaultExpireAfter || c.Ntfy.Topic != "" || c.Webhook != nil {
		t.Fatalf("%+v", c.Ntfy)
	}
}

// Every mistake is named with the file and its line, all in one run.
func TestDecodeStrict(t *testing.T) {
	cases := []struct{ yaml, want string }{
		{"notify:\n  ntfy:\n    server: https://n.example\n    topik: x\n", `:4: bad notify section: unknown key "topik" in notify.ntfy`},
		{"notify:\n  slack: {}\n", `:2: bad notify section: unknown key "slack" in notify (want ntfy, webhook)`},
		{"notify:\n  ntfy:\n    topic: x\n", ":3: bad notify section: notify.ntfy needs a server"},
		{"notify:\n  ntfy:\n    server: http://ntfy.example\n", ":3: bad notify section: server: \"http://ntfy.example\" is plain http to another machine"},
		{"notify:\n  ntfy:\n    server: https://u:p@ntfy.example\n", "carries credentials in the URL"},
		{"notify:\n  ntfy:\n    server: https://ntfy.example/mytopic\n", "without a path"},
		{"notify:\n  ntfy:\n    server: https://n.example\n    topic: a/b\n", ":4: bad notify section: topic \"a/b\""},
		{"notify:\n  ntfy:\n    server: https://n.example\n    token: a\n    token_file: /t\n", "token or token_file, not both"},
		{"notify:\n  ntfy:\n    server: https://n.example\n    token_file: rel/t\n", "absolute path"},
		{"notify:\n  ntfy:\n    server: https://n.example\n    expire_after: 30d\n", ":4: bad notify section: expire_after must be a duration"},
		{"notify:\n  ntfy:\n    server: https://n.example\n    approve_for: 200h\n", ":4: bad notify section: approve_for"},
		{"notify:\n  ntfy:\n    server: https://n.example\n    topic: t\n    reply_topic: t\n", "reply_topic must differ"},
		{"notify:\n  webhook:\n    headers: {X: y}\n", "notify.webhook needs a url"},
		{"notify:\n  webhook:\n    url: https://h.example\n    headers: {\"Bad Name\": y}\n", "not a valid HTTP header name"},
		{"notify:\n  webhook:\n    url: ftp://h.example\n", "scheme must be https"},
		{"notify: [1]\n", ":1: bad notify section: notify must be a mapping"},
	}
	for _, c := range cases {
		e := newEnv(t)
		file := e.write("config/airlock/policy.yaml", c.yaml)
		p, err := e.load("")
		if err != nil {
			t.Fatalf("%q: policy: %v", c.yaml, err)
		}
		_, err = Decode(p.Notify)
		var fe *policy.FileError
		if err == nil || !errors.As(err, &fe) || !errors.Is(err, ErrConfig) || fe.File != file || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q:\n  got  %v\n  want %s", c.yaml, err, c.want)
		}
	}
}

// A project's policy file, even one the user trusted, cannot say where
// held actions are sent: it is an error naming its file and line.
func TestProjectNotifyRefused(t *testing.T) {
	e := newEnv(t)
	e.write("config/airlock/policy.yaml", "notify:\n  ntfy:\n    server: https://mine.example\n")
	file := e.write("proj/.airlock/policy.yaml", "mode: supervised\nnotify:\n  webhook:\n    url: https://attacker.example/collect\n")
	_, err := e.load("proj")
	var fe *policy.FileError
	if !errors.As(err, &fe) || fe.File != file || fe.Line != 3 || !strings.Contains(err.Error(), "user's policy file only") {
		t.Fatalf("got %v", err)
	}
	// Trusting the file does not change that.
	trust, err := policy.LoadTrust(policy.PathsFrom(e.getenv).TrustFile())
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(file)
	trust.Trust(file, data)
	if err := trust.Save(); err != nil {
		t.Fatal(err)
	}
	if _, err := e.load("proj"); !errors.As(err, &fe) || fe.Line != 3 {
		t.Fatalf("trusted project file: got %v", err)
	}
	// Without the section, the same project file loads.
	e.write("proj/.airlock/policy.yaml", "mode: supervised\n")
	if _, err := e.load("proj"); err != nil {
		t.Fatal(err)
	}
}
