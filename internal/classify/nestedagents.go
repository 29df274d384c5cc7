package classify

import (
	"github.com/airlock-dev/airlock/internal/firstuse"
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// This file rates nested agents (issue 24): an agent started from a
// command runs tools of its own, and only an agent with airlock's hook
// has them checked. Two layers own the class:
//
//   - classify (here) rates the run as opaque: an agent that has no hook
//     airlock can install (aider, Open Interpreter, gpt-engineer, …), and
//     an agent that has one but is started with it off (AgentGuardOff in
//     agents.go: claude --dangerously-skip-permissions, codex --yolo,
//     gemini --yolo, claude config set disableAllHooks true). Opaque is
//     asked about in interactive mode and held unattended.
//   - policy's self-protection (RuleAgentGuardOff) refuses the second
//     kind outright, from the same AgentGuardOff, because turning the
//     guard off is turning airlock off.
//
// Cursor's, Copilot's, OpenCode's, Kiro's and Crush's auto-approve
// switches (cursor-agent --force, copilot --allow-all-tools, crush
// --yolo) leave their hooks running, so they are not guard-off: their
// hook still asks airlock.

// hooklessAgent describes an agent CLI airlock has no hook for.
type hooklessAgent struct {
	// title names it for reasons.
	title string
	// only, when set, are the first words that start the agent (sgpt
	// --shell); other runs of the program only answer in text.
	only []string
	// yes are flags that approve every action without asking anyone.
	yes []string
}

var hooklessAgents = firstuse.Table[map[string]hooklessAgent]{Build: func() map[string]hooklessAgent {
	return map[string]hooklessAgent{
		"aider":            {title: "aider", yes: []string{"--yes-always", "--yes"}},
		"interpreter":      {title: "Open Interpreter", yes: []string{"-y", "--auto_run", "--auto-run"}},
		"open-interpreter": {title: "Open Interpreter", yes: []string{"-y", "--auto_run", "--auto-run"}},
		"gpte":             {title: "gpt-engineer"},
		"gpt-engineer":     {title: "gpt-engineer"},
		"plandex":          {title: "Plandex", yes: []string{"--auto-exec", "--full"}},
		"mentat":           {title: "Mentat"},
		"openhands":        {title: "OpenHands", yes: []string{"--no-confirm"}},
		"sweagent":         {title: "SWE-agent"},
		"sgpt":             {title: "shell-gpt", only: []string{"-s", "--shell"}},
	}
}}

// agentReadOnly are flags with which an agent CLI only prints.
var agentReadOnly = []string{"--help", "-h", "--version", "-V", "--list-models", "--models", "--show-repo-map"}

// nestedAgentSpec rates agents that have no airlock hook. Hooked agents
// started with their guard off are rated in agentRun, for every agent
// AgentGuardOff knows (and through npx); the examples cover both. No
// example is external or destructive, so the scanner does not take these
// names (interpreter, sgpt) for anchors in prose.
var nestedAgentSpec = &Spec{
	Programs: []string{"aider", "interpreter", "open-interpreter", "gpte", "gpt-engineer", "plandex", "mentat", "openhands", "sweagent", "sgpt"},
	Classify: classifyHooklessAgent,
	Examples: []Example{
		{"aider --yes-always", "local+opaque"},
		{"aider --message 'fix the tests' src/app.py", "local+opaque"},
		{"interpreter -y", "local+opaque"},
		{"interpreter --auto_run 'clean up my home directory'", "local+opaque"},
		{"gpte projects/app", "local+opaque"},
		{"CRUSH_GLOBAL_CONFIG=/tmp/c crush run 'fix it'", "local+opaque"},
		{"sgpt --shell 'delete old logs'", "local+opaque"},
		{"claude --dangerously-skip-permissions -p 'fix it'", "local+opaque"},
		{"claude --permission-mode bypassPermissions -p x", "local+opaque"},
		{"claude config set --global disableAllHooks true", "local+opaque"},
		{"claude config set -g hooks '{}'", "local+opaque"},
		{"codex --dangerously-bypass-approvals-and-sandbox exec 'x'", "local+opaque"},
		{"codex --yolo", "local+opaque"},
		{"gemini --yolo -p x", "local+opaque"},
		{"npx @anthropic-ai/claude-code --dangerously-skip-permissions", "local+opaque+netread"},
		// negative: read-only runs, chat answers, hooked agents with the guard on
		{"aider --version", "local"},
		{"aider --help", "local"},
		{"interpreter --version", "local"},
		{"sgpt 'what is a monad'", "local"},
		{"claude -p 'summarise README.md'", "local"},
		{"claude config set --global theme dark", "local"},
		{"claude config set -g disableAllHooks false", "local"},
		{"claude config get disableAllHooks", "local"},
		{"codex exec 'run the tests'", "local"},
		{"gemini -p 'explain main.go'", "local"},
		{"cursor-agent --force -p 'fix lint'", "local"},
		{"crush --yolo run 'fix the tests'", "local"},
		{"agy -p 'fix the tests'", "local"},
		{"agy --dangerously-skip-permissions -p 'fix it'", "local+opaque"},
		{"cline --yolo 'fix the tests'", "local+opaque"},
		{"cline --auto-approve false 'fix the tests'", "local"},
		{"echo aider --yes-always", "local"},
	},
}

func classifyHooklessAgent(c *Classifier, inv *shell.Invocation) Effect {
	a := hooklessAgents.Get()[inv.Name()]
	e := c.lookThrough(inv)
	if hasAny(inv.Args[1:], agentReadOnly...) {
		return e
	}
	if a.only != nil && !hasAny(inv.Args[1:], a.only...) {
		return e
	}
	msg := a.title + " is an agent airlock has no hook for: the commands it runs and the files it writes are not checked"
	for _, y := range a.yes {
		if hasAny(inv.Args[1:], y) {
			msg += ", and " + y + " approves every action without asking"
			break
		}
	}
	e.Add(opaque("agent.unhooked", msg+". Do the work directly, or ask the human to run it."))
	return e
}

// agentRun rates a run of an agent that has airlock's hook but is told
// to run without it (AgentGuardOff): opaque, whatever the program's own
// spec says.
func agentRun(inv *shell.Invocation) Effect {
	if what, ok := agentAddsCode(inv); ok {
		return opaque("agent.adds-code", what+": the agent starts it by itself at its next session, outside any check by airlock's hook. Ask the human to add it.")
	}
	what, off := AgentGuardOff(inv)
	if !off {
		return nothing
	}
	name := inv.Name()
	if p := agentPackage(inv); p != nil {
		name = p.Name()
	}
	if len(inv.Args) > 1 && inv.Args[1] == "config" {
		return opaque("agent.guard-off", what+" turns the agent's guard off for its later runs: their tool calls would not be checked by airlock")
	}
	return opaque("agent.guard-off", name+" is started with its guard off ("+what+"): the agent's own tool calls would not be checked by airlock")
}

// agentAddsCode reports an agent's (or an editor's) own command that adds
// a program the agent starts by itself: an MCP server (claude mcp add,
// add-json, add-from-claude-desktop; amp, gemini, codex, qwen mcp add;
// code --add-mcp), a plugin or an extension (claude plugin install,
// gemini extensions install), which may bring hooks of its own
// (FINDINGS-9 A2). Listing, removing and showing them add nothing.
func agentAddsCode(inv *shell.Invocation) (string, bool) {
	if pkg := agentPackage(inv); pkg != nil {
		inv = pkg
	}
	if app := appRun(inv); app != nil { // editorcode.go: flatpak run, snap run
		inv = app
	}
	name := inv.Name()
	switch {
	case vscodeEditors(name):
		if what, ok := editorLoadsCode(inv); ok { // editorcode.go
			return what, true
		}
		for _, a := range inv.Args[1:] {
			if a == "--add-mcp" || strings.HasPrefix(a, "--add-mcp=") {
				return name + " --add-mcp adds an MCP server to the editor's agent", true
			}
		}
		// An extension from a file (a .vsix the agent may have built) runs
		// in the human's editor, outside any hook or sandbox; one named by
		// its marketplace id is a published package, like npm install.
		for i := 1; i < len(inv.Args); i++ {
			a := inv.Args[i]
			v, ok := "", false
			if a == "--install-extension" && i+1 < len(inv.Args) {
				v, ok = inv.Args[i+1], true
				if inv.IsDynamic(i + 1) {
					return name + " --install-extension of a name known only at run time may install an extension from a file", true
				}
			} else if strings.HasPrefix(a, "--install-extension=") {
				v, ok = strings.TrimPrefix(a, "--install-extension="), true
			}
			if ok && (strings.HasSuffix(strings.ToLower(v), ".vsix") || strings.ContainsAny(v, "/\\")) {
				return name + " --install-extension " + clip(v) + " installs an extension from a file: its code runs in the human's editor", true
			}
		}
		return "", false
	}
	if !IsAgent(name) {
		return "", false
	}
	var words []string
	for i := 1; i < len(inv.Args) && len(words) < 3; i++ {
		if a := inv.Args[i]; !strings.HasPrefix(a, "-") || inv.IsDynamic(i) {
			words = append(words, a)
		}
	}
	if len(words) < 2 {
		return "", false
	}
	switch words[0] {
	case "mcp":
		switch words[1] {
		case "add", "add-json", "add-from-claude-desktop", "import", "install":
			return name + " mcp " + words[1] + " adds an MCP server", true
		}
	case "plugin", "plugins", "extension", "extensions":
		switch words[1] {
		case "install", "add", "enable", "link", "update", "marketplace":
			return name + " " + words[0] + " " + words[1] + " adds code (a plugin or extension may bring its own hooks and servers)", true
		}
	}
	return "", false
}

// claudeConfigOff reads claude config set KEY VALUE: turning every hook
// off or replacing the hooks turns airlock off.
func claudeConfigOff(inv *shell.Invocation) (string, bool) {
	args := inv.Args
	if len(args) < 3 || args[1] != "config" {
		return "", false
	}
	switch args[2] {
	case "set", "add":
	default:
		return "", false
	}
	var ops []string
	for i := 3; i < len(args); i++ {
		if inv.IsDynamic(i) {
			return "claude config " + args[2] + " with a word known only when it runs (" + args[i] + ")", true
		}
		if strings.HasPrefix(args[i], "-") {
			continue
		}
		ops = append(ops, args[i])
	}
	if len(ops) == 0 {
		return "", false
	}
	key := ops[0]
	val := ""
	if len(ops) > 1 {
		val = strings.ToLower(ops[1])
	}
	switch {
	case strings.EqualFold(key, "disableAllHooks") && val != "false" && val != "0":
		return "claude config " + args[2] + " " + key + " " + val, true
	case strings.EqualFold(key, "hooks") || strings.HasPrefix(strings.ToLower(key), "hooks."):
		return "claude config " + args[2] + " " + key + " (it replaces the hooks airlock is installed as)", true
	case strings.EqualFold(key, "defaultMode") || strings.EqualFold(key, "permissions.defaultMode"):
		if strings.EqualFold(val, "bypassPermissions") {
			return "claude config " + args[2] + " " + key + " bypassPermissions", true
		}
	}
	return "", false
}
