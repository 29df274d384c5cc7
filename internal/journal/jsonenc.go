package journal

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// The journal's lines are encoding/json's bytes (marshalLine's encoder,
// HTML escaping off). An allowed hook call is one process that appends
// one line: encoding/json's first look at Entry (its reflection over the
// struct and the types it reaches) cost that process more than the rest
// of the append. The common entries are written here by hand instead,
// byte for byte what encoding/json writes (TestAppendEntryMatchesJSON
// and FuzzAppendJSONString compare the two); an entry with a part this
// file does not write (a finding, a team act, raw JSON detail or input)
// goes through encoding/json as before.

// appendJSONString appends s as encoding/json encodes a string with HTML
// escaping off: quotes, backslashes and control characters escaped,
// invalid UTF-8 as U+FFFD, U+2028 and U+2029 escaped.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// appendStringField appends ,"name":"value" (no comma when first), and
// nothing when omit is set and value is empty.
func appendStringField(dst []byte, name, value string, omit bool) []byte {
	if omit && value == "" {
		return dst
	}
	if dst[len(dst)-1] != '{' {
		dst = append(dst, ',')
	}
	dst = append(dst, '"')
	dst = append(dst, name...)
	dst = append(dst, '"', ':')
	return appendJSONString(dst, value)
}

// appendEntry appends e as one JSON object, as encoding/json writes it,
// and reports false (dst unchanged in meaning) for an entry it leaves to
// encoding/json.
func appendEntry(dst []byte, e *Entry) ([]byte, bool) {
	if e.Finding != nil || e.Team != nil || len(e.Detail) != 0 || len(e.Input) != 0 || len(e.Files) != 0 {
		return dst, false
	}
	when, err := e.Time.MarshalJSON()
	if err != nil {
		return dst, false
	}
	var expires []byte
	if e.Expires != nil {
		if expires, err = e.Expires.MarshalJSON(); err != nil {
			return dst, false
		}
	}
	dst = append(dst, `{"seq":`...)
	dst = strconv.AppendInt(dst, e.Seq, 10)
	dst = append(dst, `,"time":`...)
	dst = append(dst, when...)
	dst = appendStringField(dst, "event", e.Event, false)
	dst = appendStringField(dst, "agent", e.Agent, true)
	dst = appendStringField(dst, "session", e.Session, true)
	dst = appendStringField(dst, "story", e.Story, true)
	dst = appendStringField(dst, "cwd", e.Cwd, true)
	dst = appendStringField(dst, "tool", e.Tool, true)
	dst = appendStringField(dst, "tool_use_id", e.ToolUseID, true)
	dst = appendStringField(dst, "kind", e.Kind, true)
	dst = appendStringField(dst, "command", e.Command, true)
	if len(e.Paths) > 0 {
		dst = append(dst, `,"paths":[`...)
		for i, p := range e.Paths {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendJSONString(dst, p)
		}
		dst = append(dst, ']')
	}
	dst = appendStringField(dst, "url", e.URL, true)
	if e.Contained {
		dst = append(dst, `,"contained":true`...)
	}
	dst = appendStringField(dst, "decision", e.Decision, true)
	dst = appendStringField(dst, "rule", e.Rule, true)
	dst = appendStringField(dst, "message", e.Message, true)
	dst = appendStringField(dst, "mode", e.Mode, true)
	dst = appendStringField(dst, "effect", e.Effect, true)
	if len(e.Reasons) > 0 {
		dst = append(dst, `,"reasons":[`...)
		for i, r := range e.Reasons {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"rule":`...)
			dst = appendJSONString(dst, r.Rule)
			dst = append(dst, `,"message":`...)
			dst = appendJSONString(dst, r.Message)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	dst = appendStringField(dst, "id", e.ID, true)
	dst = appendStringField(dst, "ref", e.Ref, true)
	if e.Expires != nil {
		dst = append(dst, `,"expires":`...)
		dst = append(dst, expires...)
	}
	dst = appendStringField(dst, "prompt", e.Prompt, true)
	dst = appendStringField(dst, "note", e.Note, true)
	dst = appendStringField(dst, "mac", e.MAC, true)
	dst = appendStringField(dst, "held_hash", e.HeldHash, true)
	dst = appendStringField(dst, "input_digest", e.InputDigest, true)
	dst = appendStringField(dst, "prev", e.Prev, false)
	return append(dst, '}'), true
}

// isLowerHex reports whether s is made of 0-9 and a-f only: a string
// encoding/json writes as itself between quotes, HTML escaping or not.
func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// marshalHead is json.Marshal(h): by hand when its strings are hex, as
// every head airlock writes has them.
func marshalHead(h *head) ([]byte, error) {
	if !isLowerHex(h.Hash) || !isLowerHex(h.QSum) || !isLowerHex(h.Sum) {
		return json.Marshal(h)
	}
	b := make([]byte, 0, headSize)
	b = append(b, `{"seq":`...)
	b = strconv.AppendInt(b, h.Seq, 10)
	b = append(b, `,"hash":"`...)
	b = append(b, h.Hash...)
	b = append(b, `","count":`...)
	b = strconv.AppendInt(b, h.Count, 10)
	b = append(b, `,"segment":`...)
	b = strconv.AppendInt(b, int64(h.Segment), 10)
	b = append(b, `,"end":`...)
	b = strconv.AppendInt(b, h.End, 10)
	if h.Queue != 0 {
		b = append(b, `,"queue":`...)
		b = strconv.AppendInt(b, h.Queue, 10)
	}
	if h.QSum != "" {
		b = append(b, `,"qsum":"`...)
		b = append(b, h.QSum...)
		b = append(b, '"')
	}
	b = append(b, `,"sum":"`...)
	b = append(b, h.Sum...)
	return append(b, `"}`...), nil
}

// unmarshalHead is json.Unmarshal(b, h) for a head record: the record as
// marshalHead writes it (hex strings, plain integers, its field order,
// then the padding) is read by hand, anything else by encoding/json,
// which then decides what it means. h must be zero.
func unmarshalHead(b []byte, h *head) error {
	if parseHead(b, h) {
		return nil
	}
	*h = head{}
	return json.Unmarshal(b, h)
}

// parseHead reads b in marshalHead's layout into h, or reports false.
func parseHead(b []byte, h *head) bool {
	p := headParser{b: b}
	var seg int64
	ok := p.lit(`{"seq":`) && p.int(&h.Seq) && p.lit(`,"hash":`) && p.hex(&h.Hash) &&
		p.lit(`,"count":`) && p.int(&h.Count) && p.lit(`,"segment":`) && p.int(&seg) &&
		p.lit(`,"end":`) && p.int(&h.End)
	if !ok {
		return false
	}
	if p.has(`,"queue":`) && (!p.lit(`,"queue":`) || !p.int(&h.Queue)) {
		return false
	}
	if p.has(`,"qsum":`) && (!p.lit(`,"qsum":`) || !p.hex(&h.QSum)) {
		return false
	}
	if !p.lit(`,"sum":`) || !p.hex(&h.Sum) || !p.lit("}") || int64(int(seg)) != seg {
		return false
	}
	h.Segment = int(seg)
	for _, c := range p.b {
		if c != ' ' && c != '\n' {
			return false
		}
	}
	return true
}

type headParser struct{ b []byte }

func (p *headParser) has(s string) bool { return len(p.b) >= len(s) && string(p.b[:len(s)]) == s }

func (p *headParser) lit(s string) bool {
	if !p.has(s) {
		return false
	}
	p.b = p.b[len(s):]
	return true
}

// int reads an integer as JSON writes it (no leading zeros, no sign but
// a minus, no fraction or exponent) that fits in an int64.
func (p *headParser) int(v *int64) bool {
	i := 0
	if i < len(p.b) && p.b[i] == '-' {
		i++
	}
	j := i
	for j < len(p.b) && p.b[j] >= '0' && p.b[j] <= '9' {
		j++
	}
	if j == i || j-i > 1 && p.b[i] == '0' || j < len(p.b) && (p.b[j] == '.' || p.b[j] == 'e' || p.b[j] == 'E') {
		return false
	}
	n, err := strconv.ParseInt(string(p.b[:j]), 10, 64)
	if err != nil {
		return false
	}
	*v, p.b = n, p.b[j:]
	return true
}

// hex reads a quoted string of 0-9 and a-f.
func (p *headParser) hex(v *string) bool {
	if len(p.b) == 0 || p.b[0] != '"' {
		return false
	}
	j := 1
	for j < len(p.b) && p.b[j] != '"' {
		j++
	}
	if j == len(p.b) || !isLowerHex(string(p.b[1:j])) {
		return false
	}
	*v, p.b = string(p.b[1:j]), p.b[j+1:]
	return true
}
