package policy

import (
	"slices"
	"strings"
	"testing"
)

// TestDirOutput decides commands whose paths come from $(pwd) and
// $(git rev-parse --show-toplevel), which airlock reads at decision time
// (shell.Limits.DirOutput): the project named that way is the project,
// and a protected file named that way is refused, unless the text can
// change what the program prints (PATH, GIT_*, a function or alias of its
// name) or where it runs (a directory known only at run time).
func TestDirOutput(t *testing.T) {
	base := map[string]string{
		"home/.claude/settings.json":                    "{\"hooks\":{}}\n",
		"home/.config/airlock/policy.yaml":              "mode: interactive\n",
		"home/.local/state/airlock/secrets/serve.token": strings.Repeat("d4", 32) + "\n",
		"proj/Makefile":                                 "build:\n\techo hi\n",
		"proj/src/m.py":                                 "print(1)\n",
		"proj/build/app":                                "",
		"proj/app.db":                                   "",
	}
	cases := []findingCase{
		// Ordinary work: the top level is the project.
		{finding: "cd to the top level, make", cmd: `cd "$(git rev-parse --show-toplevel)" && make build`, want: notHeld},
		{finding: "cd to the top level from src, make", cmd: `cd src && cd "$(git rev-parse --show-toplevel)" && make build`, want: notHeld},
		{finding: "cd to the top level, rm -rf build", cmd: `cd "$(git rev-parse --show-toplevel)" && rm -rf build`, want: notHeld},
		{finding: "cd $(pwd)/src, python3", cmd: `cd "$(pwd)/src" && python3 m.py`, want: notHeld},
		{finding: "cd $(pwd -P), make", cmd: `cd "$(pwd -P)" && make build`, want: notHeld},
		{finding: "sqlite3 DROP TABLE of the project's database", cmd: `sqlite3 app.db "DROP TABLE users"`, want: notHeld},

		// Attacks: the value is the protected path, or cannot be told.
		{finding: "cd ~/.claude, truncate $(pwd)/settings.json", cmd: `cd ~/.claude && : > "$(pwd)/settings.json"`, want: denied},
		{finding: "cd ~/.claude, cp over $(pwd -P)/settings.json", cmd: `cd @HOME@/.claude && cp src/m.py "$(pwd -P)/settings.json"`, want: denied},
		{finding: "top level's ../home/.claude/settings.json", cmd: `cp src/m.py "$(git rev-parse --show-toplevel)/../home/.claude/settings.json"`, want: denied},
		{finding: "cat a secret by $(pwd)", cmd: `cd @HOME@/.local/state/airlock && cat "$(pwd)/secrets/serve.token"`, want: denied},
		{finding: "a function named git", cmd: `git() { echo @HOME@/.claude; }; cd "$(git rev-parse --show-toplevel)" && rm -f settings.json`, want: held},
		{finding: "a function named pwd", cmd: `pwd() { echo @HOME@/.claude; }; rm -f "$(pwd)/settings.json"`, want: held},
		{finding: "PATH set before", cmd: `PATH=@ROOT@/p:$PATH; cd "$(git rev-parse --show-toplevel)" && rm -rf build`, want: held},
		{finding: "GIT_WORK_TREE exported before", cmd: `export GIT_WORK_TREE=@HOME@/.claude; cd "$(git rev-parse --show-toplevel)" && rm -f settings.json`, want: held},
		{finding: "GIT_DIR on the substitution", cmd: `cd "$(GIT_DIR=@HOME@/.claude git rev-parse --show-toplevel)" && rm -f settings.json`, want: held},
		{finding: "a directory known only at run time", cmd: `cd "$D" && rm -rf "$(pwd)/build"`, want: held},
		{finding: "sqlite3 ATTACH of a file outside", cmd: `sqlite3 app.db "ATTACH '/srv/x.db' AS o; DROP TABLE o.t"`, want: held},
		{finding: "sqlite3 of a database outside", cmd: `sqlite3 /srv/app.db "DROP TABLE users"`, want: held},
		{finding: "sqlite3 .output to the hook settings", cmd: `sqlite3 app.db ".output @HOME@/.claude/settings.json" "SELECT 1"`, want: denied},
	}
	for i := range cases {
		cases[i].fixed = true
	}
	runFindingCases(t, "DIROUT", base, cases)
}

// TestPromotedDeletionLosesTempReason: classify calls rm -rf of a path
// under /tmp temporary; when that path is the project (here, a fixture
// in the temporary directory), grading holds it, and the verdict must not
// also say "only deletes temporary files".
func TestPromotedDeletionLosesTempReason(t *testing.T) {
	f := newFixture(t)
	f.write("proj/.git/HEAD", "ref: refs/heads/main\n")
	f.write("proj/a.txt", "a\n")
	p := f.load()
	for _, cmd := range []string{`rm -rf "$(pwd)"`, "rm -rf " + f.path("proj")} {
		v := p.DecideIn(Unattended, Action{Kind: Shell, Tool: "Bash", Command: cmd, Cwd: f.path("proj"), Snapshots: true})
		if v.Decision != Deny {
			t.Errorf("%s: %s by %s; want it refused (the project and its history)", cmd, v.Decision, v.Rule)
		}
		for _, r := range v.Reasons {
			if isTemp(r) {
				t.Errorf("%s: %s, yet a reason says %q", cmd, v.Decision, r.Message)
			}
		}
	}
	v := p.DecideIn(Unattended, Action{Kind: Shell, Tool: "Bash", Command: "rm -rf /tmp/airlock-test-scratch", Cwd: f.path("proj")})
	if v.Decision != Allow || !slices.ContainsFunc(v.Reasons, isTemp) {
		t.Errorf("rm -rf /tmp/airlock-test-scratch: %s %v; want allowed as temporary", v.Decision, v.Reasons)
	}
}
