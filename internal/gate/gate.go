package gate

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/airlock-dev/airlock/internal/classify"
	"github.com/airlock-dev/airlock/internal/policy"
)

// The kinds of gate; a denial's rule is "gate.<kind>".
const (
	kindEdit        = "edit"
	kindWrite       = "write"
	kindDestructive = "destructive"
	kindRoutine     = "routine"
)

// keyRoutine marks the routine Bash gate as passed for the session.
const keyRoutine = "routine"

// Event is one hook event as the gate sees it, whatever agent sent it.
type Event struct {
	// Name is the event: "PreToolUse", "PostToolUse" or "UserPromptSubmit".
	Name string
	// Session identifies the session; Transcript is the session's
	// transcript file, used when there is no session id.
	Session    string
	Transcript string
	// Agent is the subagent's id when a subagent made the call, "" for the
	// main agent. Subagents share their session's state.
	Agent string
	// Cwd is the agent's working directory.
	Cwd string
	// Tool and Input are the tool call (tool events).
	Tool  string
	Input json.RawMessage
	// Prompt is the user's words (UserPromptSubmit).
	Prompt string
}

// Outcome is what Pre decided.
type Outcome struct {
	// Denied reports that the gate refused the call; Verdict has been set
	// to a deny with rule "gate.<kind>".
	Denied bool
	// Reason is the text the agent reads: which facts to present.
	Reason string
	// Warning is for the human (standard error): configuration mistakes,
	// and state that could not be kept, in which case the call is allowed.
	Warning string
}

// Gate is the fact-forcing gate. It keeps no state in memory between
// events beyond warnings already given: each hook process handles one
// event, and everything a session needs is in its state file.
type Gate struct {
	getenv func(string) string
	now    func() time.Time
	getwd  func() (string, error)
	// reported holds the warnings this process has printed.
	reported map[string]bool
}

// New returns a gate reading the environment through getenv (os.Getenv in
// the binary) with the clock now (time.Now when nil). It does no work
// until an event comes: when the policy leaves the gate off, Pre and
// Observe return before touching any file.
func New(getenv func(string) string, now func() time.Time) *Gate {
	if now == nil {
		now = time.Now
	}
	return &Gate{getenv: getenv, now: now, getwd: os.Getwd, reported: map[string]bool{}}
}

// root is the project root that exempt globs and displayed paths are
// relative to: CLAUDE_PROJECT_DIR, else the event's cwd, else the
// process's directory.
func (g *Gate) root(ev *Event) string {
	if d := g.getenv(EnvProjectDir); d != "" {
		return filepath.Clean(d)
	}
	if ev.Cwd != "" {
		return filepath.Clean(ev.Cwd)
	}
	if wd, err := g.getwd(); err == nil {
		return wd
	}
	return ""
}

// display is how a denial names a file: relative to the root when inside
// it, with "/" separators.
func display(target, root string) string {
	if root != "" {
		if rel, err := filepath.Rel(root, target); err == nil && rel != "." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && rel != ".." {
			target = rel
		}
	}
	return sanitize(filepath.ToSlash(target), false)
}

func (g *Gate) store(c *config) *store { return &store{dir: c.stateDir, now: g.now} }

func (g *Gate) key(ev *Event) string { return sessionKey(ev.Session, ev.Transcript, g.root(ev)) }

// Pre judges a tool call the policy has decided. Only a call the policy
// allowed or warned about is looked at, and the gate can only turn it into
// a deny: it never loosens a decision. When it denies it sets v to a deny
// with rule "gate.<kind>" and a message for the human, and returns the
// reason for the agent.
//
// With the gate off (the default) Pre returns at once without reading any
// file.
func (g *Gate) Pre(p *policy.Policy, ev *Event, a *policy.Action, v *policy.Verdict) Outcome {
	if v.Decision.Holds() {
		return Outcome{}
	}
	var out result
	switch ev.Tool {
	case "Edit", "MultiEdit", "NotebookEdit", "Write":
		if c := resolve(p, g.getenv); c != nil {
			out = g.preFile(c, ev)
		}
	case "Bash":
		if a.Kind != policy.Shell {
			return Outcome{}
		}
		if c := resolve(p, g.getenv); c != nil {
			out = g.preBash(c, ev, a.Command, v)
		}
	}
	if out.Denied {
		v.Decision, v.Rule, v.Message = policy.Deny, "gate."+out.kind, out.summary
		v.Reasons = append(v.Reasons, classify.Reason{Rule: v.Rule, Message: out.summary})
	} else if out.passed != "" {
		v.Reasons = append(v.Reasons, classify.Reason{Rule: "gate.evidence", Message: out.passed})
	}
	if out.stateErr != "" {
		v.Reasons = append(v.Reasons, classify.Reason{Rule: "gate.state", Message: out.stateErr})
	}
	return out.Outcome
}

// result is an Outcome with what the verdict needs.
type result struct {
	Outcome
	kind     string
	summary  string
	passed   string
	stateErr string
}

// fileTargets lists the files a file tool call writes: file_path (or
// notebook_path), and the file_path of each of a MultiEdit's edits when a
// client sends edits for several files in one call.
func fileTargets(ev *Event) []string {
	var in struct {
		FilePath     string `json:"file_path"`
		NotebookPath string `json:"notebook_path"`
		Edits        []struct {
			FilePath string `json:"file_path"`
		} `json:"edits"`
	}
	if err := json.Unmarshal(ev.Input, &in); err != nil {
		return nil
	}
	var out []string
	add := func(p string) {
		if p == "" {
			return
		}
		p = absUnder(p, ev.Cwd)
		for _, have := range out {
			if have == p {
				return
			}
		}
		out = append(out, p)
	}
	add(in.FilePath)
	add(in.NotebookPath)
	for _, e := range in.Edits {
		add(e.FilePath)
	}
	return out
}

func (g *Gate) preFile(c *config, ev *Event) result {
	root := g.root(ev)
	var gated []string
	for _, t := range fileTargets(ev) {
		if c.exempt.MatchTarget(t, root) == nil {
			gated = append(gated, t)
		}
	}
	if len(gated) == 0 {
		return g.warnOnly(c, ev)
	}
	kind := kindEdit
	if ev.Tool == "Write" {
		if _, err := os.Lstat(gated[0]); errors.Is(err, fs.ErrNotExist) {
			kind = kindWrite
		}
	}
	keys := make([]string, len(gated))
	for i, t := range gated {
		keys[i] = "file:" + t
	}
	if g.cleared(c, ev, keys...) {
		return result{}
	}
	now := g.now().Unix()
	since := g.now().Add(-c.window).Unix()
	var d *denial
	var passed []string
	var warns []string
	err := g.store(c).update(g.key(ev), func(st *State) bool {
		d, passed = nil, nil
		changed := false
		warns, changed = g.newWarnings(c, st)
		var pending []fileDenial
		var pendingKeys []string
		for _, t := range gated {
			key := "file:" + t
			if _, ok := st.Checked[key]; ok {
				continue
			}
			e := st.evidenceFor(t, root, since)
			if kind == kindEdit && e.complete() {
				st.Checked[key] = now
				changed = true
				passed = append(passed, display(t, root)+" (read "+ago(now, e.read.At)+", importers searched with "+e.search.Tool+" "+quoteShort(e.search.Pattern)+")")
				continue
			}
			fd := fileDenial{display: display(t, root)}
			if kind == kindEdit {
				fd.missing = e.missing(fd.display, importNames(t, root), c.window)
			}
			pending = append(pending, fd)
			pendingKeys = append(pendingKeys, key)
		}
		if len(pending) == 0 {
			return changed
		}
		for _, k := range pendingKeys {
			st.Checked[k] = now
		}
		st.Denials++
		d = &denial{kind: kind, ordinal: st.Denials, full: st.Denials <= c.fullDenials, files: pending, prompt: st.Prompt, agent: ev.Agent, window: c.window}
		return true
	})
	return g.finish(c, ev, kind, d, passed, warns, err)
}

func (g *Gate) preBash(c *config, ev *Event, command string, v *policy.Verdict) result {
	destructive := v.Effect.Destructive || c.extraDestructive(command, v.Shell)
	if !destructive && (!c.routine || readShell(v.Shell, ev.Cwd).readOnly) {
		return g.warnOnly(c, ev)
	}
	kind := kindRoutine
	key := keyRoutine
	if destructive {
		kind = kindDestructive
		key = "bash:" + digest(strings.TrimSpace(command))
	}
	if g.cleared(c, ev, key) {
		return result{}
	}
	now := g.now().Unix()
	var d *denial
	var warns []string
	err := g.store(c).update(g.key(ev), func(st *State) bool {
		d = nil
		var changed bool
		warns, changed = g.newWarnings(c, st)
		if _, ok := st.Checked[key]; ok {
			return changed
		}
		st.Checked[key] = now
		// The facts of a destructive command include the user's
		// instruction, so they answer the routine gate too.
		st.Checked[keyRoutine] = now
		st.Denials++
		d = &denial{kind: kind, ordinal: st.Denials, full: st.Denials <= c.fullDenials, command: sanitize(command, false), prompt: st.Prompt, agent: ev.Agent}
		return true
	})
	return g.finish(c, ev, kind, d, nil, warns, err)
}

// cleared is the fast path of a call the session has already cleared:
// every key checked and no warning to give. It reads the state file
// without the lock (files are replaced whole, so it sees a complete
// version) and writes nothing; anything else goes through the locked
// update.
func (g *Gate) cleared(c *config, ev *Event, keys ...string) bool {
	for _, w := range c.warnings {
		if !g.reported[w.key] {
			return false
		}
	}
	checked, err := g.store(c).checked(g.key(ev))
	if err != nil {
		return false
	}
	for _, k := range keys {
		if _, ok := checked[k]; !ok {
			return false
		}
	}
	return true
}

// extraDestructive reports whether a pattern of gate.extra_destructive or
// GATEGUARD_BASH_EXTRA_DESTRUCTIVE matches the command as written, or one
// of the program runs airlock found in it (so that text nested in bash -c
// or eval is seen too).
func (c *config) extraDestructive(command string, r *classify.Result) bool {
	if len(c.extra) == 0 {
		return false
	}
	for _, re := range c.extra {
		if re.MatchString(command) {
			return true
		}
		if r == nil {
			continue
		}
		for i := range r.Invocations {
			if re.MatchString(strings.Join(r.Invocations[i].Args, " ")) {
				return true
			}
		}
	}
	return false
}

// newWarnings returns the configuration warnings not yet given this
// session (or this process) and records them; changed reports a state
// change.
func (g *Gate) newWarnings(c *config, st *State) (warns []string, changed bool) {
	for _, w := range c.warnings {
		if g.reported[w.key] {
			continue
		}
		if st.warnOnce(w.key) {
			warns = append(warns, w.text)
			changed = true
		}
		g.reported[w.key] = true
	}
	return warns, changed
}

// warnOnly reports configuration warnings for a call the gate lets
// through without looking at the session, so that a malformed variable
// is still reported (once per process; there is no state to record it).
func (g *Gate) warnOnly(c *config, ev *Event) result {
	var warns []string
	for _, w := range c.warnings {
		if !g.reported[w.key] {
			g.reported[w.key] = true
			warns = append(warns, w.text)
		}
	}
	return result{Outcome: Outcome{Warning: strings.Join(warns, "\n")}}
}

// finish turns a state update's result into the outcome. A state error
// allows the call: the gate fails open on its own state, because a denial
// it cannot remember would be repeated on every retry.
func (g *Gate) finish(c *config, ev *Event, kind string, d *denial, passed, warns []string, err error) result {
	var r result
	if err != nil {
		for _, w := range c.warnings {
			if !g.reported[w.key] {
				g.reported[w.key] = true
				warns = append(warns, w.text)
			}
		}
		r.stateErr = stateWarning(c, err)
		warns = append(warns, r.stateErr)
		r.Warning = strings.Join(warns, "\n")
		return r
	}
	r.Warning = strings.Join(warns, "\n")
	if len(passed) > 0 {
		r.passed = "first edit passed the fact-forcing gate on evidence: " + strings.Join(passed, "; ")
	}
	if d == nil {
		return r
	}
	r.Denied, r.kind, r.Reason, r.summary = true, kind, d.text(), d.summary()
	return r
}

// stateWarning is the warning for state that could not be kept; it names
// GATEGUARD_STATE_DIR, the way to point the gate somewhere writable.
func stateWarning(c *config, err error) string {
	where := c.stateDir
	if where == "" {
		where = "(none)"
	}
	return "airlock: warning: " + err.Error() + "; the fact-forcing gate allowed this call rather than risk asking the same thing forever. Its state directory is " + where + " (from " + orNone(c.stateFrom) + "); set " + EnvStateDir + " (or gate.state_dir in the policy) to a writable directory."
}

func orNone(s string) string {
	if s == "" {
		return "nothing: HOME is not set"
	}
	return s
}

// ago renders how long before now t was, in whole units.
func ago(now, t int64) string {
	d := time.Duration(now-t) * time.Second
	if d < time.Minute {
		return d.String() + " ago"
	}
	return shortDuration(d.Round(time.Minute)) + " ago"
}

func quoteShort(s string) string { return "\"" + clipRunes(sanitize(s, false), 80) + "\"" }
