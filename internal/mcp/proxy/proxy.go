// Package proxy is airlock's MCP firewall: an MCP server that an agent
// talks to in place of the real server, and an MCP client that talks to
// the real server ("upstream") on the agent's behalf.
//
// It mirrors the upstream's tools, resources and prompts and forwards the
// upstream's requests to the client (roots, sampling, elicitation), and on
// the way it enforces the "mcp:" section of the policy (internal/mcp/guard):
// tool classes from configuration, recipients by contact name, rate limits,
// duplicate suppression, the quarantine after untrusted content, and a
// confirmation that only a human can give (MCP elicitation, or airlock's
// queue). It sanitises everything a source tool returns
// (internal/mcp/sanitize) and pins the upstream's tool descriptions
// (internal/mcp/pin). Every call is recorded in the journal before the
// agent gets its answer.
//
// The upstream side speaks the protocol revision real servers speak
// (2025-11-25) and the SDK negotiates newer ones on both sides.
package proxy

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/airlock-dev/airlock/internal/mcp/guard"
	"github.com/airlock-dev/airlock/internal/mcp/mcpconfig"
	"github.com/airlock-dev/airlock/internal/mcp/pin"
	"github.com/airlock-dev/airlock/internal/mcp/sanitize"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// Options configure a proxy.
type Options struct {
	// Server is the upstream's name in the policy's mcp: section and in
	// pins and the journal. Empty takes the name the upstream gives itself
	// (serverInfo.name in its initialize result, see DefaultName), else
	// Fallback.
	Server string
	// Fallback is the name when Server is empty and the upstream gives
	// none usable.
	Fallback string
	// Guard decides calls; its Policy is the policy in effect.
	Guard *guard.Guard
	// Recorder keeps every decision (the journal). A held call needs a
	// recorder that hands out queue ids; without one it is refused.
	Recorder vocab.Recorder
	// Pins is the pin store; nil pins nothing (tests of other parts).
	Pins *pin.Store
	// Log receives messages for the human (standard error).
	Log io.Writer
	// Cwd is recorded with each event.
	Cwd string
}

// Proxy is one firewall between downstream agents and one upstream
// server.
type Proxy struct {
	o      Options
	name   string
	server *sdk.Server
	client *sdk.Client
	up     *sdk.ClientSession
	secret []byte

	// syncMu serialises re-reading the upstream's lists.
	syncMu sync.Mutex

	mu        sync.Mutex
	tools     map[string]*toolState
	resources map[string]bool
	templates map[string]bool
	prompts   map[string]bool
	pinStamp  string
	lastDefs  []pin.Def
	// inflight counts the requests each downstream session has open, for
	// routing the upstream's requests to the right client.
	inflight map[*sdk.ServerSession]int
	// progress maps the upstream progress token of a forwarded call
	// (tokenKey of the proxy's own token) to the session that asked and
	// its token.
	progress map[string]progressRoute
	// nextToken is the last upstream progress token handed out.
	nextToken int64
	// upDone is closed when the upstream session ends.
	upDone chan struct{}
	// nonces are the confirmations asked for and not yet answered.
	nonces map[string]time.Time
	// roots are the URIs of the client's roots last passed upstream.
	roots []string
}

// toolState is one upstream tool as the proxy shows it.
type toolState struct {
	status pin.Status
	// shown is the hash of the definition registered downstream.
	shown string
}

// ErrUpstream wraps failures to reach or list the upstream server.
var ErrUpstream = errors.New("upstream MCP server")

// New returns a proxy; Connect attaches it to the upstream.
func New(o Options) *Proxy {
	if o.Log == nil {
		o.Log = io.Discard
	}
	if o.Recorder == nil {
		o.Recorder = vocab.Discard{}
	}
	secret := make([]byte, 32)
	_, _ = rand.Read(secret)
	p := &Proxy{
		o: o, name: o.Server, secret: secret,
		tools: map[string]*toolState{}, resources: map[string]bool{}, templates: map[string]bool{}, prompts: map[string]bool{},
		inflight: map[*sdk.ServerSession]int{}, progress: map[string]progressRoute{}, nonces: map[string]time.Time{},
	}
	p.client = sdk.NewClient(&sdk.Implementation{Name: "airlock", Title: "airlock MCP firewall", Version: "1"}, &sdk.ClientOptions{
		// The proxy declares what a full client declares and forwards each
		// request to the agent's client, which answers or refuses.
		ElicitationHandler:         p.forwardElicit,
		CreateMessageHandler:       p.forwardSampling,
		Capabilities:               &sdk.ClientCapabilities{RootsV2: &sdk.RootCapabilities{ListChanged: true}, Elicitation: &sdk.ElicitationCapabilities{Form: &sdk.FormElicitationCapabilities{}}},
		ToolListChangedHandler:     func(context.Context, *sdk.ToolListChangedRequest) { go p.resync("tools") },
		ResourceListChangedHandler: func(context.Context, *sdk.ResourceListChangedRequest) { go p.resync("resources") },
		PromptListChangedHandler:   func(context.Context, *sdk.PromptListChangedRequest) { go p.resync("prompts") },
		ResourceUpdatedHandler: func(ctx context.Context, r *sdk.ResourceUpdatedNotificationRequest) {
			if p.server != nil {
				_ = p.server.ResourceUpdated(ctx, r.Params)
			}
		},
		LoggingMessageHandler:       p.forwardLog,
		ProgressNotificationHandler: p.forwardProgress,
	})
	return p
}

// Connect attaches the proxy to the upstream through t, reads its tools,
// resources and prompts and builds the agent-facing server.
func (p *Proxy) Connect(ctx context.Context, t sdk.Transport) error {
	up, err := p.client.Connect(ctx, t, nil)
	if err != nil {
		name := p.name
		if name == "" {
			name = DefaultName("", p.o.Fallback)
		}
		return fmt.Errorf("%w %s: %v", ErrUpstream, name, err)
	}
	p.up = up
	if p.name == "" {
		info := ""
		if ir := up.InitializeResult(); ir != nil && ir.ServerInfo != nil {
			info = ir.ServerInfo.Name
		}
		p.name = DefaultName(info, p.o.Fallback)
	}
	p.upDone = make(chan struct{})
	go func() { _ = up.Wait(); close(p.upDone) }()
	init := up.InitializeResult()
	caps := &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{ListChanged: true}}
	if init != nil && init.Capabilities != nil {
		uc := init.Capabilities
		if uc.Resources != nil {
			caps.Resources = &sdk.ResourceCapabilities{ListChanged: true, Subscribe: uc.Resources.Subscribe}
		}
		if uc.Prompts != nil {
			caps.Prompts = &sdk.PromptCapabilities{ListChanged: true}
		}
		if uc.Logging != nil {
			caps.Logging = &sdk.LoggingCapabilities{}
		}
		if uc.Completions != nil {
			caps.Completions = &sdk.CompletionCapabilities{}
		}
	}
	opts := &sdk.ServerOptions{
		Capabilities:            caps,
		InitializedHandler:      p.initialized,
		RootsListChangedHandler: func(ctx context.Context, r *sdk.RootsListChangedRequest) { p.syncRoots(ctx, r.Session) },
	}
	if caps.Completions != nil {
		opts.CompletionHandler = func(ctx context.Context, r *sdk.CompleteRequest) (*sdk.CompleteResult, error) {
			res, err := p.up.Complete(ctx, r.Params)
			return res, p.upErr(ctx, "completion/complete", err)
		}
	}
	if caps.Resources != nil && caps.Resources.Subscribe {
		opts.SubscribeHandler = func(ctx context.Context, r *sdk.SubscribeRequest) error {
			return p.upErr(ctx, "resources/subscribe", p.up.Subscribe(ctx, r.Params))
		}
		opts.UnsubscribeHandler = func(ctx context.Context, r *sdk.UnsubscribeRequest) error {
			return p.upErr(ctx, "resources/unsubscribe", p.up.Unsubscribe(ctx, r.Params))
		}
	}
	if init != nil && init.Instructions != "" {
		opts.Instructions = p.instructions(init.Instructions)
	}
	impl := &sdk.Implementation{Name: "airlock", Title: "airlock MCP firewall", Version: "1"}
	if init != nil && init.ServerInfo != nil {
		impl = &sdk.Implementation{Name: init.ServerInfo.Name, Title: init.ServerInfo.Title, Version: init.ServerInfo.Version}
	}
	p.server = sdk.NewServer(impl, opts)
	// recoverPanics first, so that it is the outermost.
	p.server.AddReceivingMiddleware(p.recoverPanics, p.track)
	for _, what := range []string{"tools", "resources", "prompts"} {
		if err := p.sync(ctx, what); err != nil {
			return err
		}
	}
	return nil
}

// DefaultName is a server's name when none is given: the name the server
// gives itself (serverInfo.name), else fallback, else "upstream". Two
// servers started by one interpreter (python3, npx) thus get their own
// pin namespaces. The name is made fit for "mcp__NAME__tool", a pin key
// and a journal field: its last path element ("mcp-servers/everything"
// gives "everything"), letters, digits, "-", "_" and "." kept, other
// runes and "__" turned into "-", at most 64 bytes.
func DefaultName(info, fallback string) string {
	for _, cand := range []string{info, fallback} {
		if i := strings.LastIndexAny(cand, "/\\"); i >= 0 {
			cand = cand[i+1:]
		}
		var b strings.Builder
		for _, r := range cand {
			switch {
			case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '.':
				b.WriteRune(r)
			case r == '_' && !strings.HasSuffix(b.String(), "_"):
				b.WriteRune(r)
			default:
				b.WriteByte('-')
			}
			if b.Len() >= 64 {
				break
			}
		}
		name := strings.Trim(b.String(), "-_.")
		if len(name) > 64 {
			name = name[:64]
		}
		if name != "" {
			return name
		}
	}
	return "upstream"
}

// Name is the upstream's name in the policy, pins and journal.
func (p *Proxy) Name() string { return p.name }

// Server is the agent-facing MCP server, to run on a transport.
func (p *Proxy) Server() *sdk.Server { return p.server }

// Close ends the upstream session (and a command upstream's process).
func (p *Proxy) Close() error {
	if p.up == nil {
		return nil
	}
	return p.up.Close()
}

// instructions pins the upstream's instructions (model-facing text sent at
// initialization) and returns them, sanitised, when they are pinned.
func (p *Proxy) instructions(text string) string {
	if p.o.Pins == nil {
		return text
	}
	res, err := p.o.Pins.Check(p.name, []pin.Def{{Name: pin.InstructionsName, Description: text}})
	if err != nil {
		fmt.Fprintf(p.o.Log, "airlock: mcp %s: %v; the server's instructions are withheld\n", p.name, err)
		return ""
	}
	r := res[pin.InstructionsName]
	if r.Status != pin.Pinned {
		if r.Alarm {
			fmt.Fprintf(p.o.Log, "airlock: mcp %s: the server's instructions changed since they were pinned; they are withheld until a human runs: airlock mcp approve %s\n", p.name, p.name)
		}
		return ""
	}
	return text
}

// track counts each session's open requests, notices approvals made while
// the proxy runs, and forwards a logging level to the upstream.
func (p *Proxy) track(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		ss, _ := req.GetSession().(*sdk.ServerSession)
		if ss != nil {
			p.mu.Lock()
			p.inflight[ss]++
			p.mu.Unlock()
			defer func() {
				p.mu.Lock()
				if p.inflight[ss]--; p.inflight[ss] <= 0 {
					delete(p.inflight, ss)
				}
				p.mu.Unlock()
			}()
		}
		switch method {
		case "tools/list":
			p.refreshPins(ctx)
		case "logging/setLevel":
			if params, ok := req.GetParams().(*sdk.SetLoggingLevelParams); ok && p.up != nil {
				_ = p.up.SetLoggingLevel(ctx, params)
			}
		}
		return next(ctx, method, req)
	}
}

// refreshPins re-applies the pins when the pin file changed (a human ran
// airlock mcp approve while the proxy runs).
func (p *Proxy) refreshPins(ctx context.Context) {
	if p.o.Pins == nil {
		return
	}
	p.mu.Lock()
	changed := p.o.Pins.Stamp() != p.pinStamp
	p.mu.Unlock()
	if changed {
		_ = p.sync(ctx, "tools")
	}
}

// resync re-reads one of the upstream's lists after a list_changed
// notification.
func (p *Proxy) resync(what string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := p.sync(ctx, what); err != nil {
		fmt.Fprintf(p.o.Log, "airlock: mcp %s: re-reading %s: %v\n", p.name, what, err)
	}
}

// sync mirrors one of the upstream's lists downstream, changing only
// what differs so that an unchanged list sends no notification.
func (p *Proxy) sync(ctx context.Context, what string) error {
	if p.up == nil || p.server == nil {
		return nil
	}
	p.syncMu.Lock()
	defer p.syncMu.Unlock()
	switch what {
	case "tools":
		return p.syncTools(ctx)
	case "resources":
		return p.syncResources(ctx)
	case "prompts":
		return p.syncPrompts(ctx)
	}
	return nil
}

func (p *Proxy) syncTools(ctx context.Context) error {
	var tools []*sdk.Tool
	for t, err := range p.up.Tools(ctx, nil) {
		if err != nil {
			return fmt.Errorf("%w %s: listing tools: %v", ErrUpstream, p.name, err)
		}
		tools = append(tools, t)
	}
	defs := make([]pin.Def, len(tools))
	for i, t := range tools {
		defs[i] = defOf(t)
	}
	results := map[string]pin.Result{}
	if p.o.Pins != nil {
		var err error
		if results, err = p.o.Pins.Check(p.name, defs); err != nil {
			// Fail closed: without pins, no tool is shown.
			fmt.Fprintf(p.o.Log, "airlock: mcp %s: %v; no tools are shown\n", p.name, err)
			results = map[string]pin.Result{}
			for _, d := range defs {
				results[d.Name] = pin.Result{Status: pin.New}
			}
		}
	} else {
		for _, d := range defs {
			d := d
			results[d.Name] = pin.Result{Status: pin.Pinned, Pinned: &d}
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.o.Pins != nil {
		p.pinStamp = p.o.Pins.Stamp()
	}
	seen := map[string]bool{}
	for _, d := range defs {
		r := results[d.Name]
		seen[d.Name] = true
		if r.Alarm {
			p.alarm(d.Name, r.Status)
		}
		st := p.tools[d.Name]
		if r.Status == pin.New {
			if st != nil {
				p.server.RemoveTools(d.Name)
				delete(p.tools, d.Name)
			}
			continue
		}
		// Pinned shows the tool as it is; changed keeps showing the pinned
		// definition, and its calls are refused.
		shown := pin.Hash(*r.Pinned) + "/" + r.Status.String()
		if st != nil && st.shown == shown {
			continue
		}
		t, err := toolOf(*r.Pinned)
		if err != nil {
			fmt.Fprintf(p.o.Log, "airlock: mcp %s: tool %s: %v; not shown\n", p.name, d.Name, err)
			continue
		}
		p.server.AddTool(t, p.handleCall)
		p.tools[d.Name] = &toolState{status: r.Status, shown: shown}
	}
	var gone []string
	for n := range p.tools {
		if !seen[n] {
			gone = append(gone, n)
		}
	}
	if len(gone) > 0 {
		sort.Strings(gone)
		p.server.RemoveTools(gone...)
		for _, n := range gone {
			delete(p.tools, n)
		}
	}
	p.lastDefs = defs
	return nil
}

// alarm tells the human, once per new definition, and records it.
func (p *Proxy) alarm(tool string, st pin.Status) {
	what := "offers a new tool " + tool + "; it stays hidden"
	if st == pin.Changed {
		what = "changed the description, schemas or annotations of " + tool + " since they were pinned; its calls are refused"
	}
	msg := fmt.Sprintf("MCP server %s %s until a human reviews it and runs: airlock mcp approve %s %s", p.name, what, p.name, tool)
	fmt.Fprintf(p.o.Log, "airlock: %s\n", msg)
	v := policy.Verdict{Decision: policy.Deny, Rule: "mcp.pin", Message: msg}
	d, _ := json.Marshal(guard.Detail{Server: p.name, Tool: tool, Phase: "pin", Decision: "deny", Rule: "mcp.pin", Reason: msg, Pin: st.String()})
	if _, err := p.o.Recorder.Record(&vocab.Event{Time: time.Now(), Agent: guard.Agent, Name: "tools/pin", Tool: policy.ToolName(p.name, tool), Cwd: p.o.Cwd, Verdict: v.Record(), Detail: d}); err != nil {
		fmt.Fprintf(p.o.Log, "airlock: mcp %s: recording: %v\n", p.name, err)
	}
}

// defOf is what pinning covers of a tool.
func defOf(t *sdk.Tool) pin.Def {
	raw := func(v any) json.RawMessage {
		if v == nil {
			return nil
		}
		b, err := json.Marshal(v)
		if err != nil || string(b) == "null" {
			return nil
		}
		return b
	}
	d := pin.Def{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: raw(t.InputSchema), OutputSchema: raw(t.OutputSchema)}
	if t.Annotations != nil {
		d.Annotations = raw(t.Annotations)
	}
	return d
}

// toolOf rebuilds a tool from its pinned definition.
func toolOf(d pin.Def) (*sdk.Tool, error) {
	t := &sdk.Tool{Name: d.Name, Title: d.Title, Description: d.Description}
	var in map[string]any
	if err := json.Unmarshal(d.InputSchema, &in); err != nil || in["type"] != "object" {
		return nil, fmt.Errorf("input schema is not a JSON object schema")
	}
	t.InputSchema = in
	if len(d.OutputSchema) > 0 {
		var out map[string]any
		if err := json.Unmarshal(d.OutputSchema, &out); err != nil {
			return nil, fmt.Errorf("output schema: %v", err)
		}
		t.OutputSchema = out
	}
	if len(d.Annotations) > 0 {
		t.Annotations = &sdk.ToolAnnotations{}
		if err := json.Unmarshal(d.Annotations, t.Annotations); err != nil {
			return nil, fmt.Errorf("annotations: %v", err)
		}
	}
	return t, nil
}

func (p *Proxy) syncResources(ctx context.Context) error {
	init := p.up.InitializeResult()
	if init == nil || init.Capabilities == nil || init.Capabilities.Resources == nil {
		return nil
	}
	seen := map[string]bool{}
	for r, err := range p.up.Resources(ctx, nil) {
		if err != nil {
			return fmt.Errorf("%w %s: listing resources: %v", ErrUpstream, p.name, err)
		}
		seen[r.URI] = true
		p.mu.Lock()
		known := p.resources[r.URI]
		p.resources[r.URI] = true
		p.mu.Unlock()
		if !known {
			p.server.AddResource(r, p.readResource)
		}
	}
	seenT := map[string]bool{}
	for r, err := range p.up.ResourceTemplates(ctx, nil) {
		if err != nil {
			return fmt.Errorf("%w %s: listing resource templates: %v", ErrUpstream, p.name, err)
		}
		seenT[r.URITemplate] = true
		p.mu.Lock()
		known := p.templates[r.URITemplate]
		p.templates[r.URITemplate] = true
		p.mu.Unlock()
		if !known {
			p.server.AddResourceTemplate(r, p.readResource)
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	var gone, goneT []string
	for u := range p.resources {
		if !seen[u] {
			gone = append(gone, u)
			delete(p.resources, u)
		}
	}
	for u := range p.templates {
		if !seenT[u] {
			goneT = append(goneT, u)
			delete(p.templates, u)
		}
	}
	if len(gone) > 0 {
		p.server.RemoveResources(gone...)
	}
	if len(goneT) > 0 {
		p.server.RemoveResourceTemplates(goneT...)
	}
	return nil
}

func (p *Proxy) syncPrompts(ctx context.Context) error {
	init := p.up.InitializeResult()
	if init == nil || init.Capabilities == nil || init.Capabilities.Prompts == nil {
		return nil
	}
	seen := map[string]bool{}
	for pr, err := range p.up.Prompts(ctx, nil) {
		if err != nil {
			return fmt.Errorf("%w %s: listing prompts: %v", ErrUpstream, p.name, err)
		}
		seen[pr.Name] = true
		p.mu.Lock()
		known := p.prompts[pr.Name]
		p.prompts[pr.Name] = true
		p.mu.Unlock()
		if !known {
			p.server.AddPrompt(pr, func(ctx context.Context, r *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
				res, err := p.up.GetPrompt(ctx, r.Params)
				return res, p.upErr(ctx, "prompts/get", err)
			})
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	var gone []string
	for n := range p.prompts {
		if !seen[n] {
			gone = append(gone, n)
			delete(p.prompts, n)
		}
	}
	if len(gone) > 0 {
		p.server.RemovePrompts(gone...)
	}
	return nil
}

// readResource forwards a resource read; a server whose default class is
// source has its resources sanitised like a source tool's results.
func (p *Proxy) readResource(ctx context.Context, r *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	res, err := p.up.ReadResource(ctx, r.Params)
	if err != nil || res == nil {
		return res, p.upErr(ctx, "resources/read", err)
	}
	// A section with a mistake reads as a source: what cannot be
	// classed is sanitised.
	if m, err := mcpconfig.Of(p.o.Guard.Policy); err == nil {
		if _, class := m.Tool(p.name, ""); class != mcpconfig.ClassSource {
			return res, nil
		}
	}
	out := *res
	out.Contents = make([]*sdk.ResourceContents, len(res.Contents))
	for i, c := range res.Contents {
		cc := *c
		cc.Meta = nil
		if cc.Text != "" {
			cc.Text = sanitize.Wrap("untrusted resource from "+p.name, cc.Text)
		}
		out.Contents[i] = &cc
	}
	return &out, nil
}
