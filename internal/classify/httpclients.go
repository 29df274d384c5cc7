package classify

import (
	"github.com/airlock-dev/airlock/internal/firstuse"
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// This file closes HTTP clients as a class (issue 24): a program that
// sends a request body or an upload to a URL writes beyond the machine,
// whatever its name. Two layers:
//
//   - the well-known clients airlock had no spec for (load testers such
//     as ab, hey, oha, bombardier, wrk, siege, vegeta; text browsers
//     such as lynx and w3m; gRPC clients; http-prompt) get explicit
//     specs below, with their own option names (ab -p, hey -d, lynx
//     -post_data, w3m -post);
//   - any other program airlock does not know is external when its words
//     hold both a URL (scheme://host, or host:port) and an option shaped
//     like a body, upload, form or write method (--data*, --post*,
//     --upload*, --body, --json, --form, -X/-m POST, -d @file, -d k=v).
//     A known reader or local program is not affected: the rule runs only
//     where classify would otherwise look through an unknown program.
//
// A loopback URL counts as any other: airlock's own dashboard listens
// there, and a POST to it is how an agent would approve its own action.

// urlTarget returns the host a word addresses when it is a URL
// (scheme://host, not file://) or a host:port pair (localhost:8080,
// 10.0.0.5:80, api.example.com:443).
func urlTarget(w string) (string, bool) {
	if i := strings.Index(w, "://"); i > 0 {
		scheme := strings.ToLower(w[:i])
		for _, r := range scheme {
			if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.') {
				return "", false
			}
		}
		if scheme == "file" {
			return "", false
		}
		h := httpHost(w)
		return h, h != "" && !strings.HasPrefix(h, "/")
	}
	hostPort := w
	if i := strings.IndexByte(hostPort, '/'); i >= 0 {
		hostPort = hostPort[:i]
	}
	if strings.HasPrefix(hostPort, "[") { // [::1]:8080
		end := strings.Index(hostPort, "]:")
		if end < 0 || !allDigits(hostPort[end+2:]) {
			return "", false
		}
		return hostPort, true
	}
	host, port, ok := strings.Cut(hostPort, ":")
	if !ok || strings.Contains(port, ":") || !allDigits(port) || len(port) > 5 || host == "" {
		return "", false
	}
	if host == "localhost" || hostLike(host) {
		return hostPort, true
	}
	return "", false
}

// hostLike reports whether a word is an IPv4 address or a dotted domain
// name whose last label is not a source file's extension (main.go:12 is a
// file and a line, not a host and a port).
func hostLike(h string) bool {
	labels := strings.Split(h, ".")
	if len(labels) < 2 {
		return false
	}
	if len(labels) == 4 && allDigits(labels[0]) && allDigits(labels[1]) && allDigits(labels[2]) && allDigits(labels[3]) {
		return true
	}
	for _, l := range labels {
		if l == "" {
			return false
		}
		for _, r := range l {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
				return false
			}
		}
	}
	tld := strings.ToLower(labels[len(labels)-1])
	if allDigits(tld) || len(tld) < 2 {
		return false
	}
	switch tld {
	case "go", "py", "js", "ts", "tsx", "jsx", "rs", "rb", "java", "kt", "cc", "cpp", "hpp", "md", "txt", "json",
		"yaml", "yml", "toml", "sh", "sql", "html", "css", "vue", "swift", "php", "cs", "ex", "exs", "lua", "log":
		return false
	}
	return true
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// firstURL returns the first static word of a run (or the value of an
// --opt=value word) that addresses a host, with its host.
func firstURL(inv *shell.Invocation) (word, host string, ok bool) {
	for i := 1; i < len(inv.Args); i++ {
		if inv.IsDynamic(i) {
			continue
		}
		a := inv.Args[i]
		if strings.HasPrefix(a, "-") {
			_, v, has := strings.Cut(a, "=")
			if !has {
				continue
			}
			a = v
		}
		if h, ok := urlTarget(a); ok {
			return a, h, true
		}
	}
	return "", "", false
}

// writeMethod reports whether an HTTP method writes: anything but GET,
// HEAD and OPTIONS (a custom method is not known to be a read).
func writeMethod(m string) bool {
	switch strings.ToUpper(strings.Trim(m, `'"`)) {
	case "", "GET", "HEAD", "OPTIONS":
		return false
	}
	return true
}

// namedWriteMethod reports whether a word is one of the HTTP methods that
// write, by name.
func namedWriteMethod(m string) bool {
	switch strings.ToUpper(strings.Trim(m, `'"`)) {
	case "POST", "PUT", "PATCH", "DELETE":
		return true
	}
	return false
}

// bodyLongOptions are long option names (without value) that send a
// request body, a form or a file on their own, in any program.
func bodyLongOptions(name string) bool {
	switch name {
	case "--data", "--data-raw", "--data-binary", "--data-urlencode", "--data-ascii", "--data-json",
		"--data-file", "--post", "--post-data", "--post-file", "--post-body", "--put", "--patch", "--upload",
		"--upload-file", "--upload-data", "--body", "--body-file", "--body-data", "--json", "--form",
		"--form-string", "--multipart", "--payload", "--payload-file", "-post", "-post_data", "-post-data",
		"-postdata", "-put", "-upload", "-upload_file", "-body", "-json", "-data":
		return true
	}
	return false
}

// methodOptions take an HTTP method as their value.
func methodOptions(name string) bool {
	switch name {
	case "-X", "--request", "--method", "-m", "-method":
		return true
	}
	return false
}

// payloadValue reports whether the value of an ambiguous short option
// (-d, -F) looks like a body: a file sent with @, JSON, a form
// field or standard input.
func payloadValue(v string) bool {
	return strings.HasPrefix(v, "@") || strings.HasPrefix(v, "{") || strings.HasPrefix(v, "[") || v == "-" ||
		strings.Contains(v, "=") && !strings.HasPrefix(v, "=")
}

// fileValue reports whether the value of -p or -T looks like a file to
// send (body.json, ./payload, @x) rather than a port, a time, an address
// or a content type.
func fileValue(v string) bool {
	if strings.HasPrefix(v, "@") {
		return true
	}
	if v == "" || strings.Contains(v, ":") || allDigits(strings.ReplaceAll(v, ".", "")) {
		return false
	}
	base := v[strings.LastIndexByte(v, '/')+1:]
	dot := strings.LastIndexByte(base, '.')
	return strings.HasPrefix(v, "./") || strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~/") ||
		dot > 0 && dot < len(base)-1
}

// bodyOption finds, among an unknown program's words, an option shaped
// like a request body, an upload or a write method, and returns it as
// written (with its value).
func bodyOption(inv *shell.Invocation) (string, bool) {
	args := inv.Args
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "-") || inv.IsDynamic(i) && !strings.HasPrefix(a, "-") {
			continue
		}
		name, v, hasValue := strings.Cut(a, "=")
		next := func() (string, bool) {
			if hasValue {
				return v, true
			}
			if i+1 < len(args) {
				return args[i+1], true
			}
			return "", false
		}
		switch {
		case bodyLongOptions(name):
			if val, ok := next(); ok && !hasValue && !strings.HasPrefix(val, "-") {
				if _, isURL := urlTarget(val); !isURL {
					return a + " " + clip(val), true
				}
			}
			return a, true
		case methodOptions(name):
			m, ok := next()
			if ok && (name == "-m" || name == "-method") && !namedWriteMethod(m) {
				continue // -m is a message or a mode as often as a method
			}
			if ok && writeMethod(m) && (hasValue || !inv.IsDynamic(i+1)) && !strings.HasPrefix(m, "-") {
				return name + " " + m, true
			}
		case name == "-d" || name == "-F":
			if val, ok := next(); ok && payloadValue(val) {
				return name + " " + clip(val), true
			}
		case name == "-p" || name == "-T":
			if val, ok := next(); ok && fileValue(val) {
				return name + " " + clip(val), true
			}
		}
	}
	return "", false
}

// unknownUpload is the general rule: a program airlock does not know,
// given a URL and a body or upload option, sends data to that host.
func unknownUpload(inv *shell.Invocation) Effect {
	name := inv.Name()
	if inertNames.Get()[name] || ReadsOnly(name) || wrapperNames.Get()[name] || shell.Unwraps(name) {
		return nothing
	}
	url, host, ok := firstURL(inv)
	if !ok {
		return nothing
	}
	opt, ok := bodyOption(inv)
	if !ok {
		return nothing
	}
	return external("unknown.upload", "the program "+name+", which airlock does not know, is given the URL "+clip(url)+" and the option "+opt+": it sends data to "+host)
}

// httpTool is what airlock knows of one HTTP client's options.
type httpTool struct {
	// body are options that send a request body or upload a file.
	body []string
	// method are options whose value is the request method.
	method []string
	// script are options naming code that may choose the method and body.
	script []string
	// attached says one-letter options may carry their value attached
	// (ab -pbody.json), as getopt reads them.
	attached bool
}

var httpTools = firstuse.Table[map[string]httpTool]{Build: func() map[string]httpTool {
	return map[string]httpTool{
		// ApacheBench: -p POST file, -u PUT file, -m method.
		"ab": {body: []string{"-p", "-u"}, method: []string{"-m"}, attached: true},
		// hey and oha: -d body, -D body file, -m method.
		"hey": {body: []string{"-d", "-D"}, method: []string{"-m"}},
		"oha": {body: []string{"-d", "-D", "-Z", "--json"}, method: []string{"-m", "--method"}},
		// bombardier: -b/--body, -f/--body-file, -m/--method.
		"bombardier": {body: []string{"-b", "--body", "-f", "--body-file"}, method: []string{"-m", "--method"}},
		// wrk: a Lua script may set wrk.method and wrk.body.
		"wrk":  {script: []string{"-s", "--script"}},
		"wrk2": {script: []string{"-s", "--script"}},
		// Text browsers: lynx -post_data and w3m -post send a body; a lynx
		// command script can submit forms.
		"lynx":   {body: []string{"-post_data", "-post-data"}, script: []string{"-cmd_script", "-cmd-script"}},
		"w3m":    {body: []string{"-post"}},
		"links":  {},
		"elinks": {script: []string{"-eval"}},
	}
}}

// httpToolsSpec rates the load testers and text browsers of httpTools.
var httpToolsSpec = &Spec{
	Programs: []string{"ab", "hey", "oha", "bombardier", "wrk", "wrk2", "lynx", "w3m"},
	Classify: classifyHTTPTool,
	Examples: []Example{
		{"ab -p body.json -T application/json http://127.0.0.1:8080/approve", "external"},
		{"ab -u data.txt http://localhost:8080/x", "external"},
		{"ab -m DELETE http://localhost:8080/x", "external"},
		{"ab -n 100 -c 10 http://localhost:8080/", "local+netread"},
		{"ab -T application/json -n 5 http://localhost:8080/", "local+netread"},
		{"ab -V", "local"},
		{"hey -m POST -d 'x=1' http://127.0.0.1:8080/approve", "external"},
		{"hey -D body.json http://localhost/x", "external"},
		{"hey -n 10 http://localhost:8080/", "local+netread"},
		{"hey -disable-keepalive -n 10 http://localhost:8080/", "local+netread"},
		{"hey -m GET -z 10s https://example.com/", "local+netread"},
		{"oha -m PUT -d '{}' http://localhost:3000/", "external"},
		{"oha -z 10s http://localhost:3000/", "local+netread"},
		{"bombardier -m POST -b '{\"a\":1}' http://localhost:8080", "external"},
		{"bombardier -c 125 -n 10000 http://localhost:8080", "local+netread"},
		{"wrk -s post.lua http://localhost:8080/", "local+opaque"},
		{"wrk -t2 -c10 -d30s http://localhost:8080/", "local+netread"},
		{"lynx -post_data http://127.0.0.1:8080/approve < form.txt", "external"},
		{"lynx -cmd_script=steps.txt http://localhost:8080/", "local+opaque"},
		{"lynx -dump https://example.com", "local+netread"},
		{"lynx -source https://example.com/install.sh", "local+netread"},
		{"lynx --help", "local"},
		{"w3m -post form.txt http://127.0.0.1:8080/approve", "external"},
		{"w3m -dump https://example.com", "local+netread"},
		{"w3m README.html", "local"},
	},
}

// textBrowserSpec rates the text browsers that send no body of their own
// (links, elinks). It is apart from httpToolsSpec so that, having no
// external example, "links" is not an anchor for the scanner in prose.
var textBrowserSpec = &Spec{
	Programs: []string{"links", "elinks"},
	Classify: classifyHTTPTool,
	Examples: []Example{
		{"links -dump https://example.com", "local+netread"},
		{"elinks -eval 'set x' https://example.com", "local+opaque"},
		{"links --help", "local"},
	},
}

// hasOpt finds option o among args: exactly, as o=value, or, for a
// one-letter option, with its value attached (-pbody.json). It returns
// the value when there is one.
func hasOpt(args []string, o string) (value string, found bool) {
	return findOpt(args, o, true)
}

// findOpt is hasOpt; attached says whether -pVALUE counts.
func findOpt(args []string, o string, attached bool) (value string, found bool) {
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		switch {
		case a == o:
			if i+1 < len(args) {
				return args[i+1], true
			}
			return "", true
		case strings.HasPrefix(a, o+"="):
			return a[len(o)+1:], true
		case attached && len(o) == 2 && o[1] != '-' && strings.HasPrefix(a, o) && !strings.HasPrefix(a, "--"):
			return a[2:], true
		}
	}
	return "", false
}

func classifyHTTPTool(_ *Classifier, inv *shell.Invocation) Effect {
	name := inv.Name()
	t := httpTools.Get()[name]
	url, host, ok := firstURL(inv)
	if !ok {
		return nothing // --help, --version, a local file
	}
	for _, o := range t.body {
		if _, found := findOpt(inv.Args, o, t.attached); found {
			return external("http.body", name+" "+o+" sends a request body to "+host+" ("+clip(url)+")")
		}
	}
	for _, o := range t.method {
		if m, found := findOpt(inv.Args, o, t.attached); found && writeMethod(m) {
			return external("http.method", name+" sends "+strings.ToUpper(m)+" requests to "+host+" ("+clip(url)+")")
		}
	}
	for _, o := range t.script {
		if _, found := findOpt(inv.Args, o, t.attached); found {
			return opaque("http.script", name+" "+o+" runs a script that may choose the method and body it sends to "+host)
		}
	}
	return netRead("http.get", name+" requests "+clip(url))
}

// siegeSpec rates siege, whose URL words carry the method and body
// ('http://host/x POST a=1') and whose -f file lists such URLs.
var siegeSpec = &Spec{
	Programs: []string{"siege"},
	Classify: classifySiege,
	Examples: []Example{
		{"siege 'http://127.0.0.1:8080/approve POST x=1'", "external"},
		{"siege -c 5 'http://localhost/api PUT < body.json'", "external"},
		{"siege -f urls.txt", "local+opaque"},
		{"siege -c 10 -t 1M http://localhost/", "local+netread"},
		{"siege -g https://example.com/", "local+netread"},
		{"siege --version", "local"},
	},
}

func classifySiege(c *Classifier, inv *shell.Invocation) Effect {
	if f, found := hasOpt(inv.Args, "-f"); found {
		return c.siegeFile(f)
	}
	if f, found := hasOpt(inv.Args, "--file"); found {
		return c.siegeFile(f)
	}
	for i, a := range inv.Args[1:] {
		if inv.IsDynamic(i + 1) {
			continue
		}
		if e := siegeLine(a); e.Reasons != nil {
			return e
		}
	}
	url, _, ok := firstURL(inv)
	if !ok {
		return nothing
	}
	return netRead("http.get", "siege requests "+clip(url))
}

// siegeLine rates one siege URL line: "URL [METHOD [data | < file]]".
func siegeLine(l string) Effect {
	f := strings.Fields(l)
	if len(f) < 2 {
		return nothing
	}
	if h, ok := urlTarget(f[0]); ok && writeMethod(f[1]) {
		return external("http.method", "siege sends "+strings.ToUpper(f[1])+" requests to "+h+" ("+clip(l)+")")
	}
	return nothing
}

// siegeFile reads siege's URL file: a line with a write method sends it;
// a file airlock cannot read is opaque.
func (c *Classifier) siegeFile(name string) Effect {
	data, err := c.readFile(name)
	if err != nil {
		return opaque("http.urls-file", "siege reads its URLs, methods and bodies from "+name+", which airlock cannot read ("+err.Error()+")")
	}
	e := netRead("http.get", "siege requests the URLs in "+name)
	for _, l := range strings.Split(string(data), "\n") {
		if x := siegeLine(strings.TrimSpace(l)); x.Reasons != nil {
			return x
		}
	}
	return e
}

// rpcClientSpec rates gRPC clients: calling a method is a request whose
// effect on the server airlock cannot know, so it is external; listing
// and describing services only read.
var rpcClientSpec = &Spec{
	Programs: []string{"grpcurl", "ghz", "evans", "http-prompt", "vegeta"},
	Classify: classifyRPCClient,
	Examples: []Example{
		{`grpcurl -d '{"id":1}' api.example.com:443 shop.Orders/Cancel`, "external"},
		{"grpcurl -plaintext localhost:50051 svc.Admin/Approve", "external"},
		{"grpcurl -plaintext localhost:50051 list", "local+netread"},
		{"grpcurl api.example.com:443 describe shop.Orders", "local+netread"},
		{"grpcurl -help", "local"},
		{`ghz --call shop.Orders.Create -d '{}' localhost:50051`, "external"},
		{"evans --host localhost -p 50051 cli call shop.Orders.Cancel", "external"},
		{"evans --host localhost -p 50051 cli list", "local+netread"},
		{"evans --host localhost -p 50051 repl", "local+opaque"},
		{"http-prompt http://localhost:8080", "local+opaque"},
		{"http-prompt --help", "local"},
		{"echo 'POST http://localhost:8080/approve' | vegeta attack -duration=5s", "external"},
		{"echo 'GET http://localhost:8080/' | vegeta attack -duration=5s", "local+netread"},
		{"vegeta attack -targets=targets.txt", "local+opaque"},
		{"vegeta attack -body=b.json -targets=t.txt", "external"},
		{"vegeta report results.bin", "local"},
	},
}

func classifyRPCClient(c *Classifier, inv *shell.Invocation) Effect {
	name := inv.Name()
	if hasAny(inv.Args[1:], "-help", "--help", "-h", "-version", "--version") {
		return nothing
	}
	switch name {
	case "grpcurl":
		ops := rpcOperands(inv.Args[1:], map[string]bool{"-d": true, "-H": true, "-rpc-header": true, "-reflect-header": true,
			"-import-path": true, "-proto": true, "-protoset": true, "-authority": true, "-cacert": true, "-cert": true,
			"-key": true, "-servername": true, "-connect-timeout": true, "-keepalive-time": true, "-max-time": true,
			"-max-msg-sz": true, "-format": true, "-user-agent": true, "-unix": false, "-protoset-out": true, "-alts-handshaker-service": true, "-alts-target-service-account": true})
		if len(ops) < 2 {
			if len(ops) == 1 {
				return netRead("rpc.read", "grpcurl lists the services of "+ops[0])
			}
			return nothing
		}
		if ops[1] == "list" || ops[1] == "describe" {
			return netRead("rpc.read", "grpcurl "+ops[1]+" reads the services of "+ops[0])
		}
		return external("rpc.call", "grpcurl calls "+clip(ops[1])+" on "+ops[0]+": what the method changes on the server cannot be known")
	case "ghz":
		return external("rpc.call", "ghz calls a gRPC method over and over: what it changes on the server cannot be known")
	case "evans":
		for i, a := range inv.Args {
			if a != "cli" {
				continue
			}
			if i+1 < len(inv.Args) && inv.Args[i+1] == "call" {
				return external("rpc.call", "evans cli call calls a gRPC method: what it changes on the server cannot be known")
			}
			return netRead("rpc.read", "evans cli reads the services of a gRPC server")
		}
		return opaque("rpc.interactive", "evans runs an interactive session: which methods it calls is typed at its prompt")
	case "http-prompt":
		return opaque("http.interactive", "http-prompt is an interactive HTTP client: which requests it sends is typed at its prompt")
	case "vegeta":
		if len(inv.Args) < 2 || inv.Args[1] != "attack" {
			return nothing // report, plot, encode: local files
		}
		if _, found := hasOpt(inv.Args, "-body"); found {
			return external("http.body", "vegeta attack -body sends a request body to its targets")
		}
		if _, found := hasOpt(inv.Args, "-targets"); found {
			return opaque("http.urls-file", "vegeta attack reads its methods and URLs from a targets file airlock does not read")
		}
		if !inv.StdinKnown {
			return opaque("http.urls-file", "vegeta attack reads its methods and URLs from its input, known only at run time")
		}
		for _, l := range strings.Split(inv.StdinText, "\n") {
			f := strings.Fields(l)
			if len(f) >= 2 && writeMethod(f[0]) {
				return external("http.method", "vegeta attack sends "+strings.ToUpper(f[0])+" requests to "+httpHost(f[1]))
			}
		}
		return netRead("http.get", "vegeta attack sends GET requests to its targets")
	}
	return nothing
}

// rpcOperands returns the operands of a Go-flag style command line
// (-name value or -name=value), skipping the values of valued flags.
func rpcOperands(args []string, valued map[string]bool) []string {
	var ops []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") {
			name := strings.TrimPrefix(a, "-")
			name = "-" + strings.TrimPrefix(name, "-")
			if !strings.Contains(a, "=") && valued[name] {
				i++
			}
			continue
		}
		ops = append(ops, a)
	}
	return ops
}
