package claudecode

import (
	"fmt"

	"github.com/airlock-dev/airlock/internal/policy"
)

// SessionContext is the short statement of the rules in force that
// SessionStart adds to the agent's context, so that a held action does not
// come as a surprise and the agent knows what to do about it.
func SessionContext(p *policy.Policy) string {
	t := p.Table(p.Mode)
	var custom int
	for _, r := range p.Rules {
		if r.Origin != policy.Builtin {
			custom++
		}
	}
	s := fmt.Sprintf("airlock guards this session (%s mode). Local work (reading, editing, building, testing, local git) runs freely. "+
		"Actions that reach beyond this machine (git push in any form, pull requests, releases, package publishes, deploys, HTTP writes, mail, remote shells) are %s; "+
		"destructive commands are %s; commands airlock cannot read statically and tools it does not know are %s. "+
		"Reading secrets (SSH keys, .env files, credentials) and changing airlock's own files or running its mutating commands are denied. "+
		"When airlock holds an action, do not retry or rephrase it: continue with local work and list it in your final summary.",
		p.Mode, words(t.External), words(t.Destructive), words(t.Opaque))
	if custom > 0 {
		s += fmt.Sprintf(" %d rule(s) from the user's or project's policy also apply.", custom)
	}
	if p.Gate.Enabled {
		// Said up front, the investigation happens before the first edit
		// instead of after a denial.
		s += " The fact-forcing gate is on: before the first edit of a file, read it and search for the files that import it; " +
			"a first edit without that is refused once with the facts to gather."
	}
	return s
}

func words(d policy.Decision) string {
	switch d {
	case policy.Allow:
		return "allowed"
	case policy.Warn:
		return "allowed with a warning"
	case policy.Ask:
		return "asked about (a human confirms each)"
	case policy.Defer:
		return "held for human review"
	}
	return "denied"
}
