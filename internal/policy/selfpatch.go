package policy

import (
	"path/filepath"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
)

// This file is the phase of self-protection that runs after the first
// (selfprotect.go) found nothing to refuse, for what the first does not
// see: the files a patch writes (git apply, git am, patch), and the
// project's agent configuration that runs commands (selfagentcfg.go),
// which is asked about rather than refused.

// RulePatchUnread fires on a patch airlock cannot read: it may write
// anything under the directory it applies in.
const RulePatchUnread = "self.patch-unread"

// second is the verdict of this phase: hard is a refusal (deny); soft an
// ask (interactive) or a hold (otherwise).
type second struct {
	hard      bool
	rule, msg string
	fired     bool
}

// afterCheck runs this phase for an action guard.check let through.
func (g *guard) afterCheck(a *Action, r *classify.Result) second {
	var out second
	if a.Kind == Shell && r != nil {
		if ref, soft := g.patches(a, r); ref != nil {
			if !soft {
				return second{hard: true, rule: ref.rule, msg: ref.msg, fired: true}
			}
			out = second{rule: ref.rule, msg: ref.msg, fired: true}
		}
	}
	if out.fired {
		return out
	}
	if ref := g.extractUnknownDir(a, r); ref != nil {
		return second{rule: ref.rule, msg: ref.msg, fired: true}
	}
	if msg, ok := g.agentConfigAsk(a, r); ok {
		return second{rule: RuleAgentConfig, msg: msg, fired: true}
	}
	if msg, ok := g.hooklessAgentAsk(a, r); ok {
		return second{rule: RuleAgentHookless, msg: msg, fired: true}
	}
	return out
}

// isPatchRun reports whether a run may apply a patch, cheaply.
func isPatchRun(inv *classify.Invocation) bool {
	switch inv.Name() {
	case "patch", "gpatch":
		return true
	case "git":
		for _, a := range inv.Args[1:] {
			if a == "apply" || a == "am" {
				return true
			}
		}
	}
	return false
}

// patches checks the files every patch of a command writes: against
// airlock's protected paths (refused), then the project's agent
// configuration (asked). A patch that cannot be read is asked about
// (soft): it could write anything under the directory, and every
// directory may hold a protected tail (.claude/settings.json).
func (g *guard) patches(a *Action, r *classify.Result) (*refusal, bool) {
	runs := append(r.Invocations[:len(r.Invocations):len(r.Invocations)], r.Followed...)
	any := false
	for i := range runs {
		any = any || isPatchRun(&runs[i])
	}
	if !any {
		return nil, false
	}
	c := g.newCall(a.Cwd)
	ac := g.askGuard().newCall(a.Cwd)
	var soft *refusal
	for i := range runs {
		inv := &runs[i]
		cwd := c.cwds[len(c.cwds)-1]
		if n := inv.Name(); n == "cd" || n == "pushd" {
			c.changeDir(inv, cwd)
			continue
		}
		if !isPatchRun(inv) {
			continue
		}
		plan, ok := classify.PatchTargets(inv, classify.HomeDirFS(cwd, g.home))
		if !ok {
			continue
		}
		who := plan.Program + " (a file the patch writes)"
		if plan.Unknown != "" {
			if soft == nil {
				soft = &refusal{RulePatchUnread, plan.Program + " applies a patch airlock cannot read: " + plan.Unknown + ". It could create or change any file under " + orDot(plan.Dir) +
					", an agent's hook settings or airlock's own files among them. Save the patch to a file in the project and apply that, or ask the human."}
			}
			continue
		}
		// git applies relative to the repository's top: the project root
		// is checked as well as the directory the command runs in.
		bases := []string{cwd}
		if plan.Program != "patch" && g.project != "" && filepath.Clean(g.project) != filepath.Clean(cwd) {
			bases = append(bases, g.project)
		}
		for _, p := range plan.Paths {
			w := p
			if plan.Dir != "" && !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") {
				w = strings.TrimSuffix(plan.Dir, "/") + "/" + p
			}
			for k, b := range bases {
				if k > 0 && w != p {
					// From the repository's top, git -C's directory
					// does not apply: try the path as the patch says.
					if h, ok := c.pathHit(p, b, false, false); ok {
						return c.pathRefusal(who, h), false
					}
				}
				if h, ok := c.pathHit(w, b, false, false); ok {
					return c.pathRefusal(who, h), false
				}
				if h, ok := c.secretPath(w, b); ok {
					return c.pathRefusal(who, h), false
				}
				if soft == nil {
					if h, ok := ac.pathHit(w, b, false, false); ok {
						ref := ac.pathRefusal(who, h)
						soft = &refusal{RuleAgentConfig, askMessage(ref.msg)}
					}
				}
			}
		}
	}
	return soft, soft != nil
}

func orDot(dir string) string {
	if dir == "" {
		return "the directory it runs in"
	}
	return dir
}
