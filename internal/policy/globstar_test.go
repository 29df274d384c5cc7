package policy

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestGlobstarBounds: a "**" glob handed to a program that expands it
// (formatters, linters) names what is below its leading directories and
// ends in its last component, and crosses no dot directory unless the
// glob or dotglob says so. It no longer names every directory above it,
// nor every protected name; globs that do reach airlock's files are
// still refused.
func TestGlobstarBounds(t *testing.T) {
	f, proj := ordinaryProject(t)
	o := f.options()
	o.Cwd, o.ProjectDir = proj, proj
	o.Protect = append(o.Protect, filepath.Join(proj, ".claude/settings.json"))
	p, err := Load(o)
	if err != nil {
		t.Fatal(err)
	}
	decide := func(cmd string) Verdict {
		return p.DecideIn(Unattended, Action{Kind: Shell, Tool: "Bash", Command: cmd, Cwd: proj})
	}
	for _, cmd := range []string{
		`prettier --write 'src/**/*.ts'`,
		`npx stylelint 'src/**/*.css'`,
		`markdownlint '**/*.md'`,
		`npx eslint --fix 'src/**/*.tsx'`,
		`mytool 'docs/**/*.yaml'`,
	} {
		if v := decide(cmd); strings.HasPrefix(v.Rule, "self.") {
			t.Errorf("%s: refused by %s: %s", cmd, v.Rule, v.Message)
		}
	}
	for _, cmd := range []string{
		`prettier --write '.claude/**'`,
		`prettier --write '.claude/**/*.json'`,
		`mytool '**/.claude/settings.json'`,
		`mytool '**/.airlock/*'`,
		`mytool '.airlock/**/*.yaml'`,
		`shopt -s dotglob; mytool '**/*.json'`,
		`mytool ~/'**'`,
		// opencode.json is protected in every directory: ** reaches it.
		`mytool '**/*.json'`,
		`npx eslint --fix 'src/**'`,
	} {
		if v := decide(cmd); v.Decision != Deny || !strings.HasPrefix(v.Rule, "self.") {
			t.Errorf("%s: %s by %s, want a refusal by self-protection", cmd, v.Decision, v.Rule)
		}
	}
}

// TestGitPathspecDots: git's pathspecs match dot files, so a glob handed
// to git reaches .claude/settings.json where the shell's would not.
func TestGitPathspecDots(t *testing.T) {
	f, proj := ordinaryProject(t)
	o := f.options()
	o.Cwd, o.ProjectDir = proj, proj
	o.Protect = append(o.Protect, filepath.Join(proj, ".claude/settings.json"))
	p, err := Load(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{
		`git checkout -- '**/settings.json'`,
		`git rm -r '**/settings.json'`,
		`git restore -- '*/settings.json'`,
	} {
		v := p.DecideIn(Unattended, Action{Kind: Shell, Tool: "Bash", Command: cmd, Cwd: proj})
		if v.Decision != Deny || !strings.HasPrefix(v.Rule, "self.") {
			t.Errorf("%s: %s by %s, want a refusal by self-protection", cmd, v.Decision, v.Rule)
		}
	}
	v := p.DecideIn(Unattended, Action{Kind: Shell, Tool: "Bash", Command: `git checkout -- 'src/*.go'`, Cwd: proj})
	if strings.HasPrefix(v.Rule, "self.") {
		t.Errorf("git checkout -- 'src/*.go': refused by %s: %s", v.Rule, v.Message)
	}
}
