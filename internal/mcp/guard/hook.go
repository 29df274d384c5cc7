package guard

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/mcp/mcpconfig"
	"github.com/airlock-dev/airlock/internal/mcp/proxied"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// Hook decides an agent's mcp__server__tool call that reaches airlock
// through its PreToolUse hook rather than through the proxy: same classes,
// allowlist, rate, dedup and quarantine, with the state in the journal.
// ok is false for a tool that is not an MCP tool; v is then unchanged.
//
// The hook cannot ask through MCP elicitation, and it does not see what a
// tool returned, so two things differ from the proxy: a needed
// confirmation becomes the agent's own permission prompt (Ask) when a
// human watches (interactive mode) and a held call (Defer) otherwise, or
// a refusal when the sink's confirm is none; and every call to a source
// is taken to bring content from someone not in the contacts.
func (g *Guard) Hook(mode policy.Mode, tool string, input json.RawMessage) (v policy.Verdict, d *Detail, ok bool) {
	server, name, ok := policy.SplitToolName(tool)
	if !ok {
		return policy.Verdict{}, nil, false
	}
	o := g.Check(mode, Call{Server: server, Tool: name, Args: input})
	v = o.Verdict
	v.Mode = mode
	if v.Rule == "table.unknown" {
		// The adapter words the table's own decisions for its agent.
		v.Message = ""
	}
	if v.Decision == policy.Ask {
		switch {
		case o.Channel == mcpconfig.ConfirmNone:
			v.Decision = policy.Deny
			v.Message += " (this sink has no confirmation channel, so it is refused)"
		case mode != policy.Interactive || o.Channel == mcpconfig.ConfirmOutOfBand:
			v.Decision = policy.Defer
		}
	}
	o.Detail.Decision, o.Detail.Rule, o.Detail.Reason = v.Decision.String(), v.Rule, v.Message
	if !v.Decision.Holds() || v.Decision == policy.Ask {
		switch o.Class {
		case mcpconfig.ClassSink:
			// Counted as sent: the hook does not learn whether a prompt
			// was answered yes, and a limit must not undercount.
			o.Detail.Sent = true
		case mcpconfig.ClassSource:
			o.Detail.Untrusted = true
		}
	}
	return v, &o.Detail, true
}

// KeyFile is where the digest key lives, under airlock's state directory.
const KeyFile = "mcp/digest.key"

// LoadKey reads the digest key from the state directory, creating it (32
// random bytes, mode 0600) on first use. An empty stateDir gives no key.
func LoadKey(stateDir string) ([]byte, error) {
	if stateDir == "" {
		return nil, nil
	}
	file := filepath.Join(stateDir, KeyFile)
	key, err := os.ReadFile(file)
	if err == nil && len(key) >= 32 {
		return key, nil
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("mcp digest key: %w", err)
	}
	key = make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("mcp digest key: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return nil, fmt.Errorf("mcp digest key: %w", err)
	}
	// O_EXCL: when two processes race, the loser reads the winner's key.
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return os.ReadFile(file)
	}
	if err != nil {
		return nil, fmt.Errorf("mcp digest key: %w", err)
	}
	if _, err := f.Write(key); err != nil {
		f.Close()
		return nil, fmt.Errorf("mcp digest key: %w", err)
	}
	return key, f.Close()
}

// RuleProxied is the hook's rule for a call that the MCP proxy decides
// (see package proxied).
const RuleProxied = "mcp.proxied"

// Caller is the hook process a call came from (package proxied): the
// zero value is the calling process, the in-process hook.
type Caller = proxied.Caller

// ForHook is the agent hooks' entry: it applies the MCP firewall to an
// mcp__server__tool call whose server is not behind a proxy the agent of
// from (the hook process) started (that proxy decides its calls: see
// package proxied), with the state read from rec when it is the journal.
// It replaces *v and returns the Detail to journal with the call; for
// other tools it does nothing and returns nil.
func ForHook(rec vocab.Recorder, now func() time.Time, p *policy.Policy, from Caller, tool string, input json.RawMessage, v *policy.Verdict) json.RawMessage {
	server, name, ok := policy.SplitToolName(tool)
	if !ok {
		return nil
	}
	if reg, ok := proxied.Deciding(p.Paths.StateDir, server, from); ok {
		// One decision per call: the proxy this agent started for the
		// server makes it, with its own configuration, and journals it.
		*v = policy.Verdict{Decision: policy.Allow, Rule: RuleProxied, Mode: p.Mode,
			Message: fmt.Sprintf("decided by airlock's MCP proxy for %s (pid %d), which this agent started", server, reg.Proxy.PID)}
		b, _ := json.Marshal(Detail{Server: server, Tool: name, Phase: "hook", Decision: "allow", Rule: RuleProxied, Reason: v.Message})
		return b
	}
	g := &Guard{Policy: p, Now: now}
	if j, ok := rec.(*journal.Journal); ok {
		g.History = Journal{J: j, Now: now}
	}
	key, err := LoadKey(p.Paths.StateDir)
	if err != nil {
		*v = policy.Verdict{Decision: policy.Deny, Rule: RuleHistory, Mode: p.Mode,
			Message: "airlock could not read the MCP firewall's key (" + err.Error() + "), so it refuses MCP tool calls until a human fixes it"}
		return nil
	}
	g.Key = key
	nv, d, ok := g.Hook(p.Mode, tool, input)
	if !ok {
		return nil
	}
	*v = nv
	b, err := json.Marshal(d)
	if err != nil {
		return nil
	}
	return b
}
