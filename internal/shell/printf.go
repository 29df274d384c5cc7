package shell

import (
	"strconv"
	"strings"
)

// printf as bash's builtin prints it (FINDINGS-8 H2). The value of
// $(printf …) names programs and paths, so it must be the value the shell
// makes or unknown: %b reads \c as the end of ALL output (after the text
// before it, cut by the precision) and \0NNN as a zero and up to three
// octal digits; the format reads \NNN (the first digit may be 0) and not
// \c. What bash, dash and zsh (the shells an agent's command may run in)
// print differently is unknown: \x, \e, \", \', \?, \u and \c in the
// format, \x and \NNN without the leading zero in %b; so are %q, the
// floating conversions, length modifiers, a number with a leading zero
// (octal but to zsh), %c of nothing, a NUL byte, a number bash
// rejects or clamps, and any non-ASCII text cut or padded by a width or a
// precision (bytes or characters, by locale). TestPrintfMatchesBash
// compares each modelled spelling with the shells.

// printfText is what printf prints for static arguments, if it can be told.
func printfText(args []string) (string, bool) {
	ended := len(args) > 0 && args[0] == "--"
	if ended {
		args = args[1:] // the end of options: the format follows, "-" and all (bash, dash, coreutils)
	}
	if len(args) == 0 || !ended && strings.HasPrefix(args[0], "-") {
		return "", false
	}
	format, rest := args[0], args[1:]
	var b strings.Builder
	for {
		used, stop, ok := printfPass(&b, format, rest)
		if !ok || b.Len() > maxValueLen {
			return "", false
		}
		// printf goes round its format again while arguments are left
		// and the format took some.
		if stop || used == 0 || used >= len(rest) {
			break
		}
		rest = rest[used:]
	}
	out := b.String()
	if strings.IndexByte(out, 0) >= 0 {
		return "", false // a NUL byte: bash drops it from $(…), others differ
	}
	return out, true
}

// printfPass prints the format once with args, returning how many
// arguments it took and whether %b's \c ended the output.
func printfPass(b *strings.Builder, format string, args []string) (used int, stop, ok bool) {
	next := func() (string, bool) {
		if used < len(args) {
			used++
			return args[used-1], true
		}
		return "", false
	}
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c == '\\' {
			n, ok := formatEscape(b, format[i+1:])
			if !ok {
				return 0, false, false
			}
			i += n
			continue
		}
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(format) {
			return 0, false, false
		}
		if format[i] == '%' {
			b.WriteByte('%')
			continue
		}
		var spec printfSpec
		for ; i < len(format) && strings.IndexByte("-+ #0", format[i]) >= 0; i++ {
			spec.flags += string(format[i])
		}
		width, prec := -1, -1
		star := func() (int, bool) {
			arg, _ := next()
			n, ok := printfInt(arg)
			if !ok || n > 1<<20 || n < -(1<<20) {
				return 0, false
			}
			return int(n), true
		}
		if i < len(format) && format[i] == '*' {
			n, ok := star()
			if !ok {
				return 0, false, false
			}
			if n < 0 {
				spec.flags += "-"
				n = -n
			}
			width = n
			i++
		} else {
			j := i
			for ; i < len(format) && format[i] >= '0' && format[i] <= '9'; i++ {
			}
			if i > j {
				n, err := strconv.Atoi(format[j:i])
				if err != nil || n > 1<<20 {
					return 0, false, false
				}
				width = n
			}
		}
		if i < len(format) && format[i] == '.' {
			i++
			if i < len(format) && format[i] == '*' {
				n, ok := star()
				if !ok {
					return 0, false, false
				}
				if n >= 0 {
					prec = n
				}
				i++
			} else {
				j := i
				for ; i < len(format) && format[i] >= '0' && format[i] <= '9'; i++ {
				}
				n := 0
				if i > j {
					var err error
					if n, err = strconv.Atoi(format[j:i]); err != nil || n > 1<<20 {
						return 0, false, false
					}
				}
				prec = n
			}
		}
		if i >= len(format) {
			return 0, false, false
		}
		spec.width, spec.prec = width, prec
		arg, _ := next()
		switch conv := format[i]; conv {
		case 's':
			if !spec.only("-") || !pad(b, spec, arg) {
				return 0, false, false
			}
		case 'b':
			text, ended, ok := bEscapes(arg)
			if !ok || !spec.only("-") || !pad(b, spec, text) {
				return 0, false, false
			}
			if ended {
				return used, true, true
			}
		case 'c':
			if arg == "" {
				arg = "\x00" // a NUL byte, unknown below
			}
			arg = arg[:1]
			if spec.prec >= 0 || !spec.only("-") || !pad(b, spec, arg) {
				return 0, false, false
			}
		case 'd', 'i', 'o', 'u', 'x', 'X':
			n, ok := printfInt(arg)
			if !ok {
				return 0, false, false
			}
			b.WriteString(formatInt(spec, conv, n))
		default:
			return 0, false, false // %q, %e, %f, %g, %a, %(…)T, length modifiers
		}
	}
	return used, false, true
}

type printfSpec struct {
	flags       string
	width, prec int
}

// only reports whether the flags are among allowed.
func (s printfSpec) only(allowed string) bool {
	return strings.Trim(s.flags, allowed) == ""
}

// pad writes text cut to the precision and padded to the width; it
// fails for non-ASCII text that would be cut or padded.
func pad(b *strings.Builder, s printfSpec, text string) bool {
	if s.prec >= 0 && s.prec < len(text) {
		if !isASCII(text) {
			return false
		}
		text = text[:s.prec]
	}
	fill := s.width - len(text)
	if fill > 0 && !isASCII(text) {
		return false
	}
	if fill > 0 && !strings.Contains(s.flags, "-") {
		b.WriteString(strings.Repeat(" ", fill))
	}
	b.WriteString(text)
	if fill > 0 && strings.Contains(s.flags, "-") {
		b.WriteString(strings.Repeat(" ", fill))
	}
	return true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// formatEscape writes the escape at the start of s (after the
// backslash) as printf's format reads it, returning how many bytes it
// took.
func formatEscape(b *strings.Builder, s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	if c, ok := simpleEscape(s[0]); ok {
		b.WriteByte(c)
		return 1, true
	}
	if s[0] >= '0' && s[0] <= '7' {
		n, v := octal(s, 3)
		if v > 0xff {
			return 0, false
		}
		b.WriteByte(byte(v))
		return n, true
	}
	return 0, false
}

// bEscapes is %b's reading of an argument: the text, and whether \c
// ended the output.
func bEscapes(s string) (string, bool, bool) {
	if !strings.Contains(s, `\`) {
		return s, false, true
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 == len(s) {
			return "", false, false
		}
		i++
		switch c := s[i]; {
		case c == 'c':
			return b.String(), true, true
		case c == '0':
			n, v := octal(s[i+1:], 3)
			if v > 0xff {
				return "", false, false
			}
			b.WriteByte(byte(v))
			i += n
		default:
			e, ok := simpleEscape(c)
			if !ok {
				return "", false, false
			}
			b.WriteByte(e)
		}
	}
	return b.String(), false, true
}

// simpleEscape is a backslash escape every shell's printf reads alike.
func simpleEscape(c byte) (byte, bool) {
	switch c {
	case '\\':
		return '\\', true
	case 'a':
		return '\a', true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	case 'v':
		return '\v', true
	}
	return 0, false
}

// octal reads up to max octal digits at the start of s.
func octal(s string, max int) (n int, v int) {
	for n < max && n < len(s) && s[n] >= '0' && s[n] <= '7' {
		v = v*8 + int(s[n]-'0')
		n++
	}
	return n, v
}

// printfInt is a numeric argument as bash reads it (strtoimax with base
// 0 after blanks, or a quote and the character's code); anything bash
// complains about or clamps is unknown.
func printfInt(arg string) (int64, bool) {
	if arg == "" {
		return 0, true
	}
	if arg[0] == '\'' || arg[0] == '"' {
		switch {
		case len(arg) == 1:
			return 0, true
		case len(arg) == 2 && arg[1] < 0x80:
			return int64(arg[1]), true
		}
		return 0, false
	}
	s := strings.TrimLeft(arg, " \t\n\v\f\r")
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	base := 10
	switch {
	case len(s) > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'):
		base, s = 16, s[2:]
	case len(s) > 1 && s[0] == '0':
		return 0, false // octal to bash and dash, decimal to zsh
	}
	if s == "" || s[0] == '+' || s[0] == '-' {
		return 0, false
	}
	u, err := strconv.ParseUint(s, base, 63)
	if err != nil {
		return 0, false
	}
	if neg {
		return -int64(u), true
	}
	return int64(u), true
}

// formatInt is C's integer conversion of n.
func formatInt(s printfSpec, conv byte, n int64) string {
	var digits, sign, prefix string
	switch conv {
	case 'd', 'i':
		if n < 0 {
			sign, digits = "-", strconv.FormatUint(uint64(-n), 10)
		} else {
			digits = strconv.FormatInt(n, 10)
			switch {
			case strings.Contains(s.flags, "+"):
				sign = "+"
			case strings.Contains(s.flags, " "):
				sign = " "
			}
		}
	case 'u':
		digits = strconv.FormatUint(uint64(n), 10)
	case 'o':
		digits = strconv.FormatUint(uint64(n), 8)
	case 'x', 'X':
		digits = strconv.FormatUint(uint64(n), 16)
		if conv == 'X' {
			digits = strings.ToUpper(digits)
		}
	}
	if s.prec >= 0 {
		if s.prec == 0 && n == 0 {
			digits = ""
		}
		if len(digits) < s.prec {
			digits = strings.Repeat("0", s.prec-len(digits)) + digits
		}
	}
	if strings.Contains(s.flags, "#") {
		switch {
		case conv == 'o' && !strings.HasPrefix(digits, "0"):
			digits = "0" + digits
		case conv == 'x' && n != 0:
			prefix = "0x"
		case conv == 'X' && n != 0:
			prefix = "0X"
		}
	}
	body := sign + prefix + digits
	fill := s.width - len(body)
	switch {
	case fill <= 0:
		return body
	case strings.Contains(s.flags, "-"):
		return body + strings.Repeat(" ", fill)
	case strings.Contains(s.flags, "0") && s.prec < 0:
		return sign + prefix + strings.Repeat("0", fill) + digits
	}
	return strings.Repeat(" ", fill) + body
}
