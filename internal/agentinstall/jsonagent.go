package agentinstall

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/airlock-dev/airlock/internal/hookline"
)

// fileFor names an agent's configuration file for a scope.
type fileFor func(env Env, scope Scope) string

// withJSONHooks gives an agent whose hook lives in one JSON file per scope
// its install, uninstall and inspect phases.
func withJSONHooks(a *Agent, h *hookFile, file fileFor) *Agent {
	a.settingsFile = file
	a.install = func(env Env, scope Scope, r reader) (*Plan, error) {
		p := &Plan{Agent: a.Name, Scope: scope}
		path := file(env, scope)
		if err := installJSON(p, h, path, env.runs(), r); err != nil {
			return nil, err
		}
		return p, nil
	}
	a.uninstall = func(env Env, scope Scope, r reader) (*Plan, error) {
		p := &Plan{Agent: a.Name, Scope: scope}
		if err := uninstallJSON(p, h, file(env, scope), r); err != nil {
			return nil, err
		}
		return p, nil
	}
	a.inspect = func(env Env, scope Scope, r reader) Status {
		st := Status{Agent: a.Name, Scope: scope}
		inspectJSON(&st, a, h, file(env, scope), env, r)
		return st
	}
	return a
}

func installJSON(p *Plan, h *hookFile, path, exe string, r reader) error {
	old, existed, err := r.read(path)
	if err != nil {
		return err
	}
	out, err := h.install(old, existed, exe)
	if err != nil {
		return &FileError{Path: path, Err: err}
	}
	p.add(path, old, existed, out, 0o644)
	return nil
}

func uninstallJSON(p *Plan, h *hookFile, path string, r reader) error {
	old, existed, err := r.read(path)
	if err != nil || !existed {
		return err
	}
	out, err := h.uninstall(old)
	if err != nil {
		return &FileError{Path: path, Err: err}
	}
	p.add(path, old, existed, out, 0)
	return nil
}

// FileError is a configuration file airlock cannot read or merge into;
// it never rewrites such a file.
type FileError struct {
	Path string
	Err  error
}

func (e *FileError) Error() string { return e.Path + ": " + e.Err.Error() }

// Unwrap returns the cause.
func (e *FileError) Unwrap() error { return e.Err }

// inspectJSON reads one hook file and says whether airlock's pre-tool
// hook is there and runs this binary.
func inspectJSON(st *Status, a *Agent, h *hookFile, path string, env Env, r reader) {
	st.Files = append(st.Files, path)
	data, existed, err := r.read(path)
	if err != nil {
		st.problem("check the file's permissions", "%s: %v", path, err)
		return
	}
	if !existed {
		return
	}
	events, err := h.installed(data)
	if err != nil {
		st.problem(fmt.Sprintf("fix the file by hand, then run airlock install %s", a.Name), "%s: %v", path, err)
		return
	}
	checkCommands(st, a, events, env, path)
}

// checkCommands judges the hook command lines found for an agent: the
// pre-tool event must run airlock, and every command must run this
// binary by a path that exists.
func checkCommands(st *Status, a *Agent, events map[string][]string, env Env, where string) {
	fix := fmt.Sprintf("airlock install %s --%s", a.Name, st.Scope)
	for _, ev := range a.Events {
		cmds := events[ev]
		if len(cmds) == 0 {
			if len(events) > 0 {
				st.problem(fix, "%s: no airlock hook for %s", where, ev)
			}
			continue
		}
		st.Installed = true
		for _, c := range cmds {
			st.Commands = append(st.Commands, c)
			if !env.ownLine(c, HookCommand, a.Name, ev) {
				checkBinary(st, c, env, fix)
			}
		}
	}
}

// ownLine reports whether a found line is the one this airlock installs,
// in either form: the in-process line for Exe, or the client's line when
// Env names a client (the doctor names the one beside Exe that it
// trusts). Either is correct; which one the person chose is theirs.
func (e Env) ownLine(found string, line func(bin, agent, event string) string, agent, event string) bool {
	return found == line(e.Exe, agent, event) || e.Client != "" && found == line(e.Client, agent, event)
}

// checkBinary says why a hook command is not this airlock's.
func checkBinary(st *Status, cmd string, env Env, fix string) {
	bin := HookBinary(cmd)
	fi, err := os.Stat(bin)
	beside := filepath.Join(filepath.Dir(env.Exe), hookline.ClientName)
	_, clientErr := hookline.Client(env.Exe)
	switch {
	case err != nil:
		st.problem(fix, "the hook runs %s, which does not exist: the agent's hook fails (most agents then run the tool call)", bin)
	case bin == beside && clientErr != nil:
		st.problem(fix+" --no-hookd, or reinstall airlock-hook beside airlock (CGO_ENABLED=0 go install ./cmd/...)",
			"the hook runs the client %s, which airlock does not trust: %v", bin, clientErr)
	case sameFile(fi, env.runs()) || sameFile(fi, env.Exe):
		st.problem(fix, "the hook command %q differs from the one this airlock installs", cmd)
	default:
		st.problem(fix, "the hook runs %s, another binary than this airlock (%s)", bin, env.Exe)
	}
}

func sameFile(fi os.FileInfo, path string) bool {
	other, err := os.Stat(path)
	return err == nil && os.SameFile(fi, other)
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
