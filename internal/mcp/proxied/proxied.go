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
//     defers nothing, and the hook decides as for any MCP server;
//   - "the hook" is the process the agent ran: the in-process hook is
//     its own Caller; the decision service starts from its client's pid,
//     which the kernel gives it for the connection (SO_PEERCRED), and
//     pins that process with a pidfd (SO_PEERPIDFD) so that a reused pid
//     cannot stand in for it (see Client).
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

// Caller is the hook process a call came from: the proxy decides the
// call only when that process's parent or grandparent is the proxy's
// client. The zero Caller is the calling process itself (the hook that
// decides in its own process).
type Caller struct {
	// pid is another process (the decision service's client), 0 for this
	// one.
	pid int
	// pinned, for another process, reports whether pid still names the
	// process that asked: it is called after the parent chain was read,
	// so that the chain read is that process's and not the one of a later
	// process that reused the number.
	pinned func() bool
	// unknown is a caller the kernel did not name so that it can be
	// pinned: nothing defers to a proxy for it.
	unknown bool
}

// Client is the caller of the decision service: its client's pid as the
// kernel gives it for the connection (SO_PEERCRED), and pinned, which
// reports whether that pid still names the process that connected (a
// pidfd of it, SO_PEERPIDFD). Without either, no call defers to a proxy:
// the hook decides (see Known).
//
// Nothing the client sends is used: an agent can run the client itself
// with any environment and standard input, but not choose its own pid or
// parent.
func Client(pid int, pinned func() bool) Caller {
	if pid <= 0 || pinned == nil {
		return Caller{unknown: true}
	}
	return Caller{pid: pid, pinned: pinned}
}

// Known reports whether the caller can be checked against a proxy's
// client at all. A service whose client is not Known must not decide a
// call that a proxy would: it leaves the call to the client, which
// decides in its own process, where it is its own Caller.
func (c Caller) Known() bool { return !c.unknown }

// chain is the caller's parent and grandparent: Claude Code runs hooks
// through a shell, and a process further up, such as the terminal's
// shell that started both the agent and some proxy, is no binding.
func (c Caller) chain() ([]Process, bool) {
	switch {
	case c.unknown:
		return nil, false
	case c.pid == 0:
		mine, err := ancestors(os.Getpid(), 2)
		return mine, err == nil
	}
	theirs, err := ancestors(c.pid, 2)
	if err != nil || !c.pinned() {
		return nil, false
	}
	return theirs, true
}

// Deciding returns the registration of a live proxy of server that the
// caller's agent (its parent or grandparent) started: the proxy decides
// that server's calls. ok is false in every other case.
func Deciding(stateDir, server string, from Caller) (reg Registration, ok bool) {
	if stateDir == "" || !validName(server) {
		return Registration{}, false
	}
	matches, _ := filepath.Glob(filepath.Join(stateDir, Dir, server+".*.json"))
	if len(matches) == 0 {
		return Registration{}, false
	}
	mine, ok := from.chain()
	if !ok {
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

// Registered reports whether any live proxy is registered under stateDir.
func Registered(stateDir string) bool {
	if stateDir == "" {
		return false
	}
	matches, _ := filepath.Glob(filepath.Join(stateDir, Dir, "*.json"))
	for _, m := range matches {
		if _, live := readLive(m); live {
			return true
		}
	}
	return false
}
