package agentinstall

import (
	"bytes"
	"fmt"
	"io/fs"
)

// This file is the phase for files airlock owns outright: the OpenCode
// plugin and Cline's hook scripts. Such a file is airlock's when it
// carries the marker line near its top; airlock never overwrites or
// removes a file without it, since that file is someone else's hook.

const managedMarker = "airlock-managed:"

func isManaged(data []byte) bool {
	head := data
	for i, n := 0, 0; i < len(data); i++ {
		if data[i] == '\n' {
			if n++; n == 3 {
				head = data[:i]
				break
			}
		}
	}
	return bytes.Contains(head, []byte(managedMarker))
}

// NotOursError is a file at the place airlock writes that airlock did not
// write.
type NotOursError struct {
	Path string
}

func (e *NotOursError) Error() string {
	return e.Path + " exists and was not written by airlock; airlock does not overwrite another hook"
}

func installManaged(p *Plan, path string, want []byte, mode fs.FileMode, r reader) error {
	old, existed, err := r.read(path)
	if err != nil {
		return err
	}
	if existed && !isManaged(old) {
		return &NotOursError{Path: path}
	}
	p.add(path, old, existed, want, mode)
	return nil
}

func uninstallManaged(p *Plan, path string, r reader) error {
	old, existed, err := r.read(path)
	if err != nil || !existed || !isManaged(old) {
		return err
	}
	p.add(path, old, existed, nil, 0)
	return nil
}

// inspectManaged checks a managed file: present, airlock's, and equal to
// what this airlock would write, in either form (want builds it for a
// binary: airlock, or the client beside it).
func inspectManaged(st *Status, a *Agent, path string, want func(bin string) []byte, bin func([]byte) string, env Env, r reader) {
	st.Files = append(st.Files, path)
	data, existed, err := r.read(path)
	fix := fmt.Sprintf("airlock install %s --%s", a.Name, st.Scope)
	switch {
	case err != nil:
		st.problem("check the file's permissions", "%s: %v", path, err)
		return
	case !existed:
		return
	case !isManaged(data):
		st.problem("move that file away, then "+fix, "%s was not written by airlock: airlock's hook is not there", path)
		return
	}
	st.Installed = true
	b := bin(data)
	st.Commands = append(st.Commands, b)
	if !bytes.Equal(data, want(env.Exe)) && (env.Client == "" || !bytes.Equal(data, want(env.Client))) {
		checkBinary(st, b, env, fix)
		if len(st.Problems) == 0 {
			st.problem(fix, "%s differs from what this airlock writes (edited, or written by another version)", path)
		}
	}
}
