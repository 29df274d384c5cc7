// Package shell turns shell command text into the program runs it would
// make, without executing anything.
//
// It parses with mvdan.cc/sh/v3, walks every place a command can hide
// (lists, pipelines, compound commands, function bodies that are called,
// command and process substitutions anywhere), sees through wrappers such as
// sudo, env, timeout or xargs, and re-parses nested shell text (bash -c,
// eval of literals, heredocs fed to a shell, ssh remote commands).
//
// What cannot be known statically is reported, never guessed: a computed
// command name, eval of a non-literal, unknown text piped into a shell, or a
// limit that was hit all become invocations with a non-empty Opaque reason.
// The package knows how to find program runs; what each program does is the
// business of package classify.
package shell
