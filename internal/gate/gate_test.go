package gate

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/policy"
)

// TestOffByDefault checks that with no gate section nothing is gated and
// no state is created: the gate costs nothing when off.
func TestOffByDefault(t *testing.T) {
	h := newHarness(t, "table:\n  interactive:\n    destructive: warn\n")
	for _, c := range []struct {
		tool  string
		input map[string]any
	}{
		{"Edit", edit(h.abs("internal/x.go"))},
		{"Write", map[string]any{"file_path": h.abs("new.go"), "content": "x"}},
		{"Bash", bash("go test ./...")},
		{"Bash", bash("rm -rf build")},
	} {
		out, v := h.pre(c.tool, c.input)
		mustPass(t, out, v)
	}
	if w := h.prompt("do it"); w != "" {
		t.Errorf("Observe warned: %s", w)
	}
	if _, err := os.Stat(filepath.Join(h.env["XDG_STATE_HOME"], "airlock", "gate")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the gate wrote state while off (stat: %v)", err)
	}
}

// TestKillSwitches checks every spelling of ECC_GATEGUARD and
// GATEGUARD_DISABLED, with the policy turning the gate on.
func TestKillSwitches(t *testing.T) {
	tests := []struct {
		name, value string
		off         bool
	}{
		{EnvECC, "off", true},
		{EnvECC, "0", true},
		{EnvECC, "false", true},
		{EnvECC, "disabled", true},
		{EnvECC, "disable", true},
		{EnvECC, "OFF", true},
		{EnvECC, " Disabled ", true},
		{EnvECC, "FALSE", true},
		{EnvECC, "on", false},
		{EnvECC, "1", false},
		{EnvECC, "no", false},
		{EnvECC, "offf", false},
		{EnvECC, "", false},
		{EnvDisabled, "1", true},
		{EnvDisabled, " 1 ", true},
		{EnvDisabled, "true", false},
		{EnvDisabled, "yes", false},
		{EnvDisabled, "on", false},
		{EnvDisabled, "0", false},
		{EnvDisabled, "01", false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s=%q", tt.name, tt.value), func(t *testing.T) {
			h := newHarness(t, enabled)
			h.env[tt.name] = tt.value
			out, v := h.pre("Edit", edit(h.abs("internal/x.go")))
			if got := out.Denied; got == tt.off {
				t.Errorf("denied = %v (%s), want the gate off = %v", got, v.Rule, tt.off)
			}
		})
	}
}

// TestEditGate checks the first-edit gate: the facts asked for, the
// user's instruction quoted, the retry passing, and each file separately.
func TestEditGate(t *testing.T) {
	h := newHarness(t, enabled)
	h.prompt("Rename Foo to Bar in internal/x.go; keep the tests green.")
	out, v := h.pre("Edit", edit(h.abs("internal/x.go")))
	mustDeny(t, out, v, "gate.edit",
		"[fact-forcing gate] Before the first edit of internal/x.go",
		"1. Every file that imports or requires internal/x.go",
		"2. The public functions, types or classes the change affects.",
		"3. For data files: the field names, structure and date format, with masked or synthetic values",
		`4. The user's current instruction, verbatim. airlock saw it as: "Rename Foo to Bar in internal/x.go; keep the tests green."`,
		"Evidence airlock has not seen for internal/x.go in the last 30m: a Read of internal/x.go; a search for the files that import it",
		"other edits of internal/x.go from that batch may already have been applied: re-read the file",
	)
	if !strings.Contains(v.Message, "denial #1 this session") {
		t.Errorf("verdict message %q lacks the ordinal", v.Message)
	}
	// The retry passes, and so does every later edit of the file.
	for i := 0; i < 2; i++ {
		out, v = h.pre("Edit", edit(h.abs("internal/x.go")))
		mustPass(t, out, v)
	}
	// Another file is gated on its own.
	out, v = h.pre("Edit", edit(h.abs("internal/gate/gate.go")))
	mustDeny(t, out, v, "gate.edit", "first edit of internal/gate/gate.go")
	// A file outside the project is named by its absolute path.
	outside := h.write("elsewhere/y.go", "package y\n")
	out, v = h.pre("Edit", edit(outside))
	mustDeny(t, out, v, "gate.edit", "first edit of "+filepath.ToSlash(outside))
}

// TestNoPromptSeen checks the instruction fact when no UserPromptSubmit
// came.
func TestNoPromptSeen(t *testing.T) {
	h := newHarness(t, enabled)
	out, v := h.pre("Edit", edit(h.abs("internal/x.go")))
	mustDeny(t, out, v, "gate.edit", "airlock has not seen it this session: quote it from the conversation")
}

// TestHeldDecisionsUntouched checks that the gate never looks at a call
// the policy already holds, and never changes an allow into anything but
// a deny.
func TestHeldDecisionsUntouched(t *testing.T) {
	h := newHarness(t, "gate: {enabled: true}\n")
	// Destructive commands are asked about by the default table.
	out, v := h.pre("Bash", bash("rm -rf build"))
	if out.Denied || v.Decision != policy.Ask || strings.HasPrefix(v.Rule, "gate.") {
		t.Errorf("got %s by %s, want the policy's ask", v.Decision, v.Rule)
	}
	// Tools the gate does not cover pass untouched.
	out, v = h.pre("Read", map[string]any{"file_path": h.abs("internal/x.go")})
	mustPass(t, out, v)
}

// TestWriteGate checks the creation gate, and that a Write over an
// existing file is an edit.
func TestWriteGate(t *testing.T) {
	h := newHarness(t, enabled)
	h.prompt("add a cache")
	newFile := map[string]any{"file_path": h.abs("internal/cache.go"), "content": "package internal\n"}
	out, v := h.pre("Write", newFile)
	mustDeny(t, out, v, "gate.write",
		"Before creating internal/cache.go",
		"1. The file(s) and line(s) that will call or use internal/cache.go.",
		"2. Confirmation that no existing file serves the same purpose",
		"3. For data files",
		`"add a cache"`,
		"retry of this write will pass")
	out, v = h.pre("Write", newFile)
	mustPass(t, out, v)
	// Once created, the file is not asked about again, by Write or Edit.
	out, v = h.pre("Edit", edit(h.abs("internal/cache.go")))
	mustPass(t, out, v)
	// Writing over an existing, untouched file is a first edit.
	out, v = h.pre("Write", map[string]any{"file_path": h.abs("internal/x.go"), "content": "x"})
	mustDeny(t, out, v, "gate.edit", "Before the first edit of internal/x.go")
}

// TestDestructiveGate checks the destructive Bash gate: every distinct
// command once, the extra patterns of the environment and the policy, and
// a malformed pattern ignored with one warning while the built-ins work.
func TestDestructiveGate(t *testing.T) {
	h := newHarness(t, enabled)
	h.prompt("clean the build")
	out, v := h.pre("Bash", bash("rm -rf build"))
	mustDeny(t, out, v, "gate.destructive",
		"Before running the destructive command `rm -rf build`",
		"1. Every file or datum it will change or delete.",
		"2. A one-line rollback.",
		`3. The user's current instruction, verbatim. airlock saw it as: "clean the build"`)
	out, v = h.pre("Bash", bash("rm -rf build"))
	mustPass(t, out, v)
	out, v = h.pre("Bash", bash("  rm -rf build  "))
	mustPass(t, out, v)
	out, v = h.pre("Bash", bash("rm -rf dist"))
	mustDeny(t, out, v, "gate.destructive", "`rm -rf dist`")
	// The destructive facts answered the routine gate too.
	out, v = h.pre("Bash", bash("go test ./..."))
	mustPass(t, out, v)

	// Extra patterns: the classifier calls this local.
	h.env[EnvExtraDestructive] = `make\s+wipe`
	out, v = h.pre("Bash", bash("MAKE  WIPE"))
	mustDeny(t, out, v, "gate.destructive", "`MAKE  WIPE`")
	out, v = h.pre("Bash", bash(`bash -c "make wipe-all"`))
	mustDeny(t, out, v, "gate.destructive")
	out, v = h.pre("Bash", bash("make build"))
	mustPass(t, out, v)

	h.env[EnvExtraDestructive] = "(?=lookahead)("
	out, v = h.pre("Bash", bash("rm -rf out"))
	mustDeny(t, out, v, "gate.destructive", "`rm -rf out`")
	if !strings.Contains(out.Warning, "ignoring "+EnvExtraDestructive) || !strings.Contains(out.Warning, "built-in destructive detection still applies") {
		t.Errorf("warning = %q", out.Warning)
	}
	out, v = h.pre("Bash", bash("rm -rf out2"))
	mustDeny(t, out, v, "gate.destructive")
	if out.Warning != "" {
		t.Errorf("the malformed pattern was reported twice: %q", out.Warning)
	}

	p := newHarness(t, enabled+"")
	p.write("home/.config/airlock/policy.yaml", "gate: {enabled: true, extra_destructive: ['reset-db']}\n")
	out, v = p.pre("Bash", bash("./scripts/reset-db.sh --yes"))
	mustDeny(t, out, v, "gate.destructive")
}

// TestRoutineGate checks the once-per-session Bash gate, that read-only
// introspection never triggers it, and every way to turn it off.
func TestRoutineGate(t *testing.T) {
	readOnly := []string{
		"git status", "git diff", "git log --oneline -5", "git -C sub status --short", "git show HEAD:go.mod",
		"git branch", "git branch --show-current", "git remote -v", "ls -la", "pwd", "cat go.mod", "head -n 20 README.md",
		"grep -rn Foo internal/", "rg -n 'Foo' --type go", "git grep -n Foo", "find . -name '*.go'",
		"wc -l internal/x.go", "ls | head", "sed -n '1,20p' internal/x.go", "git status 2>/dev/null", "cd internal && ls",
	}
	routine := []string{"go test ./...", "make build", "npm run lint", "git add -A", "echo hi > out.txt",
		"git branch feature", "sed -i 's/a/b/' x.go", "cat x | tee y"}
	h := newHarness(t, enabled)
	for _, c := range readOnly {
		out, v := h.pre("Bash", bash(c))
		if out.Denied {
			t.Errorf("read-only %q was gated (%s)", c, v.Rule)
		}
	}
	out, v := h.pre("Bash", bash(routine[0]))
	mustDeny(t, out, v, "gate.routine",
		"Before the first shell command of this session",
		"1. The user's current request, in one sentence.",
		"2. What this command checks or produces.")
	for _, c := range routine {
		out, v := h.pre("Bash", bash(c))
		if out.Denied {
			t.Errorf("routine %q gated twice in a session (%s)", c, v.Rule)
		}
	}
	// Each routine command is one a fresh session would gate.
	for _, c := range routine {
		f := newHarness(t, enabled)
		out, v := f.pre("Bash", bash(c))
		if !out.Denied || v.Rule != "gate.routine" {
			t.Errorf("%q in a fresh session: %s by %s, want gate.routine", c, v.Decision, v.Rule)
		}
	}

	offs := []struct {
		value string
		off   bool
	}{
		{"1", true}, {"true", true}, {"on", true}, {"enabled", true}, {"enable", true}, {"yes", true},
		{"TRUE", true}, {" Yes ", true}, {"On", true}, {"ENABLE", true},
		{"0", false}, {"false", false}, {"no", false}, {"off", false}, {"y", false}, {"", false},
	}
	for _, o := range offs {
		f := newHarness(t, enabled)
		f.env[EnvRoutineDisabled] = o.value
		out, v := f.pre("Bash", bash("go test ./..."))
		if out.Denied == o.off {
			t.Errorf("%s=%q: denied = %v (%s), want routine gate off = %v", EnvRoutineDisabled, o.value, out.Denied, v.Rule, o.off)
		}
		// It never turns off the destructive gate.
		out, v = f.pre("Bash", bash("rm -rf build"))
		if !out.Denied || v.Rule != "gate.destructive" {
			t.Errorf("%s=%q turned off the destructive gate (%s)", EnvRoutineDisabled, o.value, v.Rule)
		}
	}
	f := newHarness(t, "gate: {enabled: true, routine_bash: false}\n")
	out, v = f.pre("Bash", bash("go test ./..."))
	mustPass(t, out, v)
}

// TestCondensed checks the budget of full denials and the condensed line
// with its ordinal, under the default, the environment and the policy.
func TestCondensed(t *testing.T) {
	files := []string{"a.go", "b.go", "c.go", "d.go", "e.go"}
	tests := []struct {
		name   string
		policy string
		env    string
		full   int
	}{
		{"default", enabled, "", 3},
		{"env 0 condenses from the first", enabled, "0", 0},
		{"env 1", enabled, "1", 1},
		{"env with spaces", enabled, " 2 ", 2},
		{"env with trailing text", enabled, "2x", 2},
		{"env negative is ignored", enabled, "-1", 3},
		{"env words are ignored", enabled, "three", 3},
		{"policy", "gate: {enabled: true, full_denials: 1}\n", "", 1},
		{"env wins over policy", "gate: {enabled: true, full_denials: 1}\n", "4", 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, tt.policy)
			if tt.env != "" {
				h.env[EnvFullDenials] = tt.env
			}
			h.prompt("do it")
			for i, f := range files {
				h.write("proj/internal/"+f, "package internal\n")
				out, v := h.pre("Edit", edit(h.abs("internal/"+f)))
				n := i + 1
				if n <= tt.full {
					mustDeny(t, out, v, "gate.edit", "Before the first edit of internal/"+f)
					continue
				}
				want := fmt.Sprintf("[fact-forcing gate] (denial #%d this session) first edit of internal/%s: state importers, affected API, data schemas, the user's verbatim instruction, then retry", n, f)
				if out.Reason != want {
					t.Errorf("denial %d = %q\nwant %q", n, out.Reason, want)
				}
			}
		})
	}
}

// TestCondensedKinds checks the condensed line of every kind.
func TestCondensedKinds(t *testing.T) {
	h := newHarness(t, enabled)
	h.env[EnvFullDenials] = "0"
	out, _ := h.pre("Bash", bash("go vet ./..."))
	if want := "[fact-forcing gate] (denial #1 this session) first shell command: state the user's request in one sentence and what this command checks or produces, then retry"; out.Reason != want {
		t.Errorf("routine: %q", out.Reason)
	}
	out, _ = h.pre("Write", map[string]any{"file_path": h.abs("n.go"), "content": "x"})
	if want := "[fact-forcing gate] (denial #2 this session) first creation of n.go: state its callers, that no existing file does the same, data schemas, the user's verbatim instruction, then retry"; out.Reason != want {
		t.Errorf("write: %q", out.Reason)
	}
	out, _ = h.pre("Bash", bash("rm -rf build"))
	if want := "[fact-forcing gate] (denial #3 this session) destructive command `rm -rf build`: state what it changes or deletes, a one-line rollback, the user's verbatim instruction, then retry"; out.Reason != want {
		t.Errorf("destructive: %q", out.Reason)
	}
}

// TestLedger checks the evidence ledger: a read and an importer search
// within the window open the gate; a denial lists what is missing.
func TestLedger(t *testing.T) {
	x := "internal/x.go"
	type step struct {
		tool  string
		input map[string]any
		after time.Duration // clock advance after the step
	}
	readX := func(h *harness) step { return step{tool: "Read", input: map[string]any{"file_path": h.abs(x)}} }
	tests := []struct {
		name    string
		steps   func(h *harness) []step
		pass    bool
		want    []string
		wantNot []string
	}{
		{"read and Grep", func(h *harness) []step {
			return []step{readX(h), {tool: "Grep", input: map[string]any{"pattern": `"example.com/m/internal"|x\.go`}}}
		}, true, nil, nil},
		{"read and rg in Bash", func(h *harness) []step {
			return []step{readX(h), {tool: "Bash", input: bash(`rg -n 'internal/x' --type go`)}}
		}, true, nil, nil},
		{"cat and grep -rn", func(h *harness) []step {
			return []step{{tool: "Bash", input: bash("cat internal/x.go")}, {tool: "Bash", input: bash(`grep -rn "x.go" . | head -20`)}}
		}, true, nil, nil},
		{"sed print and git grep", func(h *harness) []step {
			return []step{{tool: "Bash", input: bash("sed -n '1,40p' internal/x.go")}, {tool: "Bash", input: bash(`git grep -n "internal/x"`)}}
		}, true, nil, nil},
		{"read only", func(h *harness) []step { return []step{readX(h)} }, false,
			[]string{"a search for the files that import it (Grep, grep or rg for \"x.go\" or \"internal/x\")"}, []string{"a Read of"}},
		{"search only", func(h *harness) []step {
			return []step{{tool: "Grep", input: map[string]any{"pattern": "x.go"}}}
		}, false, []string{"a Read of internal/x.go."}, []string{"a search for"}},
		{"evidence too old", func(h *harness) []step {
			return []step{readX(h), {tool: "Grep", input: map[string]any{"pattern": "x.go"}, after: 31 * time.Minute}}
		}, false, []string{"a Read of internal/x.go; a search for"}, nil},
		{"evidence just in the window", func(h *harness) []step {
			return []step{readX(h), {tool: "Grep", input: map[string]any{"pattern": "x.go"}, after: 30 * time.Minute}}
		}, true, nil, nil},
		{"Glob is a name search", func(h *harness) []step {
			return []step{readX(h), {tool: "Glob", input: map[string]any{"pattern": "**/x.go"}}}
		}, false, []string{`Glob "**/x.go" finds files by name; it does not show which files import this one`}, nil},
		{"a search inside the file itself", func(h *harness) []step {
			return []step{readX(h), {tool: "Grep", input: map[string]any{"pattern": "x.go", "path": h.abs(x)}}}
		}, false, []string{"looked only inside the file itself"}, nil},
		{"a search for another name", func(h *harness) []step {
			return []step{readX(h), {tool: "Grep", input: map[string]any{"pattern": "xylophone"}}}
		}, false, []string{"a search for the files that import it"}, nil},
		{"reading another file", func(h *harness) []step {
			return []step{{tool: "Read", input: map[string]any{"file_path": h.abs("internal/gate/gate.go")}}, {tool: "Grep", input: map[string]any{"pattern": "x.go"}}}
		}, false, []string{"a Read of internal/x.go."}, nil},
		{"a write command is no evidence", func(h *harness) []step {
			return []step{readX(h), {tool: "Bash", input: bash("grep -rn x.go . > hits.txt")}}
		}, false, []string{"a search for the files that import it"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, enabled)
			for _, s := range tt.steps(h) {
				if w := h.observe(s.tool, s.input); w != "" {
					t.Fatalf("observe warned: %s", w)
				}
				h.clock = h.clock.Add(s.after)
			}
			out, v := h.pre("Edit", edit(h.abs(x)))
			if tt.pass {
				mustPass(t, out, v)
				if len(v.Reasons) == 0 || v.Reasons[len(v.Reasons)-1].Rule != "gate.evidence" {
					t.Errorf("no gate.evidence reason: %v", v.Reasons)
				}
				// Passing on evidence counts as the first edit.
				if _, ok := h.stateOf().Checked["file:"+h.abs(x)]; !ok {
					t.Error("the file was not marked checked")
				}
				return
			}
			mustDeny(t, out, v, "gate.edit", tt.want...)
			for _, w := range tt.wantNot {
				if strings.Contains(out.Reason, w) {
					t.Errorf("reason contains %q:\n%s", w, out.Reason)
				}
			}
		})
	}
}

// TestImportNames checks which names count as a search for a file's
// importers.
func TestImportNames(t *testing.T) {
	tests := []struct {
		target string
		want   []string
	}{
		{"/p/internal/x.go", []string{"x.go", "internal/x"}},
		{"/p/internal/gate/ledger.go", []string{"ledger", "ledger.go", "gate", "internal/gate/ledger", "internal/gate"}},
		{"/p/src/utils/index.js", []string{"index.js", "utils", "src/utils/index", "src/utils"}},
		{"/p/main.go", []string{"main.go"}},
		{"/p/app/models/User.py", []string{"user", "user.py", "models", "app/models/user", "app/models"}},
		{"/elsewhere/lib/x.go", []string{"x.go"}},
	}
	for _, tt := range tests {
		got := importNames(tt.target, "/p")
		if strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("importNames(%s) = %v, want %v", tt.target, got, tt.want)
		}
	}
	for pattern, want := range map[string]bool{
		`from './utils'`: true, `require("../utils")`: true, `utilsx`: false, `myutils`: false, `import.*utils`: true, `UTILS`: true,
	} {
		if _, got := mentions(pattern, []string{"utils"}); got != want {
			t.Errorf("mentions(%q, utils) = %v, want %v", pattern, got, want)
		}
	}
}

// TestMultiEdit checks that each file of a MultiEdit is gated on its own:
// a single-file MultiEdit like an Edit, and a call carrying edits of
// several files naming exactly the files not yet cleared.
func TestMultiEdit(t *testing.T) {
	h := newHarness(t, enabled)
	a, b, c := h.abs("internal/x.go"), h.abs("internal/gate/gate.go"), h.write("proj/docs/notes.md", "# notes\n")
	single := map[string]any{"file_path": a, "edits": []map[string]any{{"old_string": "a", "new_string": "b"}, {"old_string": "c", "new_string": "d"}}}
	out, v := h.pre("MultiEdit", single)
	mustDeny(t, out, v, "gate.edit", "Before the first edit of internal/x.go in this session")
	out, v = h.pre("MultiEdit", single)
	mustPass(t, out, v)

	h.env[EnvExemptGlobs] = "docs/**"
	multi := map[string]any{"file_path": a, "edits": []map[string]any{
		{"file_path": a, "old_string": "a", "new_string": "b"},
		{"file_path": b, "old_string": "a", "new_string": "b"},
		{"file_path": c, "old_string": "a", "new_string": "b"},
	}}
	out, v = h.pre("MultiEdit", multi)
	mustDeny(t, out, v, "gate.edit", "Before the first edit of internal/gate/gate.go in this session")
	if strings.Contains(out.Reason, "internal/x.go") || strings.Contains(out.Reason, "notes.md") {
		t.Errorf("the denial names a cleared or exempt file:\n%s", out.Reason)
	}

	f := newHarness(t, enabled)
	multi["file_path"] = f.abs("internal/x.go")
	multi["edits"] = []map[string]any{
		{"file_path": f.abs("internal/x.go"), "old_string": "a", "new_string": "b"},
		{"file_path": f.abs("internal/gate/gate.go"), "old_string": "a", "new_string": "b"},
	}
	out, v = f.pre("MultiEdit", multi)
	mustDeny(t, out, v, "gate.edit", "Before the first edit of internal/x.go and internal/gate/gate.go in this session, present these facts for each file",
		"Evidence airlock has not seen for internal/x.go", "Evidence airlock has not seen for internal/gate/gate.go")
	if st := f.stateOf(); st.Denials != 1 {
		t.Errorf("one call counted %d denials", st.Denials)
	}
	out, v = f.pre("MultiEdit", multi)
	mustPass(t, out, v)
	out, v = f.pre("Edit", edit(f.abs("internal/gate/gate.go")))
	mustPass(t, out, v)
}

// TestExemptGlobs checks GATEGUARD_EXEMPT_GLOBS and gate.exempt_globs at
// the gate: the root is CLAUDE_PROJECT_DIR, else the event's cwd; a
// malformed pattern grants nothing and is reported.
func TestExemptGlobs(t *testing.T) {
	tests := []struct {
		name       string
		globs      string
		projectDir string // relative to the harness dir; "" uses the cwd
		target     string // relative to the project
		exempt     bool
	}{
		{"tests anywhere", "**/tests/**", "", "tests/foo.js", true},
		{"nested tests", "**/tests/**", "", "pkg/a/tests/foo_test.go", true},
		{"root markdown", "*.md", "", "README.md", true},
		{"nested markdown is not root markdown", "*.md", "", "docs/GATE.md", false},
		{"services of the root only", "services/**", "", "lib/services/a.go", false},
		{"services of the root", "services/**", "", "services/a.go", true},
		{"case-insensitive", "DOCS/**", "", "docs/a.md", true},
		{"second of a list", "docs/**, *.md ,gen/**", "", "gen/x.pb.go", true},
		{"malformed grants nothing", "gen**", "", "gen/x.pb.go", false},
		{"project dir wins over cwd", "sub/**", ".", "sub/a.go", false},
		{"project dir as root", "proj/sub/**", ".", "sub/a.go", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, enabled)
			h.env[EnvExemptGlobs] = tt.globs
			if tt.projectDir != "" {
				h.env[EnvProjectDir] = filepath.Join(h.dir, tt.projectDir)
			}
			out, v := h.pre("Edit", edit(h.abs(tt.target)))
			if out.Denied == tt.exempt {
				t.Errorf("denied = %v (%s), want exempt = %v", out.Denied, v.Rule, tt.exempt)
			}
		})
	}
	h := newHarness(t, enabled)
	h.env[EnvExemptGlobs] = "/tmp/abs/**," + filepath.ToSlash(h.proj) + "/gen/**"
	out, v := h.pre("Edit", edit(h.abs("gen/a.go")))
	mustPass(t, out, v)
	h.env[EnvExemptGlobs] = "src/[ab].go"
	out, v = h.pre("Edit", edit(h.abs("src/a.go")))
	mustDeny(t, out, v, "gate.edit")
	if !strings.Contains(out.Warning, "ignoring a pattern of "+EnvExemptGlobs) || !strings.Contains(out.Warning, "src/[ab].go") {
		t.Errorf("warning = %q", out.Warning)
	}
	p := newHarness(t, "gate: {enabled: true, exempt_globs: ['**/testdata/**']}\n")
	out, v = p.pre("Write", map[string]any{"file_path": p.abs("internal/testdata/case.json"), "content": "{}"})
	mustPass(t, out, v)
}

// TestSubagent checks that a subagent can satisfy the gate: its denial
// quotes the user's instruction it never saw, its evidence counts for the
// session, and files cleared by the main agent stay cleared for it.
func TestSubagent(t *testing.T) {
	h := newHarness(t, enabled)
	h.prompt("Find why TestX fails and fix it.")
	h.agent = "agent-7"
	out, v := h.pre("Edit", edit(h.abs("internal/x.go")))
	mustDeny(t, out, v, "gate.edit", `"Find why TestX fails and fix it."`, "You are a subagent")
	out, v = h.pre("Edit", edit(h.abs("internal/x.go")))
	mustPass(t, out, v)

	// The subagent's investigation opens the gate for the main agent.
	h.observe("Read", map[string]any{"file_path": h.abs("internal/gate/gate.go")})
	h.observe("Grep", map[string]any{"pattern": `internal/gate"`})
	h.agent = ""
	out, v = h.pre("Edit", edit(h.abs("internal/gate/gate.go")))
	mustPass(t, out, v)
	if st := h.stateOf(); len(st.Reads) == 0 || st.Reads[0].Agent != "agent-7" {
		t.Errorf("reads = %+v, want the subagent's", st.Reads)
	}

	// A file the main agent cleared is cleared for a subagent.
	h.write("proj/internal/y.go", "package internal\n")
	out, v = h.pre("Edit", edit(h.abs("internal/y.go")))
	mustDeny(t, out, v, "gate.edit")
	if strings.Contains(out.Reason, "You are a subagent") {
		t.Error("the main agent was told it is a subagent")
	}
	h.agent = "agent-9"
	out, v = h.pre("Edit", edit(h.abs("internal/y.go")))
	mustPass(t, out, v)

	f := newHarness(t, enabled)
	f.agent = "agent-1"
	out, v = f.pre("Edit", edit(f.abs("internal/x.go")))
	mustDeny(t, out, v, "gate.edit", "quote it from the task you were given")
}

// TestStateFailure checks that state that cannot be kept allows the call
// with a warning naming GATEGUARD_STATE_DIR, and never denies.
func TestStateFailure(t *testing.T) {
	h := newHarness(t, enabled)
	blocker := h.write("not-a-dir", "a file where the state directory should be")
	h.env[EnvStateDir] = filepath.Join(blocker, "gate")
	for _, c := range []struct {
		tool  string
		input map[string]any
	}{
		{"Edit", edit(h.abs("internal/x.go"))},
		{"Write", map[string]any{"file_path": h.abs("new.go"), "content": "x"}},
		{"Bash", bash("go test ./...")},
		{"Bash", bash("rm -rf build")},
	} {
		out, v := h.pre(c.tool, c.input)
		mustPass(t, out, v)
		if v.Decision.Holds() {
			t.Errorf("%s: decision %s", c.tool, v.Decision)
		}
		for _, w := range []string{EnvStateDir, "allowed this call", filepath.Join(blocker, "gate")} {
			if !strings.Contains(out.Warning, w) {
				t.Errorf("%s: warning %q lacks %q", c.tool, out.Warning, w)
			}
		}
		if r := v.Reasons[len(v.Reasons)-1]; r.Rule != "gate.state" {
			t.Errorf("%s: last reason %+v, want gate.state", c.tool, r)
		}
	}
	if w := h.prompt("x"); !strings.Contains(w, EnvStateDir) {
		t.Errorf("Observe warning = %q", w)
	}
	// No HOME at all: no state directory.
	f := newHarness(t, enabled)
	p := f.load()
	p.Paths.StateDir = ""
	a := action("Edit", f.proj, edit(f.abs("internal/x.go")))
	v := p.Decide(a)
	out := f.gate().Pre(p, f.event("PreToolUse", "Edit", edit(f.abs("internal/x.go"))), &a, &v)
	mustPass(t, out, v)
	if !strings.Contains(out.Warning, EnvStateDir) || !strings.Contains(out.Warning, "HOME is not set") {
		t.Errorf("warning = %q", out.Warning)
	}
}

// TestCorruptState checks that a torn state file starts afresh rather than
// failing every call.
func TestCorruptState(t *testing.T) {
	h := newHarness(t, enabled)
	h.pre("Edit", edit(h.abs("internal/x.go")))
	file := filepath.Join(h.env["XDG_STATE_HOME"], "airlock", "gate", "s1.json")
	if err := os.WriteFile(file, []byte(`{"v":1,"checked":{`), 0o600); err != nil {
		t.Fatal(err)
	}
	out, v := h.pre("Edit", edit(h.abs("internal/x.go")))
	mustDeny(t, out, v, "gate.edit")
	out, v = h.pre("Edit", edit(h.abs("internal/x.go")))
	mustPass(t, out, v)
}

// TestParallel checks that hook processes of one session running at once
// lose no update: every read recorded, and each of many parallel first
// edits of one file denied exactly once.
func TestParallel(t *testing.T) {
	h := newHarness(t, enabled)
	p := h.load()
	var wg sync.WaitGroup
	const n = 24
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			g := New(h.getenv, func() time.Time { return h.clock })
			ev := &Event{Name: "PostToolUse", Session: h.session, Cwd: h.proj, Tool: "Read", Input: []byte(fmt.Sprintf(`{"file_path":%q}`, h.abs(fmt.Sprintf("f%d.go", i))))}
			if w := g.Observe(ev, func() (*policy.Policy, error) { return p, nil }); w != "" {
				t.Error(w)
			}
		}(i)
	}
	wg.Wait()
	if got := len(h.stateOf().Reads); got != n {
		t.Errorf("%d reads recorded, want %d", got, n)
	}
	var mu sync.Mutex
	denied := 0
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g := New(h.getenv, func() time.Time { return h.clock })
			in := edit(h.abs("internal/x.go"))
			a := action("Edit", h.proj, in)
			v := p.Decide(a)
			out := g.Pre(p, h.event("PreToolUse", "Edit", in), &a, &v)
			if out.Warning != "" {
				t.Error(out.Warning)
			}
			mu.Lock()
			if out.Denied {
				denied++
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	if denied != 1 {
		t.Errorf("%d of %d parallel first edits denied, want exactly 1", denied, n)
	}
}

// TestStateBounds checks that a long session's file stays bounded and
// keeps the routine mark.
func TestStateBounds(t *testing.T) {
	st := newState()
	st.Checked[keyRoutine] = 0
	for i := 0; i < maxChecked+50; i++ {
		st.Checked[fmt.Sprintf("file:/f%d", i)] = int64(i + 1)
	}
	for i := 0; i < maxReads+10; i++ {
		st.Reads = append(st.Reads, Read{Path: fmt.Sprint(i)})
	}
	st.Prompt = strings.Repeat("é", maxPrompt)
	st.bound()
	if len(st.Checked) != maxChecked {
		t.Errorf("%d checked", len(st.Checked))
	}
	if _, ok := st.Checked[keyRoutine]; !ok {
		t.Error("the routine mark was dropped")
	}
	if _, ok := st.Checked["file:/f0"]; ok {
		t.Error("the oldest mark was kept")
	}
	if len(st.Reads) != maxReads || st.Reads[0].Path != "10" {
		t.Errorf("reads: %d, first %q", len(st.Reads), st.Reads[0].Path)
	}
	if len(st.Prompt) > maxPrompt || !strings.HasSuffix(st.Prompt, "é") {
		t.Errorf("prompt clipped badly: %d bytes", len(st.Prompt))
	}
}

// TestSessionKey checks that any session id maps to a safe file name.
func TestSessionKey(t *testing.T) {
	tests := []struct {
		session, transcript, root, want string
	}{
		{"93e65a10-63df-4ab1-963d-ddefc9e63141", "", "", "93e65a10-63df-4ab1-963d-ddefc9e63141"},
		{"../../etc/passwd", "", "", "sid-" + digest("../../etc/passwd")},
		{strings.Repeat("a", 65), "", "", "sid-" + digest(strings.Repeat("a", 65))},
		{"", "/t/x.jsonl", "", "tx-" + digest("/t/x.jsonl")},
		{"  ", "", "/p", "proj-" + digest("/p")},
	}
	for _, tt := range tests {
		if got := sessionKey(tt.session, tt.transcript, tt.root); got != tt.want {
			t.Errorf("sessionKey(%q, %q, %q) = %q, want %q", tt.session, tt.transcript, tt.root, got, tt.want)
		}
	}
}

// TestLeadingCount checks how GATEGUARD_FACT_FORCE_FULL_DENIALS is read.
func TestLeadingCount(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		good bool
	}{
		{"3", 3, true}, {"0", 0, true}, {" 7 ", 7, true}, {"+2", 2, true}, {"5x", 5, true}, {"5.9", 5, true},
		{"-1", 0, false}, {"-0", 0, true}, {"", 0, false}, {"x5", 0, false}, {"  ", 0, false},
		{"99999999999999999999999", int(^uint(0) >> 1), true},
	}
	for _, tt := range tests {
		n, ok := leadingCount(tt.in)
		if n != tt.n || ok != tt.good {
			t.Errorf("leadingCount(%q) = %d, %v; want %d, %v", tt.in, n, ok, tt.n, tt.good)
		}
	}
}

// TestSanitize checks that a denial cannot carry invisible text.
func TestSanitize(t *testing.T) {
	in := "a\u202eb\u200bc\x1bd\ne\tf"
	if got := sanitize(in, true); got != "a b c d\ne\tf" {
		t.Errorf("sanitize(keepLines) = %q", got)
	}
	if got := sanitize(in, false); got != "a b c d e f" {
		t.Errorf("sanitize = %q", got)
	}
}
