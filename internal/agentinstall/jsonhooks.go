package agentinstall

import (
	"bytes"
	"fmt"

	"github.com/airlock-dev/airlock/internal/jsonedit"
)

// This file is the phase that merges airlock's hook into a JSON hook file
// and takes it out again, for every agent whose hooks live in JSON. The
// agents differ in where the event map sits, whether an event holds
// matcher groups (Claude Code's shape) or handlers directly, and what the
// handler's fields are called; hookFile holds those differences, and the
// merge is the same for all.

// kv is one key of a JSON object, in order.
type kv struct {
	k string
	v any
}

func object(fields ...kv) *jsonedit.Object {
	o := jsonedit.NewObject()
	for _, f := range fields {
		o.Set(f.k, f.v)
	}
	return o
}

func num(n int64) any { return jsonedit.Number(fmt.Sprint(n)) }

// hookFile is one agent's JSON hook file format.
type hookFile struct {
	agent string
	// events is the path of keys to the object whose keys are event
	// names, e.g. ["hooks"].
	events []string
	// skeleton are the top-level keys a new file starts with
	// ("version": 1). A file left holding only them when airlock's hooks
	// are removed is removed too: airlock created it.
	skeleton []kv
	// nested is Claude Code's shape: an event holds matcher groups
	// {"matcher", "hooks": [handler]}. Otherwise an event holds handlers.
	nested bool
	// cmdKey names the handler's command line ("command"; Copilot's
	// "bash").
	cmdKey string
	hooks  []hookSpec
}

// hookSpec is one handler airlock installs.
type hookSpec struct {
	event string
	// matcher is the group's matcher, "" for none (nested files only;
	// a flat handler carries its own in fields).
	matcher string
	// fields are the handler's keys other than the command line, in
	// order; the command line goes where cmdAt says.
	fields func(cmd string) *jsonedit.Object
}

func (h *hookFile) parse(data []byte) (*jsonedit.Object, error) {
	root, err := jsonedit.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("reading %s's hook file: %w", h.agent, err)
	}
	return root, nil
}

// eventMap walks to the event map, creating it when asked.
func (h *hookFile) eventMap(root *jsonedit.Object, create bool) (*jsonedit.Object, error) {
	cur := root
	for i, k := range h.events {
		v, ok := cur.Get(k)
		if !ok {
			if !create {
				return nil, nil
			}
			n := jsonedit.NewObject()
			cur.Set(k, n)
			cur = n
			continue
		}
		o, ok := v.(*jsonedit.Object)
		if !ok {
			return nil, fmt.Errorf("%q is not a JSON object", joinPath(h.events[:i+1]))
		}
		cur = o
	}
	return cur, nil
}

func joinPath(keys []string) string {
	var b bytes.Buffer
	for i, k := range keys {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(k)
	}
	return b.String()
}

func (h *hookFile) list(events *jsonedit.Object, event string) ([]any, error) {
	v, ok := events.Get(event)
	if !ok || v == nil {
		return nil, nil
	}
	l, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%s.%s is not a list", joinPath(h.events), event)
	}
	return l, nil
}

// handlersOf returns the handlers of one list entry: the group's hooks
// when nested, the entry itself otherwise.
func (h *hookFile) handlersOf(entry any) []any {
	if !h.nested {
		return []any{entry}
	}
	o, _ := entry.(*jsonedit.Object)
	if o == nil {
		return nil
	}
	v, _ := o.Get("hooks")
	l, _ := v.([]any)
	return l
}

func (h *hookFile) commandOf(handler any) (string, bool) {
	o, _ := handler.(*jsonedit.Object)
	if o == nil {
		return "", false
	}
	v, _ := o.Get(h.cmdKey)
	s, ok := v.(string)
	return s, ok
}

func (h *hookFile) ours(handler any) bool {
	c, ok := h.commandOf(handler)
	return ok && isOurs(c, h.agent)
}

func (h *hookFile) handler(exe string, s hookSpec) *jsonedit.Object {
	return s.fields(HookCommand(exe, h.agent, s.event))
}

func (h *hookFile) entry(exe string, s hookSpec) any {
	if !h.nested {
		return h.handler(exe, s)
	}
	g := jsonedit.NewObject()
	if s.matcher != "" {
		g.Set("matcher", s.matcher)
	}
	g.Set("hooks", []any{h.handler(exe, s)})
	return g
}

// exact reports whether the list already holds exactly the entry airlock
// would install, and no other handler of airlock's.
func (h *hookFile) exact(list []any, want any) bool {
	wantJSON, err := jsonedit.Marshal(want)
	if err != nil {
		return false
	}
	found, same := 0, false
	for _, e := range list {
		n := 0
		for _, hd := range h.handlersOf(e) {
			if h.ours(hd) {
				n++
			}
		}
		if n == 0 {
			continue
		}
		found += n
		got, err := jsonedit.Marshal(e)
		same = same || err == nil && bytes.Equal(got, wantJSON)
	}
	return same && found == 1
}

// removeOurs drops airlock's handlers, and the groups they leave empty.
func (h *hookFile) removeOurs(list []any) (kept []any, removed bool) {
	kept, removed, _ = h.removeOursAt(list)
	return kept, removed
}

// removeOursAt is removeOurs that also says where the first entry it
// dropped whole was (-1 when none was), so that a replacement can take
// its place: Codex keys trust by position, and moving airlock's group to
// the end would move the user's hooks after it.
func (h *hookFile) removeOursAt(list []any) (kept []any, removed bool, at int) {
	at = -1
	for _, e := range list {
		before := len(kept)
		if !h.nested {
			if h.ours(e) {
				removed = true
				if at < 0 {
					at = before
				}
				continue
			}
			kept = append(kept, e)
			continue
		}
		o, _ := e.(*jsonedit.Object)
		hs := h.handlersOf(e)
		var rest []any
		for _, hd := range hs {
			if h.ours(hd) {
				removed = true
				continue
			}
			rest = append(rest, hd)
		}
		switch {
		case o == nil || len(rest) == len(hs):
			kept = append(kept, e)
		case len(rest) > 0:
			o.Set("hooks", rest)
			kept = append(kept, o)
		}
		if len(kept) == before && at < 0 {
			at = before
		}
	}
	return kept, removed, at
}

// install merges airlock's handlers into a hook file's content. Every
// other key and every other handler stays as it was and where it was;
// content that already holds exactly airlock's handlers comes back
// unchanged.
func (h *hookFile) install(data []byte, existed bool, exe string) ([]byte, error) {
	root, err := h.parse(data)
	if err != nil {
		return nil, err
	}
	if !existed {
		for _, f := range h.skeleton {
			root.Set(f.k, f.v)
		}
	}
	events, err := h.eventMap(root, true)
	if err != nil {
		return nil, err
	}
	changed := !existed
	for _, s := range h.hooks {
		list, err := h.list(events, s.event)
		if err != nil {
			return nil, err
		}
		want := h.entry(exe, s)
		if h.exact(list, want) {
			continue
		}
		list, _, at := h.removeOursAt(list)
		if at >= 0 {
			list = append(list[:at], append([]any{want}, list[at:]...)...)
		} else {
			list = append(list, want)
		}
		events.Set(s.event, list)
		changed = true
	}
	if !changed {
		return data, nil
	}
	return jsonedit.Marshal(root)
}

// uninstall takes airlock's handlers out of a hook file's content, with
// the event lists and the event map they leave empty. It returns nil when
// nothing but what airlock created is left: the file is to be removed.
func (h *hookFile) uninstall(data []byte) ([]byte, error) {
	root, err := h.parse(data)
	if err != nil {
		return nil, err
	}
	events, err := h.eventMap(root, false)
	if err != nil || events == nil {
		return data, err
	}
	changed := false
	for _, ev := range events.Keys() {
		list, err := h.list(events, ev)
		if err != nil {
			continue // not airlock's to judge: left as it is
		}
		kept, removed := h.removeOurs(list)
		if !removed {
			continue
		}
		changed = true
		if len(kept) == 0 {
			events.Del(ev)
		} else {
			events.Set(ev, kept)
		}
	}
	if !changed {
		return data, nil
	}
	if events.Len() == 0 {
		h.dropEmpty(root)
	}
	if h.onlySkeleton(root) {
		return nil, nil
	}
	return jsonedit.Marshal(root)
}

// dropEmpty removes the empty event map and the objects above it that
// held only it.
func (h *hookFile) dropEmpty(root *jsonedit.Object) {
	for depth := len(h.events); depth > 0; depth-- {
		parent := root
		for _, k := range h.events[:depth-1] {
			v, _ := parent.Get(k)
			parent, _ = v.(*jsonedit.Object)
			if parent == nil {
				return
			}
		}
		k := h.events[depth-1]
		v, _ := parent.Get(k)
		o, _ := v.(*jsonedit.Object)
		if o == nil || o.Len() != 0 {
			return
		}
		parent.Del(k)
	}
}

func (h *hookFile) onlySkeleton(root *jsonedit.Object) bool {
	if root.Len() != len(h.skeleton) {
		return false
	}
	for _, f := range h.skeleton {
		v, ok := root.Get(f.k)
		if !ok {
			return false
		}
		a, _ := jsonedit.Marshal(v)
		b, _ := jsonedit.Marshal(f.v)
		if !bytes.Equal(a, b) {
			return false
		}
	}
	return true
}

// installed lists, per event, the command lines of airlock's handlers
// in a hook file.
func (h *hookFile) installed(data []byte) (map[string][]string, error) {
	root, err := h.parse(data)
	if err != nil {
		return nil, err
	}
	events, err := h.eventMap(root, false)
	if err != nil || events == nil {
		return nil, err
	}
	out := map[string][]string{}
	for _, ev := range events.Keys() {
		list, _ := h.list(events, ev)
		for _, e := range list {
			for _, hd := range h.handlersOf(e) {
				if c, ok := h.commandOf(hd); ok && isOurs(c, h.agent) {
					out[ev] = append(out[ev], c)
				}
			}
		}
	}
	return out, nil
}
