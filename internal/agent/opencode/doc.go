// Package opencode is the adapter for OpenCode (observed on 1.18.33,
// ../shared/agents/README.md §1.2). OpenCode has no command hooks: a
// plugin's "tool.execute.before" handler runs in-process and refuses a
// call by throwing. airlock's plugin (a small JS shim written by
// "airlock install opencode") execs `airlock hook opencode` once per tool
// call and this package defines what they say to each other.
//
// # The wire (the shim and this package must agree)
//
// The shim writes one JSON object on airlock's standard input:
//
//	{"event":"tool.execute.before",   // optional; the only event today
//	 "tool":"bash",                   // input.tool
//	 "sessionID":"ses_…",             // input.sessionID
//	 "callID":"call_…",               // input.callID
//	 "args":{"command":"git push"},   // output.args, as OpenCode passes them
//	 "directory":"/abs/project",      // the plugin context's directory
//	 "worktree":"/abs/project"}       // the plugin context's worktree (optional)
//
// and airlock answers on standard output, always with exit status 0:
//
//	{"decision":"allow"}
//	{"decision":"deny","reason":"airlock held this action for human review: … queued … as 3f2a9c1e …"}
//
// "allow" means airlock does not object; OpenCode's own permission rules
// still apply. The shim must throw new Error(reason) on anything other
// than a reply it can parse whose decision is exactly "allow": a non-zero
// exit, no output, unparsable output, another decision, or its own
// timeout (which it should set above airlock's hookrun.Deadline, e.g.
// 20 s). The model sees the thrown message as the tool's result.
//
// testdata/ holds recorded payloads in this shape.
//
// Tool names (OpenCode's built-ins): bash, edit, write, read, patch,
// multiedit, list, glob, grep, webfetch, websearch, codesearch, todowrite,
// todoread, task, skill. MCP tools are named server_tool, which cannot be
// split reliably: they stay unknown, and the policy's "unknown" decision
// holds them.
package opencode
