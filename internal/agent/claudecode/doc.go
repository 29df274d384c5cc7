// Package claudecode is the adapter for Claude Code's hooks: it reads one
// hook event from standard input as Claude Code writes it, turns a tool
// call into a policy action, and writes the answer in Claude Code's wire
// format. It also installs and removes airlock's hooks in Claude Code's
// settings files.
//
// The wire facts it follows (fields, decisions, exit codes, onFailure,
// matchers, settings files) are in ../shared/protocols/agent-hooks.md §1;
// docs/HOOKS.md explains the choices made on top of them.
package claudecode
