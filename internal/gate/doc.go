// Package gate is airlock's fact-forcing gate and its evidence ledger
// (docs/GATE.md).
//
// Asking an agent "are you sure?" always gets "yes"; asking it for
// concrete facts makes it run the searches that change its work. The gate
// refuses the first attempt of certain tool calls in a session, says
// exactly which facts to present, and lets the retry through:
//
//   - the first edit of each file (Edit, MultiEdit, NotebookEdit, and a
//     Write over an existing file; each file of a call separately):
//     importers, affected API, data schemas, the user's instruction;
//   - the first creation of a file (Write): callers, no existing file
//     doing the same, data schemas, the user's instruction;
//   - every distinct destructive Bash command: what it changes, a
//     rollback, the user's instruction;
//   - the first non-read-only Bash command of a session: the user's
//     request and what the command does.
//
// Unlike a gate whose retry always passes, it keeps evidence: PostToolUse
// events record what the agent actually read and searched, and the first
// edit of a file that was read, and whose importers were searched for,
// within the evidence window passes without a denial. It knows the user's
// instruction from UserPromptSubmit and quotes it in the denial. After a
// budget of full denials per session, later ones are one condensed line
// carrying their ordinal, so that repeated blocks cannot feed a repetition
// loop.
//
// The gate is off by default and turned on by the policy's "gate:"
// section. It only ever turns an allowed (or warned) call into a denial.
// It keeps one small JSON file per session, replaced atomically under a
// file lock; when that state cannot be kept it allows the call with a
// warning (DESIGN.md invariant 1: the gate fails open on its own state,
// so it can never lock an agent in a loop).
package gate
