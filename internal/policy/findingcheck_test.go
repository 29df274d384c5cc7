package policy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// findingCheck is what a FINDINGS test case wants of its decision in
// unattended mode; checkFinding is the one reading of it that
// TestFindings3Open … TestFindings6Open share.
type findingCheck int

const (
	held    findingCheck = iota // not allow, not warn
	denied                      // deny by a self-protection rule
	notDeny                     // ordinary work: not refused in unattended mode
	notHeld                     // ordinary work: allowed or warned in unattended mode
)

func checkFinding(t *testing.T, cmd string, v Verdict, want findingCheck) {
	t.Helper()
	switch want {
	case held:
		if v.Decision == Allow || v.Decision == Warn {
			t.Errorf("%q was %s by %s (%v); want it held", cmd, v.Decision, v.Rule, v.Reasons)
		}
	case denied:
		if v.Decision != Deny || !strings.HasPrefix(v.Rule, "self.") {
			t.Errorf("%q was %s by %s (%v); want a deny by self-protection", cmd, v.Decision, v.Rule, v.Reasons)
		}
	case notDeny:
		if v.Decision == Deny {
			t.Errorf("%q was denied by %s (%v); it is ordinary work", cmd, v.Rule, v.Reasons)
		}
	case notHeld:
		if v.Decision != Allow && v.Decision != Warn {
			t.Errorf("%q was %s by %s (%v); it is ordinary work, not to be held unattended", cmd, v.Decision, v.Rule, v.Reasons)
		}
	}
}

// findingFixture is the fixture of the FINDINGS rounds 7 to 9 and the
// fixers' tests beside them: a home with the hook settings, airlock's
// policy and secrets, and a project with airlock installed and the files
// ordinary work touches; more adds or replaces files.
func findingFixture(more map[string]string) map[string]string {
	base := map[string]string{
		"home/.claude/settings.json":                    "{\"hooks\":{}}\n",
		"home/.config/airlock/policy.yaml":              "mode: interactive\n",
		"home/.local/state/airlock/secrets/serve.token": strings.Repeat("d4", 32) + "\n",
		"home/.local/state/airlock/secrets/human.key":   strings.Repeat("k", 32),
		"home/.local/state/airlock/secrets/notify.json": "{\"topic\":\"airlock-abcdefghijklmnopqrstuvwxyz234567\"}\n",
		"proj/.claude/settings.json":                    "{\"hooks\":{}}\n",
		"proj/.env":                                     "API_KEY=sk-test-0000\n",
		"proj/src/m.py":                                 "print(1)\n",
		"proj/Makefile":                                 "build:\n\techo hi\n",
		"proj/package.json":                             `{"name":"p","scripts":{"build":"tsc","test":"jest"}}`,
		"proj/go.mod":                                   "module example.com/p\n\ngo 1.22\n",
	}
	for k, v := range more {
		base[k] = v
	}
	return base
}

// findingCase is one row of a FINDINGS round's test (rounds 7 and 8).
type findingCase struct {
	finding string
	setup   map[string]string // more files under the fixture's root
	prep    func(*testing.T, *fixture)
	cmd     string
	// write, when set, makes the case a Write tool call of cmd's text
	// to this path (@HOME@ and @ROOT@ replaced) instead of a command.
	write string
	want  findingCheck
	fixed bool // the case runs; the others are skipped until fixed
}

// runFindingCases decides each case in unattended mode in a fixture with
// base's files (@HOME@ and @ROOT@ replaced); a case not fixed is skipped
// unless AIRLOCK_FINDINGS<round>_ALL is set, which checks that it fails.
func runFindingCases(t *testing.T, round string, base map[string]string, cases []findingCase) {
	// shellSafe drops from a case's name the characters a shell reads
	// (t.TempDir keeps them in the fixture's path, which the commands name).
	shellSafe := func(r rune) rune {
		if strings.ContainsRune("()$&;|<>`'\"*?[]!#{}", r) {
			return -1
		}
		return r
	}
	for _, c := range cases {
		t.Run(strings.Map(shellSafe, c.finding), func(t *testing.T) {
			if !c.fixed && os.Getenv("AIRLOCK_FINDINGS"+round+"_ALL") == "" {
				t.Skip("open: FINDINGS-" + round + " " + c.finding)
			}
			f := newFixture(t)
			home := f.path("home")
			repl := strings.NewReplacer("@HOME@", home, "@ROOT@", f.root)
			for _, files := range []map[string]string{base, c.setup} {
				for rel, body := range files {
					f.write(rel, repl.Replace(body))
				}
			}
			if err := os.Chmod(filepath.Join(home, ".local/state/airlock/secrets"), 0o700); err != nil {
				t.Fatal(err)
			}
			f.write("proj/.git/HEAD", "ref: refs/heads/main\n")
			if err := os.MkdirAll(f.path("x"), 0o755); err != nil {
				t.Fatal(err)
			}
			if c.prep != nil {
				c.prep(t, f)
			}
			cmd := repl.Replace(c.cmd)
			p := f.load()
			a := Action{Kind: Shell, Tool: "Bash", Command: cmd, Cwd: f.path("proj"), Snapshots: true}
			if c.write != "" {
				a = Action{Kind: Write, Tool: "Write", Paths: []string{repl.Replace(c.write)}, Content: cmd, Cwd: f.path("proj")}
			}
			checkFinding(t, cmd, p.DecideIn(Unattended, a), c.want)
		})
	}
}
