// Package runfirst hands "airlock run COMMAND" to airlock-run before the
// airlock binary initialises what else it links.
//
// Go initialises every package a binary links before main, whichever
// subcommand is asked for: in airlock that is the classifier's tables,
// the YAML and shell parsers, the agents' tables (about 1.4 ms, see
// docs/BENCHMARKS.md), which "airlock run" never uses: it only replaces
// itself with airlock-run. Packages are initialised in the order of their
// import paths, each once its own imports are; this package imports only
// os and syscall, and its path sorts before every other package of the
// module that the binary links, so its init runs before theirs, and the
// exec happens there. cmd/airlock imports it for that alone; anything
// else it is asked goes on to main as before.
//
// On Linux only, as internal/cli's execCompanion (which does the same
// from main, for a caller whose streams are not the process's own, and
// when this exec failed): elsewhere airlock runs airlock-run as a child.
package runfirst
