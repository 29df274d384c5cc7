// Package classify says what a shell command will do to the world: for each
// program run found by package shell, its tier (local, shared, external),
// whether it destroys data, whether it only reads from the network, and
// whether it cannot be known statically.
//
// Knowledge of programs lives in Specs: one per program family, each with
// the examples it must classify as stated. A test runs every example, so a
// spec cannot drift from what it claims. Every spec is listed in one
// explicit table, specTable in specs.go, in a fixed order; a file defines
// its specs and registers nothing, and TestSpecTableComplete fails when a
// file defines a spec the table leaves out. Programs are found in the
// table through specIndex (spec_index.go), generated from it: after
// adding a spec or a program, run
// go test ./internal/classify -run TestSpecIndexCurrent -update-spec-index.
package classify
