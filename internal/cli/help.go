package cli

import (
	"fmt"
	"io"
	"strings"
)

// dispatch finds the command args name in the table, parses its flags and
// runs it. Help goes to standard output with status 0; every mistake goes
// to standard error alone with status 2, so a script that reads standard
// output never reads help or an error as data.
func (e *env) dispatch(root *command, args []string) int {
	c, args := resolve(root, args)
	if c.passthrough {
		e.cmd, e.flags, e.args = c, &flagValues{args: args}, args
		return c.run(e)
	}
	v, help, err := parseArgs(c, args)
	switch {
	case err != nil:
		return fail(e.stderr, err)
	case help:
		printHelp(e.stdout, c)
		return ExitOK
	case c.run == nil && v.NArg() == 0:
		// A group named alone is a usage mistake, as with the go command:
		// its help goes to standard error, standard output stays empty.
		printHelp(e.stderr, c)
		return ExitUsage
	case c.run == nil:
		return fail(e.stderr, unknownCommand(c, v.Arg(0)))
	}
	e.cmd, e.flags, e.args = c, v, v.args
	return c.run(e)
}

// resolve walks args down the table as far as they name subcommands and
// returns the command reached and the arguments left for it. Every command
// on the way gets its path.
func resolve(root *command, args []string) (*command, []string) {
	root.path = root.name
	c := root
	for len(args) > 0 {
		sub := c.sub(args[0])
		if sub == nil {
			break
		}
		c, args = sub, args[1:]
	}
	return c, args
}

func (c *command) sub(name string) *command {
	for _, s := range c.subs {
		if s.name == name {
			s.path = c.path + " " + s.name
			return s
		}
	}
	return nil
}

func unknownCommand(c *command, name string) error {
	return &usageError{Msg: fmt.Sprintf("unknown command %q for %q", name, c.path), Hints: []string{helpHint(c)}}
}

// runRoot is airlock without a command: --version, or the help.
func runRoot(e *env) int {
	switch {
	case *e.flags.Bool("version"):
		return runVersion(e)
	case e.flags.NArg() > 0:
		return fail(e.stderr, unknownCommand(e.cmd, e.flags.Arg(0)))
	}
	printHelp(e.stderr, e.cmd)
	return ExitUsage
}

// runHelp is "airlock help [COMMAND [SUBCOMMAND]]".
func runHelp(e *env) int {
	root := commandTable()
	c, rest := resolve(root, e.args)
	if len(rest) > 0 {
		return fail(e.stderr, unknownCommand(c, rest[0]))
	}
	printHelp(e.stdout, c)
	return ExitOK
}

// printHelp writes a command's help: what it does, its usage, its
// subcommands and its own flags, once.
func printHelp(w io.Writer, c *command) {
	text := strings.TrimSpace(c.help)
	if text == "" {
		text = strings.ToUpper(c.summary[:1]) + c.summary[1:] + "."
	}
	fmt.Fprintf(w, "%s\n\nUsage:\n", text)
	for _, u := range c.usage {
		fmt.Fprintf(w, "  %s\n", u)
	}
	subs := visibleSubs(c)
	if len(subs) > 0 {
		fmt.Fprint(w, "\nCommands:\n")
		width := 0
		for _, s := range subs {
			width = max(width, len(s.name))
		}
		for _, s := range subs {
			fmt.Fprintf(w, "  %-*s  %s\n", width, s.name, s.summary)
		}
	}
	fmt.Fprint(w, "\nFlags:\n")
	type row struct{ left, usage string }
	rows := []row{{"-h, --help", "show this help"}}
	for _, f := range c.flags {
		left := "    --" + f.name
		if f.arg != "" {
			left += " " + f.arg
		}
		usage := f.usage
		if f.def != "" && f.kind != kindBool {
			usage += " (default: " + f.def + ")"
		}
		if f.kind == kindList {
			usage += " (repeatable)"
		}
		rows = append(rows, row{left, usage})
	}
	width := 0
	for _, r := range rows {
		width = max(width, len(r.left))
	}
	for _, r := range rows {
		fmt.Fprintf(w, "  %-*s  %s\n", width, r.left, r.usage)
	}
	if c.passthrough && c.name != "__complete" && c.name != "run" {
		fmt.Fprintf(w, "\nThe flags of %q are airlock-mcp's: run \"%s --help\" to list them.\n", c.path, c.path)
	}
	if len(subs) > 0 {
		fmt.Fprintf(w, "\nRun \"%s COMMAND --help\" for a command's flags.\n", c.path)
	}
}

func visibleSubs(c *command) []*command {
	var out []*command
	for _, s := range c.subs {
		if !s.hidden {
			out = append(out, s)
		}
	}
	return out
}
