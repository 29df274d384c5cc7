package scan

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strings"

	"github.com/airlock-dev/airlock/internal/agent/claudecode"
	"github.com/airlock-dev/airlock/internal/classify"
	"github.com/airlock-dev/airlock/internal/policy"
)

// detect reads the input's first non-blank line, without consuming it,
// and names its format. Claude Code's two JSON formats differ in their
// key spelling: the transcript writes sessionId, parentUuid, isSidechain;
// stream-json writes session_id and parent_tool_use_id.
func detect(br *bufio.Reader) (Format, error) {
	head, err := br.Peek(64 << 10)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return Text, err
	}
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	head = bytes.TrimLeft(head, " \t\r\n")
	if len(head) == 0 || head[0] != '{' {
		return Text, nil
	}
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	}
	// The other agents' outputs, by their first event (agentjson.go).
	// Gemini's first line names a session_id, as Claude's stream-json
	// does, so it is told apart first, by its init event's type.
	switch {
	case bytes.HasPrefix(head, []byte(`{"type":"thread.started"`)):
		return CodexJSON, nil
	case bytes.HasPrefix(head, []byte(`{"type":"init"`)) && bytes.Contains(head, []byte(`"session_id"`)):
		return GeminiJSON, nil
	case bytes.HasPrefix(head, []byte(`{"type":"session.`)):
		return CopilotJSON, nil
	case bytes.HasPrefix(head, []byte(`{"type":"`)) && bytes.Contains(head, []byte(`"sessionID":"`)) && bytes.Contains(head, []byte(`"part":{`)):
		return OpenCodeJSON, nil
	}
	for _, k := range []string{`"sessionId"`, `"parentUuid"`, `"isSidechain"`, `"leafUuid"`, `"messageId"`, `"type":"file-history-snapshot"`, `"type":"queue-operation"`, `"type":"summary"`} {
		if bytes.Contains(head, []byte(k)) {
			return Transcript, nil
		}
	}
	for _, k := range []string{`"session_id"`, `"parent_tool_use_id"`, `"subtype":"init"`, `"type":"stream_event"`} {
		if bytes.Contains(head, []byte(k)) {
			return StreamJSON, nil
		}
	}
	return Text, nil
}

// needles are the keys that make a JSON line worth decoding: a line
// without any of them holds neither a tool call, nor a result, nor a
// refusal. Most transcript bytes (text, thinking, snapshots) are skipped
// this way.
var needles = [][]byte{
	[]byte(`"tool_use"`), []byte(`"tool_result"`), []byte(`"permission_denied"`),
	[]byte(`"permission_denials"`), []byte(`"deferred_tool_use"`), []byte(`"toolDenialKind"`),
	// stream-json's init line names the session's working directory,
	// which a finding carries so that "scan" can tell an approved action
	// from the same words run elsewhere.
	[]byte(`"init"`),
}

// jsonLine holds the fields of a transcript or stream-json line the
// scanner reads; both formats are decoded by the same struct because they
// share message shapes and differ in the rest.
type jsonLine struct {
	Type    string `json:"type"`
	Subtype string `json:"subtype"`
	// Message is an object with content blocks on message lines, and a
	// plain string on some system lines.
	Message    json.RawMessage `json:"message"`
	SessionID  string          `json:"sessionId"`
	SessionID2 string          `json:"session_id"`
	Cwd        string          `json:"cwd"`
	// Transcript: a refused call's result line.
	ToolDenialKind     string `json:"toolDenialKind"`
	PermissionDecision *struct {
		Decision string `json:"decision"`
		Source   string `json:"source"`
	} `json:"permissionDecision"`
	// stream-json: the permission outcome of each result in the line.
	ToolResultMeta []struct {
		ID                 string `json:"id"`
		PermissionDecision struct {
			Decision string `json:"decision"`
			Source   string `json:"source"`
		} `json:"permission_decision"`
	} `json:"tool_result_meta"`
	// stream-json: {"type":"system","subtype":"permission_denied"}.
	ToolUseID      string `json:"tool_use_id"`
	DecisionReason string `json:"decision_reason"`
	// stream-json: the final result line.
	PermissionDenials []struct {
		ToolUseID string `json:"tool_use_id"`
	} `json:"permission_denials"`
	DeferredToolUse *struct {
		ID string `json:"id"`
	} `json:"deferred_tool_use"`
}

// block is one content block of a message.
type block struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// toolUse is a tool call seen in the input.
type toolUse struct {
	line               int
	id, name           string
	input              json.RawMessage
	session, cwd       string
	hasResult, isError bool
	resultLine         int
	resultText         string // clipped, for errors
	// outputCommand is what a publication marker in its result implies
	// ran (see outputMarkers), output the text around the marker.
	outputCommand, output string
	outputLine            int
	// action is the call read through another agent's tool table
	// (agentjson.go), or actionErr why it could not be; both are unset
	// for Claude Code's calls, read in decide.
	action    *policy.Action
	actionErr error
}

// structured collects the calls, results and refusals of one input and
// pairs them at the end: a result or a refusal may come many lines after
// its call (the refusals of stream-json come on its last line).
type structured struct {
	s       *Scanner
	res     *Result
	uses    []*toolUse
	byID    map[string]*toolUse
	results map[string]*toolUse // results seen before their call (never in practice, but cheap)
	denials map[string]denial
	text    *textScanner
	blocks  []block
	// cwd is the working directory the input last named: stream-json
	// names it once, on its init line, transcripts on every line.
	cwd string
}

type denial struct {
	line   int
	reason string
}

// scanJSON scans a transcript or stream-json input.
func (s *Scanner) scanJSON(lr *lineReader, res *Result) error {
	st := &structured{s: s, res: res, byID: map[string]*toolUse{}, results: map[string]*toolUse{}, denials: map[string]denial{}}
	st.text = s.newText(res, res.Format)
	decode := decoderFor(res.Format)
	warnedPiece, warnedText := 0, 0
	for {
		line, piece, err := lr.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			st.finish()
			return err
		}
		if piece {
			// Too long to decode: read it as text rather than drop it.
			if warnedPiece != lr.n {
				warnedPiece = lr.n
				res.Warnings = append(res.Warnings, Warning{Source: res.Source, Line: lr.n,
					Message: fmt.Sprintf("line longer than %d bytes: not decoded, scanned as plain text in pieces; a tool call on it is not paired with its result", s.MaxLine)})
			}
			st.text.line(lr.n, line)
			continue
		}
		t := bytes.TrimLeft(line, " \t")
		if len(t) == 0 {
			continue
		}
		if t[0] != '{' {
			if warnedText == 0 {
				res.Warnings = append(res.Warnings, Warning{Source: res.Source, Line: lr.n,
					Message: "line is not JSON: scanned as plain text (and so is every other such line of this input)"})
			}
			warnedText++
			st.text.line(lr.n, line)
			continue
		}
		if decode == nil && !wanted(t) {
			continue
		}
		decodeLine := st.line
		if decode != nil {
			decodeLine = func(n int, b []byte) error { return decode(st, n, b) }
		}
		if err := decodeLine(lr.n, t); err != nil {
			res.Warnings = append(res.Warnings, Warning{Source: res.Source, Line: lr.n,
				Message: "JSON line could not be decoded (" + clip(err.Error()) + "): scanned as plain text"})
			st.text.line(lr.n, line)
		}
	}
	st.finish()
	return nil
}

func wanted(line []byte) bool {
	for _, n := range needles {
		if bytes.Contains(line, n) {
			return true
		}
	}
	return false
}

// line decodes one JSON line and notes its calls, results and refusals.
func (st *structured) line(n int, b []byte) error {
	var l jsonLine
	if err := json.Unmarshal(b, &l); err != nil {
		return err
	}
	session := l.SessionID
	if session == "" {
		session = l.SessionID2
	}
	if session != "" && st.res.Session == "" {
		st.res.Session = session
	}
	if l.Cwd != "" {
		st.cwd = l.Cwd
	}
	// Refusals that name a call.
	if l.Type == "system" && l.Subtype == "permission_denied" && l.ToolUseID != "" {
		st.deny(l.ToolUseID, n, "permission_denied: "+l.DecisionReason)
	}
	for _, d := range l.PermissionDenials {
		st.deny(d.ToolUseID, n, "listed in permission_denials")
	}
	if l.DeferredToolUse != nil && l.DeferredToolUse.ID != "" {
		st.deny(l.DeferredToolUse.ID, n, "deferred by a hook (deferred_tool_use): held, not run")
	}
	for _, m := range l.ToolResultMeta {
		if refused(m.PermissionDecision.Decision) {
			st.deny(m.ID, n, "tool_result_meta: permission decision "+m.PermissionDecision.Decision+" by "+m.PermissionDecision.Source)
		}
	}
	if len(l.Message) == 0 || l.Message[0] != '{' {
		return nil
	}
	var m struct {
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(l.Message, &m); err != nil {
		return err
	}
	if len(m.Content) == 0 || m.Content[0] != '[' {
		return nil // a prompt or a text reply
	}
	st.blocks = st.blocks[:0]
	if err := json.Unmarshal(m.Content, &st.blocks); err != nil {
		return err
	}
	for i := range st.blocks {
		bl := &st.blocks[i]
		switch bl.Type {
		case "tool_use":
			if bl.ID == "" || bl.Name == "" {
				st.res.Warnings = append(st.res.Warnings, Warning{Source: st.res.Source, Line: n,
					Message: "a tool_use without an id or a name: not decided"})
				continue
			}
			if st.byID[bl.ID] != nil {
				continue // a resumed session repeats earlier calls
			}
			u := &toolUse{line: n, id: bl.ID, name: bl.Name, input: append(json.RawMessage(nil), bl.Input...), session: session, cwd: st.cwd}
			if r := st.results[bl.ID]; r != nil {
				u.hasResult, u.isError, u.resultLine, u.resultText = true, r.isError, r.resultLine, r.resultText
			}
			st.byID[bl.ID] = u
			st.uses = append(st.uses, u)
		case "tool_result":
			u := st.byID[bl.ToolUseID]
			if u == nil {
				u = &toolUse{}
				st.results[bl.ToolUseID] = u
			}
			if u.hasResult {
				continue
			}
			u.hasResult, u.isError, u.resultLine = true, bl.IsError, n
			if bl.IsError {
				u.resultText = clip(resultText(bl.Content))
			}
			// Transcript: the refusal is marked on the result's own line.
			if l.ToolDenialKind != "" {
				st.deny(bl.ToolUseID, n, "toolDenialKind: "+l.ToolDenialKind)
			} else if l.PermissionDecision != nil && refused(l.PermissionDecision.Decision) {
				st.deny(bl.ToolUseID, n, "permissionDecision: "+l.PermissionDecision.Decision+" by "+l.PermissionDecision.Source)
			}
			st.outputMarkers(u, n, bl.Content)
		}
	}
	return nil
}

// refused reports whether a permission decision refused the call.
func refused(d string) bool {
	switch d {
	case "reject", "deny", "denied", "block", "defer":
		return true
	}
	return false
}

func (st *structured) deny(id string, n int, why string) {
	if id == "" {
		return
	}
	if _, ok := st.denials[id]; !ok {
		st.denials[id] = denial{line: n, reason: why}
	}
}

// outputMarkers looks in a tool result for output that shows a
// publication (npm notice Publishing…), whatever the command was: a
// release script run through Bash publishes without naming npm.
func (st *structured) outputMarkers(u *toolUse, n int, content json.RawMessage) {
	if u.outputCommand != "" {
		return
	}
	a := st.text.a
	st.text.hits = a.m.find(content, st.text.hits[:0])
	for _, h := range st.text.hits {
		if int(h.word) < a.programs {
			continue
		}
		o := outputMarkers[int(h.word)-a.programs]
		u.outputCommand, u.outputLine = o.command, n
		u.output = clip(markerContext(content, h.end-len(o.text), h.end))
		return
	}
}

// markerContext is the text around a marker in raw JSON, for evidence.
func markerContext(b []byte, from, to int) string {
	s := from
	for s > 0 && from-s < 60 && !(b[s-1] == 'n' && s >= 2 && b[s-2] == '\\') && b[s-1] != '"' {
		s--
	}
	e := to
	for e < len(b) && e-to < 100 && b[e] != '\\' && b[e] != '"' {
		e++
	}
	return string(b[s:e])
}

// resultText is a tool result's content as text: a string, or the text
// blocks of an array.
func resultText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
		return ""
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) != nil {
		return ""
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "text" {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// finish pairs every call with its result and refusal, decides it, and
// records the findings, in the order of the calls.
func (st *structured) finish() {
	st.text.flush()
	for _, u := range st.uses {
		st.decide(u)
	}
}

// decide turns one tool call into a finding when it reaches beyond local
// work. Which calls are findings:
//   - every call the built-in policy does not simply allow: shell commands
//     that are shared, external, destructive or opaque; MCP tools and any
//     tool airlock does not know (their effect is unknown); reads of
//     secrets;
//   - WebFetch of a URL with a query string or fragment (data can leave in
//     the URL itself; a plain fetch only reads);
//   - any call of a shell, MCP or unknown tool whose result shows a
//     publication (a publication marker in its output), whatever its
//     command: a release script run through Bash publishes without naming
//     npm.
func (st *structured) decide(u *toolUse) {
	var a policy.Action
	var err error
	if u.action != nil || u.actionErr != nil {
		err = u.actionErr
		if u.action != nil {
			a = *u.action
		}
	} else {
		in := &claudecode.Input{HookEventName: "PreToolUse", ToolName: u.name, ToolInput: u.input, Cwd: u.cwd}
		a, err = claudecode.ToAction(in)
	}
	if err != nil {
		st.res.Warnings = append(st.res.Warnings, Warning{Source: st.res.Source, Line: u.line,
			Message: fmt.Sprintf("tool call %s (%s): %v; not decided", u.id, u.name, err)})
		return
	}
	// Decided as the hook would have: with the tool and the directory.
	v := st.s.Policy.Decide(a)
	pattern := "tool." + u.name
	if strings.HasPrefix(u.name, "mcp__") {
		pattern = "tool.mcp"
	}
	finding := v.Decision != policy.Allow
	if !finding && a.Kind == policy.Fetch && fetchCarriesData(a.URL) {
		finding = true
		v.Reasons = append(slices.Clip(v.Reasons), classify.Reason{Rule: "scan.fetch-query", Message: "the fetched URL carries a query or fragment, which can send data out"})
	}
	// Output markers count for tools that run things (a shell, an MCP or
	// unknown tool), not for a Read of a log that quotes them.
	runs := a.Kind == policy.Shell || a.Kind == policy.UnknownTool
	if runs && u.outputCommand != "" && (!finding || !heldText(&v.Effect)) {
		iv := *st.s.decide(u.outputCommand)
		iv.Reasons = append([]classify.Reason{{Rule: "scan.output", Message: "its output shows that " + u.outputCommand + " ran: " + u.output}}, iv.Reasons...)
		v, finding, pattern = iv, true, "output."+strings.ReplaceAll(u.outputCommand, " ", "-")
	}
	if !finding {
		return
	}
	f := Finding{
		Source: st.res.Source, Line: u.line, Format: st.res.Format,
		Pattern: pattern, Tool: u.name, ToolUseID: u.id, Session: u.session, Cwd: u.cwd,
		Action: a, Verdict: v,
	}
	switch d, denied := st.denials[u.id]; {
	case denied:
		f.Status, f.Evidence = Denied, &Evidence{Line: d.line, Kind: "denial", Text: clip(d.reason)}
	case u.hasResult:
		f.Status = Executed
		ev := &Evidence{Line: u.resultLine, Kind: "result"}
		if u.isError {
			ev.Text = "the result is an error, with no refusal marker: it ran and failed, or was refused by something that leaves no marker: " + u.resultText
		}
		if runs && u.outputCommand != "" {
			ev.Kind, ev.Line, ev.Text = "output", u.outputLine, u.output
		}
		f.Evidence = ev
	default:
		f.Status = NoResult
	}
	st.res.Findings = append(st.res.Findings, f)
}

// fetchCarriesData reports whether a URL has a query or fragment.
func fetchCarriesData(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return true
	}
	return u.RawQuery != "" || u.Fragment != ""
}
