package egress

import (
	"github.com/airlock-dev/airlock/internal/contain/egress/egressconfig"
	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/mcp/mcpconfig"
	"github.com/airlock-dev/airlock/internal/pipeline"
	"github.com/airlock-dev/airlock/internal/policy"
)

// Wired returns the Options of a proxy serving the project at cwd with
// airlock's own policy and journal, found through getenv (os.Getenv in
// the binary): the pipeline loads the policy in effect for cwd at every
// request, as the hook does, so a human's change to it applies at once,
// and records every request in the journal, where held ones join the
// review queue. The "egress:" section is read once, here: a change to it
// applies when the proxy restarts.
func Wired(getenv func(string) string, cwd string) (Options, *journal.Journal, error) {
	load := func(dir string) (*policy.Policy, error) {
		return policy.Load(policy.Options{Getenv: getenv, Cwd: dir, MCP: mcpconfig.Schema, Egress: egressconfig.Schema})
	}
	pol, err := load(cwd)
	if err != nil {
		return Options{}, nil, err
	}
	cfg, err := egressconfig.Of(pol)
	if err != nil {
		return Options{}, nil, err
	}
	j, err := journal.Open(journal.DirIn(pol.Paths.StateDir))
	if err != nil {
		return Options{}, nil, err
	}
	pl := &pipeline.Pipeline{Policy: load, Recorder: j}
	return Options{StateDir: pol.Paths.StateDir, Policy: cfg, Decide: pl.Decide, Cwd: cwd, AllowLoopback: cfg.AllowLoopback}, j, nil
}
