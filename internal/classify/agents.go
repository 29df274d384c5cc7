package classify

import (
	"encoding/json"
	"github.com/airlock-dev/airlock/internal/firstuse"
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// This file knows AI agents' own command lines: which programs are agent
// CLIs, and which of their flags, settings and environment variables turn
// off the guard airlock is installed as (hooks) or the human's approval.
// Sources: each agent's hooks and CLI reference (see the project's notes
// on agent hooks).

// agentGuard describes how one agent CLI's guard is turned off.
type agentGuard struct {
	// off are flags that turn the guard off by themselves.
	off []string
	// offValues are flags whose listed values turn it off ("" = any value).
	offValues map[string][]string
	// offBool are switches with an optional true/false value (cline
	// --auto-approve [true|false]): off unless the value says false.
	offBool []string
	// env are variables that relocate or switch off the agent's
	// configuration (and so the hooks in it) when set for the run.
	env []string
}

// commonAgentEnv moves every agent's configuration, hooks included.
var commonAgentEnv = []string{"HOME", "XDG_CONFIG_HOME"}

var agentGuards = firstuse.Table[map[string]*agentGuard]{Build: func() map[string]*agentGuard {
	return map[string]*agentGuard{
		// Claude Code: hooks live in settings files; --settings adds a layer
		// that may set disableAllHooks; --setting-sources can leave the user's
		// file out; bypassPermissions skips every check; --bare skips hooks.
		"claude": {
			// --mcp-config and --plugin-dir load code from a file the
			// command names: an MCP server's command, a plugin's hooks,
			// which run as the agent starts, outside any PreToolUse hook
			// (FINDINGS-4 K2), so they count as the guard turned off.
			off: []string{"--dangerously-skip-permissions", "--allow-dangerously-skip-permissions", "--bare", "--mcp-config", "--plugin-dir"},
			offValues: map[string][]string{
				"--permission-mode": {"bypasspermissions"},
				"--setting-sources": {""},
			},
			env: []string{"CLAUDE_CONFIG_DIR"},
		},
		// Codex: yolo skips approvals and the sandbox; -c and --profile can
		// set [features] hooks = false or another hooks file; CODEX_HOME moves
		// the configuration with its hook trust.
		"codex": {
			off:       []string{"--dangerously-bypass-approvals-and-sandbox", "--yolo"},
			offValues: map[string][]string{"-c": {""}, "--config": {""}, "-p": {""}, "--profile": {""}, "--enable": {""}, "--disable": {""}},
			env:       []string{"CODEX_HOME"},
		},
		// Gemini CLI and its fork Qwen Code: yolo approves every tool call.
		"gemini": {
			off:       []string{"-y", "--yolo"},
			offValues: map[string][]string{"--approval-mode": {"yolo"}},
			env:       []string{"GEMINI_CLI_HOME", "GEMINI_CLI_SYSTEM_SETTINGS_PATH", "GEMINI_CLI_SYSTEM_DEFAULTS_PATH"},
		},
		// Qwen Code keeps Gemini CLI's layers under its own names: QWEN_HOME
		// moves ~/.qwen, the system settings (over user and project) and
		// system defaults files move by variable (FINDINGS-5 L14).
		"qwen": {
			off:       []string{"-y", "--yolo"},
			offValues: map[string][]string{"--approval-mode": {"yolo"}},
			env:       []string{"QWEN_HOME", "QWEN_CODE_SYSTEM_SETTINGS_PATH", "QWEN_CODE_SYSTEM_DEFAULTS_PATH"},
		},
		// Factory Droid and Amp: their "skip every permission" switches.
		"droid": {off: []string{"--skip-permissions-unsafe"}},
		"amp":   {off: []string{"--dangerously-allow-all"}},
		// Copilot CLI, Cursor, OpenCode, Kiro: their auto-approve switches
		// leave hooks running (Copilot's preToolUse hook still denies under
		// --allow-all-tools), so only moving their configuration counts.
		"copilot":      {env: []string{"COPILOT_HOME"}},
		"cursor-agent": {env: []string{"CURSOR_CONFIG_DIR"}},
		"opencode":     {env: []string{"OPENCODE_CONFIG", "OPENCODE_CONFIG_DIR", "OPENCODE_CONFIG_CONTENT"}},
		"kiro-cli":     {},
		// Goose: --no-hooks runs it without its hooks, airlock's among them.
		"goose": {off: []string{"--no-hooks"}, env: []string{"GOOSE_MODE"}},
		// Pi: airlock's guard is an extension, which --no-extensions (-ne)
		// leaves out; PI_CODING_AGENT_DIR moves the user's extensions.
		// -e/--extension loads an extension from a file the command names:
		// code that runs inside Pi, beside airlock's (FINDINGS-4 K2).
		"pi": {off: []string{"--no-extensions", "-ne", "-e", "--extension"}, env: []string{"PI_CODING_AGENT_DIR"}},
		// Auggie: --augment-cache-dir moves ~/.augment, with the settings
		// that hold its hooks.
		"auggie": {offValues: map[string][]string{"--augment-cache-dir": {""}}},
		// Crush runs its hooks before its permission prompt, --yolo
		// included; its variables move the configuration holding them.
		"crush": {env: []string{"CRUSH_GLOBAL_CONFIG", "CRUSH_GLOBAL_DATA"}},
		// Antigravity (agy): airlock answers "ask" for every call it lets
		// through and "deny" otherwise, and some agy versions turn a deny
		// into a permission prompt; --dangerously-skip-permissions
		// answers every prompt yes, so neither answer holds (FINDINGS-4
		// K4). agy has no --yolo, but Gemini CLI users type it: a later
		// agy that takes it gets the same reading.
		"agy": {off: []string{"--dangerously-skip-permissions", "--yolo"}},
		// Cline's CLI (3.0): -y/--yolo and --auto-approve skip its
		// approval and were not seen to keep hooks running; --hooks-dir
		// adds hooks (commands) from a directory the command names;
		// --config, --data-dir and its variables move the state its
		// hooks and settings live in.
		"cline": {
			off:       []string{"-y", "--yolo", "--hooks-dir"},
			offBool:   []string{"--auto-approve"},
			offValues: map[string][]string{"--config": {""}, "--data-dir": {""}},
			env:       []string{"CLINE_DATA_DIR", "CLINE_SANDBOX", "CLINE_SANDBOX_DATA_DIR"},
		},
	}
}}

// IsAgent reports whether a program is an AI agent's CLI.
func IsAgent(name string) bool { return agentGuards.Get()[name] != nil }

// AgentGuardOff reports whether a run of an agent CLI starts the agent
// with its guard off, and names what turns it off. A word known only at
// run time, a settings layer airlock cannot read (a file, unparsable
// JSON) or a relocated configuration count as off: what they do cannot
// be shown to keep the guard on.
func AgentGuardOff(inv *shell.Invocation) (what string, off bool) {
	if pkg := agentPackage(inv); pkg != nil {
		inv = pkg
	}
	g := agentGuards.Get()[inv.Name()]
	if g == nil {
		return "", false
	}
	for _, v := range append(append([]string(nil), commonAgentEnv...), g.env...) {
		if _, set := inv.Getenv(v); set {
			return v + " set for the run (it moves the agent's configuration and the hooks in it)", true
		}
	}
	if inv.Name() == "claude" {
		// claude config set disableAllHooks true turns the hooks off for
		// every later run (nestedagents.go).
		if what, off := claudeConfigOff(inv); off {
			return what, true
		}
	}
	for i := 1; i < len(inv.Args); i++ {
		a := inv.Args[i]
		if inv.IsDynamic(i) {
			return "a word known only when it runs (" + a + "), which could be a flag that turns its guard off", true
		}
		if a == "--" {
			break
		}
		name, value, hasValue := strings.Cut(a, "=")
		for _, f := range g.off {
			if name == f {
				return f, true
			}
			// Grouped short flags (-yp is -y -p), as the agents' option
			// parsers read them.
			if len(f) == 2 && f[0] == '-' && len(name) > 2 && name[0] == '-' && name[1] != '-' && strings.IndexByte(name[1:], f[1]) >= 0 {
				return f + " (in " + name + ")", true
			}
		}
		if hasAny([]string{name}, g.offBool...) {
			v := value
			if !hasValue && i+1 < len(inv.Args) && !inv.IsDynamic(i+1) {
				v = inv.Args[i+1]
			}
			switch strings.ToLower(v) {
			case "false", "0", "no", "off":
				if !hasValue {
					i++
				}
				continue
			}
			return name, true
		}
		if inv.Name() == "claude" && name == "--settings" {
			if !hasValue {
				if i+1 >= len(inv.Args) || inv.IsDynamic(i+1) {
					return "--settings with a value known only when it runs", true
				}
				value = inv.Args[i+1]
				i++
			}
			if why, bad := claudeSettingsOff(value); bad {
				return "--settings " + clip(value) + " (" + why + ")", true
			}
			continue
		}
		vals, ok := g.offValues[name]
		if !ok {
			continue
		}
		if !hasValue {
			if i+1 >= len(inv.Args) {
				continue
			}
			if inv.IsDynamic(i + 1) {
				return name + " with a value known only when it runs (" + inv.Args[i+1] + ")", true
			}
			value = inv.Args[i+1]
			i++
		}
		for _, v := range vals {
			if v == "" || strings.EqualFold(value, v) {
				return name + " " + value, true
			}
		}
	}
	return "", false
}

// claudeSettingsOff reads the value of claude --settings: inline JSON is
// checked for the keys that turn hooks or permission checks off; a file
// name cannot be read here and so counts as off.
func claudeSettingsOff(v string) (string, bool) {
	t := strings.TrimSpace(v)
	if !strings.HasPrefix(t, "{") {
		return "a settings file airlock cannot vouch for", true
	}
	var s map[string]any
	if err := json.Unmarshal([]byte(t), &s); err != nil {
		return "settings JSON airlock cannot read", true
	}
	if b, ok := s["disableAllHooks"]; ok && b != false {
		return "disableAllHooks", true
	}
	if p, ok := s["permissions"].(map[string]any); ok {
		if m, ok := p["defaultMode"].(string); ok && strings.EqualFold(m, "bypassPermissions") {
			return "permissions.defaultMode bypassPermissions", true
		}
	}
	if _, ok := s["permissions"]; ok {
		if _, isMap := s["permissions"].(map[string]any); !isMap {
			return "permissions airlock cannot read", true
		}
	}
	return claudeSettingsRun(s)
}

// claudeSettingsRuns are the settings keys with which Claude Code runs a
// program by itself, outside any hook (apiKeyHelper at start, the status
// line at every turn), or changes what its hooks are and the environment
// they run in (hooks, env with PATH, the sandbox, MCP servers and
// plugins that bring their own): given inline they are read as the
// settings file is, and a file cannot be vouched for (FINDINGS-10 A4).
var claudeSettingsRuns = []string{
	"apiKeyHelper", "awsAuthRefresh", "awsCredentialExport", "gcpAuthRefresh", "otelHeadersHelper",
	"statusLine", "subagentStatusLine", "fileSuggestion", "hooks", "env", "sandbox",
	"enableAllProjectMcpServers", "enabledMcpjsonServers", "mcpServers", "enabledPlugins",
	"extraKnownMarketplaces", "plugins",
}

// claudeSettingsRun names the first key of inline settings that runs a
// program or changes the hooks' world; an empty object or list is none
// ({"hooks":{}} adds nothing). Any value named "command" anywhere in the
// settings counts too: a key this list does not know yet.
func claudeSettingsRun(s map[string]any) (string, bool) {
	for _, k := range claudeSettingsRuns {
		v, ok := s[k]
		if !ok {
			continue
		}
		switch x := v.(type) {
		case map[string]any:
			if len(x) == 0 {
				continue
			}
		case []any:
			if len(x) == 0 {
				continue
			}
		case nil:
			continue
		}
		return k + " (Claude Code runs a program it names, or the hooks run with it changed)", true
	}
	if k, ok := settingsCommand(s, 0); ok {
		return k + " (a command Claude Code runs)", true
	}
	return "", false
}

// settingsCommand finds a key named command, or ending in Helper or
// Command, anywhere in the settings.
func settingsCommand(v any, depth int) (string, bool) {
	if depth > 16 {
		return "settings nested too deep", true
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			lk := strings.ToLower(k)
			if lk == "command" || strings.HasSuffix(lk, "helper") || strings.HasSuffix(lk, "command") {
				return k, true
			}
			if name, ok := settingsCommand(e, depth+1); ok {
				return name, true
			}
		}
	case []any:
		for _, e := range x {
			if name, ok := settingsCommand(e, depth+1); ok {
				return name, true
			}
		}
	}
	return "", false
}

// agentPackages maps the npm packages of agent CLIs to their program.
var agentPackages = firstuse.Table[map[string]string]{Build: func() map[string]string {
	return map[string]string{
		"@anthropic-ai/claude-code": "claude", "@openai/codex": "codex", "@google/gemini-cli": "gemini",
		"@qwen-code/qwen-code": "qwen", "@github/copilot": "copilot", "opencode-ai": "opencode",
		"@sourcegraph/amp": "amp", "@mariozechner/pi-coding-agent": "pi", "@augmentcode/auggie": "auggie",
		"cline": "cline", "@charmland/crush": "crush",
		// Python packages, run by uvx, pipx run or uv tool run.
		"aider-chat": "aider", "aider": "aider", "goose-ai": "goose", "open-interpreter": "interpreter",
	}
}}

// AgentRun returns the agent CLI a run starts through a package runner
// or by its script (npx @openai/codex, uvx aider-chat, node …/codex.js),
// as a run of that agent; nil when it starts none.
func AgentRun(inv *shell.Invocation) *shell.Invocation { return agentPackage(inv) }

// agentScript sees an agent CLI's own script run by node (node
// /usr/lib/node_modules/@anthropic-ai/claude-code/cli.js …) as a run of
// the agent, with node's words before the script dropped (FINDINGS-4 K3:
// the agent's guard-off flags were not read there).
func agentScript(inv *shell.Invocation) *shell.Invocation {
	for i := 1; i < len(inv.Args); i++ {
		a := inv.Args[i]
		if strings.HasPrefix(a, "-") {
			continue // node's own options come before the script
		}
		for pkg, prog := range agentPackages.Get() {
			if strings.Contains(a, "/"+pkg+"/") || strings.HasPrefix(a, pkg+"/") {
				out := *inv
				out.Args = append([]string{prog}, inv.Args[i+1:]...)
				if len(inv.Dynamic) > i+1 {
					out.Dynamic = append([]bool{false}, inv.Dynamic[i+1:]...)
				} else {
					out.Dynamic = nil
				}
				return &out
			}
		}
		return nil // the script is another program
	}
	return nil
}

// agentPackage sees an agent CLI run through a package runner (npx
// @anthropic-ai/claude-code …, bunx, pnpm dlx, yarn dlx) as a run of the
// agent itself, with the runner's words before the package dropped.
func agentPackage(inv *shell.Invocation) *shell.Invocation {
	from := 1
	switch inv.Name() {
	case "npx", "bunx", "pnpx", "pnpm", "yarn", "bun", "uvx":
	case "pipx":
		// pipx run PKG runs it; pipx install PKG only installs.
		if len(inv.Args) < 3 || inv.Args[1] != "run" {
			return nil
		}
		from = 2
	case "uv":
		if len(inv.Args) < 4 || inv.Args[1] != "tool" || inv.Args[2] != "run" {
			return nil
		}
		from = 3
	case "node", "nodejs":
		return agentScript(inv)
	default:
		return nil
	}
	for i := from; i < len(inv.Args); i++ {
		a := inv.Args[i]
		if at := strings.LastIndex(a, "@"); at > 0 {
			a = a[:at] // @anthropic-ai/claude-code@latest
		}
		prog, ok := agentPackages.Get()[a]
		if !ok {
			continue
		}
		out := *inv
		out.Args = append([]string{prog}, inv.Args[i+1:]...)
		if len(inv.Dynamic) > i+1 {
			out.Dynamic = append([]bool{false}, inv.Dynamic[i+1:]...)
		} else {
			out.Dynamic = nil
		}
		return &out
	}
	return nil
}
