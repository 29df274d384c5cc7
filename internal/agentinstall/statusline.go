package agentinstall

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/airlock-dev/airlock/internal/hookline"
	"github.com/airlock-dev/airlock/internal/jsonedit"
)

// This file installs airlock's status line segment ("airlock statusline")
// into an agent's command status line: Claude Code's "statusLine" and
// Qwen Code's "ui.statusLine", both {"type":"command","command":...}.
//
// An existing status line is chained, not replaced: its command becomes
// "THEIRS | AIRLOCK statusline", and airlock statusline prints the first
// line it is given before its own segment. Uninstalling takes exactly
// that suffix off again (or removes the whole setting when airlock wrote
// it), so no backup is needed and a settings file in the agents' own
// layout comes back byte for byte. Where the user's line is not a
// command (another type, not an object), airlock does not touch it.

// chainSep joins the user's status line command and airlock's.
const chainSep = " | "

// StatusLineClient is the file name of the status line's own binary
// (cmd/airlock-statusline): "airlock statusline" in a binary that links
// only the status line's reader, so it starts about as fast as a bare Go
// program (docs/BENCHMARKS.md).
const StatusLineClient = "airlock-statusline"

// StatusLineCommand is the command airlock's segment runs, by absolute
// path, quoted for a POSIX shell: airlock-statusline when it sits beside
// the airlock binary exe as a regular executable file, else "airlock
// statusline".
func StatusLineCommand(exe string) string {
	client := filepath.Join(filepath.Dir(exe), StatusLineClient)
	if st, err := os.Stat(client); err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0 {
		return hookline.Quote(client)
	}
	return hookline.Quote(exe) + " statusline"
}

// ErrStatusLineNotCommand is a status line setting airlock cannot chain
// after.
var ErrStatusLineNotCommand = errors.New("the status line setting is not a command status line ({\"type\":\"command\",\"command\":...}); set it by hand")

// isOurSegment reports whether a command (or the part after the last chain
// separator) is airlock's segment: an airlock binary's "statusline".
func isOurSegment(cmd string) bool {
	bin := hookline.Binary(cmd)
	switch {
	case bin == "" || !filepath.IsAbs(bin):
		return false
	case filepath.Base(bin) == "airlock":
		return cmd == hookline.Quote(bin)+" statusline"
	case filepath.Base(bin) == StatusLineClient:
		return cmd == hookline.Quote(bin)
	}
	return false
}

// splitOurs splits a status line command into the user's part and
// airlock's: ours is false when airlock's segment is not at its end.
func splitOurs(cmd string) (theirs string, ours bool) {
	if isOurSegment(cmd) {
		return "", true
	}
	if i := strings.LastIndex(cmd, chainSep); i >= 0 && isOurSegment(cmd[i+len(chainSep):]) {
		return cmd[:i], true
	}
	return cmd, false
}

// statusParent is the object that holds the status line setting at key
// (a path of object keys), made when create is set.
func statusParent(root *jsonedit.Object, key []string, create bool) (*jsonedit.Object, error) {
	o := root
	for _, k := range key[:len(key)-1] {
		v, ok := o.Get(k)
		if !ok {
			if !create {
				return nil, nil
			}
			n := jsonedit.NewObject()
			o.Set(k, n)
			o = n
			continue
		}
		n, isObj := v.(*jsonedit.Object)
		if !isObj {
			return nil, fmt.Errorf("%q is not an object", k)
		}
		o = n
	}
	return o, nil
}

// InstallStatusLine puts airlock's segment into the status line setting
// at key of a settings document: chained after the user's command, or a
// new command status line when there is none. It returns the document
// unchanged when the segment is already there, running cmd.
func InstallStatusLine(settings []byte, key []string, cmd string) ([]byte, error) {
	root, err := jsonedit.Parse(settings)
	if err != nil {
		return nil, err
	}
	parent, err := statusParent(root, key, true)
	if err != nil {
		return nil, err
	}
	name := key[len(key)-1]
	v, had := parent.Get(name)
	if !had {
		parent.Set(name, object(kv{"type", "command"}, kv{"command", cmd}, kv{"padding", num(0)}))
		return jsonedit.Marshal(root)
	}
	sl, ok := v.(*jsonedit.Object)
	if !ok {
		return nil, ErrStatusLineNotCommand
	}
	typ, _ := sl.Get("type")
	cur, isStr := sl.Get("command")
	s, _ := cur.(string)
	if typ != "command" || !isStr {
		return nil, ErrStatusLineNotCommand
	}
	theirs, ours := splitOurs(s)
	want := cmd
	if theirs != "" || !ours {
		if !ours {
			theirs = s
		}
		want = theirs + chainSep + cmd
	}
	if want == s {
		return settings, nil
	}
	sl.Set("command", want)
	return jsonedit.Marshal(root)
}

// UninstallStatusLine takes airlock's segment out of the status line
// setting at key: the user's command is left as it was before install,
// and a status line airlock wrote alone is removed, with an object above
// it that it leaves empty. A document without airlock's segment comes
// back unchanged.
func UninstallStatusLine(settings []byte, key []string) ([]byte, error) {
	root, err := jsonedit.Parse(settings)
	if err != nil {
		return nil, err
	}
	parent, err := statusParent(root, key, false)
	if err != nil || parent == nil {
		return settings, err
	}
	name := key[len(key)-1]
	v, _ := parent.Get(name)
	sl, ok := v.(*jsonedit.Object)
	if !ok {
		return settings, nil
	}
	cur, _ := sl.Get("command")
	s, _ := cur.(string)
	theirs, ours := splitOurs(s)
	if !ours {
		return settings, nil
	}
	if theirs != "" {
		sl.Set("command", theirs)
		return jsonedit.Marshal(root)
	}
	parent.Del(name)
	if parent != root && parent.Len() == 0 {
		if up, _ := statusParent(root, key[:len(key)-1], false); up != nil {
			up.Del(key[len(key)-2])
		}
	}
	return jsonedit.Marshal(root)
}

// StatusLineOf reports the status line command at key of a settings
// document, and whether airlock's segment ends it (for the doctor).
func StatusLineOf(settings []byte, key []string) (cmd string, ours bool) {
	root, err := jsonedit.Parse(settings)
	if err != nil {
		return "", false
	}
	parent, _ := statusParent(root, key, false)
	if parent == nil {
		return "", false
	}
	v, _ := parent.Get(key[len(key)-1])
	sl, _ := v.(*jsonedit.Object)
	if sl == nil {
		return "", false
	}
	c, _ := sl.Get("command")
	cmd, _ = c.(string)
	_, ours = splitOurs(cmd)
	return cmd, ours
}

// ClaudeStatusLine is where Claude Code keeps its status line.
var ClaudeStatusLine = []string{"statusLine"}

// ErrNoStatusLine: the agent has no command status line airlock can
// install into.
var ErrNoStatusLine = errors.New("this agent has no command status line airlock can install into")

// StatusLine adds airlock's segment to the plan p (install) or takes it
// out (uninstall), in the agent's settings file for scope, over what p
// already writes there. Qwen Code keeps it at ui.statusLine.
func (a *Agent) StatusLine(p *Plan, env Env, scope Scope, install bool) error {
	if a.statusKey == nil || a.settingsFile == nil {
		return ErrNoStatusLine
	}
	path := a.settingsFile(env, scope)
	var cur []byte
	existed := false
	at := -1
	for i, f := range p.Files {
		if f.Path == path {
			at, cur, existed = i, f.New, f.New != nil
		}
	}
	orig, origExisted, err := osReader{}.read(path)
	if err != nil {
		return err
	}
	if at < 0 {
		cur, existed = orig, origExisted
	}
	var out []byte
	if install {
		out, err = InstallStatusLine(cur, a.statusKey, StatusLineCommand(env.Exe))
	} else if existed {
		out, err = UninstallStatusLine(cur, a.statusKey)
	} else {
		return nil
	}
	if err != nil {
		return &FileError{Path: path, Err: err}
	}
	if at >= 0 {
		p.Files = append(p.Files[:at], p.Files[at+1:]...)
	}
	if !install && out != nil && onlyEmpty(out) {
		out = nil
	}
	p.add(path, orig, origExisted, out, 0o644)
	return nil
}

// onlyEmpty reports whether a settings document is an empty object: what
// is left after uninstalling from a file airlock created.
func onlyEmpty(doc []byte) bool {
	root, err := jsonedit.Parse(doc)
	return err == nil && root.Len() == 0
}
