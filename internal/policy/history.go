package policy

import "github.com/airlock-dev/airlock/internal/classify"

// Git's own commands that destroy the project's repository history (git
// branch -D, git stash drop, git reflog expire, git reset to another
// commit) are not reversible by airlock's snapshot of the worktree, so
// they are never allowed unseen. But they are ordinary work on the
// project's own repository, not destruction elsewhere: when the table
// refuses one because nobody watches, it is held in the queue for the
// human instead (FINDINGS-5 B7; issue 24: a refusal of ordinary work is
// a defect). A human who watches is asked, as before. Deleting .git or
// the whole worktree (rm -rf ., find . -delete) is not git's own
// command and stays refused, and so does a git run that also writes
// beyond the machine (git push --force rewrites the remote's history). A
// project file that tightened the destructive row (the floor), or a
// rule, still refuses.

// RuleHistoryHeld names the reason added when destruction of the
// project's history is held for review rather than refused.
const RuleHistoryHeld = "destructive.history-held"

const historyHeldMessage = "held for the human: the repository's history is not in airlock's snapshot, so this waits in the queue for a human to approve (airlock queue list); go on with other work meanwhile"

// historyHold turns the destructive row's refusal of a git command that
// destroys the project's own history into a hold (defer), and says so.
func historyHold(tv Verdict, s *subject, v *Verdict) Verdict {
	g := s.grade
	if g == nil || g.place != placeHistory || tv.Rule != "table.destructive" || tv.Decision != Deny ||
		s.inv == nil || s.inv.Name() != "git" || len(s.inv.Via) > 0 || s.effect.Tier == classify.External {
		return tv
	}
	tv.Decision = Defer
	v.Reasons = append(v.Reasons, classify.Reason{Rule: RuleHistoryHeld, Message: historyHeldMessage})
	return tv
}
