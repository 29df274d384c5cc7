package agentinstall

import (
	"encoding/json"
	"strings"
)

// ClaudeSandboxEnforced reports whether Claude Code, reading these
// settings files, runs every Bash command in its sandbox with the
// network through an HTTP proxy (airlock's, as "install claude-code
// --contain" writes it) and no way out of it. layers are the files'
// contents from the lowest precedence to the highest (user, project,
// project local, managed; a missing file is nil); for each key the
// highest layer that sets it wins, as Claude Code merges them. It must
// find:
//
//   - sandbox.enabled true and sandbox.failIfUnavailable true: no
//     command runs unsandboxed because the sandbox cannot start;
//   - sandbox.allowUnsandboxedCommands false: the model cannot ask for
//     a command outside the sandbox (dangerouslyDisableSandbox);
//   - sandbox.excludedCommands empty: no command is let out by name;
//   - sandbox.network.httpProxyPort a port: the sandbox's egress goes to
//     that proxy and Claude Code's own domain lists no longer apply.
//
// A layer that cannot be read as JSON makes the answer false: what
// Claude Code would make of it is unknown.
func ClaudeSandboxEnforced(layers ...[]byte) bool {
	want := map[string]func(any) bool{
		"enabled":                  func(v any) bool { return v == true },
		"failIfUnavailable":        func(v any) bool { return v == true },
		"allowUnsandboxedCommands": func(v any) bool { return v == false },
		"excludedCommands": func(v any) bool {
			l, ok := v.([]any)
			return v == nil || ok && len(l) == 0
		},
		"network.httpProxyPort": func(v any) bool {
			n, ok := v.(float64)
			return ok && n > 0 && n < 65536 && n == float64(int(n))
		},
	}
	got := map[string]any{"excludedCommands": nil}
	seen := map[string]bool{}
	for _, l := range layers {
		if l == nil {
			continue
		}
		var doc struct {
			Sandbox json.RawMessage `json:"sandbox"`
		}
		if err := json.Unmarshal(l, &doc); err != nil {
			return false
		}
		if doc.Sandbox == nil {
			continue
		}
		var sb map[string]any
		if err := json.Unmarshal(doc.Sandbox, &sb); err != nil {
			return false
		}
		for k := range want {
			head, tail, nested := strings.Cut(k, ".")
			v, ok := sb[head]
			if nested && ok {
				m, isObj := v.(map[string]any)
				if !isObj {
					// "network": null or a non-object: the proxy setting is
					// gone as far as can be told.
					got[k], seen[k] = nil, true
					continue
				}
				v, ok = m[tail]
			}
			if ok {
				got[k], seen[k] = v, true
			}
		}
	}
	for k, ok := range want {
		if k != "excludedCommands" && !seen[k] || !ok(got[k]) {
			return false
		}
	}
	return true
}
