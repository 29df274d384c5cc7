package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/render"
	"github.com/airlock-dev/airlock/internal/rulemake"
)

const ruleHelp = `
Turn a decision into a rule of your policy file. airlock shows the YAML
rule it would add (with the held command as its example), decides every
command of its labelled corpus with and without it and lists what else it
would let through, and writes it only when you confirm: type yes at the
prompt, or pass --yes. Everything else in the file stays as you wrote it.

Agents cannot run these: airlock's self-protection denies them.

Exit status: 0 written, 1 shown but not written, 2 usage error.`

// maxLoosenedShown bounds the corpus commands listed on a terminal; the
// JSON output lists them all.
const maxLoosenedShown = 25

func runRuleAdd(e *env) int {
	from := *e.flags.String("from")
	operands := e.flags.Args()
	var command, id string
	switch {
	case from != "" && len(operands) > 0:
		return fail(e.stderr, &usageError{Msg: "give --from ID or a COMMAND, not both", Hints: e.cmd.usage})
	case from != "":
		if err := checkIDPrefix("rule add --from", from); err != nil {
			return fail(e.stderr, err)
		}
		j, err := e.journal()
		if err != nil {
			return fail(e.stderr, err)
		}
		it, code := findItem(e, j, from)
		if it == nil {
			return code
		}
		if it.Detected || it.Kind != "shell" {
			return fail(e.stderr, &usageError{Msg: fmt.Sprintf("%s is not a held shell command (%s)", it.ID, journal.What(it, 100)), Hints: []string{"write a rule by hand: docs/POLICY.md"}})
		}
		command, id = it.Command, it.ID
	case len(operands) == 1:
		command = operands[0]
	default:
		return fail(e.stderr, &usageError{Msg: "rule add takes --from ID or one COMMAND", Hints: e.cmd.usage})
	}
	written, code := proposeRule(e, command, id, *e.flags.Bool("yes"), *e.flags.Bool("json"))
	if code != ExitOK {
		return code
	}
	if !written {
		return ExitHeld
	}
	return ExitOK
}

// proposeRule shows the rule made of command and what else it lets
// through, and writes it once the human confirms.
func proposeRule(e *env, command, itemID string, yes, asJSON bool) (bool, int) {
	p, err := rulemake.Propose(command, itemID)
	if err != nil {
		return false, fail(e.stderr, ruleError(err))
	}
	pl, err := rulemake.Prepare(p, e.getenv)
	if err != nil {
		return false, fail(e.stderr, ruleError(err))
	}
	if asJSON {
		written := false
		if yes {
			if err := pl.Write(); err != nil {
				return false, fail(e.stderr, ruleError(err))
			}
			written = true
		}
		out := struct {
			*rulemake.Plan
			Written bool `json:"written"`
		}{pl, written}
		return written, writeJSON(e, out)
	}
	w := e.stdout
	fmt.Fprintf(w, "the rule, to add at the end of the rules in %s (the rest of the file stays as it is):\n\n", render.Line(pl.File, 0))
	for _, l := range strings.Split(strings.TrimSuffix(pl.YAML, "\n"), "\n") {
		fmt.Fprintf(w, "    %s\n", render.Line(l, 0))
	}
	fmt.Fprintln(w)
	if pl.ExampleAfter.Holds() {
		fmt.Fprintf(w, "note: with it, the command would still be %s: another rule of yours holds it\n", pl.ExampleAfter)
	}
	if len(pl.Loosened) == 0 {
		fmt.Fprintf(w, "on airlock's labelled corpus (%s mode) it lets nothing else through\n", pl.Mode)
	} else {
		fmt.Fprintf(w, "on airlock's labelled corpus (%s mode) it would also let through %d command(s):\n", pl.Mode, len(pl.Loosened))
		for i, c := range pl.Loosened {
			if i == maxLoosenedShown {
				fmt.Fprintf(w, "  ... and %d more (--json lists them all)\n", len(pl.Loosened)-i)
				break
			}
			fmt.Fprintf(w, "  %s -> %s  %-22s %s\n", c.Before, c.After, c.Label, render.Line(c.Command, 100))
		}
	}
	if !yes {
		if !e.terminal() {
			fmt.Fprintln(e.stderr, "not written: pass --yes to write it, or run this in a terminal to confirm")
			return false, ExitOK
		}
		fmt.Fprint(e.stderr, "Write this rule? Type yes and press Enter; anything else writes nothing: ")
		answer, err := readAnswer(e.stdin, maxAnswer)
		if err != nil || strings.TrimSpace(strings.ToLower(answer)) != "yes" {
			fmt.Fprintln(e.stderr, "not written")
			return false, ExitOK
		}
	}
	if err := pl.Write(); err != nil {
		return false, fail(e.stderr, ruleError(err))
	}
	fmt.Fprintf(w, "wrote rule %s to %s; check it with: airlock policy test\n", p.ID, render.Line(pl.File, 0))
	return true, ExitOK
}

// ruleError adds what to do instead to a refusal to make a rule.
func ruleError(err error) error {
	switch {
	case errors.Is(err, rulemake.ErrOpaque), errors.Is(err, rulemake.ErrDestructive):
		return &usageError{Msg: err.Error(), Hints: []string{"a rule could not bound what it allows: approve this one run instead (airlock queue approve ID)"}}
	case errors.Is(err, rulemake.ErrNothingHeld), errors.Is(err, rulemake.ErrNotShell), errors.Is(err, rulemake.ErrLayout):
		return &usageError{Msg: err.Error(), Hints: []string{"write the rule by hand: docs/POLICY.md"}}
	case errors.Is(err, rulemake.ErrChanged):
		return &usageError{Msg: err.Error(), Hints: []string{"run the command again to see the rule against the file as it is now"}}
	}
	return err
}
