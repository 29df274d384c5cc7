package proxy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/airlock-dev/airlock/internal/mcp/guard"
	"github.com/airlock-dev/airlock/internal/mcp/sanitize"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// JSON-RPC error codes the proxy answers with. Both are in the range
// JSON-RPC leaves to implementations (-32000 to -32099) or its own
// internal error, and never 0: a client must be able to tell an error
// from a result.
const (
	// CodeInternal answers a request whose handling failed inside airlock
	// (a panic): that request fails, the session and the process live.
	CodeInternal = jsonrpc.CodeInternalError
	// CodeUpstream answers a request the upstream server could not
	// complete: it died, closed the connection or failed in transport.
	CodeUpstream = -32000
)

// Failure decisions recorded in the journal: the call was decided, then
// did not complete.
const (
	// DecisionFailed marks a call that was let through and did not
	// complete (the upstream died or answered with an error, or airlock
	// failed handling it).
	DecisionFailed = "failed"
)

// recoverPanics is the outermost receiving middleware: a panic while
// handling one request (whatever a peer sent) fails that request alone,
// with a JSON-RPC error; the session, the other sessions and the process
// go on. It is logged for the human and journaled. It also keeps every
// error it passes on encodable (see encodable).
func (p *Proxy) recoverPanics(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (res sdk.Result, err error) {
		defer func() {
			v := recover()
			if v == nil {
				return
			}
			fmt.Fprintf(p.o.Log, "airlock: mcp %s: internal error handling %s (the request fails, the proxy goes on): %v\n%s", p.name, method, v, debug.Stack())
			tool := ""
			if params, ok := req.GetParams().(*sdk.CallToolParamsRaw); ok && params != nil {
				tool = params.Name
			}
			sid := ""
			if ss, ok := req.GetSession().(*sdk.ServerSession); ok && ss != nil {
				sid = ss.ID()
			}
			msg := fmt.Sprintf("airlock failed handling this %s request (internal error: %v); it was not completed. Tell the human; other calls still work", method, v)
			p.journalFailure(method, sid, tool, "", msg)
			res, err = nil, &jsonrpc.Error{Code: CodeInternal, Message: sanitize.Text(msg)}
		}()
		res, err = next(ctx, method, req)
		return res, encodable(err)
	}
}

// encodable drops an error's data when it is not valid JSON: the SDK
// builds some errors' data from the request ("resource not found" quotes
// the URI Go-style, so a NUL in it becomes \x00), and a response that
// cannot be encoded ends the whole session.
func encodable(err error) error {
	var we *jsonrpc.Error
	if err == nil || !errors.As(err, &we) || len(we.Data) == 0 || json.Valid(we.Data) {
		return err
	}
	return &jsonrpc.Error{Code: we.Code, Message: we.Message}
}

// upstreamFailed turns the upstream's failure to complete a forwarded
// request into the client's JSON-RPC error. The upstream's own JSON-RPC
// errors keep their code (their text is the upstream's, so it is
// sanitised); a dead or closed upstream gets CodeUpstream and a message
// that says so.
func (p *Proxy) upstreamFailed(what string, err error) error {
	var we *jsonrpc.Error
	if errors.As(err, &we) && we.Code != 0 {
		return &jsonrpc.Error{Code: we.Code, Message: fmt.Sprintf("upstream MCP server %s: %s", p.name, sanitize.Clip(sanitize.Text(we.Message), 2000))}
	}
	why := "failed in transport"
	if errors.Is(err, sdk.ErrConnectionClosed) || errors.Is(err, io.EOF) || p.upstreamGone() {
		why = "died or closed its connection"
	}
	return &jsonrpc.Error{Code: CodeUpstream, Message: fmt.Sprintf("upstream MCP server %s %s during %s (%s); the call did not complete. Tell the human", p.name, why, what, sanitize.Clip(sanitize.Text(err.Error()), 500))}
}

// upErr is upstreamFailed for requests other than tool calls (nothing to
// journal): nil stays nil, and a client's own cancellation stays one.
func (p *Proxy) upErr(ctx context.Context, what string, err error) error {
	if err == nil || ctx.Err() != nil {
		return err
	}
	return p.upstreamFailed(what, err)
}

// upstreamGone reports whether the upstream session has ended.
func (p *Proxy) upstreamGone() bool {
	if p.upDone == nil {
		return false
	}
	select {
	case <-p.upDone:
		return true
	default:
		return false
	}
}

// journalFailure records that a request let through did not complete,
// so that the journal never shows only the "allow" of a call that failed.
func (p *Proxy) journalFailure(method, session, tool, class, reason string) {
	d := guard.Detail{Server: p.name, Tool: tool, Class: class, Phase: "result", Decision: DecisionFailed, Reason: reason}
	b, _ := json.Marshal(d)
	name := policy.ToolName(p.name, tool)
	if tool == "" {
		name = ""
	}
	ev := &vocab.Event{Time: time.Now(), Agent: guard.Agent, Name: "tools/result", Session: session, Cwd: p.o.Cwd, Tool: name, Note: method + " failed", Detail: b}
	if method != "tools/call" {
		ev.Name = method
	}
	if _, err := p.o.Recorder.Record(ev); err != nil {
		fmt.Fprintf(p.o.Log, "airlock: mcp %s: recording a failed %s: %v\n", p.name, method, err)
	}
}

// tokenKey is a progress token's identity, whatever JSON type carried
// it: the spec allows a string or a number, and a decoder may hand a
// number over as float64, int64 or json.Number. Integral numbers compare
// by value (2, 2.0 and int64(2) are one token). ok is false for a value
// that is not a valid token (null, bool, object, array).
func tokenKey(v any) (key string, ok bool) {
	switch t := v.(type) {
	case string:
		return "s:" + t, true
	case int:
		return "n:" + strconv.FormatInt(int64(t), 10), true
	case int32:
		return "n:" + strconv.FormatInt(int64(t), 10), true
	case int64:
		return "n:" + strconv.FormatInt(t, 10), true
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return "", false
		}
		if t == math.Trunc(t) && math.Abs(t) < 1<<63 {
			return "n:" + strconv.FormatInt(int64(t), 10), true
		}
		return "n:" + strconv.FormatFloat(t, 'g', -1, 64), true
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return "n:" + strconv.FormatInt(i, 10), true
		}
		if f, err := t.Float64(); err == nil {
			return tokenKey(f)
		}
		return "n:" + t.String(), true
	}
	return "", false
}

// progressRoute is where the upstream's progress for one forwarded call
// goes: the session that asked and the token it chose.
type progressRoute struct {
	session *sdk.ServerSession
	token   any
}

// watchProgress gives a forwarded call an upstream progress token of the
// proxy's own, unique across sessions (two clients both using token 1
// must not see each other's progress), and remembers where its
// notifications go. The returned function forgets it.
func (p *Proxy) watchProgress(params *sdk.CallToolParams, clientToken any, ss *sdk.ServerSession) (forget func()) {
	if clientToken == nil || ss == nil {
		return func() {}
	}
	if _, ok := tokenKey(clientToken); !ok {
		// Not a token the spec allows: no progress, the call goes on.
		return func() {}
	}
	p.mu.Lock()
	p.nextToken++
	up := p.nextToken
	key, _ := tokenKey(up)
	p.progress[key] = progressRoute{session: ss, token: clientToken}
	p.mu.Unlock()
	params.SetProgressToken(up)
	return func() {
		p.mu.Lock()
		delete(p.progress, key)
		p.mu.Unlock()
	}
}
