// Package loop runs an autonomous story loop: one fresh agent process per
// story (claude --print and friends), nobody watching. Each story's prompt
// starts with airlock's prompt constraint; the agent's hooks are active
// for the run through a generated settings file, never by editing the
// user's own; every story's output is kept and scanned after the fact;
// a failing story is recorded and the loop goes on; an interrupt stops
// the loop cleanly. The caller prints the report of the run from the
// journal.
package loop
