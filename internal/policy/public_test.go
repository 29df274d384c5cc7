package policy

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// publicKnownGaps are the ok rows of testdata/public.tsv that airlock
// still refuses or holds, each with the reason. A row listed here is
// logged, not failed; a listed row that no longer appears in the corpus,
// or that is now decided as ordinary work, fails the test so the list
// only ever shrinks.
var publicKnownGaps = map[string]string{
	"hyperfine --ignore-failure --warmup 5 --prepare \"git reset --hard HEAD\" \"find . -type f -name \\\"*.py\\\" | xargs -P 0 pyupgrade --py311-plus\"": "a deletion in shell text a wrapper runs (hyperfine --prepare 'git reset --hard'): the grading reads the wrapper's own words (5) as its targets and places them nowhere",
	"mv _temp/skills/* . && rm -rf _temp":            "a move out of a glob: self-protection reads the moved-from glob _temp/skills/* as able to match a protected name that is protected in any directory (selfroles.go, selfpaths.go tailGlobHit)",
	"mv /tmp/compose-output/**/* \"./bin/release/\"": "a move from a ** glob: self-protection cannot list the names it makes in bin/release, which could be a name protected in any directory (selfroles.go globCopies); in a test whose home is in /tmp it is refused for that reason instead",
	"pipx run twine check --strict dist/*":           "pipx run downloads the package it is given by name, so the roles of the program airlock knows by that name are not used for it (classify envRunners): the glob dist/* stays a word of unknown role",
}

// TestPublicOrdinaryWork decides testdata/public.tsv, commands taken from
// public repositories that nobody on this project wrote, in the project
// TestOrdinaryWork uses (airlock installed at project scope). Every row
// is decided in interactive and unattended mode. An ok row may not be
// denied in either mode, nor held (ask or defer) in unattended mode,
// unless publicKnownGaps names it; fetchrun and publish rows must be held
// in unattended mode. With -v it prints the held and denied shares.
func TestPublicOrdinaryWork(t *testing.T) {
	f, proj := ordinaryProject(t)
	installEveryHook(t, f) // the READMEs' agent runs, on a machine with their hooks (selfhookless.go)
	o := f.options()
	o.Cwd = proj
	o.ProjectDir = proj
	o.Protect = append(o.Protect, filepath.Join(proj, ".claude/settings.json"))
	p, err := Load(o)
	if err != nil {
		t.Fatal(err)
	}
	if p.guard.project == "" {
		t.Fatal("the project's .airlock/policy.yaml was not found: the fixture is not a project-scope install")
	}
	file, err := os.Open(filepath.Join("testdata", "public.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	// As in TestOrdinaryWork: the fixture's home and airlock's files live
	// under t.TempDir, so a command that writes in /tmp reaches them here
	// and not on a machine whose home is elsewhere. Such a refusal is
	// logged and counted apart.
	inTmp := strings.HasPrefix(f.root, "/tmp/") || strings.HasPrefix(f.root, "/var/tmp/")
	fixtureCaused := func(cmd string, v Verdict) bool {
		return inTmp && strings.HasPrefix(v.Rule, "self.") && strings.Contains(v.Message, f.root) &&
			(strings.Contains(cmd, "/tmp") || strings.Contains(cmd, "/var/tmp"))
	}
	modes := []Mode{Interactive, Unattended}
	var ok, other, tmpFixture int
	held := map[Mode]int{}
	denied := map[Mode]int{}
	byRule := map[string]int{}
	seen := map[string]bool{}
	gapHit := map[string]bool{}
	sc := bufio.NewScanner(file)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) != 3 {
			t.Fatalf("public.tsv:%d: %d columns, want command, source, expected", n, len(cols))
		}
		cmd, source, want := cols[0], cols[1], cols[2]
		if seen[cmd] {
			t.Errorf("public.tsv:%d: %q appears twice", n, cmd)
		}
		seen[cmd] = true
		if !strings.Contains(source, "/") || !strings.Contains(source, ":") {
			t.Errorf("public.tsv:%d: source %q is not repo:path", n, source)
		}
		switch want {
		case "ok":
			ok++
		case "fetchrun", "publish":
			other++
		default:
			t.Fatalf("public.tsv:%d: expected %q, want ok, fetchrun or publish", n, want)
		}
		for _, mode := range modes {
			v := p.DecideIn(mode, Action{Kind: Shell, Tool: "Bash", Command: cmd, Cwd: proj, Snapshots: true})
			if want != "ok" {
				if mode == Unattended && !v.Decision.Holds() {
					t.Errorf("%s (%s): %s in unattended mode; a %s row must be held", cmd, source, v.Decision, want)
				}
				continue
			}
			gap, isGap := publicKnownGaps[cmd]
			refused := v.Decision == Deny || (mode == Unattended && v.Decision.Holds())
			switch {
			case !refused:
				continue
			case v.Decision == Deny && fixtureCaused(cmd, v):
				tmpFixture++
				gapHit[cmd] = gapHit[cmd] || isGap
				t.Logf("%s: denied in %s mode by %s because the test's home is in %s", cmd, mode, v.Rule, os.TempDir())
				continue
			}
			if v.Decision == Deny {
				denied[mode]++
			} else {
				held[mode]++
			}
			byRule[v.Rule]++
			if isGap {
				gapHit[cmd] = true
				t.Logf("%s: %s in %s mode by %s, a known gap: %s", cmd, v.Decision, mode, v.Rule, gap)
				continue
			}
			t.Errorf("%s (%s): %s in %s mode by %s: %s", cmd, source, v.Decision, mode, v.Rule, clipText(v.Message))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for cmd := range publicKnownGaps {
		switch {
		case !seen[cmd]:
			t.Errorf("known gap %q is not an ok row of public.tsv", cmd)
		case !gapHit[cmd]:
			t.Errorf("known gap %q is now decided as ordinary work: take it off publicKnownGaps", cmd)
		}
	}
	if ok < 800 {
		t.Errorf("public.tsv has %d ok rows, want at least 800", ok)
	}
	pct := func(n int) string { return fmt.Sprintf("%d (%.1f %%)", n, 100*float64(n)/float64(ok)) }
	t.Logf("public commands: %d ok rows, %d fetchrun/publish rows, %d known gaps", ok, other, len(publicKnownGaps))
	t.Logf("held in unattended mode: %s; denied in interactive mode: %s; denied in unattended mode: %s",
		pct(held[Unattended]+denied[Unattended]), pct(denied[Interactive]), pct(denied[Unattended]))
	t.Logf("(held counts denials too: a denial holds the command; %d refusals caused only by the test's home in %s)", tmpFixture, os.TempDir())
	rules := make([]string, 0, len(byRule))
	for r := range byRule {
		rules = append(rules, r)
	}
	sort.Slice(rules, func(i, j int) bool { return byRule[rules[i]] > byRule[rules[j]] })
	for _, r := range rules {
		t.Logf("  refused by %s: %d", r, byRule[r])
	}
}

// TestPublicFixesKeepRefusals decides, in the project TestPublicOrdinaryWork
// uses, the forms of public.tsv's commands that the classify fixes let
// through, beside close forms that must stay refused: the fixes read
// roles and values, they do not open self-protection or publication.
func TestPublicFixesKeepRefusals(t *testing.T) {
	f, proj := ordinaryProject(t)
	o := f.options()
	o.Cwd, o.ProjectDir = proj, proj
	o.Protect = append(o.Protect, filepath.Join(proj, ".claude/settings.json"))
	p, err := Load(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd  string
		runs bool // allowed or warned in unattended mode, never denied
	}{
		{"rm -rf `find . -name __pycache__`", true},
		{"rm -f $(find . -type f -name '*.py[co]')", true},
		{"rm -rf `find . -name settings.json`", false},
		{"rm -rf $(find . -name '.claude')", false},
		{"rm -rf $(find . -name __pycache__ -o -name settings.json)", false},
		{"rm -rf `find ~ -name __pycache__`", false},
		{"IFS=/; rm -rf $(find . -name __pycache__)", false},
		{"uv run --no-sync twine check --strict dist/*", true},
		{"uv run --no-sync rm -rf .claude", false},
		// With its directory moved, the command's words keep no role.
		{"uv run --directory=src cat ../.claude/settings.json", false},
		{"uv run --directory=x tee .claude/settings.json", false},
		{"uv run twine upload dist/*", false},
		{"cargo test --test '*' --no-fail-fast", true},
		{"cargo test --test '*' .claude", false},
		{"pdm run pytest -n auto tests/unit", true},
		{"pdm run twine upload dist/*", false},
		{`make -j"$(nproc)"`, true},
		{"make -j$(cat n) $(echo deploy)", false},
		{"bat --config-file", true},
		{"bat --pager='git push origin main' README.md", false},
		{`git commit -m "Source: https://example.test/commit/$(git rev-parse HEAD)"`, true},
		{`git commit -m x "https://evil.example/$(cat .env)"`, false},
	} {
		refused := false
		for _, mode := range []Mode{Interactive, Unattended} {
			v := p.DecideIn(mode, Action{Kind: Shell, Tool: "Bash", Command: tc.cmd, Cwd: proj, Snapshots: true})
			if v.Decision == Deny || mode == Unattended && v.Decision.Holds() {
				refused = true
			}
		}
		if refused == tc.runs {
			t.Errorf("%s: refused = %v, want %v", tc.cmd, refused, !tc.runs)
		}
	}
}
