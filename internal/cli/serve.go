package cli

const serveHelp = `
Serve the review dashboard: the live queue, each held action in detail,
approve once or reject, make it a rule, reports by session and story, and
the journal's audit status.

The first line printed is the link to open: it carries a login code that
logs one browser in, once, within 10 minutes, and is spent by its first
use (the browser's history and the terminal's scrollback keep only a spent
link). The login token, new at each start, is never in a link: it is kept
in the state directory's secrets/serve.token while the server runs, and a
later login pastes it into the form at /login. The dashboard answers only to
the address it listens on, takes changes only from its own pages (CSRF
token, Origin), and listens on loopback unless told otherwise: a
non-loopback --listen needs --tls-cert and --tls-key, or --no-tls with
the reason.

Agents cannot run it: airlock's self-protection denies it, since a
dashboard the agent started is one it could click.

It runs the airlock-serve binary installed next to airlock.

Flags:
  --listen HOST:PORT   the address to listen on (default 127.0.0.1:7777)
  --tls-cert FILE      serve HTTPS with this certificate (PEM)
  --tls-key FILE       the certificate's private key (PEM)
  --no-tls REASON      serve plain HTTP on a non-loopback address, and why

Exit status: 0 when stopped by a signal, 2 on a usage error.`

// ServeBinary is the dashboard's binary, which "airlock serve" runs: it
// links an HTTP server and templates, which the hook's binary must not.
const ServeBinary = "airlock-serve"

// runServe hands the command line to airlock-serve next to this binary
// (internal/serve/servecmd reads its flags).
func runServe(e *env) int {
	return runCompanion(e, "airlock serve", ServeBinary, e.args)
}
