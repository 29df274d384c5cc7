package cli

import (
	"github.com/airlock-dev/airlock/internal/agentinstall"
	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/loop"
	"github.com/airlock-dev/airlock/internal/scan"
)

// command is one node of the command table: a command that runs, a group
// of subcommands, or both (demo runs, and has a hidden "agent").
type command struct {
	name    string
	summary string
	// usage lines, each complete ("airlock check [--json] [--] TEXT").
	usage []string
	// help is the long description printed by --help; summary when empty.
	help  string
	flags []flagSpec
	subs  []*command
	// operands names what the command takes after its flags ("TEXT",
	// "ID", "[FILE...]"); "" for none. Completion offers file names when
	// it mentions FILE or DIR.
	operands string
	run      func(e *env) int
	// passthrough commands get their arguments unparsed: "mcp run" and
	// "mcp serve" hand them to airlock-mcp, which owns those flags.
	passthrough bool
	// hidden commands are left out of help and completion: they are run
	// by airlock itself, not typed by people.
	hidden bool
	// path is the command's full name ("airlock queue approve"), set when
	// the table is walked.
	path string
}

// Shared flag declarations, so one flag reads the same in every command.
func modeFlag(def, usage string) flagSpec {
	return stringFlag("mode", "MODE", def, usage, "interactive", "supervised", "unattended")
}

func cwdFlag() flagSpec {
	return stringFlag("cwd", "DIR", "", "find the project policy from this directory instead of the current one")
}

// commandTable is every command airlock has, in the order help lists
// them. It is built when airlock starts rather than registered by init
// functions: one list to read, and no start-up work for the hook beyond
// building it.
func commandTable() *command {
	policyFlags := []flagSpec{jsonFlag(), cwdFlag()}
	return &command{
		name:    "airlock",
		summary: "an output firewall for AI agents",
		usage:   []string{"airlock COMMAND [flags]"},
		help: `
airlock: an output firewall for AI agents.

Local work flows; anything that reaches the outside world is held for a human.`,
		flags: []flagSpec{boolFlag("version", "print airlock's version")},
		run:   runRoot,
		subs: []*command{
			{name: "check", summary: "classify a shell command and show the decision",
				usage: []string{
					"airlock check [--mode interactive|supervised|unattended] [--json] [--cwd DIR] [--] TEXT",
					"airlock check --jsonl [--mode MODE] < lines.jsonl",
				},
				help: checkHelp, operands: "TEXT", run: runCheck,
				flags: []flagSpec{
					modeFlag("", "autonomy mode: interactive, supervised or unattended (default: the policy's mode)"),
					jsonFlag(),
					boolFlag("jsonl", `read JSON lines {"command","cwd"} on stdin, write one JSON result per line`),
					stringFlag("cwd", "DIR", "", "working directory the command would run in (recorded in the result)"),
				}},
			{name: "install", summary: "install airlock's hooks into an agent's settings",
				usage: []string{"airlock install claude-code [--user|--project|--local] [--gate] [--contain [--proxy-port PORT]] [--statusline] [--no-hookd] [--dry-run]",
					"airlock install codex|gemini|copilot|opencode|factory|qwen|cursor|kiro|goose|cline|pi|auggie|antigravity|crush [--user|--project] [--statusline] [--no-hookd] [--dry-run] [--json]"},
				help: installHelp + installContainHelp + agentInstallHelp, operands: "AGENT", run: runInstall,
				flags: append(scopeFlagSpecs(),
					boolFlag("gate", "also turn on the fact-forcing gate in the user's (or, with --project, the project's) policy file"),
					boolFlag("no-hookd", "run airlock in process from the hook line, even when airlock-hook sits beside it (docs/HOOKD.md)"),
					boolFlag("contain", "claude-code: also turn on Claude Code's sandbox, its network through airlock's proxy (docs/CONTAIN.md)"),
					intFlag("proxy-port", "PORT", agentinstall.DefaultProxyPort, "with --contain: the port of airlock's proxy on 127.0.0.1"),
					boolFlag("statusline", "claude-code, qwen: also show airlock's segment in the agent's status line, after your own (airlock statusline)"),
					jsonFlag()),
			},
			{name: "uninstall", summary: "remove airlock's hooks from an agent's settings",
				usage: []string{"airlock uninstall claude-code [--user|--project|--local] [--dry-run]",
					"airlock uninstall codex|gemini|copilot|opencode|factory|qwen|cursor|kiro|goose|cline|pi|auggie|antigravity|crush [--user|--project] [--dry-run] [--json]"},
				help:  uninstallHelp,
				flags: append(scopeFlagSpecs(), jsonFlag()), operands: "AGENT", run: runUninstall},
			{name: "doctor", summary: "show where hooks are installed and self-test them",
				usage: []string{"airlock doctor [--json]"},
				help:  doctorHelp, flags: []flagSpec{jsonFlag()}, run: runDoctor},
			{name: "queue", summary: "review held actions: list, show, approve, reject, run, ack, dismiss",
				usage: []string{"airlock queue list|show|approve|reject|run|ack|dismiss [flags] [ID]"},
				help:  queueHelp,
				subs: []*command{
					{name: "list", summary: "items awaiting review (--all: every item, settled too)",
						usage: []string{"airlock queue list [--all] [--json]"},
						flags: []flagSpec{boolFlag("all", "list settled items too"), jsonFlag()},
						run:   func(e *env) int { return runQueue(e, "list") }},
					{name: "show", summary: "one item in full: command, directory, effect, reasons",
						usage: []string{"airlock queue show [--json] ID"}, operands: "ID",
						flags: []flagSpec{jsonFlag()},
						run:   func(e *env) int { return runQueue(e, "show") }},
					{name: "approve", summary: "let the agent's verbatim retry run once",
						usage: []string{"airlock queue approve [--for DURATION] [--note TEXT] [--json] [--always [--yes]] ID"}, operands: "ID",
						help: `
Let the agent's verbatim retry (same command, same directory) run once,
until --for has passed. The id prefix must have at least 4 characters.`,
						flags: []flagSpec{
							durationFlag("for", "DURATION", journal.DefaultApprovalExpiry, "how long the approval lets the agent's retry through (more than 0, at most 168h)"),
							stringFlag("note", "TEXT", "", "a note kept with your decision"),
							jsonFlag(),
							boolFlag("always", "also make it a rule of your policy file: shows the rule and what else it allows, and approves only once you confirm"),
							boolFlag("yes", "with --always: write the rule without asking"),
						},
						run: func(e *env) int { return runQueue(e, "approve") }},
					{name: "reject", summary: "settle an item as refused; a retry stays held",
						usage: []string{"airlock queue reject [--note TEXT] [--json] ID"}, operands: "ID",
						help: `
Settle the item as refused; the agent's retry stays held. The id prefix
must have at least 4 characters.`,
						flags: []flagSpec{stringFlag("note", "TEXT", "", "a note kept with your decision"), jsonFlag()},
						run:   func(e *env) int { return runQueue(e, "reject") }},
					{name: "run", summary: "run exactly the held command yourself, after confirming",
						usage: []string{"airlock queue run [--json] ID"}, operands: "ID",
						help: `
Run exactly the held command in its recorded directory, after showing it
with its effect and reasons; you confirm by typing the item's id. Only
from a terminal, never from a pipe, a file or an agent. The id prefix must
have at least 4 characters.`,
						flags: []flagSpec{jsonFlag()},
						run:   func(e *env) int { return runQueue(e, "run") }},
					{name: "ack", summary: "settle an item found after the fact: it happened and you know",
						usage: []string{"airlock queue ack [--note TEXT] [--json] ID"}, operands: "ID",
						help: `
Settle an item the scanner found after the fact: it happened, and you
know. There is no retry to approve. The id prefix must have at least 4
characters.`,
						flags: []flagSpec{stringFlag("note", "TEXT", "", "a note kept with your decision"), jsonFlag()},
						run:   func(e *env) int { return runQueue(e, "ack") }},
					{name: "dismiss", summary: "settle an item found after the fact as not an action",
						usage: []string{"airlock queue dismiss [--note TEXT] [--json] ID"}, operands: "ID",
						help: `
Settle an item the scanner found after the fact as not an outward action
(a mention, a false positive). The id prefix must have at least 4
characters.`,
						flags: []flagSpec{stringFlag("note", "TEXT", "", "a note kept with your decision"), jsonFlag()},
						run:   func(e *env) int { return runQueue(e, "dismiss") }},
				}},
			{name: "notify", summary: "send held actions to ntfy or a webhook; apply the phone's Approve and Reject",
				usage: []string{"airlock notify [--once] [--json]"},
				help:  notifyHelp, run: runNotify,
				flags: []flagSpec{
					boolFlag("once", "send what is new, apply the replies waiting, and exit"),
					jsonFlag(),
				}},
			teamCommand(),
			{name: "report", summary: "the end-of-session report: held and detected actions, counts",
				usage: []string{"airlock report [--session ID | --last | --story ID... | --all] [--since TIME] [--format text|markdown|json] [--json]"},
				help:  reportHelp, run: runReport,
				flags: []flagSpec{
					stringFlag("session", "ID", "", "report on this session"),
					boolFlag("last", "report on the most recent session (the default)"),
					listFlag("story", "ID", "report on this story of a loop run"),
					boolFlag("all", "report on the whole journal"),
					stringFlag("since", "TIME", "", "only events at or after this TIME (RFC 3339, or a duration back from now such as 24h); alone, every session since then"),
					stringFlag("format", "FORMAT", journal.FormatText, "output format: text, markdown or json", "text", "markdown", "json"),
					jsonFormatFlag(),
				}},
			{name: "blocked", summary: "every call held, asked or denied since a time (default: today)",
				usage: []string{"airlock blocked [--since today|24h|TIME] [--json]"},
				help:  blockedHelp, run: runBlocked,
				flags: []flagSpec{
					stringFlag("since", "TIME", "today", "list calls at or after this TIME: today, an RFC 3339 time, or a duration such as 24h"),
					jsonFlag(),
				}},
			{name: "explain", summary: "the whole trace of one decision: runs, rule, layer, mode, what would change it",
				usage: []string{"airlock explain [--json] ID|SEQ"},
				help:  explainHelp, operands: "ID|SEQ", run: runExplain,
				flags: []flagSpec{jsonFlag()}},
			{name: "statusline", summary: "airlock's segment of an agent's status line: held count, mode, marks",
				usage: []string{"airlock statusline < status.json"},
				help:  statuslineHelp, run: runStatusline},
			{name: "scan", summary: "find outward actions in agent output after the fact",
				usage: []string{"airlock scan [--story ID] [--session ID] [--format text|json] [--json] [--no-record] [FILE...|-]"},
				help:  scanHelp, operands: "[FILE...|-]", run: runScan,
				flags: []flagSpec{
					stringFlag("story", "ID", "", "record findings under this loop story"),
					stringFlag("session", "ID", "", "record findings under this session (default: the one the input names)"),
					stringFlag("format", "FORMAT", "text", "output format: text or json", "text", "json"),
					jsonFormatFlag(),
					boolFlag("no-record", "only print the findings; do not record them in the journal"),
					intFlag("max-line", "BYTES", scan.DefaultMaxLine, "longest line read whole; a longer one is scanned in pieces, with a warning"),
				}},
			{name: "undo", summary: "restore a snapshot taken before destruction inside a project (humans only)",
				usage: []string{"airlock undo [--force] [--json] ID"}, operands: "ID", help: undoHelp,
				flags: []flagSpec{boolFlag("force", "overwrite files that changed since the snapshot"), jsonFlag()},
				run:   runUndo},
			{name: "snapshots", summary: "list or prune the snapshots airlock took before destruction",
				usage: []string{"airlock snapshots list|prune [flags]"}, help: snapshotsHelp,
				subs: []*command{
					{name: "list", summary: "every snapshot: id, time, files, size, project, command",
						usage: []string{"airlock snapshots list [--json]"}, flags: []flagSpec{jsonFlag()},
						run: func(e *env) int { return runSnapshots(e, "list") }},
					{name: "prune", summary: "drop snapshots older than the retention or beyond its total size",
						usage: []string{"airlock snapshots prune [--older-than DURATION] [--max-mib N] [--now] [--json]"},
						flags: []flagSpec{
							durationFlag("older-than", "DURATION", 0, "drop snapshots older than this (default: the policy's snapshots.keep_days)"),
							intFlag("max-mib", "N", 0, "then drop the oldest until the rest fit in N MiB (default: the policy's snapshots.keep_mib)"),
							boolFlag("now", "free the dropped snapshots' space at once, not after an hour (for a full disk)"),
							jsonFlag(),
						},
						run: func(e *env) int { return runSnapshots(e, "prune") }},
				}},
			{name: "audit", summary: "verify the journal's hash chain, repair a torn tail, or archive old segments",
				usage: []string{"airlock audit verify|repair|archive [flags]"},
				help:  auditHelp,
				subs: []*command{
					{name: "verify", summary: "walk the hash chain and name the first line that was changed",
						usage: []string{"airlock audit verify [--json]"}, help: auditVerifyHelp, flags: []flagSpec{jsonFlag()},
						run: func(e *env) int { return runAudit(e, "verify") }},
					{name: "repair", summary: "set aside a torn last line left by a crash",
						usage: []string{"airlock audit repair [--json]"}, help: auditRepairHelp, flags: []flagSpec{jsonFlag()},
						run: func(e *env) int { return runAudit(e, "repair") }},
					{name: "archive", summary: "move old segments behind a hashed checkpoint",
						usage: []string{"airlock audit archive [--keep N] [--json]"}, help: auditArchiveHelp,
						flags: []flagSpec{intFlag("keep", "N", 4, "how many of the newest segments stay live (at least 1)"), jsonFlag()},
						run:   func(e *env) int { return runAudit(e, "archive") }},
				}},
			{name: "policy", summary: "show, check, test or start a policy file",
				usage: []string{"airlock policy show|check|test|init [flags]"},
				help:  policyHelp,
				subs: []*command{
					{name: "show", summary: "the policy in effect: mode, layers, tables, every rule with its origin",
						usage: []string{"airlock policy show [--json] [--cwd DIR]"},
						flags: policyFlags, run: policyShow},
					{name: "check", summary: "check the policy files in effect, or one FILE, for mistakes",
						usage: []string{"airlock policy check [--json] [--cwd DIR] [FILE]"},
						help:  "Check the policy files in effect, or one FILE, for mistakes.\n\nExit status: 0 when valid, 1 when a file has a mistake, 2 on a usage error.",
						flags: policyFlags, operands: "[FILE]", run: policyCheck},
					{name: "test", summary: "run every rule's examples (match / no_match)",
						usage: []string{"airlock policy test [--json] [--cwd DIR]"},
						help:  "Run every rule's examples.\n\nExit status: 0 when all pass, 1 when one fails.",
						flags: policyFlags, run: policyTest},
					{name: "init", summary: "write a commented starter policy file",
						usage: []string{"airlock policy init [--project] [--force]"},
						flags: []flagSpec{
							boolFlag("project", "write the project's .airlock/policy.yaml in the current directory instead of the user's file"),
							boolFlag("force", "overwrite an existing file"),
						},
						run: policyInit},
				}},
			{name: "proxy", summary: "the egress proxy: every request from a sandbox decided, writes held for review",
				usage: []string{"airlock proxy [--listen 127.0.0.1:PORT | unix:PATH] [--ca-cert FILE] [--cwd DIR] [--json]"},
				help:  proxyHelp, run: runProxy,
				operands: "FLAGS...", passthrough: true},
			{name: "rule", summary: "turn a decision into a rule of your policy file, after showing what else it allows",
				usage: []string{"airlock rule add [--yes] [--json] (--from ID | [--] COMMAND)"},
				help:  ruleHelp,
				subs: []*command{
					{name: "add", summary: "propose an allow rule from a held item or a command, check it on the corpus, write it once confirmed",
						usage: []string{"airlock rule add [--yes] [--json] (--from ID | [--] COMMAND)"}, operands: "[COMMAND]",
						help: ruleHelp, run: runRuleAdd,
						flags: []flagSpec{
							stringFlag("from", "ID", "", "the queue item whose command the rule is made of"),
							boolFlag("yes", "write the rule without asking"),
							jsonFlag(),
						}},
				}},
			{name: "serve", summary: "the review dashboard in a browser: live queue, approve, reject, make it a rule",
				usage: []string{"airlock serve [--listen 127.0.0.1:7777] [--tls-cert FILE --tls-key FILE | --no-tls REASON]"},
				help:  serveHelp, run: runServe,
				operands: "FLAGS...", passthrough: true},
			{name: "trust", summary: "let a project's policy file loosen your policy (by its SHA-256)",
				usage: []string{"airlock trust [--revoke] [FILE]"},
				help:  trustHelp, operands: "[FILE]", run: runTrust,
				flags: []flagSpec{boolFlag("revoke", "forget the file: it only tightens again")}},
			{name: "prompt", summary: "print the rules block to put in an agent's prompt",
				usage: []string{"airlock prompt [--mode interactive|supervised|unattended] [--format text|markdown|agents-md|gemini-md|json] [--json] [--cwd DIR]"},
				help:  promptHelp, run: runPrompt,
				flags: []flagSpec{
					modeFlag("", "autonomy mode to describe: interactive, supervised or unattended (default: the policy's mode)"),
					stringFlag("format", "FORMAT", "text", "output format: text, markdown, agents-md, gemini-md or json", "text", "markdown", "agents-md", "gemini-md", "json"),
					jsonFormatFlag(),
					cwdFlag(),
				}},
			{name: "loop", summary: "run stories one by one in fresh agent processes, guarded, then report",
				usage: []string{`airlock loop --stories FILE [--agent claude|codex|gemini|copilot|opencode | --agent-cmd "` + DefaultAgentCmd + `"] [--mode unattended] [--out DIR] [--cwd DIR]`},
				help:  loopHelp, run: runLoop,
				flags: []flagSpec{
					stringFlag("stories", "FILE", "", "the stories file (JSON or YAML)"),
					stringFlag("agent", "NAME", "", "run this agent CLI in its non-interactive mode (sets --agent-cmd and --agent-kind; see airlock loop --help)", loop.AgentNames()...),
					stringFlag("agent-cmd", "COMMAND", DefaultAgentCmd, "the agent command, split like a shell would"),
					stringFlag("agent-kind", "KIND", "auto", "what the agent is: claude (gets airlock's hooks through --settings), other (its own configuration must call airlock's hooks), or auto (claude when the program is named claude)", "auto", "claude", "other"),
					modeFlag("unattended", "the autonomy mode the hooks decide in"),
					stringFlag("out", "DIR", "", "where story outputs go (default: a new directory under the state directory's runs/)"),
					stringFlag("cwd", "DIR", "", "the agents' working directory (default: the current directory)"),
					stringFlag("format", "FORMAT", journal.FormatText, "the final report's format: text, markdown or json", "text", "markdown", "json"),
					jsonFormatFlag(),
					boolFlag("no-constraint", "do not put the prompt constraint before each prompt (enforcement does not depend on it)"),
					durationFlag("grace", "DURATION", loop.DefaultGrace, "how long an interrupted agent gets before it is killed"),
					boolFlag("no-contain", "run each story's agent as it is, not inside airlock run's sandbox (the default where airlock run works here)"),
				}},
			{name: "demo", summary: "watch airlock guard a scripted agent in a throwaway git repository",
				usage: []string{"airlock demo [--keep DIR]"},
				help:  demoHelp, run: runDemo,
				flags: []flagSpec{stringFlag("keep", "DIR", "", "keep the repository, the journal and the outputs in DIR (new or empty)")},
				subs: []*command{
					{name: "agent", summary: "the demo's scripted fake agent; airlock demo runs it", hidden: true,
						usage: []string{"airlock demo agent --settings FILE --cwd DIR < prompt"},
						run:   runDemoAgent,
						flags: []flagSpec{
							stringFlag("settings", "FILE", "", "the Claude Code settings file with airlock's hooks"),
							stringFlag("cwd", "DIR", "", "the project directory"),
						}},
				}},
			{name: "mcp", summary: "run an MCP server behind airlock's firewall; approve pinned tools",
				usage: []string{"airlock mcp run|serve|approve|pins [flags]"},
				help:  mcpHelp,
				subs: []*command{
					{name: "run", summary: "proxy a stdio MCP server (flags: airlock mcp run --help)",
						usage:    []string{"airlock mcp run [flags] -- CMD ARGS..."},
						operands: "CMD ARGS...", passthrough: true,
						run: func(e *env) int { return mcpProxy(e, "run") }},
					{name: "serve", summary: "proxy over streamable HTTP on a loopback address (flags: airlock mcp serve --help)",
						usage:    []string{"airlock mcp serve --listen ADDR [flags] (--upstream URL | --upstream-cmd -- CMD ARGS...)"},
						operands: "CMD ARGS...", passthrough: true,
						run: func(e *env) int { return mcpProxy(e, "serve") }},
					{name: "approve", summary: "accept new or changed tool descriptions of SERVER",
						usage: []string{"airlock mcp approve SERVER [TOOL...]"},
						help:  mcpApproveHelp, operands: "SERVER [TOOL...]", run: mcpApprove},
					{name: "pins", summary: "show pinned and pending tools",
						usage: []string{"airlock mcp pins [--json] [SERVER]"},
						help:  "Show the pinned tool descriptions per server, and the pending (new or changed) ones a human has to approve.",
						flags: []flagSpec{jsonFlag()}, operands: "[SERVER]", run: mcpPins},
				}},
			runCommand(),
			hookCommand(),
			hookdCommand(),
			{name: "help", summary: "show the help of airlock or of a command",
				usage: []string{"airlock help [COMMAND [SUBCOMMAND]]"}, operands: "[COMMAND...]", run: runHelp},
			{name: "version", summary: "print airlock's version, commit and Go version",
				usage: []string{"airlock version [--json]"},
				flags: []flagSpec{jsonFlag()}, run: runVersion},
			{name: "completion", summary: "print a shell completion script: bash, zsh or fish",
				usage: []string{"airlock completion bash|zsh|fish"},
				help:  completionHelp, operands: "SHELL", run: runCompletion},
			{name: "__complete", summary: "list completions for the words given (the completion scripts call it)", hidden: true,
				usage: []string{"airlock __complete WORD..."}, passthrough: true, run: runComplete},
		},
	}
}

// hookCommand is "airlock hook", which answers every tool call of every
// agent: Main builds it alone, without the rest of the table, when that
// is the command (DESIGN.md invariant 5: the hook's path carries no work
// it does not use).
func hookCommand() *command {
	return &command{name: "hook", summary: "answer one agent hook event (run by the agent, not by you)",
		usage: []string{"airlock hook AGENT [--event NAME] < event.json"},
		help:  hookHelp, operands: "AGENT", run: runHook,
		flags: []flagSpec{stringFlag("event", "NAME", "", "the hook event this handler was installed for; decides how a malformed input fails")}}
}

// scopeFlagSpecs are the flags install and uninstall share.
func scopeFlagSpecs() []flagSpec {
	return []flagSpec{
		boolFlag("user", "the user's settings (default)"),
		boolFlag("project", "the project's shared settings"),
		boolFlag("local", "the project's local settings"),
		boolFlag("dry-run", "print the new settings instead of writing them"),
	}
}
