package proxy

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/airlock-dev/airlock/internal/mcp/guard"
	"github.com/airlock-dev/airlock/internal/mcp/mcpconfig"
	"github.com/airlock-dev/airlock/internal/mcp/pin"
	"github.com/airlock-dev/airlock/internal/mcp/sanitize"
	"github.com/airlock-dev/airlock/internal/pipeline"
	"github.com/airlock-dev/airlock/internal/policy"
	display "github.com/airlock-dev/airlock/internal/render"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// confirmKey is the key of airlock's confirmation among a call's input
// requests.
const confirmKey = "airlock_confirm"

// confirmTTL is how long a confirmation request stays answerable.
const confirmTTL = 10 * time.Minute

// handleCall is the handler of every mirrored tool. It translates the
// call onto the decision pipeline, whose MCP stage is decideCall, and the
// pipeline's outcome back into an MCP reply: a confirmation question, a
// hold, a refusal, or the upstream's result.
func (p *Proxy) handleCall(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	var d decided
	pl := &pipeline.Pipeline{
		Policy:   func(string) (*policy.Policy, error) { return p.o.Guard.Policy, nil },
		Recorder: p.o.Recorder,
		MCP: func(_ *policy.Policy, _ *pipeline.Request, a *policy.Action, v *policy.Verdict) (json.RawMessage, string) {
			d = p.decideCall(req)
			*v = d.o.Verdict
			a.Kind = policy.LocalTool
			if d.o.Class == mcpconfig.ClassUnknown {
				a.Kind = policy.UnknownTool
			}
			// The journal keeps the final decision with the firewall's facts.
			d.o.Detail.Decision, d.o.Detail.Rule, d.o.Detail.Reason = v.Decision.String(), v.Rule, v.Message
			b, err := json.Marshal(d.o.Detail)
			if err != nil {
				// Unreachable (plain fields), but a call whose facts cannot
				// be kept does not run.
				*v = policy.Verdict{Decision: policy.Deny, Rule: "mcp.detail", Mode: v.Mode, Message: "airlock could not record this call's facts: " + err.Error()}
			}
			return b, d.o.Approval
		},
	}
	tool := policy.ToolName(p.name, req.Params.Name)
	out := pl.Decide(&pipeline.Request{
		Agent: guard.Agent, Event: "tools/call", Session: sessionID(req), Cwd: p.o.Cwd, Tool: tool,
		Input: req.Params.Arguments, Action: policy.Action{Kind: policy.UnknownTool, Tool: tool, Cwd: p.o.Cwd},
	})
	o := &d.o
	o.Verdict = out.Verdict
	switch {
	case out.Stage == pipeline.StageJournal:
		return p.recordFailed(out.Err), nil
	case out.Verdict.Decision == policy.Ask:
		return &sdk.CallToolResult{
			InputRequests: sdk.InputRequestMap{confirmKey: &sdk.ElicitParams{
				Mode:    "form",
				Message: p.question(req.Params.Name, o),
				RequestedSchema: map[string]any{
					"type": "object",
					"properties": map[string]any{
						"approve": map[string]any{"type": "boolean", "title": "Allow this call", "description": "Only a human answers this; the agent cannot.", "default": false},
					},
					"required": []string{"approve"},
				},
			}},
			RequestState: d.token,
		}, nil
	case out.Verdict.Decision == policy.Defer:
		return p.held(req, o, out.Receipt, d.why), nil
	case out.Verdict.Decision.Holds():
		return errorResult("airlock refused " + p.name + "/" + req.Params.Name + ": " + o.Verdict.Message), nil
	}
	return p.forward(ctx, req, o)
}

// decided is what the proxy's MCP stage decided about one call.
type decided struct {
	o guard.Outcome
	// token is the requestState of airlock's confirmation question, for
	// a call asked about.
	token string
	// why says why a call that needed a confirmation is held instead.
	why string
}

// decideCall is the MCP stage of the proxy's pipeline: the tool's pin,
// the firewall (classes, contacts, rate, dedup, quarantine, out-of-band
// approvals), the answer to airlock's own confirmation on a retried call,
// and the confirmation channel the sink allows. Every verdict the proxy
// acts on is set here.
func (p *Proxy) decideCall(req *sdk.CallToolRequest) decided {
	name := req.Params.Name
	call := guard.Call{Server: p.name, Tool: name, Args: req.Params.Arguments}
	mode := p.o.Guard.Policy.Mode
	p.mu.Lock()
	st := p.tools[name]
	p.mu.Unlock()
	if st == nil || st.status != pin.Pinned {
		o := p.o.Guard.Check(mode, call)
		msg := fmt.Sprintf("%s/%s changed its description, schemas or annotations since a human accepted it, so airlock refuses its calls until a human reviews the change and runs: airlock mcp approve %s %s", p.name, name, p.name, name)
		o.Verdict = policy.Verdict{Decision: policy.Deny, Rule: "mcp.pin", Message: msg, Mode: mode}
		o.Detail.Pin = "changed"
		return decided{o: o}
	}
	d := decided{o: p.o.Guard.Check(mode, call)}
	o := &d.o
	o.Verdict.Mode = mode

	// The answer to airlock's own confirmation, on the retried call.
	if req.Params.RequestState != "" || len(req.Params.InputResponses) > 0 {
		answer, err := p.answer(req, o.Detail.ArgsDigest)
		o.Detail.Channel = "elicit"
		switch {
		case err != nil:
			o.Verdict = policy.Verdict{Decision: policy.Deny, Rule: "mcp.confirm", Mode: mode,
				Message: "airlock could not match this confirmation to a question it asked (" + err.Error() + "); ask again by calling the tool without inputResponses"}
			return d
		case o.Verdict.Decision != policy.Ask:
			// Allowed without it after all, or refused for another reason
			// (the rate limit filled up meanwhile): the guard decides.
			o.Detail.Answer = answer
		case answer == "accept":
			o.Detail.Answer = answer
			o.Verdict.Decision = policy.Allow
			o.Verdict.Message = "a human confirmed this call through the client (" + o.Verdict.Message + ")"
		default:
			o.Detail.Answer = answer
			o.Verdict.Decision, o.Verdict.Rule = policy.Deny, "mcp.confirm"
			o.Verdict.Message = "the human did not confirm this call (" + answer + "); do not retry it unless the human asks you to"
			return d
		}
	}

	switch o.Verdict.Decision {
	case policy.Ask:
		p.confirm(req, &d)
	case policy.Defer:
		o.Detail.Channel, o.Detail.Answer = "out-of-band", "held"
	case policy.Allow, policy.Warn:
		if o.Class == mcpconfig.ClassSink {
			o.Detail.Sent = true
		}
	}
	return d
}

// confirm picks how a call that needs a human's yes is confirmed: the
// client asks the human (elicitation), the call is held for the review
// queue, or, for a sink with no confirmation channel, it is refused.
func (p *Proxy) confirm(req *sdk.CallToolRequest, d *decided) {
	o := &d.o
	caps := req.ClientCapabilities()
	canElicit := caps != nil && caps.Elicitation != nil && (caps.Elicitation.Form != nil || caps.Elicitation.URL == nil)
	switch {
	case o.Channel == mcpconfig.ConfirmElicit && canElicit:
		token, err := p.issue(req.Params.Name, o.Detail.ArgsDigest)
		if err != nil {
			o.Verdict.Decision, o.Verdict.Rule, o.Verdict.Message = policy.Deny, "mcp.confirm", "airlock could not ask for confirmation: "+err.Error()
			return
		}
		d.token = token
		o.Detail.Channel, o.Detail.Answer = "elicit", "asked"
		return
	case o.Channel == mcpconfig.ConfirmNone:
		o.Verdict.Decision = policy.Deny
		o.Verdict.Message += "; this call has no confirmation channel (confirm: none), so it is refused"
		return
	}
	d.why = "the client did not declare elicitation"
	if o.Channel == mcpconfig.ConfirmOutOfBand {
		d.why = "this tool is confirmed out of band"
	}
	o.Verdict.Decision = policy.Defer
	o.Detail.Channel, o.Detail.Answer = "out-of-band", "held"
}

// question is the confirmation shown to the human: proxy-authored, with
// the recipient from the contact book, and everything the agent wrote
// rendered (internal/render) so that the human sees its escapes and
// invisible characters instead of their effect; the text is also quoted.
func (p *Proxy) question(tool string, o *guard.Outcome) string {
	var b strings.Builder
	fmt.Fprintf(&b, "airlock: the agent wants to call %s/%s.\n", display.Line(p.name, 100), display.Line(tool, 100))
	if len(o.Recipients) > 0 {
		var to []string
		for _, c := range o.Recipients {
			to = append(to, fmt.Sprintf("%s (%s)", c.Name, c.Address))
		}
		fmt.Fprintf(&b, "To: %s\n", display.Line(strings.Join(to, ", "), 500))
		fmt.Fprintf(&b, "Text: %s\n", sanitize.Wrap("text the agent wrote", display.Line(o.Text, 500)))
	} else {
		fmt.Fprintf(&b, "Arguments: %s\n", display.Line(string(o.Detail.Args), 500))
	}
	fmt.Fprintf(&b, "Why airlock asks: %s\nAllow it?", display.Line(o.Verdict.Message, 1000))
	return b.String()
}

// state is what airlock's requestState binds: the tool, the arguments'
// digest, when it expires and a one-time nonce.
type state struct {
	Nonce   string `json:"n"`
	Tool    string `json:"t"`
	Digest  string `json:"d"`
	Expires int64  `json:"e"`
}

// issue makes a requestState for a confirmation; it is HMAC'd with the
// proxy's secret so that a retry cannot carry one it did not get.
func (p *Proxy) issue(tool, digest string) (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	s := state{Nonce: hex.EncodeToString(b), Tool: tool, Digest: digest, Expires: time.Now().Add(confirmTTL).Unix()}
	body, _ := json.Marshal(s)
	mac := hmac.New(sha256.New, p.secret)
	mac.Write(body)
	p.mu.Lock()
	now := time.Now()
	for n, exp := range p.nonces {
		if now.After(exp) {
			delete(p.nonces, n)
		}
	}
	p.nonces[s.Nonce] = time.Unix(s.Expires, 0)
	p.mu.Unlock()
	return base64.RawURLEncoding.EncodeToString(body) + "." + base64.RawURLEncoding.EncodeToString(mac.Sum(nil)), nil
}

// Errors matching a confirmation to its question.
var (
	errBadState = errors.New("the request state is not airlock's")
	errStale    = errors.New("the confirmation expired or was already used")
	errMismatch = errors.New("the confirmation was for another call")
	errNoAnswer = errors.New("no answer to airlock's question")
)

// answer checks the retried call's requestState (airlock's, unused, not
// expired, for this tool and these arguments), consumes it, and returns
// the human's answer: "accept" only for an accepted form with approve
// set to true.
func (p *Proxy) answer(req *sdk.CallToolRequest, digest string) (string, error) {
	body64, mac64, ok := strings.Cut(req.Params.RequestState, ".")
	if !ok {
		return "", errBadState
	}
	body, err1 := base64.RawURLEncoding.DecodeString(body64)
	got, err2 := base64.RawURLEncoding.DecodeString(mac64)
	if err1 != nil || err2 != nil {
		return "", errBadState
	}
	mac := hmac.New(sha256.New, p.secret)
	mac.Write(body)
	if !hmac.Equal(got, mac.Sum(nil)) {
		return "", errBadState
	}
	var s state
	if err := json.Unmarshal(body, &s); err != nil {
		return "", errBadState
	}
	p.mu.Lock()
	exp, live := p.nonces[s.Nonce]
	delete(p.nonces, s.Nonce)
	p.mu.Unlock()
	if !live || time.Now().After(exp) {
		return "", errStale
	}
	if s.Tool != req.Params.Name || s.Digest != digest {
		return "", errMismatch
	}
	r, ok := req.Params.InputResponses[confirmKey].(*sdk.ElicitResult)
	if !ok || r == nil {
		return "", errNoAnswer
	}
	if r.Action == "accept" {
		if v, _ := r.Content["approve"].(bool); v {
			return "accept", nil
		}
		return "accept-without-approve", nil
	}
	return r.Action, nil
}

// held tells the agent that the call waits in airlock's queue for a
// human and to go on with other work. Without a queue (r has no queue id)
// no human can confirm it, and it is refused.
func (p *Proxy) held(req *sdk.CallToolRequest, o *guard.Outcome, r vocab.Receipt, why string) *sdk.CallToolResult {
	reason := o.Verdict.Message
	if r.QueueID == "" {
		o.Verdict.Decision = policy.Deny
		o.Detail.Channel, o.Detail.Answer = "", ""
		msg := "airlock refused " + p.name + "/" + req.Params.Name + ": " + reason + ". No human can confirm it here"
		if why != "" {
			msg += " (" + why + ", and there is no review queue)"
		}
		return errorResult(msg + ".")
	}
	msg := fmt.Sprintf("airlock is holding %s/%s for a human (queue id %s): %s", p.name, req.Params.Name, r.QueueID, reason)
	if why != "" {
		msg += " (" + why + ")"
	}
	msg += ". It has not run. Go on with work that does not need it and tell the human; after they approve it (airlock queue approve " + r.QueueID + "), the same call with the same arguments goes through once."
	return errorResult(msg)
}

// forward makes the call the pipeline allowed (and recorded) upstream and
// returns its result, sanitised when the tool is a source.
func (p *Proxy) forward(ctx context.Context, req *sdk.CallToolRequest, o *guard.Outcome) (*sdk.CallToolResult, error) {
	params := &sdk.CallToolParams{Name: req.Params.Name, Arguments: o.Forward}
	defer p.watchProgress(params, req.Params.GetProgressToken(), req.Session)()
	res, err := p.up.CallTool(ctx, params)
	if err != nil {
		if ctx.Err() != nil {
			// The client cancelled or went away: nothing to answer.
			p.journalFailure("tools/call", sessionID(req), req.Params.Name, o.Class.String(), "cancelled by the client before the upstream answered: "+ctx.Err().Error())
			return nil, ctx.Err()
		}
		jerr := p.upstreamFailed("tools/call", err)
		p.journalFailure("tools/call", sessionID(req), req.Params.Name, o.Class.String(), jerr.Error())
		return nil, jerr
	}
	if o.Class != mcpconfig.ClassSource {
		return res, nil
	}
	out, untrusted, writers := render(o.Config, p.name, req.Params.Name, o.Tool, res)
	if out != nil && out.StructuredContent != nil && !p.hasOutputSchema(req.Params.Name) {
		// Clients that prefer structuredContent (Claude Code shows the
		// model its JSON, not the text) would bypass airlock's labelled
		// rendering: without an output schema that obliges the server to
		// send it, the model gets the rendering only.
		out.StructuredContent = nil
	}
	d := guard.Detail{Server: p.name, Tool: req.Params.Name, Class: o.Class.String(), Phase: "result", Decision: "allow",
		Untrusted: untrusted, Writers: writers}
	b, _ := json.Marshal(d)
	ev := &vocab.Event{Time: time.Now(), Agent: guard.Agent, Name: "tools/result", Session: sessionID(req), Cwd: p.o.Cwd,
		Tool: policy.ToolName(p.name, req.Params.Name), Detail: b}
	if _, err := p.o.Recorder.Record(ev); err != nil {
		// The quarantine depends on this record: without it the content
		// does not reach the agent.
		return p.recordFailed(err), nil
	}
	return out, nil
}

// hasOutputSchema reports whether the upstream's tool declares one.
func (p *Proxy) hasOutputSchema(tool string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, d := range p.lastDefs {
		if d.Name == tool {
			return len(d.OutputSchema) > 0
		}
	}
	return false
}

// recordFailed is the answer when the journal cannot keep a decision:
// nothing airlock decides is lost, so the call does not happen.
func (p *Proxy) recordFailed(err error) *sdk.CallToolResult {
	fmt.Fprintf(p.o.Log, "airlock: mcp %s: recording the decision: %v\n", p.name, err)
	return errorResult("airlock could not record this call (" + err.Error() + "), so it does not let it run. Tell the human.")
}

func sessionID(req *sdk.CallToolRequest) string {
	if req.Session == nil {
		return ""
	}
	return req.Session.ID()
}

func errorResult(msg string) *sdk.CallToolResult {
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: msg}}}
}
