package cli

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/airlock-dev/airlock/internal/agent/claudecode"
	"github.com/airlock-dev/airlock/internal/agentinstall"
	"github.com/airlock-dev/airlock/internal/hookline"
)

// This file is install and uninstall for the agents other than Claude
// Code: it parses the scope, asks internal/agentinstall for the plan, and
// writes it, prints it (--dry-run) or reports it as JSON.

// agentNames lists every agent install takes, Claude Code first.
func agentNames() string {
	return claudecode.Name + ", " + strings.Join(agentinstall.Names(), ", ")
}

// otherAgent returns the agent install and uninstall were named with,
// when it is not Claude Code.
func otherAgent(e *env) (*agentinstall.Agent, bool) {
	if e.flags.NArg() != 1 {
		return nil, false
	}
	return agentinstall.Lookup(e.flags.Arg(0))
}

type agentPlanOutput struct {
	Agent   string `json:"agent"`
	Scope   string `json:"scope"`
	DryRun  bool   `json:"dry_run"`
	Changed bool   `json:"changed"`
	Binary  string `json:"binary,omitempty"`
	// Form is the hook line's form: "service" (airlock-hook) or
	// "in-process" (airlock hook); FormWhy says why it is in process.
	Form    string          `json:"hook_form,omitempty"`
	FormWhy string          `json:"hook_form_reason,omitempty"`
	Timeout string          `json:"hook_timeout,omitempty"`
	Files   []agentPlanFile `json:"files"`
	Notes   []string        `json:"notes,omitempty"`
}

type agentPlanFile struct {
	Path   string `json:"path"`
	Action string `json:"action"`
	// Content is the file's new content, under --dry-run.
	Content *string `json:"content,omitempty"`
}

// agentScopes reads --user and --project for another agent: the scopes
// to act on, and whether one was named.
func agentScopes(e *env, a *agentinstall.Agent, verb string) ([]agentinstall.Scope, bool, int, bool) {
	user, project, local := e.flags.Bool("user"), e.flags.Bool("project"), e.flags.Bool("local")
	switch {
	case *local:
		return nil, false, fail(e.stderr, &usageError{Msg: a.Title + " has no local scope (--local is Claude Code's settings.local.json)",
			Hints: []string{fmt.Sprintf("airlock %s %s [--user|--project]", verb, a.Name)}}), false
	case *user && *project:
		return nil, false, fail(e.stderr, &usageError{Msg: "pick one of --user, --project"}), false
	case *user:
		return []agentinstall.Scope{agentinstall.User}, true, 0, true
	case *project:
		return []agentinstall.Scope{agentinstall.Project}, true, 0, true
	case verb == "install":
		return a.Scopes[:1], false, 0, true
	}
	return a.Scopes, false, 0, true
}

func agentEnv(e *env, scopes []agentinstall.Scope) (agentinstall.Env, error) {
	exe, err := e.executable()
	if err != nil {
		return agentinstall.Env{}, fmt.Errorf("finding the airlock binary: %w", err)
	}
	if abs, err := filepath.Abs(exe); err == nil {
		exe = abs
	}
	env := agentinstall.Env{Home: e.getenv("HOME"), Getenv: e.getenv, Exe: exe}
	for _, s := range scopes {
		if s == agentinstall.Project {
			if env.Project, err = projectRoot(e); err != nil {
				return env, err
			}
		}
	}
	return env, nil
}

// runAgentInstall installs (or, with uninstall, removes) airlock's hook
// for an agent other than Claude Code.
func runAgentInstall(e *env, a *agentinstall.Agent, verb string) int {
	if verb == "install" && *e.flags.Bool("gate") {
		return fail(e.stderr, &usageError{Msg: "--gate needs Claude Code's prompt and post-tool hooks, which " + a.Title + " does not get from airlock",
			Hints: []string{"airlock install " + a.Name + " (without --gate)"}})
	}
	scopes, chosen, st, ok := agentScopes(e, a, verb)
	if !ok {
		return st
	}
	dry, asJSON := *e.flags.Bool("dry-run"), *e.flags.Bool("json")
	env, err := agentEnv(e, scopes)
	if err != nil {
		return fail(e.stderr, err)
	}
	var form hookForm
	if verb == "install" {
		if err := checkExeName(env.Exe); err != nil {
			return fail(e.stderr, err)
		}
		form = chooseHookForm(env.Exe, *e.flags.Bool("no-hookd"))
		if form.Form == hookline.Service {
			env.Client = form.Bin
		}
	}
	var outs []agentPlanOutput
	for _, s := range scopes {
		var p *agentinstall.Plan
		if verb == "install" {
			p, err = a.Install(env, s)
		} else {
			p, err = a.Uninstall(env, s)
		}
		if errors.Is(err, agentinstall.ErrScope) && !chosen {
			continue
		}
		if err == nil {
			err = agentStatusLine(e, a, p, env, s, verb)
		}
		if err != nil {
			return fail(e.stderr, installError(a, verb, err))
		}
		if !dry {
			if err := p.Apply(); err != nil {
				return fail(e.stderr, err)
			}
		}
		out := agentPlanOutput{Agent: a.Name, Scope: string(s), DryRun: dry, Changed: p.Changed(), Files: []agentPlanFile{}, Notes: p.Notes}
		if verb == "install" {
			out.Binary, out.Timeout = form.Bin, a.Timeout.String()
			out.Form, out.FormWhy = string(form.Form), form.Why
		}
		for _, f := range p.Files {
			pf := agentPlanFile{Path: f.Path, Action: f.Action}
			if dry && f.New != nil {
				c := string(f.New)
				pf.Content = &c
			}
			out.Files = append(out.Files, pf)
		}
		outs = append(outs, out)
	}
	if asJSON {
		return writeJSON(e, outs)
	}
	for _, o := range outs {
		printAgentPlan(e, a, verb, o)
	}
	if verb == "install" && len(outs) > 0 {
		form.say(e.stdout)
	}
	return ExitOK
}

func printAgentPlan(e *env, a *agentinstall.Agent, verb string, o agentPlanOutput) {
	w := e.stdout
	done, would := "installed airlock's hook for", "would install airlock's hook for"
	if verb == "uninstall" {
		done, would = "removed airlock's hook for", "would remove airlock's hook for"
	}
	switch {
	case !o.Changed && verb == "install":
		fmt.Fprintf(w, "airlock's hook for %s is already installed (%s scope)\n", a.Title, o.Scope)
		return
	case !o.Changed:
		fmt.Fprintf(w, "no airlock hook for %s (%s scope)\n", a.Title, o.Scope)
		return
	case o.DryRun:
		fmt.Fprintf(w, "%s %s (%s scope):\n", would, a.Title, o.Scope)
	default:
		fmt.Fprintf(w, "%s %s (%s scope):\n", done, a.Title, o.Scope)
	}
	for _, f := range o.Files {
		fmt.Fprintf(w, "  %s %s\n", f.Action, f.Path)
		if f.Content != nil {
			fmt.Fprintf(w, "--- %s\n%s", f.Path, *f.Content)
			if !strings.HasSuffix(*f.Content, "\n") {
				fmt.Fprintln(w)
			}
			fmt.Fprintln(w, "---")
		}
	}
	if verb == "install" {
		fmt.Fprintf(w, "it runs %s, with a %s timeout\n", o.Binary, o.Timeout)
	}
	for _, n := range o.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	if verb == "install" && !o.DryRun {
		fmt.Fprintln(w, "check with: airlock doctor")
	}
}

// installError adds to an installer's error what to do about it.
func installError(a *agentinstall.Agent, verb string, err error) error {
	var (
		scope    *agentinstall.ScopeError
		file     *agentinstall.FileError
		conflict *agentinstall.CodexTrustConflictError
		notOurs  *agentinstall.NotOursError
		noAgent  *agentinstall.NoAgentFileError
	)
	switch {
	case errors.As(err, &scope):
		return &usageError{Msg: err.Error(), Hints: []string{fmt.Sprintf("airlock %s %s --%s", verb, a.Name, a.Scopes[0])}}
	case errors.As(err, &conflict):
		return &usageError{Msg: err.Error(), Hints: []string{"remove that entry from " + conflict.File + ", then run airlock install codex again"}}
	case errors.As(err, &file):
		return &usageError{Msg: err.Error(), Hints: []string{"fix the file by hand; airlock does not rewrite a file it cannot read"}}
	case errors.As(err, &notOurs):
		return &usageError{Msg: err.Error(), Hints: []string{"move " + notOurs.Path + " away (or merge it into airlock's by hand), then run airlock " + verb + " " + a.Name + " again"}}
	case errors.As(err, &noAgent):
		return &usageError{Msg: err.Error(), Hints: []string{"create a Kiro agent first (kiro-cli agent create NAME), then run airlock install kiro again"}}
	}
	return err
}

const agentInstallHelp = `

Other agents: airlock install AGENT merges the same guard into AGENT's own
configuration, keeping everything else in it; installing twice changes
nothing, and uninstall takes out exactly what install added.

  codex     ~/.codex/hooks.json ($CODEX_HOME), PreToolUse, and Codex's
            trust entry in config.toml, without which Codex skips the hook
  gemini    ~/.gemini/settings.json or .gemini/settings.json, BeforeTool
  copilot   ~/.copilot/hooks/airlock.json, preToolUse (user only: project
            hooks need folder trust Copilot keeps to itself)
  opencode  a plugin, ~/.config/opencode/plugins/airlock.js or
            .opencode/plugins/airlock.js, that fails closed
  factory   ~/.factory/hooks.json or .factory/hooks.json, PreToolUse
  qwen      ~/.qwen/settings.json or .qwen/settings.json, PreToolUse
  cursor    ~/.cursor/hooks.json or .cursor/hooks.json,
            beforeShellExecution and beforeMCPExecution with failClosed
  kiro      every agent file in ~/.kiro/agents or .kiro/agents, preToolUse
  goose     ~/.config/goose/hooks.json, PreToolUse
  cline     the PreToolUse script in ~/Documents/Cline/Hooks or
            .clinerules/hooks
  pi        an extension, ~/.pi/agent/extensions/airlock.ts
            ($PI_CODING_AGENT_DIR) or .pi/extensions/airlock.ts, that
            fails closed
  auggie    ~/.augment/settings.json or .augment/settings.json, PreToolUse
  antigravity  ~/.gemini/config/hooks.json, PreToolUse for run_command
            (user only)
  crush     ~/.config/crush/crush.json or crush.json, PreToolUse

Every hook gets a 30s timeout in the agent's own unit. docs/AGENTS.md says
what each agent does when the hook fails, and what airlock can and cannot
guarantee there. --json prints what was (or, with --dry-run, would be)
written.`
