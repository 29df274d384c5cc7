package classify

import "github.com/airlock-dev/airlock/internal/shell"

// classRules adds to a run's rating the classes of issue 24 that are not
// a program's own spec: an agent started with its guard off
// (nestedagents.go) and work a scheduler runs later (schedule.go). Each
// returns at once for a program it is not about. (What a container's
// mounts hand over is rated by the container spec, so that the spec
// rates a container run alone, as the scanner's quick path asks.)
func (c *Classifier) classRules(inv *shell.Invocation) Effect {
	var e Effect
	e.Add(agentRun(inv))
	if p := agentPackage(inv); p != nil {
		if _, hookless := hooklessAgents.Get()[p.Name()]; hookless {
			// uvx aider-chat, pipx run aider-chat: a run of aider.
			e.Add(classifyHooklessAgent(c, p))
		}
	}
	e.Add(c.browserPage(inv)) // browsers.go
	e.Add(c.scheduled(inv))
	e.Add(c.installsGuarded(inv)) // installbins.go
	return e
}
