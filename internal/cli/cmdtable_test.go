package cli

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// walk calls f for every command of the table, parents first, with its
// words after "airlock".
func walk(c *command, words []string, f func(c *command, words []string)) {
	f(c, words)
	for _, s := range c.subs {
		walk(s, append(append([]string(nil), words...), s.name), f)
	}
}

func runMain(args ...string) (status int, stdout, stderr string) {
	var out, errb bytes.Buffer
	st := Main(args, strings.NewReader(""), &out, &errb)
	return st, out.String(), errb.String()
}

var singleDashFlag = regexp.MustCompile(`(^|[\s\[|(])-[a-z][a-z-]+`)

// TestHelpEveryCommand: every command's help is printed once, the same on
// -h, --help and "airlock help", lists each of its flags as --flag, and
// spells no flag with one dash.
func TestHelpEveryCommand(t *testing.T) {
	walk(commandTable(), nil, func(c *command, words []string) {
		name := strings.Join(append([]string{"airlock"}, words...), " ")
		if c.summary == "" || len(c.usage) == 0 {
			t.Errorf("%s: no summary or usage in the table", name)
		}
		seen := map[string]bool{"help": true, "h": true}
		for _, f := range c.flags {
			if seen[f.name] {
				t.Errorf("%s: --%s declared twice (or shadows --help)", name, f.name)
			}
			seen[f.name] = true
		}
		if c.passthrough {
			return
		}
		st, long, errText := runMain(append(words, "--help")...)
		if st != ExitOK || errText != "" {
			t.Errorf("%s --help: exit %d, stderr %q", name, st, errText)
		}
		if n := strings.Count(long, "Usage:\n"); n != 1 {
			t.Errorf("%s --help: Usage printed %d times", name, n)
		}
		_, short, _ := runMain(append(words, "-h")...)
		_, viaHelp, _ := runMain(append([]string{"help"}, words...)...)
		if short != long || viaHelp != long {
			t.Errorf("%s: -h, --help and help differ", name)
		}
		flags := long[strings.Index(long, "\nFlags:\n"):]
		for _, f := range c.flags {
			if !strings.Contains(flags, "\n      --"+f.name+" ") && !strings.Contains(flags, "\n      --"+f.name+"\n") {
				t.Errorf("%s --help: --%s not listed", name, f.name)
			}
		}
		for _, u := range c.usage {
			if !strings.HasPrefix(u, name) {
				t.Errorf("%s: usage %q does not start with the command", name, u)
			}
		}
		// The prose may quote other programs' flags (ls -la); airlock's
		// own usage lines and flag list may not use one dash.
		for _, line := range append(c.usage, strings.Split(flags, "\n")...) {
			if m := singleDashFlag.FindString(line); m != "" {
				t.Errorf("%s --help: %q spells a flag with one dash: %s", name, strings.TrimSpace(m), line)
			}
		}
	})
}

// TestUnknownFlagEveryCommand: on every command an unknown flag is an
// error on standard error alone, with status 2 and a pointer to the help.
func TestUnknownFlagEveryCommand(t *testing.T) {
	walk(commandTable(), nil, func(c *command, words []string) {
		if c.passthrough {
			return
		}
		name := strings.Join(append([]string{"airlock"}, words...), " ")
		st, out, errText := runMain(append(words, "--no-such-flag")...)
		if st != ExitUsage || out != "" || !strings.Contains(errText, "airlock: error: unknown flag --no-such-flag\n") ||
			!strings.Contains(errText, `hint: run "`+name+` --help"`) {
			t.Errorf("%s --no-such-flag: exit %d, stdout %q, stderr %q", name, st, out, errText)
		}
	})
}
