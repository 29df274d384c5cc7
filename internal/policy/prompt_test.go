package policy

import (
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/classify"
)

// TestBriefAgreesWithDecide checks the brief's promise: every example it
// shows under a class or a rule is decided by that row or rule, with the
// decision the brief states, in every mode and under a policy that moves
// things around.
func TestBriefAgreesWithDecide(t *testing.T) {
	f := newFixture(t)
	f.userFile(`
table:
  unattended:
    shared: defer
rules:
  - id: personal-push
    match: {command: git push personal}
    decision: allow
    examples:
      match: ["git -C x push personal main"]
  - id: no-npm-install
    match: {command: npm install}
    decision: deny
    message: installs need a human
`)
	policies := map[string]*Policy{"defaults": Defaults(), "user file": f.load()}
	for name, p := range policies {
		for m := Mode(0); m < numModes; m++ {
			b := p.Brief(m)
			// The inside_project row is shown only where it decides
			// otherwise than the destructive row.
			tab := p.Table(m)
			want := int(numRows)
			if tab.Inside == tab.Destructive || tab.Inside == Warn && tab.Destructive <= Warn {
				want--
			}
			if b.Mode != m || len(b.Classes) != want {
				t.Fatalf("%s/%s: brief has mode %s and %d classes", name, m, b.Mode, len(b.Classes))
			}
			for _, c := range b.Classes {
				tab := p.Table(m)
				if want := *tab.at(rowByName(t, c.Name)); c.Decision != want {
					t.Errorf("%s/%s: class %s says %s, table says %s", name, m, c.Name, c.Decision, want)
				}
				for _, ex := range c.Examples {
					if c.Name == insideClass {
						continue // decided inside a project: snapshot_undo.txtar runs them
					}
					v := p.DecideIn(m, Action{Kind: Shell, Tool: "Bash", Command: ex, Cwd: "/"})
					if v.Rule != "table."+c.Name || v.Decision != c.Decision {
						t.Errorf("%s/%s: %q shown under %s (%s) but decided %s by %s", name, m, ex, c.Name, c.Decision, v.Decision, v.Rule)
					}
				}
			}
			for _, r := range b.Rules {
				for _, ex := range r.Examples {
					a := Action{Kind: Shell, Tool: "Bash", Command: ex, Cwd: "/"}
					if tool, path, ok := strings.Cut(ex, " "); ok && (tool == "Read" || tool == "Grep") {
						a = exampleAction(tool, "", path, "")
					}
					if v := p.DecideIn(m, a); v.Rule != r.ID || v.Decision != r.Decision {
						t.Errorf("%s/%s: %q shown under rule %s (%s) but decided %s by %s", name, m, ex, r.ID, r.Decision, v.Decision, v.Rule)
					}
				}
			}
		}
	}
}

// insideClass is the inside_project row's name in the brief.
const insideClass = "destructive inside the project"

func rowByName(t *testing.T, name string) row {
	t.Helper()
	if name == insideClass {
		return rowInside
	}
	for r := row(0); r < numRows; r++ {
		if r.String() == name {
			return r
		}
	}
	t.Fatalf("no table row %q", name)
	return 0
}

// TestBriefExamples checks that the built-in brief has examples for every
// classifier row (so the filters are not so strict that a class goes bare)
// and that the headline programs come first.
func TestBriefExamples(t *testing.T) {
	b := Defaults().Brief(Unattended)
	want := map[string]string{"local": "", "shared": "", "external": "git push origin main", "destructive": "", "opaque": ""}
	for _, c := range b.Classes {
		first, ok := want[c.Name]
		if !ok {
			continue
		}
		if len(c.Examples) < 3 {
			t.Errorf("class %s has %d examples, want at least 3: %q", c.Name, len(c.Examples), c.Examples)
			continue
		}
		if first != "" && c.Examples[0] != first {
			t.Errorf("class %s starts with %q, want %q", c.Name, c.Examples[0], first)
		}
		for _, ex := range c.Examples {
			if len(ex) > maxExampleBytes || strings.Contains(ex, "--help") {
				t.Errorf("class %s shows %q, which the filters should have dropped", c.Name, ex)
			}
		}
	}
}

// TestBriefFollowsPolicy checks that what the policy files say shows up:
// a table override moves a class, an allow rule with the user's authority
// is listed, an untrusted project's allow rule is not (it relaxes nothing)
// until the file is trusted, and a project deny rule is.
func TestBriefFollowsPolicy(t *testing.T) {
	base := Defaults().Brief(Unattended)
	if c := classNamed(t, base, "shared"); c.Decision != Warn {
		t.Fatalf("built-in shared is %s in unattended mode, want warn", c.Decision)
	}

	f := newFixture(t)
	f.userFile(`
table:
  unattended:
    shared: defer
rules:
  - id: personal-push
    match: {command: git push personal}
    decision: allow
    message: my own fork
`)
	project := f.projectFile(`
rules:
  - id: project-push
    match: {command: git push project}
    decision: allow
  - id: no-curl
    match: {command: curl}
    decision: deny
    message: use the API client instead
`)
	b := f.load().Brief(Unattended)
	if c := classNamed(t, b, "shared"); c.Decision != Defer {
		t.Errorf("user table override: shared is %s, want defer", c.Decision)
	}
	if c := classNamed(t, f.load().Brief(Interactive), "shared"); c.Decision != Warn {
		t.Errorf("interactive shared is %s, want warn (the override is for unattended only)", c.Decision)
	}
	ids := ruleIDs(b)
	for _, id := range []string{"builtin.secrets.ssh", "personal-push", "no-curl"} {
		if !ids[id] {
			t.Errorf("rule %s missing from the brief; rules: %v", id, ids)
		}
	}
	if ids["project-push"] {
		t.Errorf("an untrusted project's allow rule is in the brief, but it relaxes nothing")
	}
	// The project's deny rule now takes curl examples away from the table.
	for _, c := range b.Classes {
		for _, ex := range c.Examples {
			if strings.HasPrefix(ex, "curl ") {
				t.Errorf("class %s shows %q, which the project's no-curl rule decides", c.Name, ex)
			}
		}
	}

	f.trust(project)
	if !ruleIDs(f.load().Brief(Unattended))["project-push"] {
		t.Errorf("a trusted project's allow rule is missing from the brief")
	}
}

func classNamed(t *testing.T, b *Brief, name string) Class {
	t.Helper()
	for _, c := range b.Classes {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("brief has no class %q", name)
	return Class{}
}

func ruleIDs(b *Brief) map[string]bool {
	ids := map[string]bool{}
	for _, r := range b.Rules {
		ids[r.ID] = true
	}
	return ids
}

// TestBriefProtectedCommands checks the airlock subcommands the brief
// names against self-protection, so the text cannot drift from the guard.
func TestBriefProtectedCommands(t *testing.T) {
	p := newFixture(t).load()
	for _, sub := range briefReadOnly {
		if v := p.Decide(shell("airlock " + sub)); strings.HasPrefix(v.Rule, "self.") {
			t.Errorf("the brief calls airlock %s read-only, but self-protection says %s: %s", sub, v.Rule, v.Message)
		}
	}
	for _, sub := range briefMutating {
		if v := p.Decide(shell("airlock " + sub)); v.Rule != RuleAirlockCommand || v.Decision != Deny {
			t.Errorf("the brief says airlock %s is denied, but it is %s by %s", sub, v.Decision, v.Rule)
		}
	}
}

// TestBriefRender checks both renderings carry every class, the rules with
// their messages, and the instructions for a held action.
func TestBriefRender(t *testing.T) {
	f := newFixture(t)
	f.userFile(`
rules:
  - id: no-curl
    match: {command: curl}
    decision: deny
    message: use the API client instead
`)
	b := f.load().Brief(Supervised)
	for _, tc := range []struct {
		format Format
		want   []string
	}{
		{Text, []string{"AIRLOCK RULES FOR THIS SESSION (SUPERVISED MODE)", "\nHeld:\n  - external: ", "\n  - no-curl (user rule): denied: refused and not queued, when it matches command \"curl\". Why: use the API client instead."}},
		{Markdown, []string{"# airlock rules for this session (supervised mode)", "\n## Held\n\n- external: ", "`git push origin main`", "\n- no-curl (user rule): denied"}},
	} {
		out := b.Render(tc.format)
		want := append(tc.want, "Goes through", "Do not retry a held action", "list every held action as not done", "unknown: tools airlock does not know")
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("format %d: output lacks %q:\n%s", tc.format, w, out)
			}
		}
		for _, s := range onHold {
			if !strings.Contains(out, s) {
				t.Errorf("format %d: output lacks the on-hold line %q", tc.format, s)
			}
		}
	}
}

// TestClipMatch keeps long match descriptions readable and short ones whole.
func TestClipMatch(t *testing.T) {
	long := "tool Read,Grep; path " + strings.Repeat("~/.secret/file,", 20)
	for _, tc := range []struct {
		in   string
		want func(string) bool
	}{
		{"command \"curl\"", func(s string) bool { return s == "command \"curl\"" }},
		{long, func(s string) bool {
			return len(s) <= 170 && strings.HasSuffix(s, ", …") && strings.HasPrefix(long, strings.TrimSuffix(s, ", …"))
		}},
	} {
		if got := clipMatch(tc.in); !tc.want(got) {
			t.Errorf("clipMatch(%q) = %q", tc.in, got)
		}
	}
}

// BenchmarkBrief measures generating a brief, which decides every
// classifier spec example once.
func BenchmarkBrief(b *testing.B) {
	p := Defaults()
	n := 0
	for _, s := range classify.Specs() {
		n += len(s.Examples)
	}
	b.ReportMetric(float64(n), "examples")
	for i := 0; i < b.N; i++ {
		p.Brief(Unattended)
	}
}
