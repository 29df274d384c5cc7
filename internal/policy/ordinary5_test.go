package policy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOrdinaryWork5 holds, for each class of ordinary work that round 5
// found refused or held (docs/FINDINGS-5.md B1-B8), close variants that
// must now flow, and the same shapes aimed at airlock's files, the home
// or a computed place, which must stay refused or held.
func TestOrdinaryWork5(t *testing.T) {
	type want int
	const (
		flows    want = iota // allow or warn, unattended
		notDeny              // anything but deny, unattended
		selfDeny             // deny by self-protection
		held                 // not allow, not warn
		queued               // defer unattended, ask interactive
		refused              // deny unattended
	)
	approve := "airlock queue approve abcd"
	files := map[string]string{
		"home/.claude/settings.json":                    "{\"hooks\":{}}\n",
		"home/.config/airlock/policy.yaml":              "mode: interactive\n",
		"home/.local/state/airlock/secrets/serve.token": strings.Repeat("d4", 32) + "\n",
		"home/.local/state/airlock/secrets/human.key":   strings.Repeat("k", 32),
		"home/.ssh/id.key":                              "k",
		"proj/.claude/settings.json":                    "{\"hooks\":{}}\n",
		"proj/src/m.py":                                 "print(1)\n",
		"proj/src/n.pyc":                                "",
		"proj/build/x":                                  "x",
		"proj/dist/y":                                   "y",
		"proj/Makefile":                                 "clean:\n\trm -rf build dist\n",
		"proj/web/Makefile":                             "x:\n\techo x\n",
		"proj/evil/Makefile":                            "x:\n\t" + approve + "\n",
		"proj/evil/x.sh":                                "#!/bin/sh\ngit push origin main\n",
		"proj/.venv/bin/activate":                       "VIRTUAL_ENV=/p/.venv\nexport VIRTUAL_ENV\n",
		"proj/bad/bin/activate":                         "export VIRTUAL_ENV=/p\ncd ~/.config\n",
		"proj/scripts/build.sh":                         "#!/bin/sh\nmake\n",
		"proj/scripts/run.sh":                           "#!/bin/sh\necho run\n",
		"proj/scripts/far.sh":                           "#!/bin/sh\nbash scripts/far2.sh\n",
		"proj/scripts/far2.sh":                          "#!/bin/sh\nrm -rf ~/x\n",
		"proj/scripts/other.sh":                         "#!/bin/sh\nmake -C ../other clean\n",
		"other/Makefile":                                "clean:\n\trm -rf build\n",
	}
	f := newFixture(t)
	home := f.path("home")
	for rel, body := range files {
		f.write(rel, body)
	}
	if err := os.Chmod(filepath.Join(home, ".local/state/airlock/secrets"), 0o700); err != nil {
		t.Fatal(err)
	}
	proj := f.path("proj")
	f.write("proj/.git/HEAD", "ref: refs/heads/main\n")
	p := f.load()
	cases := []struct {
		cmd  string
		want want
	}{
		// B1: runs after a literal cd read their files there.
		{`ls && cd src && python3 m.py`, flows},
		{`cd scripts && ./run.sh`, flows},
		{`pushd web && make && popd`, flows},
		{`cd evil && make x`, selfDeny},
		{`cd evil && ./x.sh`, held},
		{`cd "$D" && ./gone.sh`, held},
		{`cd nowhere; ./gone.sh`, held},
		// B2: a sourced file that cannot change directory keeps it.
		{`source .venv/bin/activate && cd src && python3 m.py`, flows},
		{`. .venv/bin/activate && python -m pip list`, flows},
		{`source bad/bin/activate && python -m pip list`, selfDeny},
		{`source ./missing.sh && python -m pip list`, selfDeny},
		// B3: a glob in a project directory is what it matches now.
		{`rm -rf dist/*`, notDeny},
		{`sed -i s/a/b/ src/*`, flows},
		{`rm -rf ~/.claude/*`, selfDeny},
		{`rm -f ~/.local/state/airlock/secrets/*`, selfDeny},
		{`echo x | tee -a ~/.claude/*.json`, selfDeny},
		{`echo x | tee -a ~/.local/state/airlock/secrets/x?`, selfDeny},
		{`touch build/opencode.json && rm -rf build/*`, selfDeny},
		{`ln -s ~/.claude/settings.json build/l && truncate -s0 build/*`, selfDeny},
		// B4: $(find …) and $(git ls-files …) name what they list.
		{`rm $(find . -name '*.pyc')`, notDeny},
		{`wc -l $(git ls-files '*.py')`, flows},
		{`rm $(find ~ -name '*.key')`, selfDeny},
		{`rm $(find . -name settings.json)`, selfDeny},
		{`cat $(find ~/.local -name serve.token)`, selfDeny},
		{`rm "$(find . -name '*.pyc')"`, selfDeny},
		{`rm $(find . -name '*.pyc' | head)`, selfDeny},
		{`rm $(find -L . -name '*.pyc')`, selfDeny},
		// B5: find's expression is not the code of what -exec runs.
		{`find src -name '*.py' -not -path './.venv/*' -exec sed -i 's/a/b/' {} +`, flows},
		{`find ~ -name settings.json -not -path './x/*' -exec sed -i s/a/b/ {} +`, selfDeny},
		{`find / -name '*.conf' -exec sed -i s/a/b/ {} +`, selfDeny},
		{`find . -name '*.py' -exec python3 -c 'open("` + home + `/.claude/settings.json","w")' {} +`, selfDeny},
		// B7: git's own history commands are held for the human.
		{`git branch -D old`, queued},
		{`git stash drop`, queued},
		{`git push --force origin main`, refused},
		{`rm -rf .git`, refused},
		{`sudo git branch -D old`, refused},
		// B8: a script's make is placed by its recipe.
		{`bash scripts/build.sh`, flows},
		{`bash scripts/far.sh`, refused},
		{`bash scripts/other.sh`, refused},
	}
	for _, c := range cases {
		v := p.DecideIn(Unattended, Action{Kind: Shell, Tool: "Bash", Command: c.cmd, Cwd: proj, Snapshots: true})
		bad := false
		switch c.want {
		case flows:
			bad = v.Decision != Allow && v.Decision != Warn
		case notDeny:
			bad = v.Decision == Deny
		case selfDeny:
			bad = v.Decision != Deny || !strings.HasPrefix(v.Rule, "self.")
		case held:
			bad = v.Decision == Allow || v.Decision == Warn
		case queued:
			iv := p.DecideIn(Interactive, Action{Kind: Shell, Tool: "Bash", Command: c.cmd, Cwd: proj, Snapshots: true})
			bad = v.Decision != Defer || iv.Decision != Ask
		case refused:
			bad = v.Decision != Deny
		}
		if bad {
			t.Errorf("%q: %s by %s (%v); want %v", c.cmd, v.Decision, v.Rule, v.Reasons, []string{"flows", "not denied", "denied by self-protection", "held", "queued", "refused"}[c.want])
		}
	}
}

// TestTrackedFiles5 (B6): what git ls-files hands to a program is what
// git's index lists. An untracked hook settings file is not handed over;
// a tracked one, a tracked link to one, or the untracked files (-o) are.
func TestTrackedFiles5(t *testing.T) {
	f := newFixture(t)
	proj := f.path("proj")
	for rel, body := range map[string]string{
		"home/.claude/settings.json":       "{}\n",
		"home/.config/airlock/policy.yaml": "mode: interactive\n",
		"proj/.claude/settings.json":       "{\"hooks\":{}}\n",
		"proj/src/a.py":                    "a = 1\n",
		"proj/README.md":                   "# r\n",
	} {
		f.write(rel, body)
	}
	gitIn(t, proj, "init", "-q")
	gitIn(t, proj, "add", "src", "README.md")
	p := f.load()
	decide := func(cmd, cwd string) Verdict {
		return p.DecideIn(Unattended, Action{Kind: Shell, Tool: "Bash", Command: cmd, Cwd: cwd, Snapshots: true})
	}
	flow := []string{
		`git ls-files | xargs prettier --write`,
		`git ls-files -z | xargs -0 dos2unix`,
		`git ls-files '*.py' | xargs black`,
		`prettier --write $(git ls-files)`,
	}
	for _, cmd := range flow {
		if v := decide(cmd, proj); v.Decision == Deny {
			t.Errorf("%q, hook settings untracked: denied by %s (%v)", cmd, v.Rule, v.Reasons)
		}
	}
	for _, cmd := range []string{`git ls-files -o | xargs prettier --write`, `git ls-files --others -z | xargs -0 dos2unix`} {
		if v := decide(cmd, proj); v.Decision != Deny || !strings.HasPrefix(v.Rule, "self.") {
			t.Errorf("%q lists the untracked hook settings: %s by %s", cmd, v.Decision, v.Rule)
		}
	}
	// Outside a project, in the home: the home's hook settings.
	gitIn(t, f.path("home"), "init", "-q")
	gitIn(t, f.path("home"), "add", "-f", ".claude/settings.json")
	if v := decide(`git ls-files | xargs rm`, f.path("home")); v.Decision != Deny {
		t.Errorf("git ls-files | xargs rm in the home: %s by %s", v.Decision, v.Rule)
	}
	// A tracked link to the user's hook settings.
	if err := os.Symlink(f.path("home/.claude/settings.json"), filepath.Join(proj, "cfg.json")); err != nil {
		t.Fatal(err)
	}
	gitIn(t, proj, "add", "cfg.json")
	p = f.load()
	if v := decide(`git ls-files | xargs prettier --write`, proj); v.Decision != Deny || !strings.HasPrefix(v.Rule, "self.") {
		t.Errorf("a tracked link to the hook settings: %s by %s", v.Decision, v.Rule)
	}
	// The project's own hook settings, tracked.
	gitIn(t, proj, "add", "-f", ".claude/settings.json")
	for _, cmd := range []string{`git ls-files | xargs prettier --write`, `git ls-files -z | xargs -0 dos2unix`, `prettier --write $(git ls-files)`} {
		if v := decide(cmd, proj); v.Decision != Deny || !strings.HasPrefix(v.Rule, "self.") {
			t.Errorf("%q with the hook settings tracked: %s by %s", cmd, v.Decision, v.Rule)
		}
	}
	if v := decide(`git ls-files '*.py' | xargs black`, proj); v.Decision == Deny {
		t.Errorf("a pathspec that leaves the hook settings out: denied by %s (%v)", v.Rule, v.Reasons)
	}
}
