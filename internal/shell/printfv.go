package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// printf -v NAME FORMAT ARGS assigns what printf would print to NAME
// (FINDINGS-7 G18): "printf -v p '%s/.local/state/airlock/secrets/%s' ~
// serve.token; cat $p" reads a secret as surely as cat of the path. With a
// static format the value is kept: static when every argument is, else
// dynamic with the text it is built from (each run-time argument's text in
// its place). A time directive %(FMT)T prints what date +FMT prints, so it
// is kept as that command substitution's text (B5: a date in a file name is
// of a known alphabet, as $(date +%F) is).

// printfAssign follows printf -v; it reports false when the run is not one
// (or is not understood: the caller then forgets what it may assign).
func (v *values) printfAssign(c cmd) bool {
	args, dyn := c.args[1:], c.dyn[1:]
	if len(args) < 2 || dyn[0] || !strings.HasPrefix(args[0], "-v") {
		return false
	}
	name := strings.TrimPrefix(args[0], "-v")
	args, dyn = args[1:], dyn[1:]
	if name == "" {
		if dyn[0] {
			return false
		}
		name, args, dyn = args[0], args[1:], dyn[1:]
	}
	if len(args) > 0 && !dyn[0] && args[0] == "--" {
		args, dyn = args[1:], dyn[1:]
	}
	if !isName(name) {
		return false
	}
	if len(args) == 0 || dyn[0] {
		v.forget(name)
		return true
	}
	format, rest, ok := timeDirectives(args[0], args[1:])
	if !ok {
		v.forget(name)
		return true
	}
	dynamic := anyTrue(dyn[1:]) || format != args[0]
	text, ok := printfText(append([]string{format}, rest...))
	if !ok {
		v.forget(name)
		return true
	}
	v.set(name, binding{text: text, dynamic: dynamic})
	return true
}

// timeDirectives replaces each %(FMT)T of a printf format by %s and its
// argument by the text of $(date +FMT). ok is false for a format whose
// directives cannot be told apart, or when more arguments than directives
// make printf go round the format again.
func timeDirectives(format string, args []string) (string, []string, bool) {
	if !strings.Contains(format, "%(") {
		return format, args, true
	}
	var b strings.Builder
	out := append([]string(nil), args...)
	n := 0
	for i := 0; i < len(format); i++ {
		ch := format[i]
		b.WriteByte(ch)
		if ch != '%' {
			continue
		}
		i++
		if i >= len(format) {
			return "", nil, false
		}
		if format[i] == '%' {
			b.WriteByte('%')
			continue
		}
		if format[i] == '(' {
			end := strings.Index(format[i:], ")T")
			if end < 0 {
				return "", nil, false
			}
			tf := format[i+1 : i+end]
			q, err := syntax.Quote("+"+tf, syntax.LangBash)
			if err != nil {
				return "", nil, false
			}
			if n < len(out) {
				out[n] = "$(date " + q + ")"
			} else {
				out = append(out, "$(date "+q+")")
			}
			n++
			b.WriteByte('s')
			i += end + 1
			continue
		}
		// Flags, width and precision, then the conversion letter.
		for i < len(format) && strings.IndexByte("-+ #0123456789.", format[i]) >= 0 {
			b.WriteByte(format[i])
			i++
		}
		if i >= len(format) || strings.IndexByte("*", format[i]) >= 0 {
			return "", nil, false
		}
		b.WriteByte(format[i])
		n++
	}
	if len(args) > n {
		return "", nil, false
	}
	return b.String(), out, true
}
