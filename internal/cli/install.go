package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/airlock-dev/airlock/internal/agent/claudecode"
	"github.com/airlock-dev/airlock/internal/agentinstall"
	"github.com/airlock-dev/airlock/internal/policy"
)

const installHelp = `
Merge airlock's hooks into Claude Code's settings: PreToolUse on every tool
(with "onFailure": "block", so a crash or timeout blocks instead of letting
the call through), and PostToolUse, PostToolUseFailure, UserPromptSubmit,
SessionStart, Stop and SessionEnd to record the session. The hooks run this
binary by its absolute path. Every other setting and every other tool's
hooks are kept as they are. Installing twice changes nothing.

When airlock-hook sits beside this airlock (go install ./cmd/... puts it
there), the hooks run it: it hands each call to airlock's resident
decision service and costs a fraction of airlock's start-up
(docs/HOOKD.md). It is used only when it is a regular file owned by
airlock's owner or root and writable by nobody else; otherwise, or with
--no-hookd, the hooks run "airlock hook" in process, and install says
so. Installing again switches between the two forms in place.

Scopes: --user (~/.claude/settings.json, the default: every project),
--project (.claude/settings.json, shared with the repository), --local
(.claude/settings.local.json, this checkout only). The project is found
from CLAUDE_PROJECT_DIR, else the nearest directory with .git or .claude.

--gate also turns on the fact-forcing gate (docs/GATE.md): it writes
"gate: {enabled: true}" to the user's policy file (--user) or the project's
.airlock/policy.yaml (--project; a project file may always turn the gate
on, trusted or not). The hooks it needs (PreToolUse, PostToolUse,
UserPromptSubmit) are the ones installed anyway. Turn it off again by
editing the policy file.`

// scopeFlags parses the agent name and the scope flags of install and
// uninstall.
func scopeFlags(e *env, name string) (scope claudecode.Scope, chosen, dryRun bool, st int, ok bool) {
	fs := e.flags
	user := fs.Bool("user")
	project := fs.Bool("project")
	local := fs.Bool("local")
	dry := fs.Bool("dry-run")
	if fs.NArg() != 1 || fs.Arg(0) != claudecode.Name {
		return 0, false, false, fail(e.stderr, &usageError{Msg: "name the agent: " + agentNames(), Hints: []string{"airlock " + name + " claude-code [--user|--project|--local]", "airlock " + name + " codex [--user|--project]"}}), false
	}
	if *fs.Bool("json") {
		return 0, false, false, fail(e.stderr, &usageError{Msg: "--json is for the other agents' installers; Claude Code's prints the new settings with --dry-run",
			Hints: []string{"airlock " + name + " claude-code --dry-run"}}), false
	}
	n := 0
	for _, b := range []*bool{user, project, local} {
		if *b {
			n++
		}
	}
	switch {
	case n > 1:
		return 0, false, false, fail(e.stderr, &usageError{Msg: "pick one of --user, --project, --local"}), false
	case *project:
		scope = claudecode.Project
	case *local:
		scope = claudecode.Local
	}
	return scope, n == 1, *dry, 0, true
}

// projectRoot is the Claude Code project for the project and local
// scopes.
func projectRoot(e *env) (string, error) {
	if d := e.getenv("CLAUDE_PROJECT_DIR"); d != "" {
		return d, nil
	}
	cwd, err := e.getwd()
	if err != nil {
		return "", err
	}
	for dir := cwd; ; dir = filepath.Dir(dir) {
		for _, marker := range []string{".git", ".claude"} {
			if _, err := os.Stat(filepath.Join(dir, marker)); err == nil {
				return dir, nil
			}
		}
		if filepath.Dir(dir) == dir {
			return cwd, nil
		}
	}
}

func settingsFor(e *env, scope claudecode.Scope) (string, error) {
	root := ""
	if scope != claudecode.User {
		var err error
		if root, err = projectRoot(e); err != nil {
			return "", err
		}
	}
	return claudecode.SettingsFile(scope, e.getenv, root)
}

func runInstall(e *env) int {
	if a, ok := otherAgent(e); ok {
		if *e.flags.Bool("contain") {
			return fail(e.stderr, &usageError{Msg: "--contain is for claude-code, whose own sandbox airlock can point at its proxy",
				Hints: []string{"airlock run -- AGENT contains any agent (docs/CONTAIN.md)"}})
		}
		return runAgentInstall(e, a, "install")
	}
	gateOn := e.flags.Bool("gate")
	scope, _, dry, st, ok := scopeFlags(e, "install")
	if !ok {
		return st
	}
	if *gateOn {
		if st := installGate(e, scope, dry); st != ExitOK {
			return st
		}
	}
	file, err := settingsFor(e, scope)
	if err != nil {
		return fail(e.stderr, err)
	}
	exe, err := e.executable()
	if err != nil {
		return fail(e.stderr, fmt.Errorf("finding the airlock binary: %w", err))
	}
	old, err := claudecode.ReadSettings(file)
	if err != nil {
		return fail(e.stderr, err)
	}
	if err := checkExeName(exe); err != nil {
		return fail(e.stderr, err)
	}
	form := chooseHookForm(exe, *e.flags.Bool("no-hookd"))
	out, changed, err := claudecode.Install(old, form.Bin)
	if err != nil {
		return fail(e.stderr, &usageError{Msg: fmt.Sprintf("%s: %v", file, err), Hints: []string{"fix the settings file by hand; airlock does not rewrite a file it cannot read"}})
	}
	var backup *agentinstall.SandboxBackup
	if *e.flags.Bool("contain") {
		port := *e.flags.Int("proxy-port")
		if port <= 0 || port > 65535 {
			return fail(e.stderr, &usageError{Msg: fmt.Sprintf("--proxy-port %d is not a port", port), Hints: []string{"--proxy-port 7779"}})
		}
		project := ""
		if scope != claudecode.User {
			if project, err = projectRoot(e); err != nil {
				return fail(e.stderr, err)
			}
		}
		withSandbox, b, err := agentinstall.InstallClaudeSandbox(out, claudeSandboxSpec(e, exe, port, project))
		if err != nil {
			return fail(e.stderr, &usageError{Msg: fmt.Sprintf("%s: %v", file, err), Hints: []string{"fix the settings file by hand; airlock does not rewrite a file it cannot read"}})
		}
		changed = changed || !bytes.Equal(withSandbox, out)
		// b is the user's own sandbox value, as the file has it now; a
		// second install keeps the first backup (saveSandboxBackup).
		out, backup = withSandbox, &b
	}
	if *e.flags.Bool("statusline") {
		withLine, err := agentinstall.InstallStatusLine(out, agentinstall.ClaudeStatusLine, agentinstall.StatusLineCommand(exe))
		if err != nil {
			return fail(e.stderr, &usageError{Msg: fmt.Sprintf("%s: %v", file, err), Hints: []string{"airlock install claude-code (without --statusline) installs the hooks alone"}})
		}
		changed = changed || !bytes.Equal(withLine, out)
		out = withLine
	}
	if dry {
		// Standard output is the new settings; which form, on standard
		// error.
		form.say(e.stderr)
		_, err := e.stdout.Write(out)
		if err != nil {
			return fail(e.stderr, err)
		}
		return ExitOK
	}
	if !changed {
		fmt.Fprintf(e.stdout, "airlock's hooks are already installed in %s (%s scope)\n", file, scope)
		form.say(e.stdout)
		return ExitOK
	}
	if backup != nil {
		// Kept before the settings change, so that uninstall can always
		// put the user's own back.
		if err := saveSandboxBackup(e, file, *backup); err != nil {
			return fail(e.stderr, fmt.Errorf("keeping your sandbox settings: %w", err))
		}
	}
	if err := claudecode.WriteSettings(file, out); err != nil {
		return fail(e.stderr, err)
	}
	fmt.Fprintf(e.stdout, "installed airlock's hooks in %s (%s scope)\nthey run %s\n", file, scope, form.Bin)
	if *e.flags.Bool("statusline") {
		fmt.Fprintf(e.stdout, "airlock's status line segment runs %s (after your own status line, if you have one)\n", agentinstall.StatusLineCommand(exe))
	}
	if backup != nil {
		fmt.Fprintf(e.stdout, "turned on Claude Code's sandbox, its network through airlock's proxy on 127.0.0.1:%d (start it: airlock proxy --listen 127.0.0.1:%d)\n", *e.flags.Int("proxy-port"), *e.flags.Int("proxy-port"))
	}
	form.say(e.stdout)
	fmt.Fprintln(e.stdout, "check with: airlock doctor")
	if scope == claudecode.Project {
		fmt.Fprintln(e.stdout, "note: the hook command is this machine's absolute path; collaborators need airlock at the same path, or use --local")
	}
	return ExitOK
}

const uninstallHelp = `
Remove exactly what "airlock install" added, and nothing else: airlock's
hooks from Claude Code's settings, and the gate.enabled key that
"install --gate" wrote to a policy file (a gate turned on by hand is left
on, with a note).

Without a scope flag, every scope is looked at (user, project, local) and
airlock is removed wherever it is found, saying where. With --user,
--project or --local, only that scope. Running it twice changes nothing.`

func runUninstall(e *env) int {
	if a, ok := otherAgent(e); ok {
		return runAgentInstall(e, a, "uninstall")
	}
	scope, chosen, dry, st, ok := scopeFlags(e, "uninstall")
	if !ok {
		return st
	}
	scopes := claudecode.Scopes
	if chosen {
		scopes = []claudecode.Scope{scope}
	}
	var untouched []string
	for _, s := range scopes {
		file, err := settingsFor(e, s)
		if err != nil {
			return fail(e.stderr, err)
		}
		old, err := claudecode.ReadSettings(file)
		if err != nil {
			return fail(e.stderr, err)
		}
		out, changed, err := claudecode.Uninstall(old)
		if err != nil {
			return fail(e.stderr, fmt.Errorf("%s: %w", file, err))
		}
		// airlock's status line segment, if install --statusline put it
		// there: the user's own status line command is left as it was.
		if len(out) > 0 {
			withoutLine, err := agentinstall.UninstallStatusLine(out, agentinstall.ClaudeStatusLine)
			if err != nil {
				return fail(e.stderr, fmt.Errorf("%s: %w", file, err))
			}
			changed = changed || !bytes.Equal(withoutLine, out)
			out = withoutLine
		}
		b, hadBackup, err := loadSandboxBackup(e, file)
		if err != nil {
			return fail(e.stderr, fmt.Errorf("reading the saved sandbox settings for %s: %w", file, err))
		}
		if hadBackup {
			if out, err = agentinstall.RestoreClaudeSandbox(out, b); err != nil {
				return fail(e.stderr, fmt.Errorf("%s: %w", file, err))
			}
			changed = true
		}
		switch {
		case dry && chosen:
			if _, err := e.stdout.Write(out); err != nil {
				return fail(e.stderr, err)
			}
		case !changed:
			untouched = append(untouched, fmt.Sprintf("%s (%s scope)", file, s))
		case dry:
			fmt.Fprintf(e.stdout, "would remove airlock's hooks from %s (%s scope); the file would read:\n", file, s)
			if _, err := e.stdout.Write(out); err != nil {
				return fail(e.stderr, err)
			}
		default:
			if err := claudecode.WriteSettings(file, out); err != nil {
				return fail(e.stderr, err)
			}
			fmt.Fprintf(e.stdout, "removed airlock's hooks from %s (%s scope)\n", file, s)
			if hadBackup {
				os.Remove(sandboxBackupFile(e, file))
				fmt.Fprintf(e.stdout, "put your own sandbox settings back in %s\n", file)
			}
		}
		if st := uninstallGate(e, s, dry); st != ExitOK {
			return st
		}
	}
	if len(untouched) > 0 && !(dry && chosen) {
		fmt.Fprintf(e.stdout, "no airlock hooks in %s\n", strings.Join(untouched, ", "))
	}
	return ExitOK
}

// gatePolicyFile is the policy file "install --gate" writes for a scope,
// "" for --local, which has none.
func gatePolicyFile(e *env, scope claudecode.Scope) (string, error) {
	switch scope {
	case claudecode.Local:
		return "", nil
	case claudecode.Project:
		root, err := projectRoot(e)
		if err != nil {
			return "", err
		}
		return filepath.Join(root, policy.ProjectFile), nil
	}
	paths := policy.PathsFrom(e.getenv)
	if paths.Explicit != "" {
		return paths.Explicit, nil
	}
	if paths.UserFile == "" {
		return "", &usageError{Msg: "cannot find the user's policy file", Hints: []string{"set HOME or XDG_CONFIG_HOME"}}
	}
	return paths.UserFile, nil
}

// uninstallGate takes out of a scope's policy file the gate.enabled key
// that "install --gate" wrote, and says so; a gate a human turned on stays,
// with a note. Notes go to standard error under --dry-run, whose standard
// output is the new settings.
func uninstallGate(e *env, scope claudecode.Scope, dry bool) int {
	file, err := gatePolicyFile(e, scope)
	if err != nil {
		return fail(e.stderr, err)
	}
	if file == "" {
		return ExitOK
	}
	old, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return ExitOK
	}
	if err != nil {
		return fail(e.stderr, err)
	}
	out, changed, how, err := policy.DisableGate(file, old)
	if err != nil {
		return fail(e.stderr, &usageError{Msg: err.Error(), Hints: []string{"fix the policy file by hand (airlock policy check); airlock does not rewrite a file it cannot read"}})
	}
	note := e.stdout
	if dry {
		note = e.stderr
	}
	switch {
	case how == policy.GateByHand:
		fmt.Fprintf(note, "note: the fact-forcing gate stays on: %s turns it on, and airlock install did not write that; edit the file to turn it off\n", file)
	case changed && dry:
		fmt.Fprintf(note, "would turn off the fact-forcing gate that airlock install --gate turned on in %s\n", file)
	case changed:
		if err := claudecode.WriteSettings(file, out); err != nil {
			return fail(e.stderr, err)
		}
		fmt.Fprintf(note, "turned off the fact-forcing gate that airlock install --gate turned on in %s\n", file)
	}
	return ExitOK
}

// installGate turns the fact-forcing gate on in a policy file: the user's
// (or the one AIRLOCK_POLICY names) for --user, the project's for
// --project. The policy is the one place the gate is configured, so that
// "airlock policy" shows it and a project can turn it on for everyone;
// there is no per-checkout policy file, so --local is refused.
func installGate(e *env, scope claudecode.Scope, dry bool) int {
	if scope == claudecode.Local {
		return fail(e.stderr, &usageError{Msg: "--gate is set in a policy file, and there is none for --local",
			Hints: []string{"airlock install claude-code --local, then airlock install claude-code --user --gate (every project) or --project --gate (this project's .airlock/policy.yaml)"}})
	}
	file, err := gatePolicyFile(e, scope)
	if err != nil {
		return fail(e.stderr, err)
	}
	old, err := claudecode.ReadSettings(file)
	if err != nil {
		return fail(e.stderr, err)
	}
	out, changed, err := policy.EnableGate(file, old)
	if err != nil {
		return fail(e.stderr, &usageError{Msg: err.Error(), Hints: []string{"fix the policy file by hand (airlock policy check); airlock does not rewrite a file it cannot read"}})
	}
	// --dry-run prints the new settings on standard output, so the note
	// about the policy goes to standard error.
	switch {
	case !changed && dry:
		fmt.Fprintf(e.stderr, "airlock: the fact-forcing gate is already on in %s\n", file)
	case !changed:
		fmt.Fprintf(e.stdout, "the fact-forcing gate is already on in %s\n", file)
	case dry:
		fmt.Fprintf(e.stderr, "airlock: would turn on the fact-forcing gate in %s (gate.enabled: true)\n", file)
	default:
		if err := claudecode.WriteSettings(file, out); err != nil {
			return fail(e.stderr, err)
		}
		fmt.Fprintf(e.stdout, "turned on the fact-forcing gate in %s (gate.enabled: true); see docs/GATE.md\n", file)
	}
	return ExitOK
}
