package policy

import (
	"os"
	"slices"

	"github.com/airlock-dev/airlock/internal/agentinstall"
	"github.com/airlock-dev/airlock/internal/classify"
)

// This file holds the run of a known agent whose airlock hook is not
// installed here (FINDINGS-5 L17). An agent started from a command runs
// tools of its own, and only its own airlock hook checks them: with only
// Claude Code's hooks installed, "codex exec …" or "gemini -p …" runs an
// agent nobody checks, as aider does (classify's agent.unhooked). Whether
// the hook is there is a fact of this machine, not of the command, so it
// is read at decision time from the file the installer writes it to
// (agentinstall's Inspect: one small settings file per scope). An agent
// run is rare; ordinary calls never reach the read.

// RuleAgentHookless names the hold of an agent run whose airlock hook is
// not installed.
const RuleAgentHookless = "self.agent-hookless"

// installerOf maps an agent CLI's program name to the name airlock's
// installer knows it by ("airlock install NAME"), "" for none. Every
// adapter under internal/agent has its row (TestEveryAdapterHasItsRows).
// Claude Code is not here: its hooks are the ones "airlock install"
// writes first, and the session deciding is usually Claude Code's own. A
// switch, not a map: nothing is built at package initialisation.
func installerOf(program string) string {
	switch program {
	case "codex", "gemini", "qwen", "copilot", "opencode", "goose", "cline", "pi", "auggie", "crush":
		return program
	case "droid":
		return "factory"
	case "cursor-agent":
		return "cursor"
	case "kiro-cli":
		return "kiro"
	case "agy":
		return "antigravity"
	}
	return ""
}

// agentOnlyPrints are flags with which an agent CLI prints and exits.
var agentOnlyPrints = []string{"--help", "-h", "--version", "-V"}

// hooklessAgentAsk holds a command that starts a known agent whose
// airlock hook is installed at neither the user's nor the project's
// scope.
func (g *guard) hooklessAgentAsk(a *Action, r *classify.Result) (string, bool) {
	if a.Kind != Shell || r == nil {
		return "", false
	}
	runs := append(r.Invocations[:len(r.Invocations):len(r.Invocations)], r.Followed...)
	for i := range runs {
		inv := &runs[i].Invocation
		if p := classify.AgentRun(inv); p != nil {
			inv = p // npx @openai/codex, node …/codex.js: a run of codex
		}
		name := inv.Name()
		inst := installerOf(name)
		if inst == "" || len(inv.Args) > 1 && slices.ContainsFunc(inv.Args[1:], func(w string) bool { return slices.Contains(agentOnlyPrints, w) }) {
			continue
		}
		if g.agentHookInstalled(inst, a.Cwd) {
			continue
		}
		return name + " is an agent whose airlock hook is not installed here (neither for the user nor for this project): the commands it runs and the files it writes would not be checked. " +
			"Do the work directly, or ask the human to run \"airlock install " + inst + "\" first (then its own calls are checked).", true
	}
	return "", false
}

// agentHookInstalled reports whether airlock's hook for an installer's
// agent is in its user or project configuration. An unknown installer
// name, or a file that cannot be read, counts as not installed.
func (g *guard) agentHookInstalled(inst, cwd string) bool {
	ag, ok := agentinstall.Lookup(inst)
	if !ok {
		return false
	}
	project := g.project
	if project == "" {
		project = cwd
	}
	env := agentinstall.Env{Home: g.home, Project: project, Getenv: g.getenv}
	for _, s := range ag.Scopes {
		if s == agentinstall.User && g.home == "" || s == agentinstall.Project && project == "" {
			continue
		}
		if ag.Inspect(env, s).Installed {
			return true
		}
	}
	return false
}

// getenv reads the environment the decision runs in (CODEX_HOME,
// XDG_CONFIG_HOME), where the installer would have looked too.
func (g *guard) getenv(k string) string {
	if g.env == nil {
		return os.Getenv(k)
	}
	return g.env(k)
}
