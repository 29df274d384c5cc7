package rulemake

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/airlock-dev/airlock/internal/mcp/mcpconfig"
	"github.com/airlock-dev/airlock/internal/policy"
)

// ErrLayout is returned when the rule cannot be added to the file
// without rewriting what the user wrote (a rules list in flow style, a
// file that is not a mapping): the human adds it by hand.
var ErrLayout = errors.New("rulemake: cannot add a rule to this file without rewriting it")

// ErrChanged is returned by Write when the file changed since the plan
// was made: the human confirmed a change to the content they saw.
var ErrChanged = errors.New("rulemake: the policy file changed since the rule was shown")

// Plan is a proposal placed in the user's policy file and checked: the
// new content loads strictly, has one more rule, every rule example that
// passed still passes, and the rule's own example matches it.
type Plan struct {
	*Proposal
	// File is the policy file the rule goes in: AIRLOCK_POLICY when set,
	// else the user's file.
	File string `json:"file"`
	// Old and New are the file's content before and after.
	Old []byte `json:"-"`
	New []byte `json:"-"`
	// Mode is the mode the corpus was decided in (the policy's).
	Mode policy.Mode `json:"mode"`
	// Changes are the corpus commands whose decision the rule changes;
	// Loosened those of them it lets through.
	Changes  []Change `json:"changes"`
	Loosened []Change `json:"loosened"`
	// ExampleAfter is the decision on the held command with the rule (no
	// directory read): still a hold when another rule of the user's holds
	// it.
	ExampleAfter policy.Decision `json:"example_after"`
}

// Prepare places p in the policy file that getenv names and checks the
// result against the corpus. Only the user's file (or AIRLOCK_POLICY)
// is compared, without the project's, so the changes are those of the
// rule itself.
func Prepare(p *Proposal, getenv func(string) string) (*Plan, error) {
	paths := policy.PathsFrom(getenv)
	file := paths.Explicit
	if file == "" {
		file = paths.UserFile
	}
	if file == "" {
		return nil, errors.New("rulemake: no user policy file: set HOME or XDG_CONFIG_HOME")
	}
	old, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("rulemake: %w", err)
	}
	nu, err := Insert(old, p.YAML)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "airlock-rule-")
	if err != nil {
		return nil, fmt.Errorf("rulemake: %w", err)
	}
	defer os.RemoveAll(tmp)
	before, err := loadText(tmp, "before.yaml", old, getenv)
	if err != nil {
		return nil, fmt.Errorf("rulemake: the policy file %s does not load as it is: %w", file, err)
	}
	after, err := loadText(tmp, "after.yaml", nu, getenv)
	if err != nil {
		return nil, fmt.Errorf("rulemake: with the rule, %s would not load: %w", file, err)
	}
	if userRules(after) != userRules(before)+1 {
		return nil, fmt.Errorf("%w: the file would have %d rules, want %d", ErrLayout, userRules(after), userRules(before)+1)
	}
	if err := examplesHold(before, after, p.ID); err != nil {
		return nil, err
	}
	cases, err := Corpus()
	if err != nil {
		return nil, err
	}
	pl := &Plan{Proposal: p, File: file, Old: old, New: nu, Mode: before.Mode}
	pl.Changes = Compare(cases, before, after, before.Mode)
	pl.Loosened = Loosened(pl.Changes)
	pl.ExampleAfter = after.Decide(policy.Action{Kind: policy.Shell, Tool: "Bash", Command: p.Example}).Decision
	return pl, nil
}

// loadText compiles content as the one policy file (AIRLOCK_POLICY), in
// a private directory, with the schema of the "mcp:" section: a file the
// hook would not load does not load here either.
func loadText(dir, name string, content []byte, getenv func(string) string) (*policy.Policy, error) {
	f := filepath.Join(dir, name)
	if err := os.WriteFile(f, content, 0o600); err != nil {
		return nil, err
	}
	return policy.Load(policy.Options{Getenv: func(k string) string {
		switch k {
		case "AIRLOCK_POLICY":
			return f
		case "AIRLOCK_MODE":
			return getenv(k)
		}
		return getenv(k)
	}, MCP: mcpconfig.Schema})
}

func userRules(p *policy.Policy) int {
	n := 0
	for _, r := range p.Rules {
		if r.Origin != policy.Builtin {
			n++
		}
	}
	return n
}

// examplesHold checks that every example that passed before passes
// after, and that the new rule's examples pass.
func examplesHold(before, after *policy.Policy, id string) error {
	key := func(r policy.ExampleResult, n map[string]int) string {
		n[r.Rule.ID]++
		return fmt.Sprintf("%s\x00%d", r.Rule.ID, n[r.Rule.ID])
	}
	passed, nb := map[string]bool{}, map[string]int{}
	for _, r := range before.RunExamples() {
		if k := key(r, nb); r.OK() {
			passed[k] = true
		}
	}
	na := map[string]int{}
	for _, r := range after.RunExamples() {
		k := key(r, na)
		switch {
		case r.OK():
		case r.Rule.ID == id:
			return fmt.Errorf("%w: the new rule does not match its own example", ErrLayout)
		case passed[k]:
			return fmt.Errorf("%w: with the rule, an example of rule %q would fail", ErrLayout, r.Rule.ID)
		}
	}
	return nil
}

// Insert returns src with rule (a YAML list item at column 0) added as
// the last item of its top-level rules list. Every byte of src stays as
// it was: the rule's lines are inserted after the list's last item,
// indented like its first, or a rules list is appended at the end.
func Insert(src []byte, rule string) ([]byte, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(src, &root); err != nil {
		return nil, fmt.Errorf("rulemake: the policy file is not valid YAML: %w", err)
	}
	if len(root.Content) == 0 {
		out := append([]byte{}, src...)
		if len(out) > 0 && out[len(out)-1] != '\n' {
			out = append(out, '\n')
		}
		return append(out, "version: 1\nrules:\n"+indent(rule, 2)...), nil
	}
	doc := root.Content[0]
	if doc.Kind != yaml.MappingNode || doc.Style&yaml.FlowStyle != 0 {
		return nil, fmt.Errorf("%w: its top level is not a block mapping", ErrLayout)
	}
	lines := strings.SplitAfter(string(src), "\n")
	if !strings.HasSuffix(string(src), "\n") {
		lines[len(lines)-1] += "\n"
	}
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i := 0; i+1 < len(doc.Content); i += 2 {
		k, v := doc.Content[i], doc.Content[i+1]
		if k.Value != "rules" {
			continue
		}
		// Where the rules list ends: before the next top-level key, less
		// the blank lines and column-0 comments that lead up to it.
		end := len(lines)
		if i+2 < len(doc.Content) {
			end = doc.Content[i+2].Line - 1
			for end > k.Line && (strings.TrimSpace(lines[end-1]) == "" || strings.HasPrefix(lines[end-1], "#")) {
				end--
			}
		}
		var text string
		switch {
		case v.Kind == yaml.SequenceNode && v.Style&yaml.FlowStyle == 0 && len(v.Content) > 0:
			first := lines[v.Content[0].Line-1]
			dash := strings.Index(first, "-")
			if dash < 0 || strings.TrimSpace(first[:dash]) != "" {
				return nil, fmt.Errorf("%w: cannot find the rules list's first item", ErrLayout)
			}
			text = indent(rule, dash)
		case v.Kind == yaml.ScalarNode && v.Tag == "!!null" && v.Line == k.Line:
			// "rules:" with nothing after it.
			text = indent(rule, 2)
		default:
			return nil, fmt.Errorf("%w: its rules list is not a block list (rules: [...]); add the rule by hand", ErrLayout)
		}
		out := strings.Join(lines[:end], "") + text + strings.Join(lines[end:], "")
		return []byte(out), nil
	}
	return []byte(strings.Join(lines, "") + "rules:\n" + indent(rule, 2)), nil
}

func indent(text string, n int) string {
	pad := strings.Repeat(" ", n)
	var b strings.Builder
	for _, l := range strings.SplitAfter(text, "\n") {
		if l != "" {
			b.WriteString(pad + l)
		}
	}
	return b.String()
}

// Write replaces the policy file with the plan's content, only if it
// still holds what the plan was made from, through a new file renamed
// into place (a crash leaves the old file or the new, never half).
func (pl *Plan) Write() error {
	cur, err := os.ReadFile(pl.File)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("rulemake: %w", err)
	}
	if !bytes.Equal(cur, pl.Old) {
		return ErrChanged
	}
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(pl.File); err == nil {
		mode = st.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(pl.File), 0o755); err != nil {
		return fmt.Errorf("rulemake: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(pl.File), ".policy-*.yaml")
	if err != nil {
		return fmt.Errorf("rulemake: %w", err)
	}
	_, werr := f.Write(pl.New)
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, serr, cerr, os.Chmod(f.Name(), mode)); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("rulemake: %w", err)
	}
	if err := os.Rename(f.Name(), pl.File); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("rulemake: %w", err)
	}
	return nil
}
