package policy

import (
	"strings"
	"testing"
)

// TestAirlockUnits: systemctl and service runs that stop, signal or
// disable a unit named after airlock's programs are refused (FINDINGS-6
// F7), in close spellings; other units, and reads of airlock's, are not.
func TestAirlockUnits(t *testing.T) {
	f := newFixture(t)
	f.write("proj/.git/HEAD", "ref: refs/heads/main\n")
	p := f.load()
	decide := func(cmd string) Verdict {
		return p.DecideIn(Unattended, Action{Kind: Shell, Tool: "Bash", Command: cmd, Cwd: f.path("proj"), Snapshots: true})
	}
	deny := []string{
		`systemctl --user kill airlock-hookd`,
		`systemctl --user kill --signal=9 'airlock*'`,
		`systemctl --user kill -s KILL airlock-hookd.service`,
		`systemctl --user mask airlock-hookd`,
		`systemctl --user disable --now airlock-hookd`,
		`systemctl --user stop airlock-hookd`,
		`systemctl --user stop 'air*'`,
		`systemctl --user stop '*'`,
		`systemctl stop airlock-serve.service`,
		`systemctl --user freeze airlock-notify`,
		`systemctl --user restart AIRLOCK-HOOKD`,
		`sudo systemctl stop airlock-hookd`,
		`u=airlock-hookd; systemctl --user stop $u`,
		`systemctl --user stop $(cat unit.txt)`,
		`systemctl --user $(echo stop) airlock-hookd`,
		`service airlock-hookd stop`,
		`bash -c 'systemctl --user kill airlock-hookd'`,
		`systemctl --user exit`,
		`systemctl --user isolate default.target`,
		`loginctl terminate-user $USER`,
		`loginctl kill-user me -s KILL`,
		`loginctl terminate-session 3`,
	}
	for _, cmd := range deny {
		v := decide(cmd)
		if v.Decision != Deny || !strings.HasPrefix(v.Rule, "self.") {
			t.Errorf("%q was %s by %s (%s); want a deny by self-protection", cmd, v.Decision, v.Rule, v.Message)
		}
	}
	ordinary := []string{
		`systemctl --user restart myapp`,
		`systemctl --user stop myapp.service`,
		`systemctl --user status airlock-hookd`,
		`systemctl --user is-active airlock-hookd`,
		`systemctl --user start airlock-hookd`,
		`systemctl --user list-units 'airlock*'`,
		`systemctl --user kill -s HUP myapp`,
		`service nginx reload`,
		`journalctl --user -u airlock-hookd -n 50`,
		`loginctl list-sessions`,
		`loginctl show-user me`,
		`systemctl --user daemon-reload`,
	}
	for _, cmd := range ordinary {
		if v := decide(cmd); v.Decision == Deny && strings.HasPrefix(v.Rule, "self.") {
			t.Errorf("%q was denied by %s (%s); it leaves airlock's services alone", cmd, v.Rule, v.Message)
		}
	}
}
