// Package argv reads the options of a program's argument vector the way
// getopt-style programs do: bundled short flags, short flags with attached
// or separate values, long options with "=" or a separate value, and "--".
//
// Callers describe which options take a value; everything else is a flag.
// Knowing that is what keeps an option's value from being read as the next
// subcommand (git -C push status) or as an operand (curl -o push URL).
package argv

import "strings"

// Spec describes the options of one program or subcommand.
type Spec struct {
	// Short lists the short options that take a value, e.g. "uCgS".
	Short string
	// Long lists the long options that take a value, with dashes,
	// e.g. "--user". A long option written "--name=value" always carries
	// its value, listed or not.
	Long []string
	// StopAtOperand ends option parsing at the first operand, as wrappers
	// and git's global options do (POSIX); otherwise options and operands
	// may interleave, as GNU programs allow.
	StopAtOperand bool
	// LongSingleDash treats "-name" as a long option (find, java, go).
	LongSingleDash bool
	// Abbrev reads a long option written as a prefix of exactly one
	// option in Long as that option, as getopt_long does (sort --outp=F
	// is --output=F); the flag is reported by its full name. A prefix of
	// several keeps its spelling: the program refuses it.
	Abbrev bool
}

// Flag is one option found in the arguments.
type Flag struct {
	// Name is the option with its dashes, e.g. "-X" or "--request".
	Name string
	// Value is the option's value when it takes one.
	Value string
	// HasValue reports whether a value was present.
	HasValue bool
	// Index is the position in the parsed slice where the option starts.
	Index int
	// ValueIndex is the position of the word holding the value: Index when
	// the value is attached (-XPOST, --request=PUT), Index+1 otherwise.
	ValueIndex int
}

// Parsed is the result of reading an argument vector.
type Parsed struct {
	// Flags lists the options in order.
	Flags []Flag
	// Operands lists the non-option arguments in order.
	Operands []string
	// OperandIndex holds the position of each operand in the parsed slice.
	OperandIndex []int
	// Rest is the index of the first operand when StopAtOperand is set
	// (len(args) if there is none); otherwise len(args).
	Rest int
}

// Parse reads args, which must not include the program name.
func (s Spec) Parse(args []string) Parsed {
	var p Parsed
	p.Rest = len(args)
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if s.StopAtOperand {
				p.Rest = i + 1
				return p
			}
			for j := i + 1; j < len(args); j++ {
				p.Operands = append(p.Operands, args[j])
				p.OperandIndex = append(p.OperandIndex, j)
			}
			return p
		case strings.HasPrefix(a, "--") || (s.LongSingleDash && len(a) > 2 && a[0] == '-'):
			name, value, hasValue := strings.Cut(a, "=")
			if s.Abbrev {
				name = s.expandLong(name)
			}
			f := Flag{Name: name, Value: value, HasValue: hasValue, Index: i, ValueIndex: i}
			if !hasValue && s.takesLong(name) && i+1 < len(args) {
				i++
				f.Value, f.HasValue, f.ValueIndex = args[i], true, i
			}
			p.Flags = append(p.Flags, f)
		case len(a) > 1 && a[0] == '-':
			start := i
			for j := 1; j < len(a); j++ {
				c := a[j]
				if strings.IndexByte(s.Short, c) < 0 {
					p.Flags = append(p.Flags, Flag{Name: "-" + string(c), Index: start})
					continue
				}
				f := Flag{Name: "-" + string(c), Index: start, ValueIndex: start}
				if j+1 < len(a) {
					f.Value, f.HasValue = a[j+1:], true
				} else if i+1 < len(args) {
					i++
					f.Value, f.HasValue, f.ValueIndex = args[i], true, i
				}
				p.Flags = append(p.Flags, f)
				break
			}
		default:
			if s.StopAtOperand {
				p.Rest = i
				return p
			}
			p.Operands = append(p.Operands, a)
			p.OperandIndex = append(p.OperandIndex, i)
		}
	}
	return p
}

// expandLong returns the option in Long that name abbreviates, when
// there is exactly one (or name is one), and name otherwise.
func (s Spec) expandLong(name string) string {
	if len(name) < 3 || s.takesLong(name) {
		return name
	}
	full := ""
	for _, l := range s.Long {
		if strings.HasPrefix(l, name) {
			if full != "" {
				return name
			}
			full = l
		}
	}
	if full == "" {
		return name
	}
	return full
}

func (s Spec) takesLong(name string) bool {
	for _, l := range s.Long {
		if l == name {
			return true
		}
	}
	return false
}

// Has reports whether any of the named options is present.
func (p Parsed) Has(names ...string) bool {
	for _, f := range p.Flags {
		for _, n := range names {
			if f.Name == n {
				return true
			}
		}
	}
	return false
}

// Value returns the value of the last of the named options present.
func (p Parsed) Value(names ...string) (string, bool) {
	var v string
	found := false
	for _, f := range p.Flags {
		for _, n := range names {
			if f.Name == n && f.HasValue {
				v, found = f.Value, true
			}
		}
	}
	return v, found
}

// Last returns the last of the named options present that has a value.
func (p Parsed) Last(names ...string) (Flag, bool) {
	var last Flag
	found := false
	for _, f := range p.Flags {
		for _, n := range names {
			if f.Name == n && f.HasValue {
				last, found = f, true
			}
		}
	}
	return last, found
}

// Values returns the values of every one of the named options, in order.
func (p Parsed) Values(names ...string) []string {
	var vs []string
	for _, f := range p.Flags {
		for _, n := range names {
			if f.Name == n && f.HasValue {
				vs = append(vs, f.Value)
			}
		}
	}
	return vs
}
