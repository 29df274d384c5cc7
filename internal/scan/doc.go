// Package scan is the post-execution scanner: it reads what an agent left
// behind and finds the outward actions that no hook held.
//
// It reads three formats, detected per input from its first line: plain
// text (the output of "claude --print", a terminal log), Claude Code
// stream-json ("claude -p --output-format stream-json --verbose") and a
// Claude Code transcript (~/.claude/projects/<dir>/<session>.jsonl). The
// two JSON formats are read structurally: every tool call is decided by
// the same policy the hooks use, paired with its result by tool_use_id,
// and reported as executed, denied, or without a result. Plain text is read
// for recall: every program of every classifier spec that can reach
// outside or destroy data is an anchor, a line holding one is classified,
// and each finding says whether the text shows that it ran ("executed":
// a shell prompt, a trace line, the program's own output after it) or only
// names it ("mentioned").
//
// A finding becomes a vocab.Event named "ScanFinding" for the journal,
// through the vocab.Recorder seam; the scanner itself writes nothing.
package scan
