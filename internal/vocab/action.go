package vocab

// Action is one tool call an agent is about to make, normalised by an
// agent adapter.
type Action struct {
	Kind Kind
	// Tool is the agent's name for the tool, e.g. "Bash", "Edit",
	// "mcp__slack__post_message".
	Tool string
	// Command is the shell text of a Shell action.
	Command string
	// Paths are the files a Read or Write action touches, absolute or
	// relative to Cwd.
	Paths []string
	// URL is what a Fetch action reads.
	URL string
	// Query is what a web search (a Fetch without a URL) sends to the
	// search provider.
	Query string
	// Content is the new text a Write action puts into its files (a
	// Write's content, an Edit's replacement), for files that run later.
	Content string
	// Cwd is the directory the action runs in.
	Cwd string
	// NoHuman says that nobody can answer a prompt in the agent's session
	// now (Claude Code's print mode, an SDK session): an ask would become
	// a refusal the human never sees. The adapter sets it from what the
	// agent tells hooks, and sets it when it cannot tell, since a held
	// action that is also queued is harmless and one that vanishes is
	// not. Decide then holds the action for review instead of asking.
	NoHuman bool
	// Snapshots says the entry point takes the snapshot a verdict asks
	// for (Verdict.Snapshot) before it lets the action run. Without it,
	// destruction inside the project gets the destructive row: nothing
	// destructive is allowed without a snapshot.
	Snapshots bool
	// Contained says the action runs inside a sandbox whose network is
	// airlock's egress proxy and where airlock's files are fenced by the
	// kernel ("airlock run", Claude Code's sandbox installed with
	// --contain). Only the decision pipeline sets it, from what its
	// entry point established (never from the agent's words): a program
	// airlock cannot read that acts only locally is then allowed with a
	// warning instead of held, since the proxy holds anything it sends.
	Contained bool
	// Edits are what a Write action puts in its file, when the agent says:
	// the whole new content, or replacements of old text. nil means not
	// known. Only self-protection reads them, for shell start-up files.
	Edits []Edit
	// Net is the request of a Net action, as the egress proxy saw it.
	Net *NetRequest
	// Reads are the files the decision of a Shell action read (the
	// scripts, makefiles, package files and configuration it followed)
	// and what it found in each. Only the decision pipeline sets it,
	// from the classification: an approval binds them, so a retry whose
	// files read differently is another action.
	Reads []FileState
}

// FileState is one file a decision read and what it found there: Path is
// absolute; State is a digest of its content ("sha256:…"), "absent", or
// the kind of file it was.
type FileState struct {
	Path, State string
}

// NetRequest is one request through the egress proxy: what the policy
// decides a Net action on. The proxy fills it in from the request it
// holds; Origin alone is the agent's word.
type NetRequest struct {
	// Method is the HTTP method ("GET", "POST", "CONNECT" for a tunnel
	// the proxy cannot see into).
	Method string
	// Scheme, Host (lower case, no port) and Port say where it goes.
	Scheme, Host string
	Port         int
	// Path and Query are the request target (Query without the "?").
	Path, Query string
	// BodySize and BodyDigest ("sha256:<hex>") describe the body: an
	// approval binds the digest.
	BodySize   int64
	BodyDigest string
	// Tunnel is set for a connection the proxy passes on without seeing
	// inside it (not TLS, or inspection off): what it carries cannot be
	// known.
	Tunnel bool
	// Listed is what the policy's egress section says of Host:
	// "" (nothing), "never", "write-only", or "unlisted" (read_hosts is
	// set and does not name it). The proxy looks it up; the policy
	// decides what it means.
	Listed string
	// Origin names the command that made the request, when the runner
	// says (the proxy user name): agent-controlled text, shown only.
	Origin string
	// Carried are the parts besides the URL's path and query that can
	// carry data out, as sent: each header's "Name: value" but those of
	// the connection and the body's framing, and "userinfo: …" for the
	// URL's user information. The policy weighs them with the URL
	// (policy.MaxOpaqueBytes).
	Carried []string
	// Body is the request's body as the proxy read it, looked through
	// for airlock's secret values (policy's netsecrets.go); never
	// recorded (BodyDigest is).
	Body []byte `json:"-"`
}

// Edit is one change a file tool makes.
type Edit struct {
	// Whole is set when New is the file's whole new content (Write).
	Whole bool
	// Old is the text replaced, New its replacement.
	Old, New string
	// All is set when every occurrence of Old is replaced.
	All bool
}
