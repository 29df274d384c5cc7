package cli

import (
	"time"
)

// TeamSyncBinary is the machine's side of team mode (cmd/airlock-teamsync),
// which "airlock team join" and "airlock team sync" start: the HTTP client
// and TLS stack stay out of the airlock binary, which answers every tool
// call of every agent.
const TeamSyncBinary = "airlock-teamsync"

const teamJoinHelp = `
Join this machine to a team server: ask the server who the token says this
machine is, check the protocol version, pin the server's signing key and
keep the server's URL, the machine's name, the token and the key in
airlock's secrets directory (mode 0600). It prints the key's fingerprint:
compare it with the one airlock team serve printed, or pass it as --pin,
and a server presenting another key is refused. A team decision counts on
this machine only when that key signed it, for this machine.

Agents cannot run this: airlock's self-protection denies it.

Exit status: 0 joined, 1 the server refused or did not match, 2 usage error.`

const teamSyncHelp = `
Ship this machine's held items and what became of them to the team server,
and apply the team's decisions to this machine's journal as human acts
(the channel team, the reviewer's name), each only when the server's
signature verifies with the key pinned at join and names this machine.
Refused decisions are journaled and reported back. A repeated sync applies
nothing twice; an offline machine keeps holding locally and catches up.
It runs beside the service, never on the hook's path, a round every
--interval until interrupted; --once runs one round and exits. See
docs/TEAM.md.

Agents cannot run this: airlock's self-protection denies it.

Exit status: 0 done, 1 a round failed (--once), 2 usage error or not joined.`

// teamSyncCommands are the machine's team commands, under "airlock team".
func teamSyncCommands() []*command {
	return []*command{
		{name: "join", summary: "join this machine to a team server and pin its key (humans only)",
			usage: []string{"airlock team join SERVER_URL --token TOKEN [--pin SHA256:...]"}, operands: "SERVER_URL",
			help: teamJoinHelp, run: runTeamJoin,
			flags: []flagSpec{
				stringFlag("token", "TOKEN", "", "the machine token airlock team add-machine printed"),
				stringFlag("pin", "SHA256:...", "", "the server key's fingerprint as airlock team serve printed it: any other key is refused"),
			}},
		{name: "sync", summary: "ship held items to the team server and apply its signed decisions",
			usage: []string{"airlock team sync [--once] [--interval DURATION] [--json]"},
			help:  teamSyncHelp, run: runTeamSync,
			flags: []flagSpec{
				boolFlag("once", "run one round and exit"),
				durationFlag("interval", "DURATION", 10*time.Second, "time between rounds"),
				jsonFlag(),
			}},
	}
}

func runTeamJoin(e *env) int {
	ops := e.flags.Args()
	if len(ops) != 1 || *e.flags.String("token") == "" {
		return fail(e.stderr, &usageError{Msg: "team join takes the server's URL and --token",
			Hints: []string{"airlock team join SERVER_URL --token TOKEN [--pin SHA256:...]"}})
	}
	args := []string{"join", "--token", *e.flags.String("token")}
	if pin := *e.flags.String("pin"); pin != "" {
		args = append(args, "--pin", pin)
	}
	return runCompanion(e, "airlock team join", TeamSyncBinary, append(args, "--", ops[0]))
}

func runTeamSync(e *env) int {
	if len(e.flags.Args()) != 0 {
		return fail(e.stderr, &usageError{Msg: "team sync takes no operand", Hints: []string{"airlock team sync [--once] [--interval DURATION] [--json]"}})
	}
	args := []string{"sync", "--interval", e.flags.Duration("interval").String()}
	if *e.flags.Bool("once") {
		args = append(args, "--once")
	}
	if *e.flags.Bool("json") {
		args = append(args, "--json")
	}
	return runCompanion(e, "airlock team sync", TeamSyncBinary, args)
}
