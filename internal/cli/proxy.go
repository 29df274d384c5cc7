package cli

const proxyHelp = `
Run airlock's egress proxy: the one door to the network for programs in a
sandbox (airlock run starts its own; Claude Code's sandbox reaches this
one through sandbox.network.httpProxyPort). Every request through it is
decided by your policy like a tool call: reads pass; writes (POST, PUT,
DELETE...), reads that carry data out, and tunnels it cannot see into are
held in the review queue and answered 403 with the queue id. After
"airlock queue approve ID" the identical request (method, URL and body)
goes through once. git clone and fetch pass; git push is held.

HTTPS is inspected with a certificate authority made for this
installation (its key stays in airlock's secrets). Clients inside must
trust the certificate it writes (--ca-cert): SSL_CERT_FILE,
NODE_EXTRA_CA_CERTS, GIT_SSL_CAINFO, REQUESTS_CA_BUNDLE, CURL_CA_BUNDLE
(--json prints them). Hosts the policy's egress section lists as
passthrough are tunnelled untouched. See docs/CONTAIN.md.

The first line printed is where it listens. It runs the airlock-proxy
binary installed next to airlock.

Flags:
  --listen ADDR    127.0.0.1:PORT or unix:PATH (default 127.0.0.1:3128)
  --ca-cert FILE   where to write the CA certificate clients trust
  --cwd DIR        the project whose policy applies (default: here)
  --json           print the first line as JSON

Exit status: 0 when stopped by a signal, 2 when it cannot start.`

// EgressBinary is the egress proxy's binary, which "airlock proxy" runs:
// it links TLS and an HTTP stack, which the hook's binary must not.
const EgressBinary = "airlock-proxy"

// runProxy hands the command line to airlock-proxy next to this binary
// (internal/contain/egress/egresscmd reads its flags).
func runProxy(e *env) int {
	return runCompanion(e, "airlock proxy", EgressBinary, e.args)
}
