package classify

import (
	"path"
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file maps a container's writes back to the host (FINDINGS-10 D2):
// with -v "$PWD":/w -w /w, a relative name the command in the container
// writes (.claude/settings.json) is the host's file below the mount, so
// a write there of a file that runs later is one on the host, under a
// name the command does not show; and a writable mount of git's
// directory (-v "$PWD/.git":/g) hands the container git's configuration
// and hooks, which every later git command on the host runs.

// containerWorkdirMounted reports the writable mount the run's working
// directory (-w, --workdir) is in, else any writable mount (the command
// may cd there, or name it), if there is one.
func containerWorkdirMounted(inv *shell.Invocation, spec argv.Spec, from int) (Mount, bool) {
	if from > len(inv.Args) {
		return Mount{}, false
	}
	p := spec.Parse(inv.Args[from:])
	w, _ := p.Value("-w", "--workdir")
	w = path.Clean(w)
	var any Mount
	found := false
	for _, m := range ContainerMounts(inv) {
		t := path.Clean(m.Target)
		if m.ReadOnly || t == "" {
			continue
		}
		if w == t || strings.HasPrefix(w, strings.TrimSuffix(t, "/")+"/") {
			return m, true
		}
		if !found {
			any, found = m, true
		}
	}
	return any, found
}

// containerHostWrites holds a container command that writes files that
// run later in a working directory mounted from the host.
func containerHostWrites(inv *shell.Invocation, spec argv.Spec, from int, inner Effect) Effect {
	surface := false
	for _, r := range inner.Reasons {
		if strings.HasPrefix(r.Rule, "surface.") || r.Rule == "git.config-edit" {
			surface = true
			break
		}
	}
	if !surface {
		return nothing
	}
	m, ok := containerWorkdirMounted(inv, spec, from)
	if !ok {
		return nothing
	}
	return opaque("container.host-write", inv.Name()+" mounts the host's "+clip(m.Source)+" at "+clip(m.Target)+", writable, and its command writes files that run later (hooks, settings, git's configuration): there they are the host's; write them on the host, where airlock reads them")
}

// containerGitMounts holds a writable mount of git's directory or a part
// of it: the container may change the configuration and hooks every
// later git command on the host runs.
func containerGitMounts(inv *shell.Invocation) Effect {
	var e Effect
	for _, m := range ContainerMounts(inv) {
		if m.ReadOnly {
			continue
		}
		for _, part := range strings.Split(path.Clean(unquote(m.Source)), "/") {
			if part == ".git" {
				e.Add(opaque("container.git-mount", inv.Name()+" mounts "+clip(m.Source)+", git's own directory, writable at "+clip(m.Target)+": the container may change the configuration and hooks every later git command runs; mount the project's files read-only, or without .git"))
				break
			}
		}
	}
	return e
}
