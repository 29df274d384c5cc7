package policy

import (
	"github.com/airlock-dev/airlock/internal/firstuse"
	"slices"
	"sort"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
)

// This file is the phase of self-protection that reads airlock's own
// command line. It reads it with airlock's real flag definitions, so that a
// flag's value stays a value: "airlock queue approve --note -h ID" is an
// approval with the note "-h", not a request for help.

// AirlockVerb is one airlock subcommand path as self-protection reads it.
type AirlockVerb struct {
	// Path is the subcommand path, e.g. "queue approve".
	Path string
	// ReadOnly reports whether the verb changes nothing airlock decides
	// with: no policy, no queue item, no journal event, no hook.
	ReadOnly bool
	// Flags maps each flag the verb accepts, without its dashes, to
	// whether it takes a value (a string, duration or number; bool flags
	// do not).
	Flags map[string]bool
}

// airlockVerbs is the table behind AirlockVerbs, taken from the flag sets
// in internal/cli. A verb missing here is unknown and so mutating. It is
// built on first use: most hook calls do not run airlock.
var airlockVerbs = firstuse.Table[map[string]AirlockVerb]{Build: func() map[string]AirlockVerb {
	v := map[string]AirlockVerb{}
	add := func(path string, readOnly bool, flags map[string]bool) {
		v[path] = AirlockVerb{Path: path, ReadOnly: readOnly, Flags: flags}
	}
	settle := map[string]bool{"note": true, "json": false}
	policyFlags := map[string]bool{"json": false, "cwd": true}
	add("check", true, map[string]bool{"mode": true, "json": false, "jsonl": false, "cwd": true})
	add("report", true, map[string]bool{"session": true, "last": false, "all": false, "story": true, "since": true, "format": true, "json": false})
	add("blocked", true, map[string]bool{"since": true, "json": false})
	// statusline reads the status line's state file and prints a line.
	add("statusline", true, map[string]bool{})
	// explain reads the journal and the policy and prints a decision's
	// trace; it proposes a rule, it writes none.
	add("explain", true, map[string]bool{"json": false})
	// doctor executes: the installed hook (its own line only) with the
	// caller's environment, and the codex found on the caller's PATH. An
	// agent that sets PATH, HOME or CODEX_HOME, or writes a "codex" into a
	// directory on PATH, would run its own program through it unjudged.
	add("doctor", false, map[string]bool{"json": false})
	add("prompt", true, map[string]bool{"mode": true, "format": true, "json": false, "cwd": true})
	add("queue list", true, map[string]bool{"all": false, "json": false})
	add("queue show", true, map[string]bool{"json": false})
	add("queue approve", false, map[string]bool{"for": true, "note": true, "json": false, "always": false, "yes": false})
	add("queue reject", false, settle)
	add("queue ack", false, settle)
	add("queue dismiss", false, settle)
	add("queue run", false, map[string]bool{"json": false})
	add("policy show", true, policyFlags)
	add("policy check", true, policyFlags)
	add("policy test", true, policyFlags)
	add("policy init", false, map[string]bool{"project": false, "force": false})
	add("audit verify", true, map[string]bool{"json": false})
	add("audit repair", false, map[string]bool{"json": false})
	add("audit archive", false, map[string]bool{"keep": true, "json": false})
	add("mcp pins", true, map[string]bool{"json": false})
	add("mcp approve", false, map[string]bool{})
	add("mcp run", false, map[string]bool{})
	add("mcp serve", false, map[string]bool{})
	// scan records findings in the journal; hook answers as the agent's
	// own guard would; the rest change settings, trust or run agents.
	add("scan", false, map[string]bool{"story": true, "session": true, "format": true, "json": false, "no-record": false, "max-line": true})
	add("hook", false, map[string]bool{"event": true})
	// hookd answers hooks: an agent that starts its own (another state
	// directory, other flags) or stops the user's must ask a human.
	add("hookd", false, map[string]bool{"idle": true, "stop": false})
	add("install", false, map[string]bool{"user": false, "project": false, "local": false, "dry-run": false, "gate": false, "no-hookd": false, "json": false, "contain": false, "proxy-port": true, "statusline": false})
	add("uninstall", false, map[string]bool{"user": false, "project": false, "local": false, "dry-run": false, "json": false})
	add("trust", false, map[string]bool{"revoke": false})
	add("loop", false, map[string]bool{"stories": true, "agent-cmd": true, "mode": true, "out": true, "cwd": true, "format": true, "json": false, "no-constraint": false, "grace": true, "agent-kind": true, "agent": true, "no-contain": false})
	add("demo", false, map[string]bool{"keep": true})
	// undo writes files back over the agent's work; prune deletes the
	// snapshots that make destruction reversible. Listing changes nothing.
	add("undo", false, map[string]bool{"force": false, "json": false})
	add("snapshots list", true, map[string]bool{"json": false})
	add("snapshots prune", false, map[string]bool{"older-than": true, "max-mib": true, "now": false, "json": false})
	// rule add writes the user's policy; serve is a dashboard whose
	// buttons approve, reject and write rules.
	add("rule add", false, map[string]bool{"from": true, "yes": false, "json": false})
	add("serve", false, map[string]bool{})
	// run starts a command in airlock's sandbox (airlock-run owns its
	// flags); like mcp run, it runs programs, so it is not a read.
	add("run", false, map[string]bool{})
	// notify sends held actions out and applies the phone's decisions.
	add("notify", false, map[string]bool{"once": false, "json": false})
	// proxy is the egress proxy: it sends in the user's name and fills
	// the user's queue; an agent that starts its own must ask a human.
	add("proxy", false, map[string]bool{})
	// team mode (airlock-team owns the flags): every verb acts as a human.
	// serve starts a server that signs decisions; add-*, revoke make and
	// end identities; the queue verbs use a reviewer's token, and even
	// list and show send it, with the words the agent chose, to a URL the
	// agent chose (--server), so none of them is a read.
	teamDB := map[string]bool{"db": true}
	reviewer := func(more map[string]bool) map[string]bool {
		m := map[string]bool{"server": true, "token": true, "token-file": true, "json": false}
		for k, t := range more {
			m[k] = t
		}
		return m
	}
	add("team serve", false, map[string]bool{"db": true, "listen": true, "key": true, "retention": true, "tls-cert": true, "tls-key": true, "no-tls": true, "public-url": true})
	add("team add-machine", false, teamDB)
	add("team add-reviewer", false, teamDB)
	add("team revoke", false, teamDB)
	add("team queue list", false, reviewer(map[string]bool{"machine": true, "repo": true, "min-age": true, "status": true, "limit": true}))
	add("team queue show", false, reviewer(nil))
	add("team queue approve", false, reviewer(map[string]bool{"for": true, "note": true}))
	add("team queue reject", false, reviewer(map[string]bool{"note": true}))
	// team notify settles the team's items with a reviewer's token when
	// a phone's signed reply arrives, and sends what is held to a server
	// its --config names.
	add("team notify", false, reviewer(map[string]bool{"config": true, "once": false}))
	// team join keeps the machine's token and pins the key every team
	// decision is checked with; team sync writes the team's decisions
	// into the journal as human acts.
	add("team join", false, map[string]bool{"token": true, "pin": true})
	add("team sync", false, map[string]bool{"once": false, "interval": true, "json": false})
	return v
}}

// airlockGroups are the verbs whose next word names a subcommand.
// A group's path may itself be a group ("team queue").
func airlockGroups(name string) bool {
	switch name {
	case "queue", "policy", "audit", "mcp", "snapshots", "rule", "team", "team queue":
		return true
	}
	return false
}

// AirlockVerbs returns airlock's subcommand paths with their flags and
// whether each only reads, sorted by path. It is the one place
// self-protection learns airlock's command line from; a test compares it
// with the CLI's real flag sets.
func AirlockVerbs() []AirlockVerb {
	out := make([]AirlockVerb, 0, len(airlockVerbs.Get()))
	for _, v := range airlockVerbs.Get() {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// isHelp reports whether a word asks a Go flag set (or airlock's top
// level) for help or the version.
func isHelp(w string) bool {
	switch w {
	case "-h", "-help", "--help", "--version", "-version":
		return true
	}
	return false
}

// airlockBinaries are the programs an install of airlock puts side by
// side: airlock itself, the MCP proxy, the hook client of the resident
// service, the notification watcher, the dashboard, the egress proxy, the
// status line's reader and team mode's two companions. Self-protection
// protects each file and reads each one's command line.
var airlockBinaries = []string{"airlock", "airlock-mcp", "airlock-hook", "airlock-notify", "airlock-serve", "airlock-proxy", "airlock-statusline", "airlock-team", "airlock-teamsync"}

// airlockProgram reports whether a program name is one of airlock's
// binaries, under any of the names they may be run by.
func (g *guard) airlockProgram(name string) bool {
	if slices.Contains(airlockBinaries, name) {
		return true
	}
	return g.exeName != "" && name == g.exeName
}

// airlockArgv reads one run of airlock (or airlock-mcp) and says whether
// it only reads. what names the verb, flag or word that makes it unsafe,
// for the reason. The rule is an allow-list: the verb path must be a known
// read-only one and every flag must be one that verb defines; an unknown
// flag, a word known only at run time, or a mutating verb fails it.
func airlockArgv(inv *classify.Invocation) (what string, readOnly bool) {
	args := inv.Args[1:]
	dyn := func(i int) bool { return inv.IsDynamic(i + 1) }
	for i, a := range args {
		if dyn(i) {
			return "a word known only when it runs (" + a + ")", false
		}
	}
	if n := inv.Name(); n != "airlock" && slices.Contains(airlockBinaries, n) {
		// The other binaries' own command lines (the MCP proxy, the hook
		// client, the watcher, the dashboard): only asking for help reads
		// (airlock-hook answers as "airlock hook", which records an event
		// and so mutates; the dashboard can approve).
		if n != "airlock-hook" && len(args) == 1 && isHelp(args[0]) {
			return "", true
		}
		// The status line's own binary takes no arguments and only reads.
		if n == "airlock-statusline" && len(args) == 0 {
			return "", true
		}
		return n + " " + strings.Join(args, " "), false
	}
	// Top level: "airlock", "airlock -h", "airlock help", "airlock version".
	if len(args) == 0 {
		return "", true
	}
	if len(args) == 1 && (isHelp(args[0]) || args[0] == "help" || args[0] == "version") {
		return "", true
	}
	// The verb path comes first; a flag before it is read by no verb's
	// flag set, so its value cannot be told apart: refuse.
	var path []string
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") {
			break
		}
		path = append(path, a)
		if airlockGroups(strings.Join(path, " ")) {
			continue
		}
		i++
		break
	}
	verb := strings.Join(path, " ")
	if len(path) == 0 {
		return "flag " + args[0] + " before the subcommand", false
	}
	if path[0] == "help" {
		// "airlock help X" prints help whatever X is.
		return "", true
	}
	v, known := airlockVerbs.Get()[verb]
	rest := args[i:]
	if !known {
		if airlockGroups(verb) && (len(rest) == 0 || len(rest) == 1 && isHelp(rest[0])) {
			return "", true
		}
		return "airlock " + verb, false
	}
	// "airlock VERB -h" alone only prints help, whatever the flag layer.
	if len(rest) == 1 && isHelp(rest[0]) {
		return "", true
	}
	if !v.ReadOnly {
		return "airlock " + verb, false
	}
	for j := 0; j < len(rest); j++ {
		a := rest[j]
		if a == "--" {
			break
		}
		if len(a) < 2 || a[0] != '-' {
			continue // an operand, wherever it is (interspersed flags)
		}
		name := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		name, _, hasValue := strings.Cut(name, "=")
		takes, ok := v.Flags[name]
		if !ok {
			return "airlock " + verb + " with the flag " + a + ", which it does not define", false
		}
		if takes && !hasValue {
			j++ // the next word is the value, whatever it looks like
		}
	}
	return "", true
}
