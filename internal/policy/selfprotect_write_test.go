package policy

import "testing"

// TestSelfProtectionWriteOptions holds the writes that readers make
// through an option (yq -i, less -o, file -C), every getopt_long
// abbreviation of those options (sort --outp=), and the output prefixes
// of split and csplit. Each line was allowed before (third review).
func TestSelfProtectionWriteOptions(t *testing.T) {
	f := newFixture(t)
	f.projectFile("mode: interactive\n")
	p := f.load()
	home := f.env["HOME"]
	proj := f.path("proj")
	cfg := home + "/.config/airlock/policy.yaml"
	claude := home + "/.claude/settings.json"
	hookBin := "/opt/airlock/bin/airlock"
	sh := func(cmd string) Action { return Action{Kind: Shell, Tool: "Bash", Command: cmd, Cwd: proj} }

	denied := []string{
		// F4: yq edits in place.
		"yq -i '.a=1' " + cfg,
		"yq -i '.hooks={}' " + claude,
		"yq e -i '.a=1' " + cfg,
		"yq --inplace '.a=1' " + cfg,
		"yq --inpl '.a=1' " + cfg,
		"yq --inplace=true '.a=1' " + cfg,
		"yq -i -o json '.a=1' " + claude,
		"yq -Pi '.a=1' " + claude,
		"cat f | yq -i '.a=1' " + cfg,
		"yq -i '.a=1' .airlock/policy.yaml",
		"yq --in-place -y '.a=1' " + cfg,
		// F5: getopt_long abbreviations of --output.
		"sort --outp=" + hookBin + " f",
		"sort --outp=" + claude + " f",
		"sort --o=" + claude + " f",
		"sort --ou=" + claude + " f",
		"sort --out " + claude + " f",
		"sort -uo " + claude + " f",
		"sort -o" + claude + " f",
		// F10: less writes its log file.
		"less -o " + cfg + " f",
		"less -O " + claude + " f",
		"less --log-file=" + claude + " f",
		"less --log " + claude + " f",
		// file -C writes NAME.mgc beside the magic file.
		"file -C -m " + cfg,
		// F6: split and csplit write PREFIX+suffix.
		"split -l1 -a1 f " + hookBin + "-hoo",
		"split -l1 -a1 f /opt/airlock/bin/airloc",
		"csplit -f /opt/airlock/bin/airloc -b 'k%.0d' f 1",
		"csplit --pre=/opt/airlock/bin/airloc -b 'k%.0d' f 1",
		"split -l1 -a1 --additional-suffix=.json f " + home + "/.claude/setting",
		"split -l1 -a1 --additional-suf=.json f ~/.claude/setting",
		"split -l1 -a1 f " + home + "/.claude/settings.jso",
		"split -l1 f .airlock/pol",
		"split -l1 f " + home + "/.config/airlock/",
		"csplit -f x -b '/../../.airlock/policy%d.yaml' f 1",
		"cd /opt/airlock/bin && csplit -f airloc f 1",
	}
	for _, cmd := range denied {
		t.Run("deny/"+cmd, func(t *testing.T) {
			v := p.DecideIn(Unattended, sh(cmd))
			if v.Decision != Deny || v.Rule != RuleProtectedPath {
				t.Errorf("got %s by %s (%v), want deny by %s", v.Decision, v.Rule, v.Reasons, RuleProtectedPath)
			}
		})
	}

	allowed := []string{
		"yq '.a' " + cfg,
		"yq -o json '.a' " + claude,
		"yq --indent 2 '.a' " + cfg,
		"sort -k1,1 " + cfg,
		"sort -t o " + cfg,
		"less " + cfg,
		"less -p output " + cfg,
		"file " + cfg,
		"split -l100 big.txt",
		"split -l100 big.txt chunk.",
		"csplit -f part. big.txt 3",
	}
	for _, cmd := range allowed {
		t.Run("allow/"+cmd, func(t *testing.T) {
			v := p.DecideIn(Unattended, sh(cmd))
			if v.Decision == Deny || v.Rule == RuleProtectedPath || v.Rule == RuleAirlockCommand {
				t.Errorf("got %s by %s (%v), want it not held by self-protection", v.Decision, v.Rule, v.Reasons)
			}
		})
	}
}

// TestSelfProtectionFollowedScripts holds a script whose lines change
// airlock's files or an agent's hook settings, however it is run: the
// lines classify follows are checked as if typed inline.
func TestSelfProtectionFollowedScripts(t *testing.T) {
	f := newFixture(t)
	f.projectFile("mode: interactive\n")
	home := f.env["HOME"]
	f.write("proj/x.sh", "echo {} > ~/.claude/settings.json\n")
	f.write("proj/y.sh", "#!/bin/sh\nyq -i .a=1 "+home+"/.config/airlock/policy.yaml\n")
	f.write("proj/z.sh", "cp f ~/.config/airlock/policy.yaml\n")
	f.write("proj/outer.sh", "echo start\nbash ./inner.sh\n")
	f.write("proj/inner.sh", "sort --outp=/opt/airlock/bin/airlock f\n")
	f.write("proj/ok.sh", "echo x > out.txt\ncat ~/.config/airlock/policy.yaml\n")
	p := f.load()
	proj := f.path("proj")
	sh := func(cmd string) Action { return Action{Kind: Shell, Tool: "Bash", Command: cmd, Cwd: proj} }

	for _, cmd := range []string{
		"bash ./x.sh", "sh x.sh", "./x.sh", "source x.sh", ". x.sh", "bash < x.sh",
		"bash ./y.sh", "./y.sh", "bash ./z.sh", "bash outer.sh", "echo hi && bash ./z.sh",
	} {
		t.Run("deny/"+cmd, func(t *testing.T) {
			v := p.DecideIn(Unattended, sh(cmd))
			if v.Decision != Deny || v.Rule != RuleProtectedPath {
				t.Errorf("got %s by %s (%v), want deny by %s", v.Decision, v.Rule, v.Reasons, RuleProtectedPath)
			}
		})
	}
	for _, cmd := range []string{"bash ok.sh", "./ok.sh", "bash missing.sh"} {
		t.Run("allow/"+cmd, func(t *testing.T) {
			v := p.DecideIn(Unattended, sh(cmd))
			if v.Decision == Deny || v.Rule == RuleProtectedPath || v.Rule == RuleAirlockCommand {
				t.Errorf("got %s by %s (%v), want it not held by self-protection", v.Decision, v.Rule, v.Reasons)
			}
		})
	}
}
