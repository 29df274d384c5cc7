// Package demo is airlock's demonstration: a throwaway git repository with
// a bare local remote, and a scripted fake agent that behaves like
// "claude -p --output-format stream-json" — it calls the PreToolUse and
// PostToolUse hooks of a Claude Code settings file for every tool call,
// runs what they allow, and writes stream-json — working through stories
// that edit files, commit, and try to publish and destroy in several
// disguises.
//
// The fake agent never runs a call the script marks unsafe, even if a
// hook were to allow it: the demo shows airlock holding those, it does
// not bet the user's machine on it. Such a call, if allowed, is reported
// as a failure of the demo.
package demo
