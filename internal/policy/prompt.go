package policy

import (
	"fmt"
	"github.com/airlock-dev/airlock/internal/firstuse"
	"sort"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
)

// Brief is the policy in force as an agent should be told it before it
// starts: what goes through, what is held and why, and what to do when an
// action is held. It is the first layer of the firewall, not the wall:
// enforcement never relies on the agent having read it.
//
// A Brief is generated from the compiled policy, never written by hand, so
// that the prompt and the decisions cannot disagree: the decision of each
// class is the table's, the rules are the ones in force, and every example
// is placed where Decide itself puts it.
type Brief struct {
	// Mode is the mode the brief describes.
	Mode Mode `json:"mode"`
	// ModeMeaning says who watches in that mode.
	ModeMeaning string `json:"mode_meaning"`
	// Classes are the rows of the mode's table, in table order.
	Classes []Class `json:"classes"`
	// Rules are the rules in force, built-in first, in file order. An
	// allow rule that has no effect (one from a project file the user has
	// not trusted) is left out: telling the agent it may do something the
	// firewall then holds is exactly the disagreement a Brief must avoid.
	Rules []BriefRule `json:"rules"`
	// Protected says what self-protection denies whatever the files say.
	Protected string `json:"protected"`
	// OnHold says what to do when an action is held.
	OnHold []string `json:"on_hold"`
}

// Class is one row of the decision table: a kind of effect, what airlock
// decides for it, and commands that the policy decides by that row.
type Class struct {
	// Name is the row's name in policy files: local, shared, external,
	// destructive, opaque or unknown; the inside_project entry of the
	// destructive row is "destructive inside the project", shown only
	// where it decides otherwise than the destructive row.
	Name string `json:"name"`
	// What says which actions fall in the class.
	What string `json:"what"`
	// Decision is the table's decision for the class in the brief's mode.
	Decision Decision `json:"decision"`
	// Words say what the decision means when decisionWords would not
	// (a snapshot first); "" otherwise.
	Words string `json:"words,omitempty"`
	// Examples are commands from the classifier's own spec examples that
	// the policy decides by this row.
	Examples []string `json:"examples,omitempty"`
}

// BriefRule is one rule in force, as the agent is told it.
type BriefRule struct {
	ID       string   `json:"id"`
	Origin   string   `json:"origin"`
	Decision Decision `json:"decision"`
	// Match describes what the rule matches (Rule.Describe).
	Match   string `json:"match"`
	Message string `json:"message,omitempty"`
	// Examples are the rule's own match examples and classifier spec
	// examples that the policy decides by this rule.
	Examples []string `json:"examples,omitempty"`
}

// classWhat says what falls in each table row. These are definitions of
// the classifier's vocabulary (DESIGN.md), not decisions: the decisions
// come from the table.
var classWhat = [numRows]string{
	rowLocal:       "work confined to this machine and reversible: reading, searching, editing and writing files, building, testing, linting, local git such as status, diff and add, and reading from the network (a fetch, a clone, an install's download)",
	rowShared:      "state that collaborators see or that is not casually undone: git history and refs (commit, merge, rebase, tag, branch), local databases, global configuration, installs",
	rowExternal:    "anything that writes beyond this machine, in any spelling or wrapper: git push, pull requests and issue comments, releases, package publishes, image pushes, deploys, HTTP requests with a write method or a body, file transfers to another host, mail, remote shells, and URLs built from command output",
	rowDestructive: "commands that lose data: recursive deletes, git reset --hard and clean -f, force pushes, dropping tables, formatting or overwriting disks, destroying infrastructure",
	rowOpaque:      "commands airlock cannot read before they run: a computed command name, eval of a variable, text piped into a shell, interpreter one-liners that start programs or open sockets",
	rowUnknown:     "tools airlock does not know, such as MCP tools, unless a rule names them",
	rowInside:      "destruction whose every target resolves inside this project's worktree (rm -rf build, find build -delete, git reset --hard, git checkout -- ., git restore, git clean -fdx), run as a command of its own. It is reversible: airlock snapshots what it would lose first. Destruction outside the project (home, /, another repository, a symlink that leads out), of the repository's history (.git, branch -D, reflog expire, gc --prune, reset to another commit), inside a script, an interpreter or bash -c, or in one command with other programs, is the destructive row",
}

var modeMeaning = [numModes]string{
	Interactive: "a human watches every call and can confirm one when asked",
	Supervised:  "a human checks in now and then; held actions wait in a queue for review",
	Unattended:  "nobody is watching; held actions wait in a queue for a human to review later",
}

// The airlock subcommands the brief names as read-only and as denied. A
// test checks each against self-protection, so the brief cannot drift from
// what the guard does.
var (
	briefReadOnly = []string{"check", "report", "prompt", "policy show", "policy test", "queue list", "queue show", "audit verify", "snapshots list"}
	briefMutating = []string{"trust", "approve", "reject", "run", "install", "uninstall", "policy init", "hook", "undo", "snapshots prune"}
)

// protectedText is what self-protection (selfprotect.go) denies; no policy
// file can change it, so it is the same in every brief.
var protectedText = firstuse.Table[string]{Build: func() string {
	return "Changing airlock's own policy files, state, journal or binary, or the agent settings its hooks live in, and running airlock's commands that change what it allows (" +
		strings.Join(briefMutating, ", ") + ", and any other that is not read-only) are denied in every mode, however they are spelled. Its read-only commands (" +
		strings.Join(briefReadOnly, ", ") + ") are fine."
}}

// onHold is what an agent must do when an action is held. The hook's
// replies say the same (internal/agent/claudecode, Reply).
var onHold = []string{
	"Do not retry a held action, and do not rephrase it as another command, another tool or a script that does the same thing: airlock judges what an action does, not how it is written, so every form of it is held the same way, and every attempt is recorded for the human.",
	"Carry on with the work that does not depend on it: local work goes through.",
	"In your final summary, list every held action as not done, with the reason airlock gave, so that a human can review it and release it.",
}

// Example limits keep the brief short enough to prepend to every prompt.
const (
	classExamples   = 5
	ruleExamples    = 3
	maxExampleBytes = 48
)

// Brief describes the policy in force in mode m.
func (p *Policy) Brief(m Mode) *Brief {
	b := &Brief{Mode: m, ModeMeaning: modeMeaning[m], Protected: protectedText.Get(), OnHold: onHold}
	byRule := p.placeExamples(m)
	t := p.Table(m)
	for r := row(0); r < numRows; r++ {
		c := Class{
			Name: r.String(), What: classWhat[r], Decision: *t.at(r),
			Examples: byRule["table."+r.String()].take(classExamples),
		}
		if r == rowInside {
			if t.Inside == t.Destructive || t.Inside == Warn && t.Destructive <= Warn {
				continue // decided like any destruction: nothing to tell apart
			}
			c.Name = "destructive inside the project"
			c.Examples = []string{"rm -rf build", "git reset --hard", "git clean -fdx"}
			if t.Inside == Warn {
				c.Words = "allowed, with a warning, once airlock has snapshotted what it deletes (a human can undo it); if the snapshot cannot be taken (over its size bound, another repository inside), it is decided as the destructive row"
			}
		}
		b.Classes = append(b.Classes, c)
	}
	for _, r := range p.Rules {
		if r.Decision == Allow && !r.relaxes {
			continue
		}
		br := BriefRule{ID: r.ID, Origin: r.Origin.String(), Decision: ruleDecisionIn(m, false, r.Origin, r.Decision), Match: r.Describe(), Message: r.Message}
		// The rule's own examples come first: its author chose them.
		for _, ex := range r.Examples {
			if !ex.Match {
				continue
			}
			if v := p.DecideIn(m, ex.Action); v.Rule == r.ID && len(br.Examples) < ruleExamples {
				br.Examples = append(br.Examples, exampleString(ex.Action))
			}
		}
		for _, s := range byRule[r.ID].take(ruleExamples) {
			if len(br.Examples) < ruleExamples && !contains(br.Examples, s) {
				br.Examples = append(br.Examples, s)
			}
		}
		b.Rules = append(b.Rules, br)
	}
	return b
}

// candidates are spec examples that one rule or table row decides, at
// most one per spec, so that a class shows several programs rather than
// many spellings of one.
type candidates []candidate

type candidate struct {
	command string
	rank    int
}

// take returns the first n candidates by rank.
func (c candidates) take(n int) []string {
	s := append(candidates(nil), c...)
	sort.SliceStable(s, func(i, j int) bool { return s[i].rank < s[j].rank })
	var out []string
	for i := 0; i < len(s) && i < n; i++ {
		out = append(out, s[i].command)
	}
	return out
}

// headline lists the programs a coding agent reaches for most, to show
// their examples first. It only orders what is shown: every example is
// still decided by the policy, so a stale entry cannot make the brief
// wrong, only less apt.
var headline = []string{"git", "gh", "curl", "npm", "rm", "ssh", "docker", "kubectl", "pip", "cargo", "rsync", "scp", "terraform", "wget", "yarn", "go", "python", "node"}

// trivial words make an example say nothing about what a program does.
func trivial(name string) bool {
	switch name {
	case "--help", "-h", "help", "--version", "-V", "version":
		return true
	}
	return false
}

// placeExamples decides every classifier spec example in mode m and groups
// them by the rule that set the decision ("table.external", a rule id).
// From each spec it keeps, per rule, the first example its author listed
// (the canonical one) that is short, names the spec's own program first
// and is not a help or version call. Self-protection verdicts are left
// out: they depend on where airlock's own files are, not on what the
// command does.
func (p *Policy) placeExamples(m Mode) map[string]candidates {
	rank := map[string]int{}
	for i, name := range headline {
		rank[name] = i
	}
	out := map[string]candidates{}
	for i, spec := range classify.Specs() {
		r, ok := rank[spec.Programs[0]]
		if !ok {
			r = len(headline) + i
		}
		seen := map[string]bool{}
		for _, ex := range spec.Examples {
			if !presentable(ex.Command, spec.Programs) {
				continue
			}
			v := p.DecideIn(m, Action{Kind: Shell, Tool: "Bash", Command: ex.Command, Cwd: "/"})
			if strings.HasPrefix(v.Rule, "self.") || seen[v.Rule] {
				continue
			}
			seen[v.Rule] = true
			out[v.Rule] = append(out[v.Rule], candidate{command: ex.Command, rank: r})
		}
	}
	return out
}

// presentable reports whether a spec example is worth showing an agent.
func presentable(cmd string, programs []string) bool {
	if len(cmd) > maxExampleBytes || strings.ContainsAny(cmd, "\n\t") {
		return false
	}
	words := strings.Fields(cmd)
	if len(words) < 2 || !contains(programs, words[0]) {
		return false
	}
	for _, w := range words[1:] {
		if trivial(w) {
			return false
		}
	}
	return true
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// exampleString renders an example action: the command of a shell action,
// else the tool and what it touches.
func exampleString(a Action) string {
	switch {
	case a.Kind == Shell:
		return a.Command
	case a.URL != "":
		return a.Tool + " " + a.URL
	case a.Query != "":
		return a.Tool + " " + a.Query
	case len(a.Paths) > 0:
		return a.Tool + " " + a.Paths[0]
	}
	return a.Tool
}

// Format is how a Brief is rendered.
type Format int8

// The formats of a rendered brief.
const (
	// Text is plain text for any agent's prompt.
	Text Format = iota
	// Markdown has headings and code spans, for agents and files that read
	// Markdown (CLAUDE.md, AGENTS.md).
	Markdown
	// AgentsMD is a Markdown section to add to an AGENTS.md (read by
	// Codex, OpenCode, Copilot, Cursor, Factory and others): one level
	// below the file's own title, between marker comments so that it can
	// be found and replaced whole.
	AgentsMD
	// GeminiMD is the same section for Gemini CLI's GEMINI.md.
	GeminiMD
)

// sectionFor is what an AGENTS.md or GEMINI.md section says about how a
// refusal reaches the agent there, and its markers.
var sectionFor = map[Format]struct{ name, refusal string }{
	AgentsMD: {"agents-md", "A held or denied call reaches you as a refused tool call whose message is airlock's reason (Codex: \"Command blocked by PreToolUse hook: …\", Copilot: \"Denied by preToolUse hook: …\", OpenCode: the error thrown by airlock's plugin)."},
	GeminiMD: {"gemini-md", "A held or denied call reaches you as \"Tool execution blocked: …\" followed by airlock's reason."},
}

// decisionWords says what a decision means for the agent.
func decisionWords(d Decision) string {
	switch d {
	case Allow:
		return "allowed"
	case Warn:
		return "allowed, with a warning"
	case Ask:
		return "held until a human confirms it (refused when nobody is there to confirm)"
	case Defer:
		return "held for human review: refused now and queued for a human"
	}
	return "denied: refused and not queued"
}

// Render writes the brief in format f.
func (b *Brief) Render(f Format) string {
	var w strings.Builder
	md := f != Text
	section, isSection := sectionFor[f]
	h1, h2 := "#", "##"
	if isSection {
		// A section of the user's file, under its own title.
		h1, h2 = "##", "###"
		fmt.Fprintf(&w, "<!-- airlock:begin (airlock prompt --format %s; regenerate it rather than edit it) -->\n", section.name)
	}
	heading := func(s string) {
		if md {
			fmt.Fprintf(&w, "\n%s %s\n\n", h2, s)
		} else {
			fmt.Fprintf(&w, "\n%s:\n", s)
		}
	}
	bullet := func(format string, args ...any) {
		if md {
			w.WriteString("- ")
		} else {
			w.WriteString("  - ")
		}
		fmt.Fprintf(&w, format, args...)
		w.WriteByte('\n')
	}
	code := func(list []string) string {
		q := make([]string, len(list))
		for i, s := range list {
			q[i] = "`" + s + "`"
		}
		return strings.Join(q, ", ")
	}
	title := fmt.Sprintf("airlock rules for this session (%s mode)", b.Mode)
	if md {
		fmt.Fprintf(&w, "%s %s\n\n", h1, title)
	} else {
		fmt.Fprintf(&w, "%s\n%s\n\n", strings.ToUpper(title), strings.Repeat("=", len(title)))
	}
	fmt.Fprintf(&w, "airlock stands between you and the outside world. It decides every tool call by what the call does, read from its structure, not by how it is written or what it says about itself. Mode: %s (%s).\n", b.Mode, b.ModeMeaning)

	var through, held []Class
	for _, c := range b.Classes {
		if c.Decision.Holds() {
			held = append(held, c)
		} else {
			through = append(through, c)
		}
	}
	class := func(c Class) {
		words := decisionWords(c.Decision)
		if c.Words != "" {
			words = c.Words
		}
		line := fmt.Sprintf("%s: %s. %s.", c.Name, c.What, capitalize(words))
		if len(c.Examples) > 0 {
			line += " For example: " + code(c.Examples) + "."
		}
		bullet("%s", line)
	}
	heading("Goes through")
	if len(through) == 0 {
		bullet("nothing runs without a human in this mode.")
	}
	for _, c := range through {
		class(c)
	}
	heading("Held")
	if len(held) == 0 {
		bullet("nothing is held by the table in this mode; the rules below still apply.")
	}
	for _, c := range held {
		class(c)
	}
	if len(b.Rules) > 0 {
		heading("Rules in force (the strictest decision that applies wins)")
		for _, r := range b.Rules {
			line := fmt.Sprintf("%s (%s rule): %s, when it matches %s.", r.ID, r.Origin, decisionWords(r.Decision), clipMatch(r.Match))
			if r.Message != "" {
				line += " Why: " + strings.TrimSuffix(r.Message, ".") + "."
			}
			if len(r.Examples) > 0 {
				line += " For example: " + code(r.Examples) + "."
			}
			bullet("%s", line)
		}
	}
	heading("Always")
	bullet("%s", b.Protected)
	heading("When an action is held")
	for _, s := range b.OnHold {
		bullet("%s", s)
	}
	if isSection {
		bullet("%s", section.refusal)
		w.WriteString("<!-- airlock:end -->\n")
	}
	return w.String()
}

// clipMatch shortens a long match description (the built-in secret rules
// list many globs); the rule's message and examples say the rest, and the
// JSON form keeps it whole.
func clipMatch(s string) string {
	const max = 160
	if len(s) <= max {
		return s
	}
	i := strings.LastIndexAny(s[:max], ",;")
	if i < 0 {
		i = max
	}
	return s[:i] + ", …"
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
