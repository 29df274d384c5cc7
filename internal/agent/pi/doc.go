// Package pi is the adapter for Pi, the coding agent of the npm package
// @mariozechner/pi-coding-agent (observed on 0.73.1,
// ../shared/agents/README.md "More agents and the status line"). Pi has
// no command hooks: an extension's "tool_call" handler runs in-process
// before every tool call, and refuses it by returning {block: true,
// reason} or by throwing (Pi blocks the call when a handler throws).
// airlock's extension (a small shim written by "airlock install pi")
// execs the installed hook line once per tool call, and this package
// defines what they say to each other.
//
// # The wire (the shim and this package must agree)
//
// The shim writes one JSON object on airlock's standard input:
//
//	{"event":"tool_call",             // optional; the only event today
//	 "toolName":"bash",               // event.toolName
//	 "toolCallId":"call_…",           // event.toolCallId
//	 "input":{"command":"git push"},  // event.input, as Pi will run it
//	 "cwd":"/abs/project",            // ctx.cwd: where Pi runs its tools
//	 "sessionId":"…"}                 // ctx.sessionManager.getSessionId()
//
// and airlock answers on standard output, always with exit status 0:
//
//	{"decision":"allow"}
//	{"decision":"deny","reason":"airlock held this action for human review: … queued … as 3f2a9c1e …"}
//
// "allow" means airlock does not object. The shim returns {block: true,
// reason} for a deny, and throws on anything other than a reply it can
// parse whose decision is exactly "allow" or "deny": a spawn failure, a
// non-zero exit, no output, unparsable output, another decision, or its
// own timeout (above airlock's hookrun.Deadline). The model sees the
// reason, or the thrown message, as the tool's result.
//
// testdata/ holds payloads in this shape.
//
// Tool names (Pi's built-ins): bash, read, write, edit, grep, find, ls.
// Pi has no MCP client of its own; tools other extensions register are
// not listed: they stay unknown, and the policy's "unknown" decision
// holds them.
//
// Pi resolves a path argument its own way before it touches the file: a
// leading "@" is dropped, Unicode spaces become plain spaces, and "~"
// is the home directory. The table reads paths the same way, so that
// "@/home/u/.config/airlock/policy.yaml" is judged as the file Pi writes.
package pi
