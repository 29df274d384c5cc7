package classify

import (
	"slices"
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// What feeds a run's standard input. A program that takes its code from
// standard input when given no program operand (python3, node, perl,
// ruby, php, lua, R, the shells, ed's and vim's command languages, gdb,
// at) runs whatever feeds it: python3 < x.py is python3 x.py. The feed is
// worked out the way the shell sets up descriptors: the run's own
// redirections in order (3< x.py <&3 makes descriptor 0 x.py), after
// those of a group or loop around it ({ python3; } < x.py) and of an
// earlier exec in the same text (exec < x.sh; sh, exec 3< x.sh; bash
// <&3), and, for a command line a runner runs (uv run python < x.py,
// bash -c 'python3' < x.py), the runner's own.

// stdinFeed is what feeds a run's standard input through redirections.
type stdinFeed struct {
	// file is the file read (as written), when one is.
	file    string
	dynamic bool
	// unknown says why what feeds it cannot be read: a descriptor opened
	// outside the text, or one only known at run time.
	unknown string
	// set reports whether a redirection decides the feed at all.
	set bool
}

// fdState is what one descriptor holds while the redirections are
// applied.
type fdState struct {
	file    string
	dynamic bool
	unknown string
}

// stdinRedirect is the feed the redirections give inv's standard input.
func (c *Classifier) stdinRedirect(inv *shell.Invocation) stdinFeed {
	fds := map[string]fdState{}
	for _, list := range c.cc.redirectsAround(inv) {
		applyRedirects(fds, list)
	}
	applyRedirects(fds, inv.Redirects)
	st, ok := fds["0"]
	if !ok {
		return stdinFeed{}
	}
	return stdinFeed{file: st.file, dynamic: st.dynamic, unknown: st.unknown, set: true}
}

// applyRedirects applies one run's redirections to the descriptors.
func applyRedirects(fds map[string]fdState, list []shell.Redirect) {
	for _, r := range list {
		fd := r.Fd
		switch r.Op {
		case "<", "<>":
			if fd == "" {
				fd = "0"
			}
			fds[fd] = fdState{file: r.Target, dynamic: r.Dynamic}
		case "<&", ">&":
			if fd == "" {
				fd = "0"
				if r.Op == ">&" {
					fd = "1"
				}
			}
			switch src, ok := fds[r.Target]; {
			case r.Target == "-":
				delete(fds, fd)
			case ok && !r.Dynamic:
				fds[fd] = src
			case r.Dynamic:
				fds[fd] = fdState{unknown: "a descriptor named at run time (" + clip(r.Target) + ")"}
			default:
				fds[fd] = fdState{unknown: "descriptor " + clip(r.Target) + ", opened outside this command"}
			}
		default:
			if fd == "0" {
				// 0> FILE: an output file on the input descriptor.
				fds[fd] = fdState{unknown: "an output file (" + clip(r.Target) + ")"}
			} else if fd != "" {
				delete(fds, fd)
			}
		}
	}
}

// redirectsAround lists the redirections that set up inv's descriptors
// before its own, in the order the shell applies them: the runner's
// around a command line it runs (outer), an earlier exec's, and those of
// the groups and loops around inv.
func (cc *cmdContext) redirectsAround(inv *shell.Invocation) [][]shell.Redirect {
	if cc == nil {
		return nil
	}
	var out [][]shell.Redirect
	if cc.outerRun != nil {
		out = append(out, cc.outer.redirectsAround(cc.outerRun)...)
		out = append(out, cc.outerRun.Redirects)
	}
	k := slices.IndexFunc(cc.invs, func(x shell.Invocation) bool {
		return x.Source == inv.Source && x.Line == inv.Line && slices.Equal(x.Args, inv.Args)
	})
	if k < 0 {
		return out
	}
	for g := 0; g < k; g++ {
		w := &cc.invs[g]
		switch {
		case len(w.Redirects) == 0:
		case w.Name() == "exec" && len(w.Args) == 1:
			// exec with redirections only: they hold for every later
			// command of that shell (a subshell's end is not tracked:
			// the feed is taken as still set, which holds more).
			out = append(out, w.Redirects)
		case (w.Group || w.Name() == ":") && w.Source != inv.Source && strings.Contains(w.Source, inv.Source):
			out = append(out, w.Redirects)
		}
	}
	return out
}

// stdinOuter is the pipe or text that feeds the runner around a command
// line (cat x.py | uv run python), when the inner run has none of its
// own: the inner run reads the runner's input.
func (cc *cmdContext) stdinOuter() *shell.Invocation {
	for ; cc != nil; cc = cc.outer {
		if o := cc.outerRun; o != nil && o.Stdin != "" {
			return o
		}
	}
	return nil
}
