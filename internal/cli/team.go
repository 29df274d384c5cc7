package cli

const teamHelp = `
Team mode: one review queue for every machine and CI runner, on a team
server backed by PostgreSQL. The server holds each machine's held items
and settlements; reviewers approve or reject from anywhere; each decision
is signed by the server, and a machine applies one only when the
signature verifies with the key it pinned when it joined.

  airlock team join SERVER_URL --token T  join this machine (pins the server's key)
  airlock team sync                       ship held items, apply signed decisions
  airlock team serve --db URL             the team server and its dashboard
  airlock team add-machine NAME --db URL  a machine's join token
  airlock team add-reviewer NAME --db URL a reviewer's token
  airlock team revoke NAME --db URL       revoke either, at once
  airlock team notify --config FILE ...   the phone channel for the team queue
  airlock team queue list|show|approve|reject ... --server URL --token R

Agents cannot run these: each acts as a human (it starts the server,
makes or revokes identities, or reads and settles the team's queue with
a reviewer's token), so airlock's self-protection denies them.

join and sync run the airlock-teamsync binary, the server's and the
reviewer's commands the airlock-team binary, both installed next to
airlock: they link the HTTP stack (and the server, the PostgreSQL
driver) the airlock binary does not. See docs/TEAM.md.`

// TeamBinary is team mode's binary, which "airlock team" runs: it links
// pgx and an HTTP server and client, which the hook's binary must not.
const TeamBinary = "airlock-team"

// runTeam hands a team verb and its arguments to airlock-team next to
// this binary (internal/team/teamcmd reads its flags).
func runTeam(verb ...string) func(e *env) int {
	return func(e *env) int {
		return runCompanion(e, "airlock team", TeamBinary, append(append([]string(nil), verb...), e.args...))
	}
}

// teamCommand is "airlock team" and its verbs. Each is a passthrough:
// airlock-team owns the flags (policy.AirlockVerbs lists them for
// self-protection, and teamcmd's test checks that list against them).
func teamCommand() *command {
	verb := func(name, summary, usage, operands string) *command {
		return &command{name: name, summary: summary, usage: []string{usage}, operands: operands, passthrough: true, run: runTeam(name)}
	}
	queue := func(name, summary, usage, operands string) *command {
		return &command{name: name, summary: summary, usage: []string{usage}, operands: operands, passthrough: true, run: runTeam("queue", name)}
	}
	return &command{name: "team", summary: "team mode: one review queue for many machines, on PostgreSQL",
		usage: []string{"airlock team join|sync|serve|add-machine|add-reviewer|revoke|notify|queue [flags]"},
		help:  teamHelp,
		subs: append(teamSyncCommands(),
			verb("serve", "run the team server and its dashboard (the first line printed is the admin URL)",
				"airlock team serve --db URL [--listen 127.0.0.1:7780] [--key FILE] [--retention DAYS] [--tls-cert FILE --tls-key FILE | --no-tls REASON] [--public-url URL]", "FLAGS..."),
			verb("add-machine", "add a machine and print its join token", "airlock team add-machine NAME --db URL", "NAME"),
			verb("add-reviewer", "add a reviewer and print the reviewer's token", "airlock team add-reviewer NAME --db URL", "NAME"),
			verb("revoke", "revoke a machine's or a reviewer's token", "airlock team revoke NAME --db URL", "NAME"),
			verb("notify", "send every machine's held items to the team's phone topic; settle the phone's replies as a reviewer",
				"airlock team notify --config FILE [--once] [--json] --server URL --token R", ""),
			&command{name: "queue", summary: "the team queue, as a reviewer: list, show, approve, reject",
				usage: []string{"airlock team queue list|show|approve|reject [KEY] [flags] --server URL --token R"},
				help:  teamHelp,
				subs: []*command{
					queue("list", "list the team queue, newest first",
						"airlock team queue list [--machine NAME] [--repo REPO] [--min-age AGE] [--status STATUS] [--limit N] [--json] --server URL --token R", ""),
					queue("show", "show one team item in full", "airlock team queue show KEY [--json] --server URL --token R", "KEY"),
					queue("approve", "approve a team item: its machine lets the retry run once after its next sync",
						"airlock team queue approve KEY [--for DURATION] [--note TEXT] [--json] --server URL --token R", "KEY"),
					queue("reject", "reject a team item", "airlock team queue reject KEY [--note TEXT] [--json] --server URL --token R", "KEY"),
				}},
		)}
}
