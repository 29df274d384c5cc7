package classify

import (
	"net/url"
	"slices"
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// This file is the shell side of the fetch rule (urlsecret.go) for
// credentials kept in environment variables (FINDINGS-10 E1). The agent's
// environment holds the human's tokens ($GITHUB_TOKEN, $AWS_SECRET_…,
// $ANTHROPIC_API_KEY); a program that talks to the network sends its
// words out, so a secret-named variable spliced into any of them leaves
// the machine. The rule is one for every carrier, the one the URL query
// rule has always applied: a secret-named variable in a word a network
// program sends is external, whatever the host, because airlock cannot
// tell which host a token is meant for from the word alone.
//
// One carrier is a credential's ordinary use, not a leak: the
// authentication slot of a request (a header, -u/--user, a cookie, the
// user information of a URL, git's http.extraHeader). A variable in such
// a slot passes unless its name says whose token it is (GITHUB_, GH_,
// ANTHROPIC_, AWS_, …) and the request goes to a host that is not that
// vendor's, or to a host airlock cannot read: $GITHUB_TOKEN in an
// Authorization header to api.github.com is ordinary; to 192.0.2.1 it is
// the token sent to someone else. Every other word (a URL's path, host
// labels, query and fragment, a user agent, a referer, GET data, a name
// looked up, a package or image name sent to a registry) is held for any
// host: there a credential is data, not authentication.

// secretCarry rates a run whose words carry a secret-named variable to
// the network. net says whether the run was rated as reaching the network
// (a network read); a run that writes beyond the machine is held anyway.
func secretCarry(inv *shell.Invocation, e Effect) Effect {
	if e.Tier >= External || inv.Opaque != "" || len(inv.Args) < 2 {
		return nothing
	}
	name := inv.Name()
	reaches := e.NetworkRead || httpClients(name) || connectors(name)
	var hosts []string
	hostsRead := false
	for i := 1; i < len(inv.Args); i++ {
		if !inv.IsDynamic(i) {
			continue
		}
		w := inv.Args[i]
		vars := secretVarNames(w)
		if len(vars) == 0 {
			continue
		}
		addr := addressWord(w)
		if !reaches && !addr {
			continue
		}
		if authSlot(inv, i) {
			if !hostsRead {
				hosts, hostsRead = requestHosts(inv), true
			}
			if bad := foreignVendor(vars, hosts, httpClients(name)); bad != "" {
				return external("exfil.secret-var", name+" sends $"+bad+" in its credentials to "+clip(hostList(hosts))+", which is not a host of the service its name belongs to; send a credential only to the service that issued it, or ask the human")
			}
			continue
		}
		return external("exfil.secret-var", name+" carries the secret-named variable $"+vars[0]+" out in "+clip(w)+": a credential in a URL, a name looked up or any word but a request's credentials is sent as data; ask the human to run it")
	}
	return nothing
}

// connectors are programs that open a connection to a host their
// arguments name without being rated as a read (a port probe, a key
// scan, a TLS handshake): a name they look up leaves the machine.
func connectors(name string) bool {
	switch name {
	case "nc", "ncat", "netcat", "socat", "telnet", "ssh", "scp", "sftp", "ssh-keyscan", "openssl", "gnutls-cli",
		"rsync", "ftp", "lftp", "nmap", "getent", "resolvectl", "avahi-resolve", "mosh":
		return true
	}
	return false
}

// addressWord reports whether a word names a place on the network: a
// URL, or a host name built around a variable ($X.example.com, me@$X).
// Such a word sends what it holds whatever program takes it.
func addressWord(w string) bool {
	w = strings.Trim(w, `"'`)
	if strings.Contains(w, "://") {
		return true
	}
	for i := 0; i+1 < len(w); i++ {
		if w[i] != '$' {
			continue
		}
		j := i + 1
		if w[j] == '{' {
			j = strings.IndexByte(w[i:], '}')
			if j < 0 {
				return false
			}
			j += i + 1
		} else {
			for j < len(w) && (w[j] == '_' || isAlnum(w[j])) {
				j++
			}
		}
		// $X.example.com: a host label, looked up by the resolver.
		if j+1 < len(w) && w[j] == '.' && isAlnum(w[j+1]) && strings.ContainsRune(w[j+1:], '.') {
			return true
		}
	}
	return false
}

func isAlnum(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// authSlot reports whether word i of a run is where a request carries its
// credentials: the value of a header, user, cookie or token option, an
// HTTPie header item (Name:value), git's http.extraHeader, or the user
// information of a URL.
func authSlot(inv *shell.Invocation, i int) bool {
	w := strings.Trim(inv.Args[i], `"'`)
	if userinfoVar(w) {
		return true
	}
	low := strings.ToLower(w)
	if k := strings.Index(low, "http."); k >= 0 && strings.Contains(low, "extraheader=") {
		return true
	}
	if strings.HasPrefix(w, "-") {
		// --header=VALUE, -HVALUE (curl), --token=VALUE.
		if name, _, ok := strings.Cut(w, "="); ok && authOption(name) {
			return true
		}
		if inv.Name() == "curl" && len(w) > 2 && w[1] != '-' && strings.ContainsRune("Hub", rune(w[1])) {
			return true
		}
		return false
	}
	if i > 1 {
		prev := inv.Args[i-1]
		if authOption(prev) {
			return true
		}
		// curl's bundled short options: -sH VALUE, -su VALUE.
		if inv.Name() == "curl" && len(prev) > 2 && prev[0] == '-' && prev[1] != '-' && strings.ContainsRune("Hub", rune(prev[len(prev)-1])) {
			return true
		}
		if strings.ToLower(prev) == "-c" && strings.Contains(low, "extraheader") {
			return true
		}
	}
	if !httpClients(inv.Name()) {
		// A setting named for a credential handed to a program
		// (terraform -var token=$TF_TOKEN) goes to the service the
		// program is configured for.
		if name, _, ok := strings.Cut(w, "="); ok && secretName(name) {
			return true
		}
	}
	switch inv.Name() {
	case "http", "https", "xh", "xhs", "httpie", "curlie":
		// Name:value is a header item; Name:=json, Name==query and
		// Name=field are data.
		if k := strings.IndexByte(w, ':'); k > 0 && !strings.Contains(w[:k], "/") && !strings.HasPrefix(w[k:], ":=") &&
			!strings.Contains(w[:k], "=") && !strings.Contains(w, "://") {
			return true
		}
	}
	return false
}

// authOption reports whether an option carries credentials.
func authOption(opt string) bool {
	switch opt {
	case "-H", "--header", "--proxy-header", "-u", "--user", "--proxy-user", "-b", "--cookie",
		"--oauth2-bearer", "--http-user", "--http-password", "--password", "--proxy-password",
		"--ftp-user", "--ftp-password", "-a", "--auth", "--token", "--auth-token", "--access-token",
		"--api-key", "--apikey", "--bearer", "--headers":
		return true
	}
	return false
}

// userinfoVar reports whether a URL carries a variable in its user
// information (https://$TOKEN@host/, https://me:$TOKEN@host/).
func userinfoVar(w string) bool {
	k := strings.Index(w, "://")
	if k < 0 {
		return false
	}
	rest := w[k+3:]
	if end := strings.IndexAny(rest, "/?#"); end >= 0 {
		rest = rest[:end]
	}
	at := strings.LastIndexByte(rest, '@')
	return at > 0 && strings.Contains(rest[:at], "$") && !strings.Contains(rest[at:], "$")
}

// requestHosts are the hosts a run's URLs name, "" for one built at run
// time. For curl and wget, an operand without a scheme is a URL too.
func requestHosts(inv *shell.Invocation) []string {
	var out []string
	add := func(raw string) {
		raw = strings.Trim(raw, `"'`)
		if !strings.Contains(raw, "://") {
			raw = "https://" + raw
		}
		if v, ok := hostVariable(raw); ok {
			// "$GITHUB_API_URL/user": a host the environment names, by
			// a variable of the service's own prefix (foreignVendor).
			out = append(out, "$"+v)
			return
		}
		u, err := url.Parse(raw)
		if err != nil || u.Host == "" || strings.Contains(u.Host, "$") {
			out = append(out, "")
			return
		}
		out = append(out, strings.ToLower(u.Hostname()))
	}
	// A proxy or a host mapping the command sets sends the request
	// somewhere its URL does not say (--connect-to api.github.com:443:
	// 192.0.2.1:443, HTTPS_PROXY=…): the host is then unknown.
	for _, e := range inv.Env {
		if k, _, _ := strings.Cut(e, "="); strings.HasSuffix(strings.ToLower(k), "_proxy") {
			out = append(out, "")
		}
	}
	for _, a := range inv.Args[1:] {
		name, _, _ := strings.Cut(a, "=")
		switch {
		case inv.Name() == "curl" && slices.Contains([]string{"--connect-to", "--resolve", "-x", "--proxy", "--preproxy", "--socks4",
			"--socks4a", "--socks5", "--socks5-hostname", "--location-trusted", "--doh-url", "--config", "-K"}, name),
			strings.HasPrefix(inv.Name(), "wget") && slices.Contains([]string{"-e", "--execute", "--config"}, name),
			// git -c url.X.insteadOf=… or http.proxy=… sends elsewhere.
			inv.Name() == "git" && (strings.Contains(strings.ToLower(a), "insteadof") || strings.Contains(strings.ToLower(a), "proxy")):
			out = append(out, "")
		}
	}
	switch inv.Name() {
	case "curl", "wget", "wget2":
		spec := curlOptions
		if inv.Name() != "curl" {
			spec = wgetOptions
		}
		p := spec.Parse(inv.Args[1:])
		for _, o := range p.Operands {
			add(o)
		}
		for _, v := range p.Values("--url") {
			add(v)
		}
		return out
	case "http", "https", "xh", "xhs", "httpie", "curlie":
		// The first word that is not an option or a method is the URL,
		// with or without its scheme (api.github.com/user, :3000/x).
		for i := 1; i < len(inv.Args); i++ {
			w := strings.Trim(inv.Args[i], `"'`)
			if strings.HasPrefix(w, "-") || w != "" && strings.ToUpper(w) == w && !strings.ContainsAny(w, ".:/") {
				continue
			}
			if strings.HasPrefix(w, ":") {
				w = "localhost" + w
			}
			add(w)
			return out
		}
		return out
	}
	for i := 1; i < len(inv.Args); i++ {
		w := strings.Trim(inv.Args[i], `"'`)
		if strings.Contains(w, "://") && !strings.HasPrefix(w, "-") && !strings.Contains(w, "=") {
			add(w)
		}
	}
	return out
}

// hostList renders hosts for a message.
func hostList(hosts []string) string {
	var out []string
	for _, h := range hosts {
		if h == "" {
			h = "a host named at run time"
		}
		out = append(out, h)
	}
	if len(out) == 0 {
		return "a host airlock cannot read"
	}
	return strings.Join(out, ", ")
}

// vendorHosts maps the prefix of a variable's name to the domains of the
// service that issues it. A registry's tokens are left out: their hosts
// are configured per project.
var vendorHosts = []struct {
	prefixes []string
	domains  []string
}{
	{[]string{"GITHUB_", "GH_"}, []string{"github.com", "githubusercontent.com", "ghcr.io"}},
	{[]string{"GITLAB_", "GL_"}, []string{"gitlab.com"}},
	{[]string{"ANTHROPIC_", "CLAUDE_"}, []string{"anthropic.com"}},
	{[]string{"OPENAI_"}, []string{"openai.com"}},
	{[]string{"AWS_"}, []string{"amazonaws.com", "aws.amazon.com"}},
	{[]string{"SLACK_"}, []string{"slack.com"}},
	{[]string{"STRIPE_"}, []string{"stripe.com"}},
	{[]string{"GOOGLE_", "GCP_", "GEMINI_"}, []string{"googleapis.com", "google.com"}},
	{[]string{"CLOUDFLARE_", "CF_"}, []string{"cloudflare.com"}},
	{[]string{"VERCEL_"}, []string{"vercel.com"}},
	{[]string{"NETLIFY_"}, []string{"netlify.com"}},
	{[]string{"SENTRY_"}, []string{"sentry.io"}},
	{[]string{"DIGITALOCEAN_", "DO_"}, []string{"digitalocean.com"}},
	{[]string{"HEROKU_"}, []string{"heroku.com"}},
}

// foreignVendor returns the first variable whose name names a service
// while the request goes elsewhere: a host not that service's, a host
// built at run time, or (for an HTTP client) no host airlock can read.
func foreignVendor(vars, hosts []string, httpClient bool) string {
	for _, v := range vars {
		domains := vendorOf(v)
		if domains == nil {
			continue
		}
		if len(hosts) == 0 && httpClient {
			return v
		}
		for _, h := range hosts {
			if name, isVar := strings.CutPrefix(h, "$"); isVar && sameVendor(name, v) {
				continue
			}
			if h == "" || strings.HasPrefix(h, "$") || !underAny(h, domains) {
				return v
			}
		}
	}
	return ""
}

func vendorOf(name string) []string {
	for _, vh := range vendorHosts {
		for _, p := range vh.prefixes {
			if strings.HasPrefix(name, p) {
				return vh.domains
			}
		}
	}
	return nil
}

func underAny(host string, domains []string) bool {
	for _, d := range domains {
		if host == d || strings.HasSuffix(host, "."+d) {
			return true
		}
	}
	return false
}

// secretVarNames are the names of the secret-looking variables text
// expands ($GITHUB_TOKEN, ${AWS_SECRET_ACCESS_KEY}), upper-cased.
func secretVarNames(text string) []string {
	var out []string
	for i := 0; i < len(text); i++ {
		if text[i] != '$' {
			continue
		}
		j := i + 1
		if j < len(text) && text[j] == '{' {
			j++
		}
		k := j
		for k < len(text) && (text[k] == '_' || isAlnum(text[k])) {
			k++
		}
		if name := strings.ToUpper(text[j:k]); secretVarName(name) {
			out = append(out, name)
		}
		i = k - 1
	}
	return out
}

// secretVarName reports whether a variable's name says it holds a
// credential.
func secretVarName(name string) bool {
	for _, w := range []string{"SECRET", "TOKEN", "PASSWORD", "PASSWD", "API_KEY", "APIKEY", "PRIVATE", "CREDENTIAL", "ACCESS_KEY", "SESSION"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	// $STRIPE_KEY, $DEPLOY_KEY, $GH_PAT, $DB_PASS.
	for _, s := range []string{"_KEY", "_PAT", "_PASS", "_PWD"} {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

// hostVariable reports a URL that is one variable followed by a path
// ("$GITHUB_API_URL/user", "${GITHUB_SERVER_URL}/o/r"), and its name.
func hostVariable(raw string) (string, bool) {
	rest, ok := strings.CutPrefix(raw, "https://")
	if !ok {
		rest = raw
	}
	rest, ok = strings.CutPrefix(rest, "$")
	if !ok {
		return "", false
	}
	braced := strings.HasPrefix(rest, "{")
	rest = strings.TrimPrefix(rest, "{")
	k := 0
	for k < len(rest) && (rest[k] == '_' || isAlnum(rest[k])) {
		k++
	}
	name, tail := rest[:k], rest[k:]
	if braced {
		var closed bool
		if tail, closed = strings.CutPrefix(tail, "}"); !closed {
			return "", false
		}
	}
	if name == "" || tail != "" && !strings.HasPrefix(tail, "/") {
		return "", false
	}
	return strings.ToUpper(name), true
}

// sameVendor reports two variables whose names name the same service
// (GITHUB_API_URL and GITHUB_TOKEN).
func sameVendor(a, b string) bool {
	da, db := vendorOf(a), vendorOf(b)
	return da != nil && db != nil && da[0] == db[0]
}
