package agentinstall

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/airlock-dev/airlock/internal/jsonedit"
)

// DefaultProxyPort is the loopback port of airlock's long-running egress
// proxy ("airlock proxy --listen 127.0.0.1:7779") that Claude Code's
// sandbox is pointed at by "airlock install claude-code --contain"
// (--proxy-port changes it). 7777 is the dashboard's.
const DefaultProxyPort = 7779

// ClaudeSandbox is what "install claude-code --contain" writes into
// Claude Code's "sandbox" settings: every sandboxed Bash command's egress
// through airlock's proxy, no unsandboxed escape hatch, and the file
// system rules that keep airlock's state out of reach.
type ClaudeSandbox struct {
	// ProxyPort is airlock's proxy on 127.0.0.1.
	ProxyPort int
	// DenyRead: airlock's state directory and secrets.
	DenyRead []string
	// DenyWrite: airlock's files (policy, state, binaries) and every
	// agent's settings.
	DenyWrite []string
}

// SandboxBackup is the user's own "sandbox" value before install, kept in
// airlock's state directory (out of the agent's reach) so that uninstall
// puts it back as it was.
type SandboxBackup struct {
	// Had: the settings had a "sandbox" key.
	Had bool `json:"had"`
	// Value is its JSON, as jsonedit writes it (keys in their order,
	// numbers as written).
	Value json.RawMessage `json:"value,omitempty"`
}

// InstallClaudeSandbox sets the "sandbox" key of a Claude Code settings
// document, and returns the new document and the backup of what was
// there. Keys of the user's own sandbox settings that airlock does not
// set are kept (excludedCommands, autoAllowBashIfSandboxed, ...); the
// ones it sets are airlock's until uninstall.
func InstallClaudeSandbox(settings []byte, s ClaudeSandbox) ([]byte, SandboxBackup, error) {
	root, err := jsonedit.Parse(settings)
	if err != nil {
		return nil, SandboxBackup{}, fmt.Errorf("reading settings: %w", err)
	}
	var b SandboxBackup
	sb := jsonedit.NewObject()
	if v, ok := root.Get("sandbox"); ok {
		raw, err := jsonedit.Marshal(v)
		if err != nil {
			return nil, SandboxBackup{}, err
		}
		b = SandboxBackup{Had: true, Value: json.RawMessage(raw)}
		if _, isObj := v.(*jsonedit.Object); !isObj {
			return nil, SandboxBackup{}, errors.New(`"sandbox" is not an object; fix it by hand first`)
		}
		// Edit a copy: the backup must stay the user's.
		if sb, err = jsonedit.Parse(raw); err != nil {
			return nil, SandboxBackup{}, err
		}
	}
	sb.Set("enabled", true)
	sb.Set("failIfUnavailable", true)
	sb.Set("allowUnsandboxedCommands", false)
	network := objectAt(sb, "network")
	network.Set("httpProxyPort", jsonedit.Number(fmt.Sprint(s.ProxyPort)))
	fsys := objectAt(sb, "filesystem")
	fsys.Set("denyRead", mergeList(fsys, "denyRead", s.DenyRead))
	fsys.Set("denyWrite", mergeList(fsys, "denyWrite", s.DenyWrite))
	root.Set("sandbox", sb)
	out, err := jsonedit.Marshal(root)
	return out, b, err
}

// RestoreClaudeSandbox puts the user's own "sandbox" value back (or
// removes the key when there was none).
func RestoreClaudeSandbox(settings []byte, b SandboxBackup) ([]byte, error) {
	root, err := jsonedit.Parse(settings)
	if err != nil {
		return nil, fmt.Errorf("reading settings: %w", err)
	}
	if !b.Had {
		root.Del("sandbox")
	} else {
		wrap, err := jsonedit.Parse(append(append([]byte(`{"v":`), b.Value...), '}'))
		if err != nil {
			return nil, fmt.Errorf("the saved sandbox settings: %w", err)
		}
		v, _ := wrap.Get("v")
		root.Set("sandbox", v)
	}
	return jsonedit.Marshal(root)
}

// objectAt returns o[k] as an object, making it (or replacing a
// non-object) when needed.
func objectAt(o *jsonedit.Object, k string) *jsonedit.Object {
	if v, ok := o.Get(k); ok {
		if obj, ok := v.(*jsonedit.Object); ok {
			return obj
		}
	}
	obj := jsonedit.NewObject()
	o.Set(k, obj)
	return obj
}

// mergeList keeps the user's entries of o[k] and adds airlock's after
// them, once each.
func mergeList(o *jsonedit.Object, k string, add []string) []any {
	var out []any
	seen := map[string]bool{}
	if v, ok := o.Get(k); ok {
		if list, ok := v.([]any); ok {
			for _, x := range list {
				out = append(out, x)
				if s, ok := x.(string); ok {
					seen[s] = true
				}
			}
		}
	}
	for _, s := range add {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
