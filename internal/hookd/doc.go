// Package hookd is the resident decision service's wire and its client.
//
// A hook process pays Go's start-up (the runtime, every linked package's
// initialisation, the binary paged in) before it decides anything, and
// that start-up is most of its cost (docs/BENCHMARKS.md). The service is a
// long-lived "airlock hookd" that decides hook invocations handed to it on
// a unix socket in the state directory; the client is the half a hook
// process runs: it forwards its whole invocation (arguments, standard
// input, environment, working directory) and prints what comes back.
//
// The service is an optimisation, never a source of answers: any doubt on
// the client's side (no socket, a peer that is not the same airlock build,
// a short or late answer, a refusal) returns an error, and the caller then
// decides in its own process exactly as if there were no service. That is
// why this package has no "allow" of its own to give.
//
// This package is linked into the tiny hook client (cmd/airlock-hook), so
// it imports only what that client must pay for at start-up: no fmt, no
// reflection-based encoding, no net. The server lives in package
// hookd/server.
package hookd
