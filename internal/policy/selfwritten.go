package policy

import (
	"path/filepath"

	"github.com/airlock-dev/airlock/internal/classify"
)

// writtenRuns checks the commands a Write or Edit puts in a file that
// runs later (a git hook, a Makefile, a CI workflow, a
// .pre-commit-config.yaml, a devcontainer.json: classify.FileRuns) as
// the lines of a script the command runs: airlock's verb or a protected
// path named there is refused, as when a shell command writes the same
// text (FINDINGS-7, "through the Write tool too").
func (c *call) writtenRuns(a *Action) *refusal {
	for _, p := range a.Paths {
		abs := c.g.rawAbs(p, c.cwds[0])
		// The commands run in the file's directory (make, npm, a git
		// hook): the scripts they name are read from there.
		var fsys classify.FS
		if filepath.IsAbs(abs) {
			fsys = classify.HomeEnvFS(filepath.Dir(abs), c.g.home, c.g.env)
		}
		r := classify.FileRuns(abs, a.Content, fsys)
		if len(r.Followed) == 0 && len(r.Code) == 0 {
			continue
		}
		if ref := c.shell(&r); ref != nil {
			ref.msg = a.Tool + " of " + p + " adds commands that run later; " + ref.msg
			return ref
		}
	}
	return nil
}
