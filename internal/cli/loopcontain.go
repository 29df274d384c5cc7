package cli

import (
	"path/filepath"

	"github.com/airlock-dev/airlock/internal/contain/run"
)

// loopContain is how airlock loop contains each story's agent: the argv
// put before the agent's (airlock-run beside airlock, showing the loop's
// hook settings file inside), and the words the loop and its report use.
// Where airlock run cannot work here the agent runs as it is, and the
// note says why (the report marks each story "not contained").
func loopContain(exe, settings string) ([]string, string) {
	runner := filepath.Join(filepath.Dir(exe), RunBinary)
	if !isExecutable(runner) {
		return nil, "not contained (" + RunBinary + " is not beside airlock)"
	}
	if !isExecutable(filepath.Join(filepath.Dir(exe), EgressBinary)) {
		return nil, "not contained (" + EgressBinary + " is not beside airlock)"
	}
	if p := run.ProbeHere(); !p.Works {
		return nil, "not contained (" + p.Error + ")"
	}
	return []string{runner, "--expose", settings, "--"}, "contained (airlock run)"
}
