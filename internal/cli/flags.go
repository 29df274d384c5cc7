package cli

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// flagKind is the type of a flag's value.
type flagKind int

const (
	kindBool flagKind = iota
	kindString
	kindInt
	kindDuration
	// kindList is a string flag that may be repeated; each use adds one.
	kindList
)

// flagSpec is one flag of a command, as the command table declares it.
// Flags are spelled with two dashes only (--json); the one short form is
// -h, which every command has. A single spelling leaves no "-json" that
// a reader must learn is the same thing.
type flagSpec struct {
	name  string
	kind  flagKind
	arg   string // the value's placeholder in help ("DIR"); empty for a boolean
	def   string // the default, as it would be typed; "" when there is none
	usage string
	// values are what the shell completes for the flag's value; empty
	// means file names.
	values []string
	// alias names the flag and value this one stands for: --json is
	// "format=json" where a command has --format.
	alias string
}

func boolFlag(name, usage string) flagSpec {
	return flagSpec{name: name, kind: kindBool, usage: usage}
}

func stringFlag(name, arg, def, usage string, values ...string) flagSpec {
	return flagSpec{name: name, kind: kindString, arg: arg, def: def, usage: usage, values: values}
}

func intFlag(name, arg string, def int, usage string) flagSpec {
	return flagSpec{name: name, kind: kindInt, arg: arg, def: strconv.Itoa(def), usage: usage}
}

func durationFlag(name, arg string, def time.Duration, usage string) flagSpec {
	return flagSpec{name: name, kind: kindDuration, arg: arg, def: shortDuration(def), usage: usage}
}

func listFlag(name, arg, usage string) flagSpec {
	return flagSpec{name: name, kind: kindList, arg: arg, usage: usage}
}

// jsonFlag is the --json every command that prints data has.
func jsonFlag() flagSpec { return boolFlag("json", "print JSON for scripts") }

// jsonFormatFlag is --json where the command also has --format: the two
// are one setting, so they cannot disagree silently.
func jsonFormatFlag() flagSpec {
	return flagSpec{name: "json", kind: kindBool, usage: "print JSON for scripts (the same as --format json)", alias: "format=json"}
}

// shortDuration spells a duration as a person would type it: 24h, not
// 24h0m0s.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = s[:len(s)-2]
	}
	if strings.HasSuffix(s, "h0m") {
		s = s[:len(s)-2]
	}
	return s
}

// flagValues holds a command's parsed flags and its operands. Commands
// read them through typed accessors that return pointers, as the flag
// package's do.
type flagValues struct {
	specs []flagSpec
	vals  map[string]any // *bool, *string, *int, *time.Duration, *[]string
	set   map[string]bool
	args  []string
}

// parseArgs parses args against specs. Flags may come before, between and
// after operands; "--" ends the flags, so everything after it is an
// operand even if it starts with a dash; "-" alone is an operand (standard
// input). Both --flag=value and --flag value are accepted. help is true
// when -h or --help came before any mistake.
func parseArgs(cmd *command, args []string) (v *flagValues, help bool, err error) {
	v = &flagValues{specs: cmd.flags, vals: make(map[string]any, len(cmd.flags))}
	for i := range cmd.flags {
		s := &cmd.flags[i]
		if err := v.init(s); err != nil {
			panic(fmt.Sprintf("cli: the default of --%s of %q: %v", s.name, cmd.path, err))
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			v.args = append(v.args, args[i+1:]...)
			return v, false, v.finish(cmd)
		case a == "-h" || a == "--help":
			return v, true, nil
		case a == "-" || !strings.HasPrefix(a, "-"):
			v.args = append(v.args, a)
			continue
		case !strings.HasPrefix(a, "--"):
			return nil, false, unknownFlag(cmd, a)
		}
		name, val, hasVal := strings.Cut(a[2:], "=")
		s := v.spec(name)
		if s == nil {
			return nil, false, unknownFlag(cmd, a)
		}
		if s.kind == kindBool {
			if !hasVal {
				val = "true"
			}
		} else if !hasVal {
			// A separate value never starts with a dash: "--note -h" is a
			// missing note and a request for help, never a note "-h". So -h
			// and --help before "--" always mean help, as airlock's
			// self-protection assumes when it lets an agent run them.
			if i+1 == len(args) || (strings.HasPrefix(args[i+1], "-") && args[i+1] != "-") {
				return nil, false, &usageError{Msg: fmt.Sprintf("flag --%s needs a value (%s)", name, s.arg),
					Hints: []string{"--" + name + " " + s.arg, "a value that starts with a dash goes after =: --" + name + "=-x"}}
			}
			i++
			val = args[i]
		}
		if err := v.setValue(s, val); err != nil {
			return nil, false, &usageError{Msg: fmt.Sprintf("invalid value %q for --%s: %v", val, name, err), Hints: []string{helpHint(cmd)}}
		}
	}
	return v, false, v.finish(cmd)
}

// unknownFlag is the error for a flag the command does not have, with a
// hint for the likely mistakes: one dash instead of two, or an operand
// that starts with a dash.
func unknownFlag(cmd *command, a string) error {
	name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
	var hints []string
	if !strings.HasPrefix(a, "--") {
		for _, s := range cmd.flags {
			if s.name == name {
				hints = append(hints, "flags are spelled with two dashes: --"+name)
			}
		}
	}
	if cmd.operands != "" {
		hints = append(hints, fmt.Sprintf("an operand that starts with a dash goes after --: %s -- %s", cmd.path, cmd.operands))
	}
	hints = append(hints, helpHint(cmd))
	return &usageError{Msg: "unknown flag " + a, Hints: hints}
}

func helpHint(cmd *command) string { return fmt.Sprintf("run \"%s --help\"", cmd.path) }

func (v *flagValues) spec(name string) *flagSpec {
	for i := range v.specs {
		if v.specs[i].name == name {
			return &v.specs[i]
		}
	}
	return nil
}

// init stores the flag's default.
func (v *flagValues) init(s *flagSpec) error {
	switch s.kind {
	case kindBool:
		v.vals[s.name] = new(bool)
	case kindString:
		v.vals[s.name] = &[]string{s.def}[0]
	case kindInt:
		n := 0
		if s.def != "" {
			var err error
			if n, err = strconv.Atoi(s.def); err != nil {
				return err
			}
		}
		v.vals[s.name] = &n
	case kindDuration:
		var d time.Duration
		if s.def != "" {
			var err error
			if d, err = time.ParseDuration(s.def); err != nil {
				return err
			}
		}
		v.vals[s.name] = &d
	case kindList:
		v.vals[s.name] = new([]string)
	}
	return nil
}

func (v *flagValues) setValue(s *flagSpec, val string) error {
	if v.set == nil {
		v.set = map[string]bool{}
	}
	v.set[s.name] = true
	switch p := v.vals[s.name].(type) {
	case *bool:
		b, err := strconv.ParseBool(val)
		if err != nil {
			return fmt.Errorf("want true or false")
		}
		*p = b
	case *string:
		*p = val
	case *int:
		n, err := strconv.Atoi(val)
		if err != nil {
			return fmt.Errorf("want a whole number")
		}
		*p = n
	case *time.Duration:
		d, err := time.ParseDuration(val)
		if err != nil {
			return fmt.Errorf("want a duration such as 30m or 24h")
		}
		*p = d
	case *[]string:
		*p = append(*p, val)
	}
	return nil
}

// finish applies aliases: --json sets --format json, and refuses a
// --format that says otherwise.
func (v *flagValues) finish(cmd *command) error {
	for i := range v.specs {
		s := &v.specs[i]
		if s.alias == "" || !*v.Bool(s.name) {
			continue
		}
		target, val, _ := strings.Cut(s.alias, "=")
		if v.set[target] && *v.String(target) != val {
			return &usageError{Msg: fmt.Sprintf("--%s and --%s %s disagree; give one", s.name, target, *v.String(target)), Hints: []string{helpHint(cmd)}}
		}
		*v.String(target) = val
	}
	return nil
}

// value returns the flag's storage; a name the command table does not
// declare for the command is a programming error, which the tests of that
// command catch.
func (v *flagValues) value(name string) any {
	p, ok := v.vals[name]
	if !ok {
		panic("cli: the command table declares no --" + name + " for this command")
	}
	return p
}

// Bool returns the value of a boolean flag.
func (v *flagValues) Bool(name string) *bool { return v.value(name).(*bool) }

// String returns the value of a string flag.
func (v *flagValues) String(name string) *string { return v.value(name).(*string) }

// Int returns the value of an integer flag.
func (v *flagValues) Int(name string) *int { return v.value(name).(*int) }

// Duration returns the value of a duration flag.
func (v *flagValues) Duration(name string) *time.Duration { return v.value(name).(*time.Duration) }

// List returns every value given to a repeatable flag, in order.
func (v *flagValues) List(name string) []string { return *v.value(name).(*[]string) }

// Changed reports whether the flag was given on the command line.
func (v *flagValues) Changed(name string) bool { return v.set[name] }

// Args returns the operands.
func (v *flagValues) Args() []string { return v.args }

// NArg returns the number of operands.
func (v *flagValues) NArg() int { return len(v.args) }

// Arg returns operand i, or "" when there is none.
func (v *flagValues) Arg(i int) string {
	if i < 0 || i >= len(v.args) {
		return ""
	}
	return v.args[i]
}
