package policy

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/classify"
)

// peerHoldCauses are the causes for which airlock holds a peer's allow
// row on purpose, each with the reason docs/CORPORA.md gives. A held row
// whose cause is not among them is a refusal of ordinary work, and fails
// TestPeerAllowRowsDecided.
var peerHoldCauses = map[string]string{
	"publication":     "an external write (git push, kubectl delete, curl -d): airlock holds every publication",
	"unparsable":      "shell text bash cannot parse (test fixtures such as ${toShellPath(x)}, an unterminated quote): invariant 1",
	"computed name":   "a command name computed at run time ($(echo ls)) or a program airlock does not know that runs its arguments (git-git): opaque",
	"outside":         "destruction outside the project (rm -r /some/path, docker system prune): held, not snapshotted (invariant 10)",
	"history":         "destruction of what a worktree snapshot cannot bring back (git checkout --recurse-submodules, force pushes)",
	"dynamic path":    "a deletion of a path known only at run time ($TMPDIR): self-protection and grading fail closed",
	"self-protection": "the command can reach airlock's own files or an agent's hook settings",
	"unplaced":        "a deletion through a nested shell (parallel bash -c 'rm -rf {}'), which grading does not place",
}

// peerCause names why a verdict holds a command, from its rule and
// reasons (never from the command's text).
func peerCause(v Verdict) string {
	rules := map[string]string{}
	for _, r := range v.Reasons {
		rules[r.Rule] = r.Message
	}
	switch {
	case v.Effect.Tier == classify.External:
		return "publication"
	case strings.HasPrefix(rules["shell.opaque"], "unparsable"):
		return "unparsable"
	case rules["shell.opaque"] != "" || rules["wrapper.argv"] != "":
		return "computed name"
	case strings.HasPrefix(v.Rule, "self.") && strings.Contains(v.Message, "known only when the command runs"):
		return "dynamic path"
	case strings.HasPrefix(v.Rule, "self."):
		return "self-protection"
	case rules[ruleOutside] != "":
		return "outside"
	case rules[ruleHistory] != "":
		return "history"
	case strings.Contains(rules[ruleUnknownTarget], "only known when the command runs"):
		return "dynamic path"
	case strings.Contains(rules[ruleUnknownTarget], "bash -c"):
		return "unplaced"
	case strings.Contains(rules[ruleUnknownTarget], "airlock cannot tell what docker") || strings.Contains(rules[ruleUnknownTarget], "airlock cannot tell what kubectl"):
		return "outside"
	}
	return "other: " + v.Rule
}

// TestPeerAllowRowsDecided decides every allow row of the peer corpora
// (testdata/peer) in a project where airlock is installed at project
// scope, as TestOrdinaryWork does, and counts those the agent may run
// (allow, or warn with a snapshot). It reports the rate over all allow
// rows and over the rows not held for a cause in peerHoldCauses, and
// fails when a row is held for any other cause. docs/CORPORA.md keeps
// the figures.
func TestPeerAllowRowsDecided(t *testing.T) {
	f, proj := ordinaryProject(t)
	o := f.options()
	o.Cwd, o.ProjectDir = proj, proj
	o.Protect = append(o.Protect, filepath.Join(proj, ".claude/settings.json"))
	p, err := Load(o)
	if err != nil {
		t.Fatal(err)
	}
	unescape := strings.NewReplacer(`\\`, `\`, `\n`, "\n", `\t`, "\t")
	for _, name := range []string{"dcg.tsv", "safety-net.tsv"} {
		file, err := os.Open(filepath.Join("..", "..", "testdata", "peer", name))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(file)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		type tally struct{ rows, allowed, byDesign int }
		var un, in tally
		causes := map[string][]string{}
		for sc.Scan() {
			fields := strings.Split(sc.Text(), "\t")
			if len(fields) < 2 || fields[0] != "allow" || len(fields) > 2 && strings.Contains(fields[2], "rules-custom") {
				continue // custom-rule rows test a user's rules, not the default policy
			}
			cmd := unescape.Replace(fields[1])
			for _, c := range []struct {
				mode Mode
				t    *tally
			}{{Unattended, &un}, {Interactive, &in}} {
				v := p.DecideIn(c.mode, Action{Kind: Shell, Tool: "Bash", Command: cmd, Cwd: proj, Snapshots: true})
				c.t.rows++
				if v.Decision == Allow || v.Decision == Warn {
					c.t.allowed++
					continue
				}
				cause := peerCause(v)
				if _, ok := peerHoldCauses[cause]; ok {
					c.t.byDesign++
				} else {
					t.Errorf("%s: %q is %s in %s mode by %s (%v): a refusal of ordinary work", name, cmd, v.Decision, c.mode, v.Rule, v.Reasons)
				}
				if c.mode == Unattended {
					causes[cause] = append(causes[cause], fmt.Sprintf("%s %q", v.Decision, cmd))
				}
			}
		}
		file.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			mode Mode
			t    tally
		}{{Unattended, un}, {Interactive, in}} {
			t.Logf("%s, %s mode: %d of %d allow rows allowed (%.1f%%); %d of %d not held by design (%.1f%%)", name, c.mode,
				c.t.allowed, c.t.rows, 100*float64(c.t.allowed)/float64(c.t.rows),
				c.t.allowed, c.t.rows-c.t.byDesign, 100*float64(c.t.allowed)/float64(c.t.rows-c.t.byDesign))
		}
		var keys []string
		for k := range causes {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			t.Logf("  held in unattended mode, %s (%d): %s", k, len(causes[k]), strings.Join(causes[k], "; "))
		}
	}
}
