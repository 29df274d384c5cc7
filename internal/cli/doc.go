// Package cli implements the airlock command line: subcommands, flags,
// help text and exit codes. Only package main calls os.Exit; everything here
// returns the status instead.
package cli
