package proxy

import (
	"context"
	"errors"
	"fmt"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/airlock-dev/airlock/internal/mcp/sanitize"
)

// ErrNoClient is returned to the upstream when its request to the client
// cannot be routed: no agent session, or several and none of them busy
// with a call.
var ErrNoClient = errors.New("airlock cannot tell which client this request is for")

// route picks the downstream session an upstream request belongs to: the
// one session with a request in flight, else the only session. With
// several sessions and no way to tell, it refuses rather than guess, so
// that one agent's roots or answers never go to another's server call.
func (p *Proxy) route() (*sdk.ServerSession, error) {
	p.mu.Lock()
	var busy []*sdk.ServerSession
	for ss, n := range p.inflight {
		if n > 0 {
			busy = append(busy, ss)
		}
	}
	p.mu.Unlock()
	if len(busy) == 1 {
		return busy[0], nil
	}
	if p.server == nil {
		return nil, ErrNoClient
	}
	var all []*sdk.ServerSession
	for ss := range p.server.Sessions() {
		all = append(all, ss)
	}
	if len(all) == 1 {
		return all[0], nil
	}
	return nil, ErrNoClient
}

// forwardElicit passes the upstream's elicitation to the agent's client,
// marked as the upstream's so that the human does not take it for
// airlock's own confirmation. The answer goes back to the upstream only:
// it never counts as a confirmation of a call.
func (p *Proxy) forwardElicit(ctx context.Context, r *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	ss, err := p.route()
	if err != nil {
		return nil, err
	}
	params := *r.Params
	params.Message = fmt.Sprintf("[MCP server %q asks, not airlock] %s", p.name, sanitize.Text(params.Message))
	return ss.Elicit(ctx, &params)
}

// forwardSampling passes the upstream's sampling request to the agent's
// client, whose host shows it to the human.
func (p *Proxy) forwardSampling(ctx context.Context, r *sdk.CreateMessageRequest) (*sdk.CreateMessageResult, error) {
	ss, err := p.route()
	if err != nil {
		return nil, err
	}
	//lint:ignore SA1019 sampling is deprecated but still what servers send.
	return ss.CreateMessage(ctx, r.Params)
}

// forwardLog passes the upstream's log messages to every session.
func (p *Proxy) forwardLog(ctx context.Context, r *sdk.LoggingMessageRequest) {
	if p.server == nil {
		return
	}
	for ss := range p.server.Sessions() {
		_ = ss.Log(ctx, r.Params)
	}
}

// forwardProgress passes progress of a call to the session that made it.
func (p *Proxy) forwardProgress(ctx context.Context, r *sdk.ProgressNotificationClientRequest) {
	key, ok := tokenKey(r.Params.ProgressToken)
	if !ok {
		return
	}
	p.mu.Lock()
	route, found := p.progress[key]
	p.mu.Unlock()
	if !found {
		return
	}
	params := *r.Params
	params.Meta = nil
	params.ProgressToken = route.token
	params.Message = sanitize.Text(params.Message)
	_ = route.session.NotifyProgress(ctx, &params)
}

// initialized syncs the client's roots once a session is ready.
func (p *Proxy) initialized(ctx context.Context, r *sdk.InitializedRequest) {
	p.syncRoots(ctx, r.Session)
}

// rootsTimeout bounds the wait for a client's roots.
const rootsTimeout = 10 * time.Second

// syncRoots makes the proxy's own roots (what the upstream sees) those of
// the agent's client; the SDK tells the upstream that they changed.
func (p *Proxy) syncRoots(ctx context.Context, ss *sdk.ServerSession) {
	if ss == nil {
		return
	}
	// Asked in the background: a client answers only after the
	// notification that triggered this has been handled. A client without
	// roots answers with an error, and the upstream then sees none.
	go func() {
		// Bounded: a client that never answers (over streamable HTTP a
		// request may have no stream to travel on) must not hold its
		// session open forever, since closing a session waits for it.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), rootsTimeout)
		defer cancel()
		res, err := ss.ListRoots(rctx, nil)
		if err != nil || res == nil {
			return
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		if len(p.roots) > 0 {
			p.client.RemoveRoots(p.roots...)
		}
		p.client.AddRoots(res.Roots...)
		p.roots = p.roots[:0]
		for _, r := range res.Roots {
			p.roots = append(p.roots, r.URI)
		}
	}()
}
