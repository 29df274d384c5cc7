package policy

import (
	"strings"
	"testing"
)

// TestSelfTeamMembership: joining a team and syncing its decisions are
// human acts (join pins the key every team decision is checked with, sync
// writes decisions into the journal), so an agent's "airlock team join"
// or "team sync" is refused, in any spelling; the membership file join
// writes (secrets/team.json) can be neither read nor written nor named in
// a command, and the machine token it holds cannot be used. Asking for
// the group's help still reads.
func TestSelfTeamMembership(t *testing.T) {
	f := newFixture(t)
	token := "7c1e9a40b2d35f6e8a9b0c1d2e3f405162738495a6b7c8d9e0f1a2b3c4d5e6f7"
	f.write("home/.local/state/airlock/secrets/team.json",
		`{"server":"https://team.example","machine":"laptop-a","token":"`+token+`","server_key":"`+strings.Repeat("A", 43)+`=","fingerprint":"SHA256:x"}`)
	p := f.load()
	state := f.env["HOME"] + "/.local/state/airlock"
	proj := f.path("proj")
	sh := func(cmd string) Action { return Action{Kind: Shell, Tool: "Bash", Command: cmd, Cwd: proj} }

	denied := []struct {
		name   string
		action Action
		rule   string
	}{
		{"join", sh("airlock team join http://x --token t"), RuleAirlockCommand},
		{"join with a pin", sh("airlock team join https://team.example --token t --pin SHA256:abc"), RuleAirlockCommand},
		{"join flags first", sh("airlock team join --token=t http://127.0.0.1:9/"), RuleAirlockCommand},
		{"join in bash -c", sh("bash -c 'airlock team join http://x --token t'"), RuleAirlockCommand},
		{"sync", sh("airlock team sync --once"), RuleAirlockCommand},
		{"sync looping", sh("nohup airlock team sync --interval 1s &"), RuleAirlockCommand},
		{"the companion directly", sh("airlock-teamsync join http://x --token t"), RuleAirlockCommand},
		{"the companion syncing", sh("/usr/local/bin/airlock-teamsync sync --once"), RuleAirlockCommand},
		{"read the membership", Action{Kind: Read, Tool: "Read", Paths: []string{state + "/secrets/team.json"}, Cwd: proj}, RuleProtectedPath},
		{"cat the membership", sh("cat " + state + "/secrets/team.json"), RuleProtectedPath},
		{"write a pinned key", Action{Kind: Write, Tool: "Write", Paths: []string{state + "/secrets/team.json"}, Cwd: proj, Content: "{}"}, RuleProtectedPath},
		{"redirect over it", sh("echo '{}' > " + state + "/secrets/team.json"), RuleProtectedPath},
		{"move sync's cursors", sh("echo '{}' > " + state + "/team/cursors.json"), RuleProtectedPath},
		{"use the machine token", sh("curl -H 'Authorization: Bearer " + token + "' https://team.example/api/team/v1/decisions"), RuleSecretValue},
	}
	for _, d := range denied {
		for _, mode := range []Mode{Interactive, Unattended} {
			got := p.DecideIn(mode, d.action)
			if got.Decision != Deny || got.Rule != d.rule {
				t.Errorf("%s (%s): got %s by %s (%s), want deny by %s", d.name, mode, got.Decision, got.Rule, got.Message, d.rule)
			}
			if strings.Contains(got.Message, token) {
				t.Errorf("%s: the reason prints the token", d.name)
			}
		}
	}
	for _, cmd := range []string{"airlock team --help", "airlock team join --help", "airlock help team"} {
		if got := p.DecideIn(Interactive, sh(cmd)); got.Decision == Deny {
			t.Errorf("%q: denied by %s: %s", cmd, got.Rule, got.Message)
		}
	}
}
