//go:build !linux

package cli

import "errors"

// inDir is Linux's (see hookd_linux.go); there is no service elsewhere.
func inDir(string, func()) error { return errors.New("the decision service runs on Linux only") }

// goOnDirWorker is Linux's (see hookd_linux.go).
func goOnDirWorker(fn func()) { go fn() }

// terminate is Linux's (see hookd_linux.go); no service runs elsewhere.
func terminate(int) error { return errors.New("the decision service runs on Linux only") }

// serviceTimerSlack is Linux's (see hookd_linux.go).
func serviceTimerSlack() {}
