package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/airlock-dev/airlock/internal/policy"
)

func init() {
	addCommand(&command{name: "policy", summary: "show, check, test or start a policy file", run: runPolicy})
}

const policyHelp = `
  show          the policy in effect: mode, layers, tables, every rule with its origin
  check [FILE]  check the policy files in effect, or one FILE, for mistakes
  test          run every rule's examples (match / no_match)
  init          write a commented starter policy (the user's file, or with
                --project the project's .airlock/policy.yaml)

Policy files are YAML. Layers: built-in defaults, the user's file
($XDG_CONFIG_HOME/airlock/policy.yaml), the project's .airlock/policy.yaml
(which only tightens unless trusted with "airlock trust"); AIRLOCK_POLICY=FILE
uses that one file instead of the user's and project's. See docs/POLICY.md.`

func runPolicy(e *env) int {
	if len(e.args) == 0 || e.args[0] == "-h" || e.args[0] == "--help" {
		fmt.Fprintf(e.stdout, "Usage:\n  airlock policy show|check [FILE]|test|init [flags]\n%s\n", policyHelp)
		if len(e.args) == 0 {
			return ExitUsage
		}
		return ExitOK
	}
	sub := &env{}
	*sub = *e
	sub.args = e.args[1:]
	switch e.args[0] {
	case "show":
		return policyShow(sub)
	case "check":
		return policyCheck(sub)
	case "test":
		return policyTest(sub)
	case "init":
		return policyInit(sub)
	}
	return fail(e.stderr, &usageError{Msg: fmt.Sprintf("unknown policy command %q", e.args[0]), Hints: []string{"airlock policy show|check|test|init"}})
}

// policyFlags parses the flags every policy subcommand shares.
func policyFlags(e *env, name, synopsis, help string) (fset *flagSet, st int, ok bool) {
	fset = &flagSet{FlagSet: newFlags(e, "policy "+name, synopsis, help)}
	fset.json = fset.Bool("json", false, "print JSON")
	fset.cwd = fset.String("cwd", "", "find the project policy from this `directory` instead of the current one")
	st, ok = parseFlags(e, fset.FlagSet, e.args)
	return fset, st, ok
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
	fset, st, ok := policyFlags(e, "show", "airlock policy show [--json] [--cwd DIR]", "Show the policy in effect.")
	if !ok {
		return st
	}
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
			fmt.Fprintf(w, ", %d rule(s)", l.Rules)
		}
		if l.SHA256 != "" {
			fmt.Fprintf(w, ", sha256 %s", l.SHA256[:12])
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w, "\ntables (in effect):")
	fmt.Fprintf(w, "  %-12s %-7s %-7s %-8s %-11s %-7s %s\n", "mode", "local", "shared", "external", "destructive", "opaque", "unknown")
	for _, m := range []policy.Mode{policy.Interactive, policy.Supervised, policy.Unattended} {
		t := p.Table(m)
		mark := " "
		if m == p.Mode {
			mark = "*"
		}
		fmt.Fprintf(w, "%s %-12s %-7s %-7s %-8s %-11s %-7s %s\n", mark, m, t.Local, t.Shared, t.External, t.Destructive, t.Opaque, t.Unknown)
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
	fset, st, ok := policyFlags(e, "check", "airlock policy check [--cwd DIR] [FILE]", "Check the policy files in effect, or one FILE, for mistakes. Every\nmistake of every file is listed, one file:line each.\nExit status: 0 when valid, 2 when a file has a mistake (or on a usage error).")
	if !ok {
		return st
	}
	if fset.NArg() > 1 {
		return fail(e.stderr, &usageError{Msg: "policy check takes at most one FILE"})
	}
	sub := *e
	if fset.NArg() == 1 {
		file := fset.Arg(0)
		sub.getenv = func(k string) string {
			if k == "AIRLOCK_POLICY" {
				return file
			}
			return e.getenv(k)
		}
	}
	p, _, err := loadFor(&sub, *fset.cwd)
	if err != nil {
		// Every mistake of every file, one line each, so that one run
		// shows all there is to fix.
		fes := policy.FileErrors(err)
		if len(fes) == 0 {
			return fail(e.stderr, err)
		}
		for _, fe := range fes {
			fmt.Fprintf(e.stderr, "airlock: error: %v\n", fe)
		}
		if len(fes) > 1 {
			fmt.Fprintf(e.stderr, "airlock: %d mistakes\n", len(fes))
		}
		return ExitUsage
	}
	files := 0
	for _, l := range p.Layers {
		if l.File != "" && l.Status != policy.Absent {
			files++
			fmt.Fprintf(e.stdout, "%s: ok, %d rule(s), %s\n", l.File, l.Rules, l.Status)
		}
	}
	if files == 0 {
		fmt.Fprintln(e.stdout, "no policy files: the built-in defaults apply")
	}
	return ExitOK
}

func policyTest(e *env) int {
	fset, st, ok := policyFlags(e, "test", "airlock policy test [--cwd DIR] [--json]", "Run every rule's examples.\nExit status: 0 when all pass, 1 when one fails.")
	if !ok {
		return st
	}
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
		fmt.Fprintf(e.stdout, "%d example(s), %d failed\n", len(results), failed)
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
	fs2 := newFlags(e, "policy init", "airlock policy init [--project] [--force]", "Write a commented starter policy file.")
	project := fs2.Bool("project", false, "write the project's .airlock/policy.yaml in the current directory instead of the user's file")
	force := fs2.Bool("force", false, "overwrite an existing file")
	if st, ok := parseFlags(e, fs2, e.args); !ok {
		return st
	}
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
	if err := os.WriteFile(file, []byte(policy.Starter), 0o644); err != nil {
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
