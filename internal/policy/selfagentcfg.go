package policy

import (
	"github.com/airlock-dev/airlock/internal/firstuse"
	"path/filepath"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
)

// This file is the table of agent configuration that runs commands
// (issue 24): MCP server definitions, extensions and plugins, which an
// agent starts as programs of their own, outside every hook. A user MCP
// server in ~/.claude.json runs "airlock queue approve" the next time
// Claude Code starts. The hook settings themselves (.claude/settings.json
// with its hooks, mcpServers, apiKeyHelper and statusLine; Codex's
// config.toml with its mcp_servers; Gemini's settings.json with its
// mcpServers and its extensions directory; OpenCode's opencode.json and
// plugins; Qwen's, Factory's, Goose's, Kiro's agents; Pi's extensions
// and settings; Auggie's settings) are in
// selfpaths.go already and are refused at both scopes; this table adds
// what airlock knows of beyond them.
//
// At user scope a change is refused, like the hook settings. At project
// scope it is asked about (interactive) or held (unattended), never
// silently allowed: a team commits its .mcp.json, and a human can say
// yes.

// agentConfig is one configuration file or directory that can make an
// agent run a command.
type agentConfig struct {
	agent string
	// rel is relative to the home directory (user scope) or to any
	// directory (project scope: wherever the agent is started).
	rel   string
	dir   bool
	scope string // "user" or "project"
	why   string
	// miss is a path beside it (relative like rel) that a write to must
	// not be refused for its sake: the table's negative example.
	miss string
}

const (
	scopeUser    = "user"
	scopeProject = "project"
)

// agentConfigs is the table. Each entry's positive (a write to rel, or
// inside it) and negative (a write to miss) examples are run by
// TestAgentConfigTable.
var agentConfigs = []agentConfig{
	{"claude-code", ".claude.json", false, scopeUser, "its mcpServers (user and per-project) are programs Claude Code starts", ".claude.json.backup"},
	{"claude-code", ".claude/plugins", true, scopeUser, "plugins bring hooks and MCP servers that Claude Code runs", ".claude/todos/x.json"},
	{"claude-code", ".claude/hooks", true, scopeUser, "the scripts its hook settings run live here by convention", ".claude/todos/y.json"},
	{"claude-code", ".claude/commands", true, scopeUser, "slash commands run shell lines (!`…`) when invoked", ".claude/projects/x.jsonl"},
	{"claude-code", ".claude/agents", true, scopeUser, "subagent definitions choose the tools and instructions a subagent runs with", ".claude/statsig/x"},
	{"claude-code", ".claude/skills", true, scopeUser, "skills bring scripts Claude Code runs", ".claude/todos/z.json"},
	{"claude-desktop", ".config/Claude/claude_desktop_config.json", false, scopeUser, "its mcpServers are programs Claude Desktop starts", ".config/Claude/logs/x.log"},
	{"claude-desktop", "Library/Application Support/Claude/claude_desktop_config.json", false, scopeUser, "its mcpServers are programs Claude Desktop starts", "Library/Application Support/Claude/x.log"},
	{"copilot", ".copilot/mcp-config.json", false, scopeUser, "its mcpServers are programs Copilot CLI starts", ".copilot/history.txt"},
	{"cursor", ".cursor/mcp.json", false, scopeUser, "its mcpServers are programs Cursor starts", ".cursor/argv.json"},
	{"vscode", ".config/Code/User/mcp.json", false, scopeUser, "its servers are programs VS Code's agents start", ".config/Code/User/keybindings.json"},
	{"vscode", "Library/Application Support/Code/User/mcp.json", false, scopeUser, "its servers are programs VS Code's agents start", "Library/Application Support/Code/User/keybindings.json"},
	{"cline", ".config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json", false, scopeUser, "its mcpServers are programs Cline starts", ".config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/x.json"},
	{"kiro", ".kiro/settings/mcp.json", false, scopeUser, "its mcpServers are programs Kiro starts", ".kiro/steering/x.md"},
	{"windsurf", ".codeium/windsurf/mcp_config.json", false, scopeUser, "its mcpServers are programs Windsurf starts", ".codeium/windsurf/memories/x.md"},
	{"amazon-q", ".aws/amazonq/mcp.json", false, scopeUser, "its mcpServers are programs Amazon Q starts", ".aws/amazonq/history/x.json"},
	{"pi", ".pi/agent/models.json", false, scopeUser, "an apiKey or header written !command runs that command when Pi calls the model", ".pi/agent/sessions/x.jsonl"},
	{"pi", ".pi/agent/auth.json", false, scopeUser, "a key written !command runs that command when Pi logs in to the model", ".pi/agent/prompts/x.md"},
	{"pi", ".pi/agent/git", true, scopeUser, "Pi loads the extensions of the packages cloned here", ".pi/agent/themes/x.json"},
	// Antigravity's CLI (agy) reads named hooks (airlock's among them)
	// from ~/.gemini/config; its settings turn command hooks on in some
	// versions, and hold its own allow rules; older versions read hooks
	// beside them.
	{"antigravity", ".gemini/config", true, scopeUser, "agy's hooks.json (airlock's hook among them) and its other configuration live here", ".gemini/tmp/x.json"},
	{"antigravity", ".gemini/antigravity-cli/settings.json", false, scopeUser, "its enable_json_hooks and enable_prehook turn agy's command hooks on, and its permissions allow tools", ".gemini/antigravity-cli/log/cli-1.log"},
	{"antigravity", ".gemini/antigravity-cli/hooks.json", false, scopeUser, "older agy versions read hooks from it", ".gemini/antigravity-cli/brain/x.md"},
	// Crush merges its user configuration (hooks, MCP servers, the
	// crushrc shell configuration) with the data directory's crush.json.
	{"crush", ".config/crush", true, scopeUser, "crush.json and crushrc hold Crush's hooks (airlock's among them) and MCP servers", ".config/crushed.txt"},
	{"crush", ".local/share/crush/crush.json", false, scopeUser, "Crush merges it into its configuration: hooks and MCP servers", ".local/share/crush/crush.db"},
	// Agents and editor agents airlock installs no hook for, whose user
	// configuration starts programs (FINDINGS-10 F2).
	{"continue", ".continue", true, scopeUser, "config.yaml and mcpServers/ name MCP servers and commands Continue runs", ".continue-notes/x.md"},
	{"aider", ".aider.conf.yml", false, scopeUser, "its test-cmd and lint-cmd run after aider's edits, in every project", ".aider.tags.cache.v4/x"},
	{"amp", ".config/amp/settings.json", false, scopeUser, "its amp.mcpServers are programs Amp starts", ".config/amp/threads/x.json"},
	{"vscode", ".vscode-server/data/User/mcp.json", false, scopeUser, "its servers are programs VS Code's agents start on the remote host", ".vscode-server/data/User/keybindings.json"},
	{"vscode", ".config/Code - Insiders/User/mcp.json", false, scopeUser, "its servers are programs VS Code's agents start", ".config/Code - Insiders/User/snippets/y.json"},
	{"cursor", ".cursor-server/data/User/mcp.json", false, scopeUser, "its servers are programs Cursor starts on the remote host", ".cursor-server/data/User/keybindings.json"},
	{"roo", ".config/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json", false, scopeUser, "its mcpServers are programs Roo Code starts", ".config/Code/User/globalStorage/rooveterinaryinc.roo-cline/tasks/x.json"},
	{"kilo-code", ".config/Code/User/globalStorage/kilocode.kilo-code/settings/mcp_settings.json", false, scopeUser, "its mcpServers are programs Kilo Code starts", ".config/Code/User/globalStorage/kilocode.kilo-code/tasks/x.json"},
	{"junie", ".junie/mcp", true, scopeUser, "its mcp.json names programs Junie starts", ".junie/guidelines.md"},

	{"claude-code", ".mcp.json", false, scopeProject, "its mcpServers are programs Claude Code starts in this project", "mcp.json.example"},
	{"claude-code", ".claude/commands", true, scopeProject, "slash commands run shell lines (!`…`) when invoked in this project", ".claude-notes/x.md"},
	{"claude-code", ".claude/agents", true, scopeProject, "subagent definitions choose the tools and instructions a subagent runs with", "agents/x.md"},
	{"claude-code", ".claude/skills", true, scopeProject, "skills bring scripts Claude Code runs in this project", "skills/x.md"},
	{"vscode", ".vscode/tasks.json", false, scopeProject, "a task with runOn folderOpen runs when the folder is opened", ".vscode/extensions.json"},
	{"cursor", ".cursor/mcp.json", false, scopeProject, "its mcpServers are programs Cursor starts in this project", ".cursor/rules/x.mdc"},
	{"vscode", ".vscode/mcp.json", false, scopeProject, "its servers are programs VS Code's agents (Copilot, Cline) start in this project", ".vscode/settings.json"},
	{"kiro", ".kiro/settings/mcp.json", false, scopeProject, "its mcpServers are programs Kiro starts in this project", ".kiro/steering/x.md"},
	{"factory", ".factory/mcp.json", false, scopeProject, "its mcpServers are programs Droid starts in this project", ".factory/droids.md"},
	{"roo", ".roo/mcp.json", false, scopeProject, "its mcpServers are programs Roo Code starts in this project", ".roo/rules/x.md"},
	{"amazon-q", ".amazonq/mcp.json", false, scopeProject, "its mcpServers are programs Amazon Q starts in this project", ".amazonq/rules/x.md"},
	{"pi", ".pi/git", true, scopeProject, "Pi loads the extensions of the packages cloned here for this project", ".pi/prompts/x.md"},
	{"antigravity", ".agents/hooks.json", false, scopeProject, "agy (1.1.7 on) runs this workspace's hooks", ".agents/rules/x.md"},
	// FINDINGS-10 F2: agents airlock installs no hook for, each
	// starting a program when it opens the project.
	{"kilo-code", ".kilocode/mcp.json", false, scopeProject, "its mcpServers are programs Kilo Code starts in this project", ".kilocode/rules/x.md"},
	{"continue", ".continue/mcpServers", true, scopeProject, "its files name MCP servers, programs Continue starts in this project", ".continue/rules/x.md"},
	{"continue", ".continue/config.yaml", false, scopeProject, "its mcpServers are programs Continue starts in this project", ".continue/prompts/x.md"},
	{"continue", ".continue/config.json", false, scopeProject, "its mcpServers are programs Continue starts in this project", ".continue/rules/y.md"},
	{"continue", ".continue/agents", true, scopeProject, "an agent file's mcpServers are programs Continue starts in this project", ".continue/prompts/y.md"},
	{"continue", ".continue/assistants", true, scopeProject, "an assistant file's mcpServers are programs Continue starts in this project", ".continue/docs/x.md"},
	{"junie", ".junie/mcp", true, scopeProject, "its mcp.json names programs Junie starts in this project", ".junie/guidelines.md"},
	{"firebase-studio", ".idx/mcp.json", false, scopeProject, "its mcpServers are programs Firebase Studio starts in this project", ".idx/airules.md"},
	{"aider", ".aider.conf.yml", false, scopeProject, "its test-cmd and lint-cmd run after aider's edits in this project", ".aider.chat.history.md"},
	{"trae", ".trae/mcp.json", false, scopeProject, "its mcpServers are programs Trae starts in this project", ".trae/rules/x.md"},
	{"kiro", ".kiro/hooks", true, scopeProject, "Kiro's agent hooks run shell commands on file events in this project", ".kiro/specs/x.md"},
	{"gemini", ".gemini/commands", true, scopeProject, "custom commands run !{…} shell lines when invoked in this project", ".gemini/styleguide.md"},
	{"qwen", ".qwen/commands", true, scopeProject, "custom commands run !{…} shell lines when invoked in this project", ".qwen/QWEN.md.bak"},
}

// userAgentConfigs gives each of the table's user-scope entries, to be
// protected relative to the home directory like the hook settings.
func userAgentConfigs(add func(rel string, dir bool)) {
	for _, c := range agentConfigs {
		if c.scope == scopeUser {
			add(c.rel, c.dir)
		}
	}
}

// projectAgentTails are the table's project-scope entries, split once.
var projectAgentTails = firstuse.Table[[]tail]{Build: func() []tail {
	var out []tail
	for _, c := range agentConfigs {
		if c.scope == scopeProject {
			// Folded: tailHit compares with a folded path (.continue/mcpServers).
			out = append(out, tail{strings.Split(fold(c.rel), "/"), c.dir, kindAgentConfig})
		}
	}
	return out
}}

// projectAgentWords are the spellings whose presence in a tool call makes
// the project-scope check worth running: the first component of each
// entry (".mcp.json", ".vscode", ".cursor", …).
var projectAgentWords = firstuse.Table[[]string]{Build: func() []string {
	var out []string
	for _, t := range projectAgentTails.Get() {
		out = append(out, fold(t.parts[0]))
	}
	return out
}}

// RuleAgentConfig fires on a change to an agent's project configuration
// that runs commands: asked about, or held when nobody watches.
const RuleAgentConfig = "self.agent-config"

// askGuard is self-protection over the project-scope table only: what it
// finds is asked about, not refused.
func (g *guard) askGuard() *guard {
	return &guard{home: g.home, vars: g.vars, tails: projectAgentTails.Get(), project: g.project, exeName: g.exeName, fs: g.fs}
}

// mayTouchAgentConfig reports whether a tool call names anything of the
// project-scope table (or runs in such a directory), so that most calls
// skip the second pass.
func mayTouchAgentConfig(a *Action, r *classify.Result) bool {
	if namesAgentConfig(a.Command) || namesAgentConfig(a.Cwd) {
		return true
	}
	for _, p := range a.Paths {
		if namesAgentConfig(p) {
			return true
		}
	}
	if r != nil {
		for i := range r.Followed {
			if namesAgentConfig(r.Followed[i].Source) {
				return true
			}
		}
		// A redirection through a link made earlier (vs -> .vscode,
		// FINDINGS-10 G2) names the file under another name.
		linked := func(name string) bool {
			if filepath.IsAbs(name) || a.Cwd == "" || name == "" || !classify.LinkOnTheWay(a.Cwd, name) {
				return false
			}
			abs := filepath.Join(a.Cwd, name)
			real := classify.RealPath(abs)
			return real != abs && namesAgentConfig(real)
		}
		for i := range r.Invocations {
			inv := &r.Invocations[i]
			for _, rd := range inv.Redirects {
				if rd.Writes() && !rd.Dynamic && linked(rd.Target) {
					return true
				}
			}
			for _, o := range inv.Operands {
				if (o.Role == classify.RoleWrite || o.Role == classify.RoleCreate || o.Role == classify.RoleMoveTo) && !o.Dynamic && linked(o.Word) {
					return true
				}
			}
		}
	}
	return false
}

// namesAgentConfig reports whether a text holds one of
// projectAgentWords, in any case, without allocating.
func namesAgentConfig(t string) bool {
	for i := 0; i < len(t); i++ {
		if t[i] != '.' {
			continue // every word starts with "."
		}
		for _, w := range projectAgentWords.Get() {
			if len(t)-i >= len(w) && strings.EqualFold(t[i:i+len(w)], w) {
				return true
			}
		}
	}
	return false
}

// agentConfigAsk checks a tool call against the project-scope table; the
// message it returns is for an ask, not a refusal.
func (g *guard) agentConfigAsk(a *Action, r *classify.Result) (string, bool) {
	if a.Kind != Write && a.Kind != Shell || !mayTouchAgentConfig(a, r) {
		return "", false
	}
	ag := g.askGuard()
	c := ag.newCall(a.Cwd)
	var ref *refusal
	switch a.Kind {
	case Write:
		ref = c.writeAction(a)
	case Shell:
		ref = c.shell(r)
	}
	if ref == nil {
		return "", false
	}
	return askMessage(ref.msg), true
}

// askMessage turns a refusal's words into an ask's.
func askMessage(msg string) string {
	msg = strings.Replace(msg, "; it belongs to airlock, as ", "; it is ", 1)
	msg = strings.Replace(msg, " The agent may not change it."+instead, askInstead, 1)
	msg = strings.Replace(msg, instead, askInstead, 1)
	return msg
}

// askInstead is what an ask about agent configuration tells both readers.
const askInstead = " A human must confirm it: the agent would start those commands outside every hook. If it is not needed, go on without it."
