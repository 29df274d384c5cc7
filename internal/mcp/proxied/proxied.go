// Package proxied lets the Claude Code hook and the MCP proxy share one
// decision for a server that runs behind the proxy.
//
// Claude Code calls such a server's tools mcp__NAME__tool, and its
// PreToolUse hook sees them before the proxy does. Deciding them twice
// would be wrong twice over: the hook reads the user's policy while the
// proxy may run with --config, and a sink call would count twice against
// its rate and be refused as its own duplicate. So the proxy is the
// decider for its tools, and the hook defers to it, only when it can
// prove the call goes through that proxy:
//
//   - every running proxy registers itself under the state directory
//     (mcp/proxies/NAME.PID.json) and holds an exclusive lock on that
//     file for as long as it runs: a file whose lock is free is stale,
//     whatever it says, so a crashed proxy or a reused pid defers nothing;
//   - the registration names the proxy's client process (the first
//     ancestor that is not airlock or airlock-mcp: the agent that started
//     it) with its start time, and the hook defers only when that very
//     process is its parent or grandparent. A proxy of the same name
//     started by another agent, another session or by hand therefore
//     defers nothing, and the hook decides as for any MCP server.
//
// Anything unknown (no /proc, an unreadable registration, a lock that
// cannot be tested) means "not proxied": the hook decides, which is the
// stricter side. On systems other than Linux the hook always decides.
package proxied

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Dir is where proxies register, under airlock's state directory.
const Dir = "mcp/proxies"

// Process identifies a process across pid reuse.
type Process struct {
	PID int `json:"pid"`
	// Start is the process's start time in clock ticks since boot.
	Start uint64 `json:"start"`
}

// Registration is what a running proxy declares.
type Registration struct {
	// Server is the proxy's server name (mcp__Server__tool).
	Server string `json:"server"`
	// Proxy is the airlock-mcp process.
	Proxy Process `json:"proxy"`
	// Client is the agent process that started the proxy.
	Client Process `json:"client"`
	// Config is the policy file the proxy decides with ("" for the
	// user's and project's policy).
	Config string `json:"config,omitempty"`
}

// validName keeps a server name from walking out of Dir.
func validName(name string) bool {
	return name != "" && !strings.ContainsAny(name, "/\\\x00") && name != "." && name != ".."
}

func file(stateDir, server string, pid int) string {
	return filepath.Join(stateDir, Dir, fmt.Sprintf("%s.%d.json", server, pid))
}

// Register declares the running process as the proxy of server, started
// by its client, and keeps the declaration valid until release is
// called or the process ends. It fails where the process tree cannot be
// read: the hook then decides the server's calls itself.
func Register(stateDir, server, config string) (release func(), err error) {
	if stateDir == "" || !validName(server) {
		return nil, fmt.Errorf("proxied: cannot register server %q", server)
	}
	self, client, err := selfAndClient()
	if err != nil {
		return nil, err
	}
	reg := Registration{Server: server, Proxy: self, Client: client, Config: config}
	body, err := json.Marshal(reg)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(stateDir, Dir), 0o700); err != nil {
		return nil, fmt.Errorf("proxied: %w", err)
	}
	return hold(file(stateDir, server, self.PID), body)
}

// Deciding returns the registration of a live proxy of server that the
// calling process's agent (its parent or grandparent) started: the proxy
// decides that server's calls. ok is false in every other case.
func Deciding(stateDir, server string) (reg Registration, ok bool) {
	if stateDir == "" || !validName(server) {
		return Registration{}, false
	}
	matches, _ := filepath.Glob(filepath.Join(stateDir, Dir, server+".*.json"))
	if len(matches) == 0 {
		return Registration{}, false
	}
	// Only the hook's parent or grandparent (Claude Code runs hooks
	// through a shell): a process further up, such as the terminal's
	// shell that started both the agent and some proxy, is no binding.
	mine, err := ancestors(os.Getpid(), 2)
	if err != nil {
		return Registration{}, false
	}
	for _, m := range matches {
		r, live := readLive(m)
		if !live || r.Server != server {
			continue
		}
		for _, a := range mine {
			if a == r.Client {
				return r, true
			}
		}
	}
	return Registration{}, false
}
