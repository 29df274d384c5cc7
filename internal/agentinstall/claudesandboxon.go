package agentinstall

import (
	"encoding/json"
	"path/filepath"
	"strings"
)

// ClaudeSandboxEnforced reports whether Claude Code, reading these
// settings files, runs every Bash command in its sandbox with the
// network through an HTTP proxy (airlock's, as "install claude-code
// --contain" writes it) and no way out of it. layers are the files'
// contents from the lowest precedence to the highest (user, project,
// project local, managed; a missing file is nil); for a single value
// the highest layer that sets it wins, as Claude Code merges them. It
// must find:
//
//   - sandbox.enabled true and sandbox.failIfUnavailable true: no
//     command runs unsandboxed because the sandbox cannot start;
//   - sandbox.allowUnsandboxedCommands false: the model cannot ask for
//     a command outside the sandbox (dangerouslyDisableSandbox);
//   - sandbox.network.httpProxyPort a port: the sandbox's egress goes to
//     that proxy and Claude Code's own domain lists no longer apply
//     (whether that port is airlock's proxy is the caller's to check:
//     ClaudeSandboxPort);
//   - no way around the sandbox or the proxy: no excludedCommands, no
//     network.allowUnixSockets, network.allowAllUnixSockets not true (a
//     unix socket reaches services outside, a container engine's among
//     them), no network.socksProxyPort other than the HTTP proxy's (a
//     second proxy that would carry traffic past airlock's), and
//     enableWeakerNestedSandbox not true.
//
// Whether Claude Code adds a project's list to the user's or replaces it
// is not relied on: a list-valued key counts when any layer sets it, not
// only the highest, so a user's list is never taken as emptied by a
// project's. A layer that
// cannot be read as JSON makes the answer false: what Claude Code would
// make of it is unknown.
func ClaudeSandboxEnforced(layers ...[]byte) bool {
	sb, ok := mergeSandbox(layers)
	if !ok {
		return false
	}
	port, ok := portValue(sb.last["network.httpProxyPort"])
	if !ok {
		return false
	}
	switch {
	case sb.last["enabled"] != true, sb.last["failIfUnavailable"] != true, sb.last["allowUnsandboxedCommands"] != false:
		return false
	case sb.last["network.allowAllUnixSockets"] == true, sb.last["enableWeakerNestedSandbox"] == true:
		return false
	case sb.anyList["excludedCommands"], sb.anyList["network.allowUnixSockets"]:
		return false
	}
	if v, set := sb.last["network.socksProxyPort"]; set && v != nil {
		if p, ok := portValue(v); !ok || p != port {
			return false
		}
	}
	return true
}

// ClaudeSandboxPort is the sandbox.network.httpProxyPort Claude Code
// reads from these layers (lowest precedence first), or 0.
func ClaudeSandboxPort(layers ...[]byte) int {
	sb, ok := mergeSandbox(layers)
	if !ok {
		return 0
	}
	p, _ := portValue(sb.last["network.httpProxyPort"])
	return p
}

// SettingsLayer is one Claude Code settings file: its path (relative
// paths in its sandbox rules are read against its directory) and its
// content (nil when missing).
type SettingsLayer struct {
	File string
	Data []byte
}

// ClaudeSandboxReopens returns the first sandbox.filesystem rule in any
// layer that could give back what airlock's rules take away: an
// allowRead entry that overlaps a path of noRead (airlock's state and
// secrets; an allowRead may re-allow reading inside denyRead),
// or an allowWrite entry equal to or inside a path of noWrite (airlock's
// files and every agent's settings). Which of an allow and a deny rule
// wins is Claude Code's to say; airlock does not count on it. An entry is read every way Claude
// Code's path syntax could mean it ("~/" the home, "//" an absolute path,
// "/" absolute or relative to the settings file's directory, otherwise
// relative to it), and counts if any reading overlaps. "" when none
// does; a layer that is not JSON is reported as itself.
func ClaudeSandboxReopens(layers []SettingsLayer, home string, noRead, noWrite []string) string {
	for _, l := range layers {
		if l.Data == nil {
			continue
		}
		var doc struct {
			Sandbox *struct {
				Filesystem *struct {
					AllowRead  json.RawMessage `json:"allowRead"`
					AllowWrite json.RawMessage `json:"allowWrite"`
				} `json:"filesystem"`
			} `json:"sandbox"`
		}
		if json.Unmarshal(l.Data, &doc) != nil {
			return l.File + " (not JSON)"
		}
		if doc.Sandbox == nil || doc.Sandbox.Filesystem == nil {
			continue
		}
		fsys := doc.Sandbox.Filesystem
		for _, c := range []struct {
			raw     json.RawMessage
			fenced  []string
			overlap func(p, f string) bool
			key     string
		}{
			{fsys.AllowRead, noRead, func(p, f string) bool { return within(p, f) || within(f, p) }, "allowRead"},
			{fsys.AllowWrite, noWrite, within, "allowWrite"},
		} {
			if len(c.raw) == 0 || string(c.raw) == "null" {
				continue
			}
			var entries []string
			if json.Unmarshal(c.raw, &entries) != nil {
				return l.File + ": sandbox.filesystem." + c.key + " (not a list of paths)"
			}
			for _, e := range entries {
				for _, p := range readings(e, home, filepath.Dir(l.File)) {
					for _, f := range c.fenced {
						if f != "" && c.overlap(p, filepath.Clean(f)) {
							return l.File + ": sandbox.filesystem." + c.key + " " + e
						}
					}
				}
			}
		}
	}
	return ""
}

// readings are the absolute paths a sandbox path rule may mean.
func readings(e, home, dir string) []string {
	e = strings.TrimSpace(e)
	// A glob reaches everything in the directory that holds its first
	// wildcard.
	if i := strings.IndexAny(e, "*?["); i >= 0 {
		e = e[:strings.LastIndex(e[:i], "/")+1]
	}
	var out []string
	switch {
	case e == "~" || strings.HasPrefix(e, "~/"):
		if home != "" {
			out = append(out, filepath.Join(home, strings.TrimPrefix(e, "~")))
		}
	case strings.HasPrefix(e, "//"):
		out = append(out, filepath.Clean(e[1:]))
	case strings.HasPrefix(e, "/"):
		out = append(out, filepath.Clean(e), filepath.Join(dir, e))
	default:
		out = append(out, filepath.Join(dir, e))
	}
	return out
}

// within reports whether p is f or inside it.
func within(p, f string) bool {
	p, f = filepath.Clean(p), filepath.Clean(f)
	return p == f || f == "/" || strings.HasPrefix(p, f+"/")
}

// mergedSandbox is the sandbox settings of several layers: the value of
// each single-valued key from the highest layer that sets it, and which
// list-valued keys any layer sets to a non-empty list.
type mergedSandbox struct {
	last    map[string]any
	anyList map[string]bool
}

// sandboxKeys are the keys read: single values, and lists.
var (
	sandboxValues = []string{"enabled", "failIfUnavailable", "allowUnsandboxedCommands", "enableWeakerNestedSandbox",
		"network.httpProxyPort", "network.socksProxyPort", "network.allowAllUnixSockets"}
	sandboxLists = []string{"excludedCommands", "network.allowUnixSockets"}
)

func mergeSandbox(layers [][]byte) (mergedSandbox, bool) {
	m := mergedSandbox{last: map[string]any{}, anyList: map[string]bool{}}
	for _, l := range layers {
		if l == nil {
			continue
		}
		var doc struct {
			Sandbox json.RawMessage `json:"sandbox"`
		}
		if err := json.Unmarshal(l, &doc); err != nil {
			return m, false
		}
		if doc.Sandbox == nil {
			continue
		}
		var sb map[string]any
		if err := json.Unmarshal(doc.Sandbox, &sb); err != nil {
			return m, false
		}
		get := func(k string) (any, bool) {
			head, tail, nested := strings.Cut(k, ".")
			v, ok := sb[head]
			if nested && ok {
				obj, isObj := v.(map[string]any)
				if !isObj {
					// "network": null or a non-object: the setting is
					// gone as far as can be told.
					return nil, true
				}
				v, ok = obj[tail]
			}
			return v, ok
		}
		for _, k := range sandboxValues {
			if v, ok := get(k); ok {
				m.last[k] = v
			}
		}
		for _, k := range sandboxLists {
			v, ok := get(k)
			if !ok || v == nil {
				continue
			}
			if l, isList := v.([]any); !isList || len(l) > 0 {
				m.anyList[k] = true
			}
		}
	}
	return m, true
}

// portValue reads a JSON number that is a TCP port.
func portValue(v any) (int, bool) {
	n, ok := v.(float64)
	if !ok || n <= 0 || n >= 65536 || n != float64(int(n)) {
		return 0, false
	}
	return int(n), true
}
