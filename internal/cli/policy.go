package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	notifyconfig "github.com/airlock-dev/airlock/internal/notify/config"
	"github.com/airlock-dev/airlock/internal/policy"
)

const policyHelp = `
Show, check, test or start a policy file.

Policy files are YAML. Layers: built-in defaults, the user's file
($XDG_CONFIG_HOME/airlock/policy.yaml), the project's .airlock/policy.yaml
(which only tightens unless trusted with "airlock trust"); AIRLOCK_POLICY=FILE
uses that one file instead of the user's and project's. See docs/POLICY.md.`

// policyFlags are the flags every policy subcommand but init shares.
type policyFlags struct {
	*flagValues
	json *bool
	cwd  *string
}

func policyFlagsOf(e *env) *policyFlags {
	return &policyFlags{flagValues: e.flags, json: e.flags.Bool("json"), cwd: e.flags.String("cwd")}
}

func loadFor(e *env, dir string) (*policy.Policy, string, error) {
	cwd, err := workdir(e, dir)
	if err != nil {
		return nil, "", err
	}
	p, err := loadPolicy(e, cwd)
	return p, cwd, err
}

// ruleOutput is a rule in policy show --json.
type ruleOutput struct {
	ID       string          `json:"id"`
	Origin   string          `json:"origin"`
	File     string          `json:"file,omitempty"`
	Line     int             `json:"line,omitempty"`
	Decision policy.Decision `json:"decision"`
	Match    string          `json:"match"`
	Message  string          `json:"message,omitempty"`
	Relaxes  bool            `json:"relaxes_builtin"`
}

type layerOutput struct {
	Origin string `json:"origin"`
	File   string `json:"file,omitempty"`
	Status string `json:"status"`
	SHA256 string `json:"sha256,omitempty"`
	Rules  int    `json:"rules"`
}

type showOutput struct {
	Mode   policy.Mode                  `json:"mode"`
	Gate   gateOutput                   `json:"gate"`
	Layers []layerOutput                `json:"layers"`
	Tables map[string]map[string]string `json:"tables"`
	Rules  []ruleOutput                 `json:"rules"`
}

// gateOutput is the fact-forcing gate's state in JSON output.
type gateOutput struct {
	Enabled bool `json:"enabled"`
}

// gateLine says whether the fact-forcing gate is on, and how to change
// that: a gate nobody can see is a refusal nobody can explain.
func gateLine(p *policy.Policy) string {
	if p.Gate.Enabled {
		return "gate: on (the fact-forcing gate, docs/GATE.md; gate.enabled in a policy file, which airlock uninstall takes out when airlock install --gate wrote it)"
	}
	return "gate: off (the fact-forcing gate, docs/GATE.md; airlock install claude-code --gate turns it on)"
}

func policyShow(e *env) int {
	fset := policyFlagsOf(e)
	p, _, err := loadFor(e, *fset.cwd)
	if err != nil {
		return fail(e.stderr, err)
	}
	out := showOutput{Mode: p.Mode, Gate: gateOutput{Enabled: p.Gate.Enabled}, Tables: map[string]map[string]string{}}
	for _, l := range p.Layers {
		out.Layers = append(out.Layers, layerOutput{Origin: l.Origin.String(), File: l.File, Status: l.Status.String(), SHA256: l.Hash, Rules: l.Rules})
	}
	for _, m := range []policy.Mode{policy.Interactive, policy.Supervised, policy.Unattended} {
		t := p.Table(m)
		out.Tables[m.String()] = map[string]string{
			"local": t.Local.String(), "shared": t.Shared.String(), "external": t.External.String(),
			"destructive": t.Destructive.String(), "opaque": t.Opaque.String(), "unknown": t.Unknown.String(),
			"inside_project": insideWord(t),
		}
	}
	for _, r := range p.Rules {
		out.Rules = append(out.Rules, ruleOutput{ID: r.ID, Origin: r.Origin.String(), File: r.File, Line: r.Line, Decision: r.Decision, Match: r.Describe(), Message: r.Message, Relaxes: r.Relaxes()})
	}
	if *fset.json {
		return encodeJSON(e, out)
	}
	w := e.stdout
	fmt.Fprintf(w, "mode: %s\n%s\n\nlayers:\n", p.Mode, gateLine(p))
	for _, l := range out.Layers {
		file := l.File
		if file == "" {
			file = "(compiled in)"
		}
		fmt.Fprintf(w, "  %-8s  %s: %s", l.Origin, file, l.Status)
		if l.Status != policy.Absent.String() {
			fmt.Fprintf(w, ", %s", plural(l.Rules, "rule"))
		}
		if l.SHA256 != "" {
			fmt.Fprintf(w, ", sha256 %s", l.SHA256[:12])
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "\ntables (in effect):")
	fmt.Fprintf(w, "  %-12s %-7s %-7s %-8s %-11s %-14s %-7s %s\n", "mode", "local", "shared", "external", "destructive", "inside_project", "opaque", "unknown")
	for _, m := range []policy.Mode{policy.Interactive, policy.Supervised, policy.Unattended} {
		t := p.Table(m)
		mark := " "
		if m == p.Mode {
			mark = "*"
		}
		fmt.Fprintf(w, "%s %-12s %-7s %-7s %-8s %-11s %-14s %-7s %s\n", mark, m, t.Local, t.Shared, t.External, t.Destructive, insideWord(t), t.Opaque, t.Unknown)
	}
	fmt.Fprintln(w, "\nrules:")
	for _, r := range out.Rules {
		where := r.Origin
		if r.File != "" {
			where = fmt.Sprintf("%s %s:%d", r.Origin, r.File, r.Line)
		}
		fmt.Fprintf(w, "  %s: %s (%s)\n    match: %s\n", r.ID, r.Decision, where, r.Match)
		if r.Relaxes {
			fmt.Fprintln(w, "    relaxes the built-in defaults for what it matches")
		}
		if r.Message != "" {
			fmt.Fprintf(w, "    message: %s\n", r.Message)
		}
	}
	fmt.Fprintln(w, "\nalways: self-protection denies changes to airlock's files and mutating airlock commands by the agent")
	return ExitOK
}

func policyCheck(e *env) int {
	fset := policyFlagsOf(e)
	if fset.NArg() > 1 {
		return fail(e.stderr, &usageError{Msg: "policy check takes at most one FILE"})
	}
	sub := *e
	var named *namedPolicy
	if fset.NArg() == 1 {
		var err error
		if named, err = nameForCheck(e, fset.Arg(0)); err != nil {
			return fail(e.stderr, err)
		}
		sub.getenv = named.getenv(e.getenv)
		if named.project != "" {
			// A project's file that is not there is a mistake in what
			// was named, as a missing AIRLOCK_POLICY file is; the
			// project layer alone would call it absent and pass.
			if _, err := os.Stat(named.abs); err != nil {
				var pe *fs.PathError
				if errors.As(err, &pe) {
					err = pe.Err
				}
				return policyMistakes(e, *fset.json, &policy.FileError{File: named.arg, Err: err})
			}
		}
	}
	p, _, err := loadFor(&sub, *fset.cwd)
	if err == nil && p.Notify != nil {
		// The notify section's schema is internal/notify's.
		_, err = notifyconfig.Decode(p.Notify)
	}
	if err != nil {
		return policyMistakes(e, *fset.json, err)
	}
	out := policyCheckOutput{Valid: true, Files: []policyFileOutput{}}
	for _, l := range p.Layers {
		if l.File == "" || l.Status == policy.Absent {
			continue
		}
		f := policyFileOutput{File: l.File, Rules: l.Rules, Status: l.Status.String()}
		if named != nil {
			if named.project != "" && l.Origin != policy.Project {
				// The user's file was read beside the project's, as it
				// is in that project, but FILE is what was asked about.
				continue
			}
			f.Status = named.status(l.Status)
		}
		out.Files = append(out.Files, f)
	}
	if *fset.json {
		return encodeJSON(e, out)
	}
	for _, f := range out.Files {
		fmt.Fprintf(e.stdout, "%s: ok, %s, %s\n", f.File, plural(f.Rules, "rule"), f.Status)
	}
	if len(out.Files) == 0 {
		fmt.Fprintln(e.stdout, "no policy files: the built-in defaults apply")
	}
	return ExitOK
}

// policyMistakes reports a policy that does not load. A mistake in a file
// is the answer policy check was asked for: exit 1, as for a held action,
// keeping 2 for a check that could not run (bad usage, an I/O error that
// names no file), so that a script can tell "fix the file" from "fix the
// call".
func policyMistakes(e *env, asJSON bool, err error) int {
	// Every mistake of every file, one line each, so that one run shows
	// all there is to fix.
	fes := policy.FileErrors(err)
	if len(fes) == 0 {
		return fail(e.stderr, err)
	}
	if asJSON {
		// A mistake in a file is the answer a script asked for, so it
		// goes to standard output with the rest of the JSON.
		out := policyCheckOutput{Files: []policyFileOutput{}, Error: err.Error()}
		for _, fe := range fes {
			out.Errors = append(out.Errors, fe.Error())
		}
		encodeJSON(e, out)
		return ExitHeld
	}
	for _, fe := range fes {
		fmt.Fprintf(e.stderr, "airlock: error: %v\n", fe)
	}
	if len(fes) > 1 {
		fmt.Fprintf(e.stderr, "airlock: %d mistakes\n", len(fes))
	}
	return ExitHeld
}

// namedPolicy is the FILE of "policy check FILE" and the authority it has
// where it lies, which is what its status line reports: checking a file
// does not put it in effect.
type namedPolicy struct {
	arg, abs string
	// project is the root of the project whose .airlock/policy.yaml FILE
	// is, or "".
	project string
	// inEffect: FILE is the user's file or the AIRLOCK_POLICY file.
	inEffect bool
	// replaced: AIRLOCK_POLICY is set, so neither the user's file nor a
	// project's is read.
	replaced bool
}

// notInEffect is the status of a named file that is neither the user's,
// nor AIRLOCK_POLICY, nor a project's.
const notInEffect = "not in effect (AIRLOCK_POLICY=FILE would apply it with your authority)"

func nameForCheck(e *env, arg string) (*namedPolicy, error) {
	abs, err := filepath.Abs(arg)
	if err != nil {
		return nil, err
	}
	paths := policy.PathsFrom(e.getenv)
	n := &namedPolicy{arg: arg, abs: abs, replaced: paths.Explicit != ""}
	same := func(f string) bool {
		if f == "" {
			return false
		}
		a, err := filepath.Abs(f)
		return err == nil && a == abs
	}
	switch {
	case same(paths.Explicit), same(paths.UserFile):
		n.inEffect = true
	case filepath.Base(abs) == filepath.Base(policy.ProjectFile) &&
		filepath.Base(filepath.Dir(abs)) == filepath.Dir(policy.ProjectFile):
		n.project = filepath.Dir(filepath.Dir(abs))
	}
	return n, nil
}

// getenv is the environment the check loads the policy with. A project's
// file is loaded as that project's layer, beside the user's file: with
// the trust it has ("untrusted (tightens only)" until airlock trust), and
// the rules a project's file must keep (no notify: section, no link out
// of the project). Any other file is loaded as AIRLOCK_POLICY is.
func (n *namedPolicy) getenv(getenv func(string) string) func(string) string {
	return func(k string) string {
		switch {
		case k == "AIRLOCK_POLICY" && n.project != "":
			return ""
		case k == "AIRLOCK_POLICY":
			return n.arg
		case k == "CLAUDE_PROJECT_DIR" && n.project != "":
			return n.project
		}
		return getenv(k)
	}
}

// status is what the named file's layer status means for the user.
func (n *namedPolicy) status(s policy.LayerStatus) string {
	switch {
	case n.inEffect:
		return s.String()
	case n.project != "" && n.replaced:
		return "not in effect while AIRLOCK_POLICY is set (" + s.String() + " without it)"
	case n.project == "":
		return notInEffect
	}
	return s.String()
}

// policyCheckOutput is what policy check --json prints.
type policyCheckOutput struct {
	Valid bool               `json:"valid"`
	Files []policyFileOutput `json:"files"`
	Error string             `json:"error,omitempty"`
	// Errors lists every mistake, one file:line each.
	Errors []string `json:"errors,omitempty"`
}

type policyFileOutput struct {
	File   string `json:"file"`
	Rules  int    `json:"rules"`
	Status string `json:"status"`
}

func policyTest(e *env) int {
	fset := policyFlagsOf(e)
	p, _, err := loadFor(e, *fset.cwd)
	if err != nil {
		return fail(e.stderr, err)
	}
	type result struct {
		Rule    string `json:"rule"`
		File    string `json:"file,omitempty"`
		Line    int    `json:"line,omitempty"`
		Example string `json:"example"`
		Want    string `json:"want"`
		OK      bool   `json:"ok"`
	}
	var results []result
	failed := 0
	for _, r := range p.RunExamples() {
		want := "match"
		if !r.Example.Match {
			want = "no_match"
		}
		res := result{Rule: r.Rule.ID, File: r.Rule.File, Line: r.Example.Line, Example: exampleText(r.Example.Action), Want: want, OK: r.OK()}
		if !res.OK {
			failed++
		}
		results = append(results, res)
	}
	if *fset.json {
		if st := encodeJSON(e, results); st != ExitOK {
			return st
		}
	} else {
		for _, r := range results {
			if !r.OK {
				loc := r.Rule
				if r.File != "" {
					loc = fmt.Sprintf("%s:%d: %s", r.File, r.Line, r.Rule)
				}
				fmt.Fprintf(e.stdout, "FAIL %s: %s should %s\n", loc, r.Example, strings.ReplaceAll(r.Want, "_", " "))
			}
		}
		fmt.Fprintf(e.stdout, "%s, %d failed\n", plural(len(results), "example"), failed)
	}
	if failed > 0 {
		return ExitHeld
	}
	return ExitOK
}

func exampleText(a policy.Action) string {
	switch {
	case a.Kind == policy.Shell:
		return fmt.Sprintf("%q", a.Command)
	case a.URL != "":
		return a.Tool + " " + a.URL
	case len(a.Paths) > 0:
		return a.Tool + " " + a.Paths[0]
	}
	return a.Tool
}

func policyInit(e *env) int {
	project := e.flags.Bool("project")
	force := e.flags.Bool("force")
	file := policy.PathsFrom(e.getenv).UserFile
	if *project {
		cwd, err := e.getwd()
		if err != nil {
			return fail(e.stderr, err)
		}
		file = filepath.Join(cwd, policy.ProjectFile)
	}
	if file == "" {
		return fail(e.stderr, &usageError{Msg: "cannot find the user's config directory", Hints: []string{"set HOME or XDG_CONFIG_HOME"}})
	}
	if _, err := os.Stat(file); err == nil && !*force {
		return fail(e.stderr, &usageError{Msg: file + " already exists", Hints: []string{"pass --force to overwrite it"}})
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fail(e.stderr, err)
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return fail(e.stderr, err)
	}
	starter := policy.Starter
	if *project {
		starter = policy.ProjectStarter
	}
	if err := os.WriteFile(file, []byte(starter), 0o644); err != nil {
		return fail(e.stderr, err)
	}
	fmt.Fprintf(e.stdout, "wrote %s\n", file)
	if *project {
		fmt.Fprintln(e.stdout, "a project file only tightens the user's policy until you run \"airlock trust\"")
	}
	return ExitOK
}

func encodeJSON(e *env, v any) int {
	enc := json.NewEncoder(e.stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fail(e.stderr, err)
	}
	return ExitOK
}

// insideWord names the decision for destruction inside the project as a
// policy file writes it: "snapshot" where the table says warn.
func insideWord(t policy.Table) string {
	if t.Inside == policy.Warn {
		return "snapshot"
	}
	return t.Inside.String()
}
