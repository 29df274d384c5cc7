package vocab

// Kind is what sort of action an agent is about to take.
type Kind int8

// The kinds of action.
const (
	// Shell runs a shell command (Action.Command).
	Shell Kind = iota
	// Read reads files (Action.Paths) without changing them.
	Read
	// Write creates or changes files (Action.Paths).
	Write
	// Fetch reads a URL from the network (Action.URL).
	Fetch
	// LocalTool is a tool airlock knows stays on this machine and changes
	// nothing others see (search, planning, a to-do list).
	LocalTool
	// UnknownTool is any other tool, MCP tools included: what it does is
	// not known, so it gets the table's "unknown" decision unless a rule
	// names it.
	UnknownTool
	// Net is one request a program made through airlock's egress proxy
	// (Action.Net, Action.URL): it is decided whatever made it, since
	// inside containment the proxy is the only way out.
	Net
)

var kindNames = [...]string{"shell", "read", "write", "fetch", "local-tool", "unknown-tool", "net"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(?)"
}
