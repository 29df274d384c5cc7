package classify

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/classify/interp"
)

// This file rates interpreter runs (python, node, deno, ruby, perl, php,
// lua, R, osascript). Running a script file is ordinary local work. Code
// given on the command line or on standard input is read by package
// interp, which reports what it found; here each finding becomes an
// effect: shell text passed literally to a process-spawning call is
// classified as shell text (its effect is the interpreter's effect),
// network writes are external, reads are network reads, file deletion is
// destructive, and whatever spawns processes or opens sockets in a way
// that cannot be read is opaque. interp knows languages; what a command
// does, and how far it reaches, is decided here, in one place.

// interpAnalyse rates code in a language, run by the interpreter who.
func interpAnalyse(c *Classifier, who, lang, src string) Effect {
	e := c.interpEffect(who, interp.Analyse(who, lang, src))
	e.Add(interpSurfaceWrites(who, src)) // interpsurfaces.go
	return e
}

// interpEffect maps what interp found in a piece of code onto effects, in
// the order it found them.
func (c *Classifier) interpEffect(who string, r *interp.Result) Effect {
	var e Effect
	for _, f := range r.Findings {
		switch f.Kind {
		case interp.Opaque:
			e.Add(opaque(f.Rule, f.Message))
		case interp.Write:
			w := external(f.Rule, f.Message)
			if f.Destroys {
				w = w.destroys()
			}
			e.Add(w)
		case interp.Delete:
			e.Add(local(f.Rule, f.Message).destroys())
		case interp.Install:
			e.Add(shared(f.Rule, f.Message).reads())
		case interp.Spawn:
			e.Add(local(f.Rule, f.Message))
			e.Add(c.nested(f.Text))
		case interp.Eval:
			e.Add(c.interpEffect(who, f.Sub))
		case interp.Relink:
			// Local, and read by the grading of a later deletion
			// (policy relinks.go).
			e.Add(local(f.Rule, f.Message))
		default:
			// A kind this mapping does not know is not inert.
			e.Add(opaque("interp.unknown", who+" code does something airlock cannot rate"))
		}
	}
	if len(e.Reasons) == 0 && r.ShellText != "" {
		e.Add(c.interpShellShaped(who, r.ShellText))
	}
	if len(r.Reads) > 0 && e.Tier < External {
		e.Add(netRead("interp.net.read", who+" code fetches "+strings.Join(r.Reads, ", ")))
	}
	return e
}

// interpShellShaped rates code that is shell text rather than code (node
// -e "rm -rf /"): no language reads it, so nothing runs, but a command
// that would be held as shell text is held here too rather than waved
// through.
func (c *Classifier) interpShellShaped(who, src string) Effect {
	first, _, _ := strings.Cut(src, " ")
	if specFor(first) == nil {
		return nothing
	}
	e := c.nested(src)
	if e.Tier == Local && !e.Destructive && !e.Opaque {
		return nothing
	}
	out := local("interp.shell-shaped", who+" was given shell text as code ("+clip(src)+"), held as that command")
	out.Add(e)
	return out
}
