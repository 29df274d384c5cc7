package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/airlock-dev/airlock/internal/mcp/pin"
	"github.com/airlock-dev/airlock/internal/policy"
)

const mcpHelp = `
Run an MCP server behind airlock's firewall ("run" for a stdio server, put
in the agent's MCP configuration in place of the server's command; "serve"
over streamable HTTP on a loopback address), and review the tool
descriptions it pins.

The proxy enforces the mcp: section of the policy: tool classes (source,
sink, private, neutral), the contact book, rates, dedup, the quarantine after
untrusted content, and confirmation by MCP elicitation or airlock's queue.
Tools not classed there are decided by the table's "unknown" entry. See
docs/MCP.md.`

// ProxyBinary is the MCP proxy's own binary (cmd/airlock-mcp), which "mcp
// run" and "mcp serve" start: the MCP SDK stays out of the airlock binary,
// which answers every tool call of every agent.
const ProxyBinary = "airlock-mcp"

// mcpProxy runs airlock-mcp with the same arguments and streams. It
// must sit next to the airlock binary (the directory "go install" puts
// both in): not looked up on PATH, so that nothing earlier on PATH can
// stand in for the firewall.
func mcpProxy(e *env, sub string) int {
	return runCompanion(e, "airlock mcp "+sub, ProxyBinary, append([]string{sub}, e.args...))
}

const mcpApproveHelp = `
Accept the pending (new or changed) tool descriptions of SERVER, after you
have read them ("airlock mcp pins SERVER" shows them). A running proxy picks
the approval up at the agent's next tools/list. An agent cannot run this:
airlock's self-protection denies it.`

func mcpApprove(e *env) int {
	fs := e.flags
	if fs.NArg() == 0 {
		return fail(e.stderr, &usageError{Msg: "mcp approve needs the server's name", Hints: []string{"airlock mcp pins", "airlock mcp approve texts send_message"}})
	}
	store, code, ok := pinStore(e)
	if !ok {
		return code
	}
	done, err := store.Approve(fs.Arg(0), fs.Args()[1:])
	if err != nil {
		return fail(e.stderr, &usageError{Msg: err.Error(), Hints: []string{"airlock mcp pins " + fs.Arg(0)}})
	}
	for _, t := range done {
		fmt.Fprintf(e.stdout, "approved %s %s\n", fs.Arg(0), t)
	}
	return ExitOK
}

func pinStore(e *env) (*pin.Store, int, bool) {
	state := policy.PathsFrom(e.getenv).StateDir
	if state == "" {
		return nil, fail(e.stderr, &usageError{Msg: "no state directory", Hints: []string{"set HOME, XDG_STATE_HOME or AIRLOCK_HOME"}}), false
	}
	return pin.Open(filepath.Join(state, pin.File)), 0, true
}

// pinOutput is one tool in mcp pins --json.
type pinOutput struct {
	Server  string    `json:"server"`
	Tool    string    `json:"tool"`
	Status  string    `json:"status"`
	By      string    `json:"by"`
	Since   time.Time `json:"since"`
	Hash    string    `json:"hash"`
	Def     pin.Def   `json:"def"`
	Current *pin.Def  `json:"pinned,omitempty"`
}

func mcpPins(e *env) int {
	fs := e.flags
	asJSON := fs.Bool("json")
	store, code, ok := pinStore(e)
	if !ok {
		return code
	}
	servers, err := store.Servers()
	if err != nil {
		return fail(e.stderr, err)
	}
	var out []pinOutput
	names := make([]string, 0, len(servers))
	for n := range servers {
		if fs.NArg() == 0 || fs.Arg(0) == n {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		s := servers[n]
		for _, t := range sortedKeys(s.Pending) {
			p := s.Pending[t]
			o := pinOutput{Server: n, Tool: t, Status: "pending-" + p.By, By: p.By, Since: p.Since, Hash: p.Hash, Def: p.Def}
			if cur, ok := s.Tools[t]; ok {
				def := cur.Def
				o.Current = &def
			}
			out = append(out, o)
		}
		for _, t := range sortedKeys(s.Tools) {
			p := s.Tools[t]
			out = append(out, pinOutput{Server: n, Tool: t, Status: "pinned", By: p.By, Since: p.Since, Hash: p.Hash, Def: p.Def})
		}
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if out == nil {
			out = []pinOutput{}
		}
		if err := enc.Encode(out); err != nil {
			return fail(e.stderr, err)
		}
		return ExitOK
	}
	if len(out) == 0 {
		fmt.Fprintln(e.stdout, "no MCP server has been seen yet")
		return ExitOK
	}
	tw := tabwriter.NewWriter(e.stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SERVER\tTOOL\tSTATUS\tSINCE\tDESCRIPTION")
	for _, o := range out {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", o.Server, o.Tool, o.Status, o.Since.UTC().Format("2006-01-02 15:04 MST"), oneLineClip(o.Def.Description, 70))
	}
	tw.Flush()
	for _, o := range out {
		if o.Current != nil {
			fmt.Fprintf(e.stdout, "\n%s %s changed:\n  pinned:  %s\n  now:     %s\n", o.Server, o.Tool, oneLineClip(o.Current.Description, 300), oneLineClip(o.Def.Description, 300))
			if string(o.Current.InputSchema) != string(o.Def.InputSchema) {
				fmt.Fprintf(e.stdout, "  input schema now: %s\n", oneLineClip(string(o.Def.InputSchema), 300))
			}
		}
	}
	return ExitOK
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func oneLineClip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
