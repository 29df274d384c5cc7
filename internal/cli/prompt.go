package cli

import (
	"fmt"

	"github.com/airlock-dev/airlock/internal/policy"
)

const promptHelp = `
Print the rules an agent should be told before it starts: what goes
through, what is held for review and why (with example commands that the
policy itself decides that way), the rules of the policy files with their
messages, and what to do when an action is held: not retry or rephrase it,
carry on with local work, and list it in the final summary.

The block is generated from the policy in effect (see "airlock policy
show"), so it cannot disagree with what the hooks enforce. It is the first
layer of the firewall, not the wall: the hooks hold what they hold whether
or not the agent read it.

Formats: text (plain, for any prompt), markdown (for CLAUDE.md or a
Markdown prompt), agents-md and gemini-md (a section for AGENTS.md or
GEMINI.md, under the file's own title and between airlock:begin and
airlock:end comments, saying how a refusal looks in those agents), json
(the same content for scripts).

Examples:
  airlock prompt --mode unattended > rules.txt
  claude -p "$(airlock prompt --mode unattended)

  Fix the failing test in ./pkg/x."
  airlock prompt --format markdown >> CLAUDE.md
  airlock prompt --format agents-md >> AGENTS.md
  airlock prompt --format gemini-md >> GEMINI.md`

func runPrompt(e *env) int {
	fs := e.flags
	modeName := fs.String("mode")
	format := fs.String("format")
	cwd := fs.String("cwd")
	if fs.NArg() > 0 {
		return fail(e.stderr, &usageError{Msg: fmt.Sprintf("prompt takes no arguments, got %q", fs.Arg(0)), Hints: []string{"airlock prompt [--mode MODE] [--format text|markdown|agents-md|gemini-md|json]"}})
	}
	var f policy.Format
	switch *format {
	case "text":
		f = policy.Text
	case "markdown", "md":
		f = policy.Markdown
	case "agents-md":
		f = policy.AgentsMD
	case "gemini-md":
		f = policy.GeminiMD
	case "json":
	default:
		return fail(e.stderr, &usageError{Msg: fmt.Sprintf("unknown format %q", *format), Hints: []string{"pass --format text, markdown or json (agents-md or gemini-md for a section of AGENTS.md or GEMINI.md)"}})
	}
	p, _, err := loadFor(e, *cwd)
	if err != nil {
		// No prompt is better than a prompt that disagrees with the policy:
		// the hooks refuse every call while the policy has an error.
		return fail(e.stderr, &usageError{Msg: err.Error(), Hints: []string{"fix the policy file, then run \"airlock policy check\""}})
	}
	mode := p.Mode
	if *modeName != "" {
		if mode, err = policy.ParseMode(*modeName); err != nil {
			return fail(e.stderr, &usageError{Msg: err.Error(), Hints: []string{"pass --mode interactive, supervised or unattended"}})
		}
	}
	b := p.Brief(mode)
	if *format == "json" {
		return encodeJSON(e, b)
	}
	fmt.Fprint(e.stdout, b.Render(f))
	return ExitOK
}
