package classify

import "testing"

// TestWriteOptionsPrefixes checks that each write option of a reader
// makes its run not read-only however it is spelt: every getopt_long
// prefix of a long option (with "=VALUE" or a separate value), and each
// short option alone, with its value attached, or last in a cluster.
func TestWriteOptionsPrefixes(t *testing.T) {
	for name, w := range writeOptions.Get() {
		for _, l := range w.long {
			for n := 3; n <= len(l); n++ {
				for _, args := range [][]string{{name, l[:n] + "=F", "in"}, {name, l[:n], "F", "in"}} {
					if ReadsOnlyRun(args) {
						t.Errorf("ReadsOnlyRun(%q) = true, want false", args)
					}
				}
			}
		}
		for _, c := range w.short {
			for _, args := range [][]string{{name, "-" + string(c), "F"}, {name, "-" + string(c) + "F"}, {name, "-u" + string(c), "F"}} {
				if ReadsOnlyRun(args) {
					t.Errorf("ReadsOnlyRun(%q) = true, want false", args)
				}
			}
		}
		if !ReadsOnlyRun([]string{name, "in"}) {
			t.Errorf("ReadsOnlyRun(%q) = false, want true", []string{name, "in"})
		}
	}
}

// TestOptionOutputsRateAsWrites rates a file written through an option
// as a redirection into it would be: a git hook or an agent's hook
// settings is shared (third review, F4, F9).
func TestOptionOutputsRateAsWrites(t *testing.T) {
	shared := []string{
		"git log -1 --format=%B --output=.git/hooks/pre-commit",
		"git stash list --output=.git/hooks/pre-commit",
		"git reflog show --output .git/hooks/post-checkout",
		"git log --outp=.git/hooks/pre-commit",
		"git -C sub diff --output=.git/hooks/pre-push",
		"sort -o ~/.claude/settings.json f",
		"sort --outp=.git/hooks/pre-commit f",
		"sort -uo.git/hooks/pre-commit f",
		"tree -o .git/hooks/pre-commit",
		"yq -i '.hooks={}' ~/.claude/settings.json",
		"yq e --inplace '.a=1' .gemini/settings.json",
		"less -o .git/hooks/pre-push f",
		"less --log-file=.claude/settings.json f",
		"sed --in-pl s/a/b/ .git/hooks/pre-commit",
		"sed --i=.bak s/a/b/ .git/hooks/pre-commit",
		"sed -Ei s/a/b/ .git/hooks/pre-commit",
		"sed -n -Ei.bak s/a/b/p .claude/settings.json",
	}
	for _, cmd := range shared {
		if r := Command(cmd); r.Tier < Shared {
			t.Errorf("%s: tier %s (%v), want at least shared", cmd, r.Tier, r.Reasons)
		}
	}
	for _, cmd := range []string{
		"git log --output=out.txt", "git log --oneline", "sort -o out.txt f", "yq '.hooks' ~/.claude/settings.json",
		"less .git/hooks/pre-commit", "yq -i '.a=1' config.yaml",
		"sed -n s/i/x/p .git/hooks/pre-commit", "sed -es/i/x/ .git/hooks/pre-commit", "sed -Ei s/a/b/ notes.txt",
	} {
		if r := Command(cmd); r.Tier >= Shared {
			t.Errorf("%s: tier %s (%v), want below shared", cmd, r.Tier, r.Reasons)
		}
	}
}
