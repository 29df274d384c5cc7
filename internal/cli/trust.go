package cli

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/airlock-dev/airlock/internal/policy"
)

const trustHelp = `
A project's .airlock/policy.yaml can only tighten your policy until you
trust it. Trusting records the file's SHA-256 in airlock's state directory
($AIRLOCK_HOME, default $XDG_STATE_HOME/airlock); when the file changes it is
untrusted again, and "airlock policy show" says so. Review the file first.

Without FILE, the project file is found from the current directory upwards
(or from CLAUDE_PROJECT_DIR). The file must be valid; it is checked first.`

func runTrust(e *env) int {
	fs := e.flags
	revoke := fs.Bool("revoke")
	cwd, err := e.getwd()
	if err != nil {
		return fail(e.stderr, err)
	}
	var file string
	switch fs.NArg() {
	case 0:
		root := policy.FindProjectRoot(e.getenv("CLAUDE_PROJECT_DIR"), cwd)
		if root == "" {
			return fail(e.stderr, &usageError{Msg: "no " + policy.ProjectFile + " here or in a parent directory", Hints: []string{"airlock trust FILE", "airlock policy init --project"}})
		}
		file = filepath.Join(root, policy.ProjectFile)
	case 1:
		file = fs.Arg(0)
	default:
		return fail(e.stderr, &usageError{Msg: "trust takes at most one FILE"})
	}
	if file, err = filepath.Abs(file); err != nil {
		return fail(e.stderr, err)
	}
	store, err := policy.LoadTrust(policy.PathsFrom(e.getenv).TrustFile())
	if err != nil {
		return fail(e.stderr, err)
	}
	if *revoke {
		if !store.Revoke(file) {
			fmt.Fprintf(e.stdout, "%s was not trusted\n", file)
			return ExitOK
		}
		if err := store.Save(); err != nil {
			return fail(e.stderr, err)
		}
		fmt.Fprintf(e.stdout, "revoked %s: it only tightens your policy again\n", file)
		return ExitOK
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return fail(e.stderr, err)
	}
	// Trusting a file that does not load would record a hash for nothing.
	sub := *e
	sub.getenv = func(k string) string {
		if k == "AIRLOCK_POLICY" {
			return file
		}
		return e.getenv(k)
	}
	if _, err := loadPolicy(&sub, cwd); err != nil {
		return fail(e.stderr, &usageError{Msg: err.Error(), Hints: []string{"fix the file, then trust it"}})
	}
	sum := store.Trust(file, data)
	if err := store.Save(); err != nil {
		return fail(e.stderr, err)
	}
	fmt.Fprintf(e.stdout, "trusted %s (sha256 %s)\nit may now loosen your policy; if it changes it only tightens again until you trust it anew\n", file, sum)
	return ExitOK
}
