package cli

const notifyHelp = `
Send each newly held action to your phone or a chat channel, as the
notify: section of your user policy says, and apply the decisions taken
on the phone:

  notify:
    ntfy:
      server: https://ntfy.example.org   # your ntfy server
      # topic and reply_topic: leave them out, and airlock makes secret ones
      token_file: /home/me/.local/state/airlock/secrets/ntfy-token   # optional
    webhook:
      url: https://hooks.example.com/...   # JSON POST, no approval over it
      headers: {Authorization: Bearer ...}

ntfy notifications carry Approve and Reject buttons; a press is signed by
a key only airlock holds, counts once, and expires. Each item is sent once
(what was sent is kept in the state directory). The watcher runs until
interrupted; --once sends what is new, applies the replies waiting, and
exits. It never runs on the hook's path: it is the airlock-notify binary,
installed next to airlock. See docs/NOTIFY.md.

Agents cannot run this: airlock's self-protection denies it.

Exit status: 0 done, 2 usage error, no notify section, or a channel failed (--once).`

// NotifyBinary is the watcher's own binary (cmd/airlock-notify), which
// "airlock notify" starts: the HTTP client and TLS stack stay out of the
// airlock binary, which answers every tool call of every agent.
const NotifyBinary = "airlock-notify"

// runNotify runs airlock-notify with the flags given. Like the MCP proxy,
// it must sit next to the airlock binary, not be looked up on PATH.
func runNotify(e *env) int {
	var args []string
	if *e.flags.Bool("once") {
		args = append(args, "--once")
	}
	if *e.flags.Bool("json") {
		args = append(args, "--json")
	}
	return runCompanion(e, "airlock notify", NotifyBinary, append(args, e.flags.Args()...))
}
