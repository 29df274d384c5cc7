package agentinstall

import (
	"bytes"
	"fmt"
	"math/rand"
	"testing"

	"github.com/airlock-dev/airlock/internal/jsonedit"
)

// TestJSONHooksRoundTripRandom installs into and uninstalls from many
// generated hook files for every JSON agent format (other keys, other
// events, other tools' groups and handlers, the agent's own event already
// in use), and checks that each comes back byte for byte and that a
// second install changes nothing. The generator leaves out the two shapes
// uninstall cannot tell from its own work: an empty event map and an
// empty list for airlock's event (both are removed with airlock's hook).
func TestJSONHooksRoundTripRandom(t *testing.T) {
	// The shapes of the agents' hook files (the agents reach theirs
	// through their install closures).
	formats := map[string]*hookFile{}
	formats["gemini"] = &hookFile{agent: "gemini", events: []string{"hooks"}, nested: true, cmdKey: "command", hooks: []hookSpec{{event: "BeforeTool", matcher: ".*", fields: func(c string) *jsonedit.Object { return object(kv{"type", "command"}, kv{"command", c}) }}}}
	formats["copilot"] = &hookFile{agent: "copilot", events: []string{"hooks"}, skeleton: []kv{{"version", num(1)}}, cmdKey: "bash", hooks: []hookSpec{{event: "preToolUse", fields: func(c string) *jsonedit.Object { return object(kv{"type", "command"}, kv{"bash", c}) }}}}
	formats["kiro"] = &hookFile{agent: "kiro", events: []string{"hooks"}, cmdKey: "command", hooks: []hookSpec{{event: "preToolUse", fields: func(c string) *jsonedit.Object { return object(kv{"matcher", "*"}, kv{"command", c}) }}}}
	formats["cursor"] = &hookFile{agent: "cursor", events: []string{"hooks"}, skeleton: []kv{{"version", num(1)}}, cmdKey: "command", hooks: []hookSpec{
		{event: "beforeShellExecution", fields: cursorHandler}, {event: "beforeMCPExecution", fields: cursorHandler}}}
	formats["factory"] = claudeShape("factory", func(c string) *jsonedit.Object { return object(kv{"type", "command"}, kv{"command", c}) })
	formats["antigravity"] = &hookFile{agent: "antigravity", events: []string{"airlock"}, nested: true, cmdKey: "command", hooks: []hookSpec{{event: "PreToolUse", matcher: "run_command", fields: func(c string) *jsonedit.Object { return object(kv{"type", "command"}, kv{"command", c}) }}}}
	formats["crush"] = &hookFile{agent: "crush", events: []string{"hooks"}, cmdKey: "command", hooks: []hookSpec{{event: "PreToolUse", fields: func(c string) *jsonedit.Object { return object(kv{"name", "airlock"}, kv{"command", c}) }}}}
	formats["goose"] = &hookFile{agent: "goose", events: []string{"hooks"}, nested: true, cmdKey: "command", hooks: []hookSpec{{event: "PreToolUse", fields: func(c string) *jsonedit.Object { return object(kv{"command", c}) }}}}

	for name, h := range formats {
		r := rand.New(rand.NewSource(int64(len(name))))
		for i := 0; i < 300; i++ {
			orig := genHookFile(r, h)
			data, err := jsonedit.Marshal(orig)
			if err != nil {
				t.Fatal(err)
			}
			in, err := h.install(data, true, "/opt/air lock/airlock")
			if err != nil {
				t.Fatalf("%s #%d install: %v\n%s", name, i, err, data)
			}
			again, err := h.install(in, true, "/opt/air lock/airlock")
			if err != nil || !bytes.Equal(again, in) {
				t.Fatalf("%s #%d: second install changed the file (%v)\n%s\n---\n%s", name, i, err, in, again)
			}
			out, err := h.uninstall(in)
			if err != nil {
				t.Fatalf("%s #%d uninstall: %v", name, i, err)
			}
			if out == nil {
				// Removed: right only when there was nothing but what a
				// new file starts with (an empty object, or the skeleton).
				if !isSkeleton(h, data) {
					t.Fatalf("%s #%d: uninstall removed a file that held the user's content\n%s", name, i, data)
				}
				continue
			}
			if !bytes.Equal(out, data) {
				t.Fatalf("%s #%d: not the original\n--- original\n%s\n--- after\n%s", name, i, data, out)
			}
		}
	}
}

func isSkeleton(h *hookFile, data []byte) bool {
	root, err := jsonedit.Parse(data)
	return err == nil && (root.Len() == 0 || h.onlySkeleton(root))
}

func genHookFile(r *rand.Rand, h *hookFile) *jsonedit.Object {
	root := jsonedit.NewObject()
	for i := r.Intn(3); i > 0; i-- {
		root.Set(fmt.Sprintf("key%d", r.Intn(9)), genValue(r, 2))
	}
	for _, f := range h.skeleton {
		if r.Intn(2) == 0 {
			root.Set(f.k, f.v)
		}
	}
	if r.Intn(5) == 0 {
		return root // no hooks at all
	}
	events := jsonedit.NewObject()
	names := []string{"Stop", "afterFileEdit", "SessionStart", h.hooks[0].event}
	for i := 1 + r.Intn(3); i > 0; i-- {
		ev := names[r.Intn(len(names))]
		var list []any
		for j := 1 + r.Intn(3); j > 0; j-- {
			handler := object(kv{"type", "command"}, kv{h.cmdKey, fmt.Sprintf("/usr/bin/tool%d --x 'hook %s'", r.Intn(5), h.agent)})
			if r.Intn(2) == 0 {
				handler.Set("timeout", num(int64(r.Intn(100))))
			}
			if !h.nested {
				list = append(list, handler)
				continue
			}
			g := jsonedit.NewObject()
			if r.Intn(2) == 0 {
				g.Set("matcher", []string{"*", "Bash", ".*", ""}[r.Intn(4)])
			}
			g.Set("hooks", []any{handler})
			list = append(list, g)
		}
		events.Set(ev, list)
	}
	root.Set(h.events[0], events)
	if r.Intn(3) == 0 {
		root.Set("zz", genValue(r, 1))
	}
	return root
}

func genValue(r *rand.Rand, depth int) any {
	switch n := r.Intn(6); {
	case depth > 0 && n == 0:
		o := jsonedit.NewObject()
		for i := r.Intn(3); i > 0; i-- {
			o.Set(fmt.Sprintf("k%d", r.Intn(5)), genValue(r, depth-1))
		}
		return o
	case depth > 0 && n == 1:
		var l []any
		for i := 1 + r.Intn(3); i > 0; i-- {
			l = append(l, genValue(r, depth-1))
		}
		return l
	case n == 2:
		return jsonedit.Number([]string{"1", "2.50", "-0", "1e3", "12345678901234567890"}[r.Intn(5)])
	case n == 3:
		return r.Intn(2) == 0
	case n == 4:
		return nil
	}
	return []string{"", "é ☃", "<&>", "a\"b\\c", "line\nbreak", "\u2028"}[r.Intn(6)]
}
