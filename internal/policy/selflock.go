package policy

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
)

// This file keeps airlock's locks airlock's (FINDINGS-7 G27): a program
// that holds the lock of airlock's journal makes every hook call wait
// (the agent is stopped, the human's queue waits). flock FILE is a run
// whose FILE self-protection checks as it checks any write (package
// shell emits flock's own words); flock N locks a descriptor a
// redirection opened (exec 9<FILE; flock 9, (flock 9; …) 9<FILE), which
// is caught here: in a command that locks a descriptor, no redirection
// may open a file of airlock's.

// lockers take a file descriptor's number as their operand.
func descriptorLock(inv *classify.Invocation) bool {
	switch inv.Name() {
	case "flock", "lockf":
	default:
		return false
	}
	for i := 1; i < len(inv.Args); i++ {
		a := inv.Args[i]
		if strings.HasPrefix(a, "-") && !inv.IsDynamic(i) {
			continue
		}
		if inv.IsDynamic(i) || strings.Trim(a, "0123456789") == "" {
			return true
		}
	}
	return false
}

// heldLocks refuses a command that locks a descriptor when one of its
// redirections opens a file of airlock's.
func (c *call) heldLocks(r *classify.Result) *refusal {
	all := append(r.Invocations[:len(r.Invocations):len(r.Invocations)], r.Followed...)
	locks := false
	for i := range all {
		if descriptorLock(&all[i]) {
			locks = true
			break
		}
	}
	if !locks {
		return nil
	}
	for i := range all {
		for _, rd := range all[i].Redirects {
			tgt := rd.Target
			if strings.HasPrefix(tgt, "&") || isFD(tgt) {
				continue
			}
			if rd.Dynamic {
				known, ok := c.g.known(tgt)
				if !ok {
					continue
				}
				tgt = known
			}
			for _, d := range c.cwds {
				h, ok := c.pathHit(tgt, d, false, false)
				if !ok {
					if s, secret := c.secretPath(tgt, d); secret {
						h, ok = s, true
					}
				}
				if ok && (h.target.kind == kindAirlock || h.target.kind == kindSecret) {
					return &refusal{RuleProtectedPath, "the command opens " + h.path + " on a descriptor (" + rd.Op + ") and locks a descriptor with " + all[i].Name() + ": holding a lock on airlock's own files makes every hook call wait, so the agent may not take it. Use a lock file of your own (flock /tmp/NAME.lock CMD)." + instead}
				}
			}
		}
	}
	return nil
}
