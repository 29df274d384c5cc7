package policy

import (
	"regexp"
	"strings"
	"testing"
)

func TestStarter(t *testing.T) {
	f := newFixture(t)
	f.userFile(Starter)
	p := f.load()
	if p.Mode != Interactive || len(p.Rules) != len(builtinRules())+1 {
		t.Fatalf("starter: mode %s, %d rules", p.Mode, len(p.Rules))
	}
	for _, r := range p.RunExamples() {
		if !r.OK() {
			t.Errorf("starter example of %s fails: %+v", r.Rule.ID, r.Example)
		}
	}
}

// starterActions are decided with and without the project starter.
var starterActions = []string{
	"git push origin main", "git push personal main", "npm publish", "cargo publish",
	"fly deploy --app example-staging", "git commit -m x", "rm -rf build", "ls",
}

// TestProjectStarterIsInert: the project's starter says it is the
// project's file, and nothing in it is live: with it, untrusted or
// trusted, every decision is the one without it, in every mode the user
// picks. A repository's file that allowed something or set a mode would
// loosen the policy of whoever trusts it unread.
func TestProjectStarterIsInert(t *testing.T) {
	if strings.Contains(ProjectStarter, "(user)") || !strings.Contains(ProjectStarter, "policy of this project") {
		t.Fatalf("the project starter does not say it is the project's file:\n%s", ProjectStarter)
	}
	for _, mode := range []string{"interactive", "unattended"} {
		user := "version: 1\nmode: " + mode + "\n"
		base := newFixture(t)
		base.userFile(user)
		want := base.load()

		f := newFixture(t)
		f.userFile(user)
		file := f.projectFile(ProjectStarter)
		for _, trusted := range []bool{false, true} {
			if trusted {
				f.trust(file)
			}
			got := f.load()
			if got.Mode != want.Mode || len(got.Rules) != len(want.Rules) {
				t.Fatalf("%s, trusted %v: mode %s, %d rules; without the starter %s, %d", mode, trusted, got.Mode, len(got.Rules), want.Mode, len(want.Rules))
			}
			if l := got.Layers[len(got.Layers)-1]; l.Origin != Project || l.File != file {
				t.Fatalf("the project starter was not read: %+v", got.Layers)
			}
			for m := Mode(0); m < numModes; m++ {
				if got.Table(m) != want.Table(m) {
					t.Errorf("%s, trusted %v: table %s %+v, without the starter %+v", mode, trusted, m, got.Table(m), want.Table(m))
				}
			}
			for _, cmd := range starterActions {
				if g, w := got.Decide(shell(cmd)).Decision, want.Decide(shell(cmd)).Decision; g != w {
					t.Errorf("%s, trusted %v: %q is %s, %s without the starter", mode, trusted, cmd, g, w)
				}
			}
		}
	}
}

// commented matches an example line of the project starter, commented
// out: "# rules:", "  # - id: ...".
var commented = regexp.MustCompile(`(?m)^(\s*)# `)

// TestProjectStarterExamples: the starter's examples, uncommented as a
// user would, load as the project's file and their own examples pass; the
// allow rule relaxes nothing until the file is trusted.
func TestProjectStarterExamples(t *testing.T) {
	var b strings.Builder
	live := false
	for _, line := range strings.SplitAfter(ProjectStarter, "\n") {
		switch {
		case strings.HasPrefix(line, "# mode:"), strings.HasPrefix(line, "# table:"), strings.HasPrefix(line, "# rules:"):
			live = true
		case strings.TrimSpace(line) == "":
			// A blank line ends the table block; the rules run to the end.
			live = live && strings.Contains(b.String(), "rules:")
		}
		if live {
			line = commented.ReplaceAllString(line, "$1")
		}
		b.WriteString(line)
	}
	text := b.String()
	if strings.Count(text, "- id:") != 2 || !strings.Contains(text, "\nmode: supervised\n") || !strings.Contains(text, "\n    shared: ask\n") {
		t.Fatalf("uncommenting found other examples than expected:\n%s", text)
	}
	f := newFixture(t)
	file := f.projectFile(text)
	p := f.load()
	if p.Mode != Supervised || p.Table(Interactive).Shared != Ask {
		t.Fatalf("uncommented starter: mode %s, interactive shared %s", p.Mode, p.Table(Interactive).Shared)
	}
	n := 0
	for _, r := range p.RunExamples() {
		n++
		if !r.OK() {
			t.Errorf("project starter example of %s fails: %+v", r.Rule.ID, r.Example)
		}
	}
	if n < 6 {
		t.Fatalf("ran %d examples of the uncommented starter", n)
	}
	deploy := shell("fly deploy --app example-staging")
	if d := p.Decide(deploy).Decision; d == Allow {
		t.Fatalf("an untrusted project's allow rule let %q through", deploy.Command)
	}
	if d := p.Decide(shell("npm publish")).Decision; d != Deny {
		t.Fatalf("npm publish is %s under the uncommented starter, want deny", d)
	}
	f.trust(file)
	if d := f.load().Decide(deploy).Decision; d != Allow {
		t.Fatalf("trusted, the starter's allow rule does not allow %q: %s", deploy.Command, d)
	}
}
