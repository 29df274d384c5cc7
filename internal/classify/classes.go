package classify

import "github.com/airlock-dev/airlock/internal/shell"

// classRules adds to a run's rating the classes of issue 24 that are not
// a program's own spec: an agent started with its guard off
// (nestedagents.go), work a scheduler runs later (schedule.go) and what a
// container's mounts hand over (containers.go). Each returns at once for
// a program it is not about.
func (c *Classifier) classRules(inv *shell.Invocation) Effect {
	var e Effect
	e.Add(agentRun(inv))
	e.Add(c.scheduled(inv))
	e.Add(containerMounts(inv))
	return e
}
