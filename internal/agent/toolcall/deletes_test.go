package toolcall_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/airlock-dev/airlock/internal/agent/auggie"
	"github.com/airlock-dev/airlock/internal/agent/codex"
	"github.com/airlock-dev/airlock/internal/agent/cursor"
	"github.com/airlock-dev/airlock/internal/agent/toolcall"
	"github.com/airlock-dev/airlock/internal/policy"
)

// TestAgentDeletionTools is FINDINGS-10 X2: an agent's tool that deletes
// a file, or moves it away, is graded as the deletion it is, where the
// file is: outside the project it is held in unattended mode (as rm of
// it is), inside it is not; and a patch's writes keep self-protection.
// Each row goes through the agent's own tool table, as its hook does.
func TestAgentDeletionTools(t *testing.T) {
	root := t.TempDir()
	home, proj := filepath.Join(root, "home"), filepath.Join(root, "proj")
	for _, f := range []string{"proj/src/old.go", "proj/main.go", "other/main.go"} {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(proj, ".git", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	pol := policy.Defaults()
	pol.Paths.Home = home
	patch := func(body string) string {
		b, _ := json.Marshal(map[string]string{"input": "*** Begin Patch\n" + body + "*** End Patch\n"})
		return string(b)
	}
	// Files outside the project are named where the finding named them:
	// the test's own directory is under the system's scratch directory,
	// whose deletions are not held.
	thesis, db := "/home/user/thesis.tex", "/srv/data/db"
	for _, c := range []struct {
		name  string
		table toolcall.Table
		tool  string
		input string
		held  bool
	}{
		{"codex Delete File outside the project", codex.Tools(), "apply_patch", patch("*** Delete File: " + thesis + "\n"), true},
		{"codex Delete File of a sibling project", codex.Tools(), "apply_patch", patch("*** Delete File: ../other/main.go\n"), true},
		{"codex Update File moved away from outside", codex.Tools(), "apply_patch", patch("*** Update File: " + db + "\n*** Move to: /tmp/x\n@@\n-x\n+y\n"), true},
		{"codex Delete File among added files", codex.Tools(), "apply_patch", patch("*** Add File: notes.md\n+hi\n*** Delete File: " + thesis + "\n"), true},
		{"codex Move to the git hooks", codex.Tools(), "apply_patch", patch("*** Update File: main.go\n*** Move to: .git/hooks/pre-commit\n@@\n-x\n+airlock queue approve abcd\n"), true},
		{"codex Delete File inside the project (ordinary)", codex.Tools(), "apply_patch", patch("*** Delete File: src/old.go\n"), false},
		{"codex rename inside the project (ordinary)", codex.Tools(), "apply_patch", patch("*** Update File: src/old.go\n*** Move to: src/new.go\n@@\n-x\n+y\n"), false},
		{"codex Add File inside the project (ordinary)", codex.Tools(), "apply_patch", patch("*** Add File: src/n.go\n+package src\n"), false},
		{"auggie remove-files outside the project", auggie.Tools(), "remove-files", `{"file_paths":["` + thesis + `","../other/main.go"]}`, true},
		{"auggie remove-files inside the project (ordinary)", auggie.Tools(), "remove-files", `{"file_paths":["src/old.go"]}`, false},
		{"cursor Delete outside the project", cursor.Tools(), "Delete", `{"file_path":"` + thesis + `"}`, true},
		{"cursor Delete of the hook settings", cursor.Tools(), "Delete", `{"file_path":"` + filepath.Join(home, ".claude/settings.json") + `"}`, true},
		{"cursor Delete inside the project (ordinary)", cursor.Tools(), "Delete", `{"file_path":"src/old.go"}`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			call, err := c.table.Translate(c.tool, json.RawMessage(c.input), proj, nil)
			if err != nil {
				t.Fatal(err)
			}
			a := call.Action(proj)
			a.Snapshots = true
			v := pol.DecideIn(policy.Unattended, a)
			held := v.Decision != policy.Allow && v.Decision != policy.Warn
			if held != c.held {
				t.Errorf("%s (%s %q): %s by %s (%v); want held=%v", c.name, a.Kind, a.Command, v.Decision, v.Rule, v.Reasons, c.held)
			}
		})
	}
}
