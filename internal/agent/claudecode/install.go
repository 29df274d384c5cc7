package claudecode

import (
	"fmt"

	"github.com/airlock-dev/airlock/internal/hookline"
	"github.com/airlock-dev/airlock/internal/jsonedit"
)

// hookSpec is one hook airlock installs.
type hookSpec struct {
	event string
	// matcher is "*" for tool events (every tool, MCP tools included);
	// "" for events without matchers.
	matcher string
	// block makes a crash or timeout block the tool call
	// ("onFailure": "block", agent-hooks.md §1.1): external fails closed.
	block bool
}

// installed lists airlock's hooks: PreToolUse decides; the others record
// the session for the journal and the end-of-session report.
var installed = []hookSpec{
	{event: "PreToolUse", matcher: "*", block: true},
	{event: "PostToolUse", matcher: "*"},
	{event: "PostToolUseFailure", matcher: "*"},
	{event: "UserPromptSubmit"},
	{event: "SessionStart"},
	{event: "Stop"},
	{event: "SessionEnd"},
}

// preToolUseTimeout bounds a hung hook; with onFailure block a timeout
// blocks the call rather than letting it through.
const preToolUseTimeout = 30

// HookCommand is the command line a handler runs: bin by absolute path,
// quoted for the shell Claude Code runs it with. bin is airlock ("airlock
// hook claude-code ...") or the hook client beside it ("airlock-hook
// claude-code ...", docs/HOOKD.md).
func HookCommand(bin, event string) string {
	return hookline.Command(bin, Name, event)
}

// isOurs reports whether a handler's command is an airlock hook for this
// adapter, in either form and whatever binary path it names
// (hookline.Parse); a command that only mentions it is not.
func isOurs(command string) bool {
	_, _, ok := hookline.Parse(command, Name)
	return ok
}

func handler(exe string, h hookSpec) *jsonedit.Object {
	o := jsonedit.NewObject()
	o.Set("type", "command")
	o.Set("command", HookCommand(exe, h.event))
	if h.block {
		o.Set("timeout", jsonInt(preToolUseTimeout))
		o.Set("onFailure", "block")
	}
	return o
}

// Install merges airlock's hooks, running bin (airlock, or the hook
// client beside it), into a settings file's content and returns the new
// content and whether it changed. Every other key, and
// every other tool's hooks, stay as they were and where they were. Running
// it twice changes nothing the second time; an airlock hook calling
// another binary is replaced.
func Install(settings []byte, bin string) ([]byte, bool, error) {
	root, err := jsonedit.Parse(settings)
	if err != nil {
		return nil, false, fmt.Errorf("reading settings: %w", err)
	}
	hooks, err := hooksOf(root, true)
	if err != nil {
		return nil, false, err
	}
	changed := false
	for _, h := range installed {
		want := HookCommand(bin, h.event)
		groups, _ := hooks.Get(h.event)
		list, ok := groups.([]any)
		if groups != nil && !ok {
			return nil, false, fmt.Errorf("settings: hooks.%s is not a list", h.event)
		}
		if hasExact(list, want, h) {
			continue
		}
		list = removeOurs(list)
		g := jsonedit.NewObject()
		if h.matcher != "" {
			g.Set("matcher", h.matcher)
		}
		g.Set("hooks", []any{handler(bin, h)})
		hooks.Set(h.event, append(list, g))
		changed = true
	}
	if !changed {
		return settings, false, nil
	}
	out, err := jsonedit.Marshal(root)
	return out, true, err
}

// Uninstall removes airlock's hooks, and the groups, event lists and hooks
// object that only held them.
func Uninstall(settings []byte) ([]byte, bool, error) {
	root, err := jsonedit.Parse(settings)
	if err != nil {
		return nil, false, fmt.Errorf("reading settings: %w", err)
	}
	hooks, err := hooksOf(root, false)
	if err != nil || hooks == nil {
		return settings, false, err
	}
	changed := false
	for _, event := range hooks.Keys() {
		groups, _ := hooks.Get(event)
		list, ok := groups.([]any)
		if !ok {
			continue
		}
		if !touched(list) {
			continue
		}
		kept := removeOurs(list)
		changed = true
		if len(kept) == 0 {
			hooks.Del(event)
		} else {
			hooks.Set(event, kept)
		}
	}
	if !changed {
		return settings, false, nil
	}
	if hooks.Len() == 0 {
		root.Del("hooks")
	}
	out, err := jsonedit.Marshal(root)
	return out, true, err
}

// Installed lists the events whose hooks in a settings file run airlock,
// with the commands they run.
func Installed(settings []byte) (map[string][]string, error) {
	root, err := jsonedit.Parse(settings)
	if err != nil {
		return nil, err
	}
	hooks, err := hooksOf(root, false)
	if err != nil || hooks == nil {
		return nil, err
	}
	out := map[string][]string{}
	for _, event := range hooks.Keys() {
		groups, _ := hooks.Get(event)
		list, _ := groups.([]any)
		for _, g := range list {
			for _, c := range ourCommands(g) {
				out[event] = append(out[event], c)
			}
		}
	}
	return out, nil
}

func hooksOf(root *jsonedit.Object, create bool) (*jsonedit.Object, error) {
	v, ok := root.Get("hooks")
	if !ok {
		if !create {
			return nil, nil
		}
		h := jsonedit.NewObject()
		root.Set("hooks", h)
		return h, nil
	}
	h, ok := v.(*jsonedit.Object)
	if !ok {
		return nil, fmt.Errorf("settings: \"hooks\" is not an object")
	}
	return h, nil
}

// hasExact reports whether a group already holds exactly the handler
// airlock would install, with nothing else of airlock's around it.
func hasExact(list []any, command string, h hookSpec) bool {
	found := 0
	exact := false
	for _, g := range list {
		for _, c := range ourCommands(g) {
			found++
			exact = exact || c == command && groupMatcher(g) == h.matcher
		}
	}
	return exact && found == 1
}

func groupMatcher(g any) string {
	o, _ := g.(*jsonedit.Object)
	if o == nil {
		return ""
	}
	m, _ := o.Get("matcher")
	s, _ := m.(string)
	return s
}

func ourCommands(g any) []string {
	o, _ := g.(*jsonedit.Object)
	if o == nil {
		return nil
	}
	hv, _ := o.Get("hooks")
	hs, _ := hv.([]any)
	var out []string
	for _, h := range hs {
		if c, ok := commandOf(h); ok && isOurs(c) {
			out = append(out, c)
		}
	}
	return out
}

func commandOf(h any) (string, bool) {
	ho, _ := h.(*jsonedit.Object)
	if ho == nil {
		return "", false
	}
	t, _ := ho.Get("type")
	c, _ := ho.Get("command")
	cs, ok := c.(string)
	return cs, ok && t == "command"
}

// removeOurs drops airlock's handlers from every group, and the groups
// they leave empty.
func removeOurs(list []any) []any {
	var kept []any
	for _, g := range list {
		o, _ := g.(*jsonedit.Object)
		if o == nil || len(ourCommands(g)) == 0 {
			kept = append(kept, g)
			continue
		}
		hv, _ := o.Get("hooks")
		hs, _ := hv.([]any)
		var rest []any
		for _, h := range hs {
			if c, ok := commandOf(h); ok && isOurs(c) {
				continue
			}
			rest = append(rest, h)
		}
		if len(rest) > 0 {
			o.Set("hooks", rest)
			kept = append(kept, o)
		}
	}
	return kept
}

// touched reports whether any group held an airlock handler.
func touched(list []any) bool {
	for _, g := range list {
		if len(ourCommands(g)) > 0 {
			return true
		}
	}
	return false
}

func jsonInt(n int) any { return jsonedit.Number(fmt.Sprint(n)) }
