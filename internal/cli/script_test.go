package cli

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the test binary run as the airlock command inside scripts.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"airlock": func() { os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the CLI scripts under testdata/script.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			// A fresh, private home for every script: airlock never reads or
			// writes the real user's configuration or state in tests.
			env.Setenv("HOME", env.WorkDir+"/home")
			env.Setenv("XDG_CONFIG_HOME", env.WorkDir+"/home/.config")
			env.Setenv("XDG_STATE_HOME", env.WorkDir+"/home/.local/state")
			return nil
		},
	})
}
