package main

import (
	"os"
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// The architecture of the module as a list of import edges, in the spirit
// of the Go toolchain's go/build deps_test.go: every package of the module
// is listed with the packages of the module it may import (non-test
// imports). A new package, or a new edge, fails the test until it is
// written here: that is the moment to ask whether it belongs.
//
// Read it bottom-up. vocab is the leaf everyone speaks; policy decides;
// the pipeline orders the stages (policy, the MCP firewall, the gate, the
// journal's approvals); adapters translate an agent's wire format onto
// the pipeline; cli wires it all. docs/ARCHITECTURE.md draws it.
var allowedEdges = map[string][]string{
	// Leaves.
	"internal/vocab":         nil,
	"internal/safefile":      nil,
	"internal/statefile":     nil,
	"internal/firstuse":      nil,
	"internal/strictyaml":    nil,
	"internal/argv":          nil,
	"internal/render":        nil,
	"internal/clierror":      nil,
	"internal/gate/pathglob": nil,
	"internal/mcp/pin":       {"internal/safefile"},
	"internal/mcp/proxied":   nil,
	"internal/mcp/sanitize":  nil,
	"internal/scan/corpus":   nil,

	// The interpreter analysers know languages, not programs: classify
	// maps what they find onto effects, so they never import it.
	"internal/classify/interp": {"internal/shell"},

	// Program knowledge and the policy.
	"internal/shell":    {"internal/argv"},
	"internal/classify": {"internal/argv", "internal/classify/interp", "internal/firstuse", "internal/shell"},
	// policy reads the shell's marker for a directory known only at run time
	// (shell.DirUnknown) from the runs classify hands it, and asks the
	// installer whether a nested agent's hook is installed (FINDINGS-5 L17).
	"internal/policy": {"internal/agentinstall", "internal/classify", "internal/firstuse", "internal/gate/pathglob", "internal/safefile", "internal/shell", "internal/strictyaml", "internal/vocab"},
	// The MCP firewall's own section of the policy file: the policy hands
	// it each layer's "mcp:" node and never imports it.
	"internal/mcp/mcpconfig": {"internal/policy", "internal/strictyaml"},

	// The journal keeps what an entry point hands over, in the
	// vocabulary: it knows no policy and no program (forbiddenDeps).
	"internal/journal": {"internal/render", "internal/safefile", "internal/statefile", "internal/statusline", "internal/vocab"},

	// The status line's state file and its reader: "airlock statusline"
	// runs every few hundred milliseconds in the agent's screen, so it
	// links no policy, journal or program knowledge; the journal (held
	// counts) and the hook (mode and marks) write the file through it.
	"internal/statusline": {"internal/render", "internal/safefile", "internal/statefile"},

	// The stages and the pipeline that orders them.
	"internal/mcp/guard": {"internal/classify", "internal/journal", "internal/mcp/mcpconfig", "internal/mcp/proxied", "internal/mcp/sanitize", "internal/policy", "internal/vocab"},
	"internal/gate":      {"internal/classify", "internal/gate/pathglob", "internal/pipeline", "internal/policy", "internal/safefile", "internal/shell"},
	"internal/pipeline":  {"internal/classify", "internal/mcp/guard", "internal/policy", "internal/vocab"},

	// Entry points: they translate onto the pipeline.
	"internal/agent/claudecode": {"internal/vocab", "internal/jsonedit", "internal/hookline", "internal/agent/toolcall", "internal/pipeline", "internal/policy", "internal/render", "internal/safefile"},
	// The other agents: one shared tool-call translator, one runner
	// (deadline, recover, the pipeline), one package per wire format.
	// Agents that speak Claude Code's format, or extend another's tool
	// table (Qwen Code is a Gemini CLI fork), import that adapter's table.
	"internal/agent/toolcall":    {"internal/policy"},
	"internal/agent/hookrun":     {"internal/agent/claudecode", "internal/agent/toolcall", "internal/pipeline", "internal/stackstart"},
	"internal/agent/codex":       {"internal/agent/claudecode", "internal/agent/hookrun", "internal/agent/toolcall"},
	"internal/agent/factory":     {"internal/agent/claudecode", "internal/agent/hookrun", "internal/agent/toolcall"},
	"internal/agent/gemini":      {"internal/agent/claudecode", "internal/agent/hookrun", "internal/agent/toolcall"},
	"internal/agent/qwen":        {"internal/agent/claudecode", "internal/agent/gemini", "internal/agent/hookrun", "internal/agent/toolcall"},
	"internal/agent/copilot":     {"internal/agent/claudecode", "internal/agent/hookrun", "internal/agent/toolcall"},
	"internal/agent/goose":       {"internal/agent/claudecode", "internal/agent/hookrun", "internal/agent/toolcall", "internal/policy"},
	"internal/agent/opencode":    {"internal/agent/hookrun", "internal/agent/toolcall", "internal/policy"},
	"internal/agent/kiro":        {"internal/agent/hookrun", "internal/agent/toolcall", "internal/policy"},
	"internal/agent/cursor":      {"internal/agent/hookrun", "internal/agent/toolcall"},
	"internal/agent/cline":       {"internal/agent/hookrun", "internal/agent/toolcall"},
	"internal/agent/antigravity": {"internal/agent/hookrun", "internal/agent/toolcall"},
	"internal/agent/crush":       {"internal/agent/hookrun", "internal/agent/toolcall", "internal/policy"},
	"internal/agent/pi":          {"internal/agent/hookrun", "internal/agent/toolcall", "internal/policy"},
	"internal/agent/auggie":      {"internal/agent/hookrun", "internal/agent/toolcall", "internal/policy"},
	"internal/mcp/proxy":         {"internal/vocab", "internal/mcp/guard", "internal/mcp/mcpconfig", "internal/mcp/pin", "internal/mcp/sanitize", "internal/pipeline", "internal/policy", "internal/render"},

	// After the fact: the scanner and the loop runner.
	// The scanner reads each agent's JSON output through that agent's
	// tool table, so a finding is the action its hook would have judged.
	"internal/scan": {"internal/vocab", "internal/agent/claudecode", "internal/classify", "internal/firstuse", "internal/policy", "internal/render", "internal/shell",
		"internal/agent/toolcall", "internal/agent/codex", "internal/agent/gemini", "internal/agent/copilot", "internal/agent/opencode"},
	"internal/scan/corpus/gen": {"internal/scan", "internal/scan/corpus"},
	"internal/loop":            {"internal/scan", "internal/vocab"},
	"internal/demo":            {"internal/loop"},

	// Snapshots before destruction (the pipeline's last stage calls them
	// through cli): git plumbing only.
	"internal/snapshot": nil,

	// Review from anywhere: the dashboard, the rules it proposes, and the
	// notification watcher. Each runs in its own binary, so the hook's
	// binary links no HTTP stack.
	"internal/rulemake":    {"internal/classify", "internal/mcp/mcpconfig", "internal/policy"},
	"internal/team/wire":   {},
	"internal/team/pgtest": nil,
	// The team server: PostgreSQL through pgx, in its own binary.
	"internal/team/store":    {"internal/team/wire"},
	"internal/team/server":   {"internal/serve", "internal/team/store", "internal/team/teamview", "internal/team/wire"},
	"internal/team/teamview": {"internal/journal", "internal/render", "internal/team/wire"},
	"internal/team/teamcmd": {"internal/clierror", "internal/notify", "internal/policy", "internal/render", "internal/serve", "internal/team/server", "internal/team/store",
		"internal/team/teamclient", "internal/team/teamnotify", "internal/team/teamview", "internal/team/wire"},
	// The phone channel pointed at the team: notify's watcher over the
	// team queue, as a reviewer client of the server's API (no database,
	// no signing key).
	"internal/team/teamnotify": {"internal/journal", "internal/notify", "internal/policy", "internal/strictyaml", "internal/team/teamclient", "internal/team/teamview", "internal/team/wire"},
	// The machine's side of team mode: it writes team decisions into the
	// journal (journal.SettleTeam) after checking them with wire; it runs
	// as airlock-teamsync, so neither the hook nor the airlock binary
	// links its HTTP client, and no machine links the server's database.
	"internal/team/sync":         {"internal/journal", "internal/safefile", "internal/statefile", "internal/team/teamclient", "internal/team/wire"},
	"internal/team/teamclient":   {"internal/team/wire"},
	"internal/team/sync/synccmd": {"internal/clierror", "internal/journal", "internal/policy", "internal/render", "internal/team/sync"},
	"cmd/airlock-teamsync":       {"internal/team/sync/synccmd"},
	"internal/team/teamtest":     nil,
	"internal/serve":             {"internal/journal", "internal/render", "internal/rulemake"},
	"internal/serve/servecmd":    {"internal/clierror", "internal/journal", "internal/policy", "internal/serve"},
	"internal/notify/config":     {"internal/journal", "internal/policy"},
	"internal/notify":            {"internal/journal", "internal/notify/config", "internal/policy", "internal/render", "internal/statefile"},
	"internal/notify/notifycmd":  {"internal/clierror", "internal/journal", "internal/mcp/mcpconfig", "internal/notify", "internal/policy", "internal/render"},
	"internal/notify/ntfytest":   nil,

	// Containment: the egress proxy and its service binary. Its section
	// of the policy file is a package of its own, which the command line
	// (and so the hook) may import: it links no net, TLS or HTTP.
	"internal/contain/egress/egressconfig": {"internal/policy", "internal/strictyaml"},
	"internal/contain/egress":              {"internal/contain/egress/egressconfig", "internal/journal", "internal/mcp/mcpconfig", "internal/pipeline", "internal/policy", "internal/vocab"},
	"internal/contain/egress/egresscmd":    {"internal/clierror", "internal/contain/egress", "internal/contain/record"},
	// What the proxy and the runner record in airlock's state for a
	// later process to check (the hook, doctor, the next run): no
	// network code, so the airlock binary may link it.
	"internal/contain/record": {"internal/safefile"},

	// The resident decision service: its wire and client link almost
	// nothing (raw system calls), so the client binary starts fast.
	"internal/hookd":        nil,
	"internal/hookd/server": {"internal/hookd"},

	// Wiring and commands.
	"internal/cli": {"internal/vocab", "internal/agent/claudecode", "internal/classify", "internal/clierror", "internal/demo",
		"internal/gate", "internal/journal", "internal/loop", "internal/mcp/pin", "internal/policy", "internal/render", "internal/scan",
		"internal/pipeline", "internal/agent/hookrun", "internal/agent/codex", "internal/agent/gemini", "internal/agent/copilot",
		"internal/agent/opencode", "internal/agent/factory", "internal/agent/qwen", "internal/agent/cursor", "internal/agent/kiro",
		"internal/agent/goose", "internal/agent/cline", "internal/agent/pi", "internal/agent/auggie", "internal/agent/antigravity", "internal/agent/crush", "internal/agentinstall", "internal/hookd", "internal/hookd/server",
		"internal/hookline", "internal/notify/config", "internal/rulemake", "internal/snapshot", "internal/mcp/mcpconfig",
		"internal/contain/egress/egressconfig", "internal/contain/run", "internal/contain/record", "internal/statusline",
		// The service names its client to the MCP proxy check (hookd.go).
		"internal/mcp/proxied"},
	// Installing into the other agents' configuration files.
	"internal/jsonedit":     nil,
	"internal/agentinstall": {"internal/jsonedit", "internal/hookline"},
	// The hook line in its two forms, shared by both installers.
	"internal/hookline": nil,
	"internal/mcp/mcpcmd": {"internal/vocab", "internal/clierror", "internal/journal", "internal/mcp/guard", "internal/mcp/mcpconfig", "internal/mcp/pin",
		"internal/mcp/proxied", "internal/mcp/proxy", "internal/policy"},
	"cmd/airlock": {"cmd/airlock/runfirst", "internal/cli", "internal/stackstart"},
	// "airlock run" becomes airlock-run at initialisation: it imports
	// nothing of the module, so that it runs before the rest.
	"cmd/airlock/runfirst": nil,
	// Grows the stack before any other package is initialised: it
	// imports nothing (cmd/airlock's TestStackStartFirst).
	"internal/stackstart": nil,
	"cmd/airlock-mcp":     {"internal/mcp/mcpcmd"},
	"cmd/airlock-hook":    {"internal/hookd"},
	// The status line's own binary: the reader alone.
	"cmd/airlock-statusline": {"internal/statusline"},
	"cmd/airlock-notify":     {"internal/notify/notifycmd"},
	"cmd/airlock-serve":      {"internal/serve/servecmd"},
	"cmd/airlock-proxy":      {"internal/contain/egress/egresscmd"},
	"cmd/airlock-team":       {"internal/team/teamcmd"},

	// Containment: the plan links no network code (doctor and
	// loop use it from airlock); the runner and bridge do, in airlock-run.
	"internal/contain/run":        {"internal/clierror", "internal/hookd", "internal/policy", "internal/statusline"},
	"internal/contain/run/runner": {"internal/clierror", "internal/contain/record", "internal/contain/run", "internal/hookd", "internal/journal", "internal/render", "internal/safefile", "internal/statusline", "internal/vocab"},
	"cmd/airlock-run":             {"internal/contain/run/runner"},
	"internal/contain/bridge":     nil,
	"cmd/airlock-bridge":          {"internal/contain/bridge"},

	// Programs and harnesses outside the product.
	"bench/floor":        nil,
	"bench/ipcfloor":     nil,
	"bench/hooktime":     nil,
	"bench/runstart":     {"internal/contain/run", "internal/contain/run/runner"},
	"bench/journaltime":  nil,
	"bench/genjournal":   {"internal/journal"},
	"bench/snapshotcost": nil,
	"e2e/dashboard":      nil,
	"e2e/claude":         nil,
	"e2e/agents":         nil,
	"e2e/fakemodel":      nil,
	"e2e/mcp":            nil,
}

// forbidden are the edges the design rules out, with the reason, checked
// even if someone adds them to allowedEdges. A "from" or "to" ending in
// "/" names a tree of packages. (That the hook binary does not link the
// MCP SDK is TestHookBinaryDeps's rule.)
var forbidden = []struct{ from, to, why string }{
	{"internal/agent/", "internal/classify", "an adapter translates its agent's wire format; program knowledge is the policy's (put the stage in internal/pipeline)"},
	{"internal/agent/", "internal/gate", "an adapter translates; the gate is a stage the pipeline runs"},
	{"internal/agent/", "internal/mcp/guard", "an adapter translates; the MCP firewall is a stage the pipeline runs"},
	{"internal/journal", "internal/policy", "the journal records what was decided in the vocabulary (internal/vocab); it does not decide"},
	{"internal/policy", "internal/agent/", "the policy decides for every entry point; it knows none of them"},
	{"internal/policy", "internal/cli", "the policy is a library; the command line uses it, not the reverse"},
	{"internal/policy", "internal/pipeline", "the pipeline runs the policy, not the reverse"},
	{"internal/policy", "internal/mcp/", "the MCP firewall owns its schema and decides MCP calls; the policy hands it the mcp: section (policy.MCPSchema)"},
	{"internal/vocab", "internal/", "the vocabulary is the leaf everyone imports"},
	{"internal/safefile", "internal/", "a leaf every package that keeps a file may use"},
	{"internal/statefile", "internal/", "a leaf every package that keeps a file in the state directory may use"},
	{"internal/statusline", "internal/policy", "the status line reads one small file on every refresh of the agent's screen; it decides nothing"},
	{"internal/statusline", "internal/journal", "the status line reads one small file; it scans no journal (the journal writes the file)"},
	{"internal/strictyaml", "internal/", "a leaf every package that owns a section of the policy file decodes with"},
	{"internal/pipeline", "internal/mcp/proxy", "the proxy links the MCP SDK, which the hook binary must not (it runs on every tool call)"},
	{"internal/pipeline", "internal/agent/", "the pipeline serves every adapter and knows none of them"},
	{"internal/cli", "internal/contain/egress", "the egress proxy links TLS and an HTTP stack; it runs as airlock-proxy, off the hook's path"},
	{"internal/hookd/", "internal/contain/egress", "the hook's service answers tool calls; the egress proxy runs as airlock-proxy"},
	{"internal/cli", "internal/team/server", "the team server links pgx and an HTTP stack; it runs as airlock-team"},
	{"internal/cli", "internal/team/store", "the team store links pgx; it runs as airlock-team"},
	{"internal/cli", "internal/team/sync", "team sync links an HTTP client and TLS; it runs as airlock-teamsync, off the hook's path"},
	{"internal/hookd/", "internal/team/", "the hook's service answers tool calls without the network; team mode runs in its own binaries"},
}

// forbiddenReach are the edges the design rules out even through other
// packages: checked on everything a package links of the module (the
// transitive closure of the graph, what go list -deps lists of it), so
// that a type that carries another package's types (as agent.Event once
// carried policy.Verdict into the journal) cannot bring the dependency
// back unseen.
var forbiddenReach = []struct{ from, to, why string }{
	{"internal/journal", "internal/policy", "the journal stores what was decided, in the vocabulary (internal/vocab); it does not decide, so it links no policy, even through another package"},
	{"internal/journal", "internal/classify", "the journal keeps a verdict's record (vocab.VerdictRecord), not the classification behind it; it links no program knowledge, even through another package"},
	{"internal/policy", "internal/agent/", "the policy decides for every entry point; it links none of them, even through another package"},
	{"internal/policy", "internal/cli", "the policy is a library; it links no command line, even through another package"},
	{"internal/policy", "internal/pipeline", "the pipeline runs the policy; the policy links no pipeline, even through another package"},
}

const module = "github.com/airlock-dev/airlock/"

// moduleGraph lists the module's packages and their non-test imports of
// the module's packages, relative to the module.
func moduleGraph(t *testing.T) map[string][]string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	cmd := exec.Command(gobin, "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", module+"...")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("go list: %v\n%s", err, stderr)
	}
	g := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		from, ok := strings.CutPrefix(f[0], module)
		if !ok {
			continue
		}
		g[from] = []string{}
		for _, imp := range f[1:] {
			if to, ok := strings.CutPrefix(imp, module); ok {
				g[from] = append(g[from], to)
			}
		}
	}
	return g
}

// violations returns what is wrong with graph g, one line each.
func violations(g map[string][]string) []string {
	var bad []string
	match := func(pattern, p string) bool {
		return p == pattern || strings.HasSuffix(pattern, "/") && strings.HasPrefix(p, pattern)
	}
	for from, imps := range g {
		allowed, listed := allowedEdges[from]
		if !listed {
			bad = append(bad, from+" is not in allowedEdges: add it with the packages it may import, and to docs/ARCHITECTURE.md")
		}
		for _, to := range imps {
			for _, f := range forbidden {
				if match(f.from, from) && match(f.to, to) {
					bad = append(bad, from+" imports "+to+": "+f.why)
				}
			}
			if listed && !contains(allowed, to) {
				bad = append(bad, from+" imports "+to+", an edge not in allowedEdges: is it where it belongs? If so, add it there")
			}
		}
	}
	for _, f := range forbiddenReach {
		for from := range g {
			if !match(f.from, from) {
				continue
			}
			for _, path := range reach(g, from, func(p string) bool { return match(f.to, p) }) {
				bad = append(bad, from+" depends on "+path[len(path)-1]+" (through "+strings.Join(path, " -> ")+"), even transitively: "+f.why)
			}
		}
	}
	sort.Strings(bad)
	return bad
}

// reach returns, for each package that from links in g (directly or not)
// and that bad matches, one import path leading to it, from first.
func reach(g map[string][]string, from string, bad func(string) bool) [][]string {
	parent := map[string]string{from: ""}
	queue := []string{from}
	var out [][]string
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, to := range g[p] {
			if _, seen := parent[to]; seen {
				continue
			}
			parent[to] = p
			queue = append(queue, to)
			if bad(to) {
				path := []string{to}
				for q := p; q != ""; q = parent[q] {
					path = append([]string{q}, path...)
				}
				out = append(out, path)
			}
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestArchitecture fails on an import edge the design does not allow.
func TestArchitecture(t *testing.T) {
	g := moduleGraph(t)
	if len(g) < 20 || g["internal/cli"] == nil {
		t.Fatalf("go list gave %d packages, which cannot be the module: %v", len(g), g)
	}
	for _, v := range violations(g) {
		t.Error(v)
	}
	// The closure above is the module's graph as go list reads it; the
	// journal's rule is checked once more on go list -deps itself, so
	// that the closure cannot be wrong in its favour.
	for _, dep := range goListDeps(t, module+"internal/journal") {
		if dep == module+"internal/policy" || dep == module+"internal/classify" {
			t.Errorf("go list -deps internal/journal lists %s: the journal must not depend on the policy or classify, even transitively", dep)
		}
	}
}

// goListDeps is go list -deps for one package.
func goListDeps(t *testing.T, pkg string) []string {
	t.Helper()
	cmd := exec.Command("go", "list", "-deps", pkg)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	return strings.Fields(string(out))
}

// TestArchitectureRules: the rules catch each kind of violation they are
// for, on a graph made up for the purpose (so that a rule that cannot
// fire does not pass silently).
func TestArchitectureRules(t *testing.T) {
	for _, tc := range []struct {
		from, to, want string
	}{
		{"internal/agent/claudecode", "internal/classify", "an adapter translates"},
		{"internal/agent/codex", "internal/gate", "not in allowedEdges"},
		{"internal/agent/claudecode", "internal/mcp/guard", "the MCP firewall is a stage"},
		{"internal/journal", "internal/policy", "does not decide"},
		{"internal/policy", "internal/agent/claudecode", "knows none of them"},
		{"internal/policy", "internal/cli", "the command line uses it"},
		{"internal/policy", "internal/mcp/mcpconfig", "owns its schema"},
		{"internal/strictyaml", "internal/policy", "leaf"},
		{"internal/pipeline", "internal/mcp/proxy", "MCP SDK"},
		{"internal/vocab", "internal/render", "leaf"},
		{"internal/render", "internal/journal", "not in allowedEdges"},
	} {
		got := violations(map[string][]string{tc.from: {tc.to}})
		found := false
		for _, v := range got {
			found = found || strings.Contains(v, tc.want)
		}
		if !found {
			t.Errorf("%s -> %s: got %q, want a violation saying %q", tc.from, tc.to, got, tc.want)
		}
	}
	// The rules on what a package links at all fire through packages
	// that are each allowed to import the next.
	for _, tc := range []struct {
		g    map[string][]string
		want string
	}{
		{map[string][]string{"internal/journal": {"internal/vocab"}, "internal/vocab": {"internal/policy"}}, "internal/journal depends on internal/policy (through internal/journal -> internal/vocab -> internal/policy)"},
		{map[string][]string{"internal/journal": {"internal/render"}, "internal/render": {"internal/shell"}, "internal/shell": {"internal/classify"}}, "internal/journal depends on internal/classify"},
		{map[string][]string{"internal/policy": {"internal/classify"}, "internal/classify": {"internal/agent/toolcall"}}, "internal/policy depends on internal/agent/toolcall"},
		{map[string][]string{"internal/policy": {"internal/safefile"}, "internal/safefile": {"internal/cli"}}, "links no command line"},
	} {
		found := false
		for _, v := range violations(tc.g) {
			found = found || strings.Contains(v, tc.want) && strings.Contains(v, "even transitively")
		}
		if !found {
			t.Errorf("%v: got %q, want a violation saying %q", tc.g, violations(tc.g), tc.want)
		}
	}
	if got := violations(map[string][]string{"internal/pipeline": {"internal/policy"}}); len(got) != 0 {
		t.Errorf("an allowed edge is reported: %q", got)
	}
}
