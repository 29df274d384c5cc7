package agentinstall

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/airlock-dev/airlock/internal/jsonedit"
)

// This file is Codex's hook trust. Codex runs a hook from a file it does
// not manage only when config.toml holds, for that hook's key, the hash of
// the hook's normalized identity:
//
//	[hooks.state."<hooks.json path>:pre_tool_use:<group>:<handler>"]
//	trusted_hash = "sha256:…"
//
// Without it Codex skips the hook silently and runs the command (OBSERVED,
// 0.171.0). The key is positional, so it changes when a group is added or
// removed before airlock's. The hash is SHA-256 over compact JSON with
// sorted keys of {"event_name", "matcher", "hooks": [handler]}, the handler
// normalized with its timeout (default 600) and async flag: checked
// against "codex app-server" hooks/list on codex-cli 0.171.0
// (codextrust_test.go runs the same check when AIRLOCK_E2E_CODEX names a
// codex binary).

// CodexHook is one command hook as Codex hashes it.
type CodexHook struct {
	// Event is the Claude-style event name ("PreToolUse").
	Event string
	// Matcher is the group's matcher; nil for none.
	Matcher *string
	Command string
	// Timeout is in seconds; nil means Codex's default, 600. Codex
	// raises a timeout under 1 to 1.
	Timeout       *int64
	Async         bool
	StatusMessage *string
}

// codexEventLabel is Codex's snake_case label for an event name.
func codexEventLabel(event string) string {
	var b strings.Builder
	for i, r := range event {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// codexMatcherEvent: the events whose groups' matchers Codex keeps;
// for the others it ignores the matcher, and so does the hash.
func codexMatcherEvent(name string) bool {
	switch name {
	case "PreToolUse", "PostToolUse", "PermissionRequest", "SessionStart":
		return true
	}
	return false
}

// Hash is the trusted_hash Codex expects for the hook.
func (h CodexHook) Hash() string {
	timeout := int64(600)
	if h.Timeout != nil {
		timeout = *h.Timeout
	}
	if timeout < 1 {
		timeout = 1
	}
	var b bytes.Buffer
	b.WriteString(`{"event_name":`)
	serdeString(&b, codexEventLabel(h.Event))
	b.WriteString(`,"hooks":[{"async":`)
	b.WriteString(strconv.FormatBool(h.Async))
	b.WriteString(`,"command":`)
	serdeString(&b, h.Command)
	if h.StatusMessage != nil {
		b.WriteString(`,"statusMessage":`)
		serdeString(&b, *h.StatusMessage)
	}
	b.WriteString(`,"timeout":`)
	b.WriteString(strconv.FormatInt(timeout, 10))
	b.WriteString(`,"type":"command"}]`)
	if h.Matcher != nil && codexMatcherEvent(h.Event) {
		b.WriteString(`,"matcher":`)
		serdeString(&b, *h.Matcher)
	}
	b.WriteByte('}')
	sum := sha256.Sum256(b.Bytes())
	return "sha256:" + hex.EncodeToString(sum[:])
}

// serdeString writes a JSON string the way Rust's serde_json does: short
// escapes for \b \f \n \r \t, \u00xx for the other control characters,
// everything else (HTML characters, U+2028) as is.
func serdeString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				fmt.Fprintf(b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}

// CodexHookKey is the key Codex files a hook's trust under.
func CodexHookKey(hooksFile, event string, group, handler int) string {
	return fmt.Sprintf("%s:%s:%d:%d", hooksFile, codexEventLabel(event), group, handler)
}

// codexTrust is one trust entry airlock needs.
type codexTrust struct {
	key, hash string
}

// codexTrustFor lists the trust entries airlock's hooks in a hooks.json
// content need, keyed by the file's absolute path.
func codexTrustFor(path string, data []byte) ([]codexTrust, error) {
	root, err := jsonedit.Parse(data)
	if err != nil {
		return nil, err
	}
	hv, _ := root.Get("hooks")
	hooks, _ := hv.(*jsonedit.Object)
	if hooks == nil {
		return nil, nil
	}
	var out []codexTrust
	for _, ev := range hooks.Keys() {
		gv, _ := hooks.Get(ev)
		groups, _ := gv.([]any)
		for gi, g := range groups {
			go_, _ := g.(*jsonedit.Object)
			if go_ == nil {
				continue
			}
			var matcher *string
			if m, ok := go_.Get("matcher"); ok {
				if s, ok := m.(string); ok {
					matcher = &s
				}
			}
			lv, _ := go_.Get("hooks")
			list, _ := lv.([]any)
			for hi, h := range list {
				ho, _ := h.(*jsonedit.Object)
				if ho == nil {
					continue
				}
				cv, _ := ho.Get("command")
				cmd, _ := cv.(string)
				if !isOurs(cmd, "codex") {
					continue
				}
				hook := CodexHook{Event: ev, Matcher: matcher, Command: cmd}
				if t, ok := ho.Get("timeout"); ok {
					if n, ok := t.(interface{ String() string }); ok {
						if v, err := strconv.ParseInt(n.String(), 10, 64); err == nil {
							hook.Timeout = &v
						}
					}
				}
				if a, ok := ho.Get("async"); ok {
					hook.Async, _ = a.(bool)
				}
				if m, ok := ho.Get("statusMessage"); ok {
					if s, ok := m.(string); ok {
						hook.StatusMessage = &s
					}
				}
				out = append(out, codexTrust{key: CodexHookKey(path, ev, gi, hi), hash: hook.Hash()})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out, nil
}

// codexMarker starts every block airlock adds to config.toml.
const codexMarker = "# airlock-managed: Codex runs a hook only when it is trusted; \"airlock uninstall codex\" removes this table."

func tomlString(s string) string {
	var b bytes.Buffer
	serdeString(&b, s) // TOML basic strings take JSON's escapes
	return b.String()
}

func codexBlock(t codexTrust) string {
	return "\n" + codexMarker + "\n[hooks.state." + tomlString(t.key) + "]\ntrusted_hash = " + tomlString(t.hash) + "\n"
}

// stripCodexTrust removes airlock's blocks from config.toml content.
func stripCodexTrust(data string) string {
	lines := strings.SplitAfter(data, "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		if strings.TrimRight(lines[i], "\r\n") != codexMarker {
			out = append(out, lines[i])
			continue
		}
		if n := len(out); n > 0 && strings.TrimSpace(out[n-1]) == "" {
			out = out[:n-1]
		}
		i += 2 // the table header and its trusted_hash line
	}
	return strings.Join(out, "")
}

// inlineHooks is compiled on first use: the package is linked into the
// hook binary, whose every call would otherwise pay for it.
var inlineHooks = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\s*("?hooks"?|"?state"?)\s*=\s*\{`)
})

// CodexTrustConflictError is a config.toml that already says something
// about the trust of airlock's hook key, or holds the hooks table inline,
// where appending a table would make Codex refuse the whole file.
type CodexTrustConflictError struct {
	File string
	What string
}

func (e *CodexTrustConflictError) Error() string {
	return e.File + ": " + e.What + "; airlock will not add a second definition, which would make Codex reject the file"
}

// withCodexTrust returns config.toml content holding exactly the trust
// entries wanted in airlock's blocks, and everything else as it was.
func withCodexTrust(file, data string, want []codexTrust) (string, error) {
	rest := stripCodexTrust(data)
	for _, t := range want {
		if strings.Contains(rest, t.key) {
			return "", &CodexTrustConflictError{File: file, What: "it already names the hook key " + t.key}
		}
	}
	if len(want) > 0 && inlineHooks().MatchString(rest) {
		return "", &CodexTrustConflictError{File: file, What: "it holds the hooks table inline"}
	}
	if len(want) > 0 && rest != "" && !strings.HasSuffix(rest, "\n") {
		rest += "\n"
	}
	for _, t := range want {
		rest += codexBlock(t)
	}
	return rest, nil
}

// codexTrusted reads the trusted_hash and enabled flag config.toml holds
// for a key, whoever wrote them.
func codexTrusted(data, key string) (hash string, enabled bool, found bool) {
	header := "[hooks.state." + tomlString(key) + "]"
	enabled = true
	in := false
	for _, line := range strings.Split(data, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") {
			if in {
				break
			}
			in = strings.ReplaceAll(t, " ", "") == strings.ReplaceAll(header, " ", "")
			found = found || in
			continue
		}
		if !in {
			continue
		}
		k, v, ok := strings.Cut(t, "=")
		if !ok {
			continue
		}
		switch strings.TrimSpace(k) {
		case "trusted_hash":
			hash, _ = strconv.Unquote(strings.TrimSpace(v))
		case "enabled":
			enabled = strings.TrimSpace(v) != "false"
		}
	}
	return hash, enabled, found
}
