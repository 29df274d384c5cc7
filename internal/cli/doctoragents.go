package cli

import (
	"context"
	"fmt"
	"github.com/airlock-dev/airlock/internal/render"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/airlock-dev/airlock/internal/agentinstall"
	"github.com/airlock-dev/airlock/internal/hookline"
)

// This file is the doctor's part for the agents other than Claude Code:
// for each agent and scope where airlock's hook is installed (or something
// about it is wrong), what was found, the problems with how to fix each,
// and a self-test that runs the installed hook command line the way the
// agent would.

// doctorAgent is one agent in one scope.
type doctorAgent struct {
	agentinstall.Status
	SelfTest []agentinstall.SelfTest `json:"self_test,omitempty"`
	// CodexSays is what the codex on PATH reports about the hook's trust,
	// when there is one: the second opinion on airlock's own hash.
	CodexSays string `json:"codex_says,omitempty"`
	// SelfTestSkipped says why an installed hook was not self-tested.
	SelfTestSkipped string `json:"self_test_skipped,omitempty"`
	// Form is the hook line's form: "service" (airlock-hook) or
	// "in-process" (airlock hook).
	Form string `json:"hook_form,omitempty"`
}

// agentSelfTestTimeout bounds one self-test call: past the agent's own
// hook timeout the agent would have stopped waiting anyway.
const agentSelfTestTimeout = 15 * time.Second

// doctorAgents inspects every agent and scope, and self-tests the hooks
// it finds.
func doctorAgents(e *env, cwd, exe string) []doctorAgent {
	env := agentinstall.Env{Home: e.getenv("HOME"), Getenv: e.getenv, Exe: exe}
	if f := chooseHookForm(exe, false); exe != "" && f.Form == hookline.Service {
		env.Client = f.Bin
	}
	if root, err := projectRoot(e); err == nil {
		env.Project = root
	}
	scratch, err := os.MkdirTemp("", "airlock-doctor-*")
	if err == nil {
		defer os.RemoveAll(scratch)
	}
	out := []doctorAgent{}
	for _, a := range agentinstall.Agents() {
		for _, s := range a.Scopes {
			if s == agentinstall.Project && env.Project == "" {
				continue
			}
			st := a.Inspect(env, s)
			if !st.Installed && len(st.Problems) == 0 {
				continue
			}
			d := doctorAgent{Status: st}
			if len(st.Commands) > 0 {
				d.Form = lineForm(st.Commands[0], a.Name)
			}
			if a.Name == "codex" && st.Installed {
				askCodex(&d, env, cwd)
			}
			// The self-test runs only the command line this airlock builds
			// itself, and only when the file holds exactly that line: a
			// configuration file (found where the caller's HOME, CODEX_HOME
			// or XDG_CONFIG_HOME says) is read, never executed.
			if st.Installed && len(st.Commands) > 0 && scratch != "" {
				if own, ok := a.SelfTestCommand(exe, st.Commands[0]); ok {
					d.SelfTest = agentinstall.RunSelfTest(a.Name, own, cwd, hookEnv(e, scratch), agentSelfTestTimeout)
				} else {
					d.SelfTestSkipped = "the hook command line is not the one this airlock writes, so the doctor does not run it"
				}
			}
			out = append(out, d)
		}
	}
	return out
}

// hookEnv is the environment a self-tested hook runs with: the user's,
// with airlock's state in a scratch directory, so that the test's push
// neither lands in the review queue nor in the journal. AIRLOCK_HOOKD=off
// keeps the client's line (airlock-hook) from starting a resident
// service for that throwaway directory: the line itself still runs as
// the agent runs it, and the client then runs airlock hook in process,
// which is what it does whenever it has no service.
func hookEnv(e *env, scratch string) []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "AIRLOCK_HOME=") && !strings.HasPrefix(kv, "AIRLOCK_HOOKD=") {
			out = append(out, kv)
		}
	}
	for _, k := range []string{"HOME", "XDG_CONFIG_HOME", "AIRLOCK_POLICY"} {
		if v := e.getenv(k); v != "" {
			out = append(out, k+"="+v)
		}
	}
	return append(out, "AIRLOCK_HOME="+scratch, "AIRLOCK_HOOKD=off")
}

// agentProblems lists the agents' problems and failed self-tests as the
// doctor's problem lines, each with its fix.
func agentProblems(agents []doctorAgent) []string {
	var out []string
	for _, d := range agents {
		where := fmt.Sprintf("%s (%s)", d.Agent, d.Scope)
		for _, p := range d.Problems {
			out = append(out, fmt.Sprintf("%s: %s (fix: %s)", where, p.Msg, p.Hint))
		}
		for _, t := range d.SelfTest {
			if !t.OK {
				msg := fmt.Sprintf("%s: self-test: %s: got %s, want %s", where, t.Name, t.Got, t.Want)
				if t.Detail != "" {
					msg += " (" + t.Detail + ")"
				}
				out = append(out, msg+fmt.Sprintf(" (fix: airlock install %s --%s with this airlock, then airlock doctor)", d.Agent, d.Scope))
			}
		}
	}
	return out
}

func printDoctorAgents(w io.Writer, agents []doctorAgent) {
	if len(agents) == 0 {
		fmt.Fprintln(w, "\nother agents: none installed (airlock install codex|gemini|copilot|opencode|factory|qwen|cursor|kiro|goose|cline|pi|auggie)")
		return
	}
	fmt.Fprintln(w, "\nother agents (self-test runs the installed hook with a scratch state directory; nothing recorded):")
	for _, d := range agents {
		state := "installed"
		if !d.Installed {
			state = "NOT installed"
		}
		if d.Form != "" {
			state += " (" + d.Form + ")"
		}
		if d.Trusted != "" {
			state += ", trusted: " + d.Trusted
		}
		if d.CodexSays != "" {
			state += " (codex says: " + d.CodexSays + ")"
		}
		// Paths, command lines, event names and answers come from files
		// a cloned repository or an agent may have written: rendered, so
		// no escape sequence reaches the terminal.
		fmt.Fprintf(w, "  %s (%s): %s\n", d.Agent, d.Scope, render.Line(state, 1000))
		for _, f := range d.Files {
			fmt.Fprintf(w, "    file: %s\n", render.Line(f, 1000))
		}
		for _, c := range d.Commands {
			fmt.Fprintf(w, "    runs: %s\n", render.Line(c, 1000))
		}
		for _, p := range d.Problems {
			fmt.Fprintf(w, "    problem: %s\n    fix: %s\n", render.Line(p.Msg, 2000), render.Line(p.Hint, 1000))
		}
		if d.SelfTestSkipped != "" {
			fmt.Fprintf(w, "    self-test skipped: %s\n", render.Line(d.SelfTestSkipped, 1000))
		}
		for _, t := range d.SelfTest {
			mark := "ok  "
			if !t.OK {
				mark = "FAIL"
			}
			fmt.Fprintf(w, "    %s %s: %s\n", mark, t.Name, render.Line(t.Got, 1000))
		}
	}
}

// askCodex asks the codex on PATH whether it trusts airlock's hooks: the
// hash airlock writes is its own reading of Codex's, and a Codex release
// that hashes differently would skip the hook silently.
func askCodex(d *doctorAgent, env agentinstall.Env, cwd string) {
	bin, err := exec.LookPath("codex")
	if err != nil {
		d.CodexSays = "no codex on PATH to ask"
		return
	}
	keys, err := agentinstall.CodexKeys(env)
	if err != nil || len(keys) == 0 {
		return
	}
	hooks, err := agentinstall.CodexHooks(context.Background(), bin, agentinstall.CodexHome(env), cwd, os.Environ(), 30*time.Second)
	if err != nil {
		d.CodexSays = "could not ask: " + err.Error()
		d.Problems = append(d.Problems, agentinstall.Problem{Msg: "could not ask " + bin + " whether it trusts the hook: " + err.Error(),
			Hint: "run codex, type /hooks, and check that airlock's PreToolUse hook is trusted"})
		return
	}
	states := map[string]agentinstall.CodexHookState{}
	for _, h := range hooks {
		states[h.Key] = h
	}
	d.CodexSays = "trusted"
	for key, hash := range keys {
		h, ok := states[key]
		switch {
		case !ok:
			d.CodexSays = "not listed"
			d.Problems = append(d.Problems, agentinstall.Problem{Msg: bin + " does not list the hook " + key + ": it will not run it",
				Hint: "check " + agentinstall.CodexHome(env) + "/hooks.json parses for this Codex (codex app-server hooks/list shows its warnings)"})
		case h.CurrentHash != hash:
			d.CodexSays = h.TrustStatus
			d.Problems = append(d.Problems, agentinstall.Problem{Msg: bin + " hashes the hook " + key + " as " + h.CurrentHash + ", not " + hash + " as airlock does: the trust airlock wrote does not apply to this Codex",
				Hint: "trust the hook in codex (/hooks), and report the Codex version: airlock's hash is out of date"})
		case h.TrustStatus != "trusted" || !h.Enabled:
			d.CodexSays = h.TrustStatus
			d.Problems = append(d.Problems, agentinstall.Problem{Msg: bin + " reports the hook " + key + " as " + h.TrustStatus + " (enabled: " + fmt.Sprint(h.Enabled) + "): it skips it",
				Hint: "airlock install codex"})
		}
	}
}
