// Package mcpconfig owns the "mcp:" section of airlock's policy file: what
// each MCP server's tools do (the trust root for the MCP firewall, never
// the tools' own descriptions), the contact book sinks may send to, and
// the limits on sending. It decodes the section strictly (an unknown key
// names file:line), fills in defaults, and merges the layers: an untrusted
// project file may only tighten what the user's file set.
//
// The policy (internal/policy) does not know this schema: it hands each
// layer's section to Schema with the layer's authority, and keeps what
// Schema compiled. The MCP firewall (internal/mcp/guard), the proxy and
// its command read the result with Of, the only way to a Config from a
// policy, so no one reads the section undecoded.
package mcpconfig

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/strictyaml"
)

// ToolClass is what an MCP tool does, as the user's configuration says.
type ToolClass int8

// The classes of MCP tools.
const (
	// ClassUnknown: not configured; the mode table's "unknown" entry decides.
	ClassUnknown ToolClass = iota
	// ClassNeutral: does nothing the firewall cares about.
	ClassNeutral
	// ClassPrivate: reads private data.
	ClassPrivate
	// ClassSource: returns untrusted content (messages, web pages, email
	// bodies); its results are sanitised and quarantine later sends.
	ClassSource
	// ClassSink: sends outward (a text, an email, a post); its recipient
	// must be a contact, named by name.
	ClassSink
)

var classNames = [...]string{"unknown", "neutral", "private", "source", "sink"}

func (c ToolClass) String() string {
	if int(c) < len(classNames) {
		return classNames[c]
	}
	return "class(?)"
}

// ParseToolClass reads a class name.
func ParseToolClass(s string) (ToolClass, error) {
	for i, n := range classNames {
		if n == s {
			return ToolClass(i), nil
		}
	}
	return 0, fmt.Errorf("unknown tool class %q (want source, sink, private or neutral)", s)
}

// MarshalText renders the class name.
func (c ToolClass) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// Confirm is how a sink call that needs a human's yes gets it.
type Confirm int8

// The confirmation channels, from least to most strict.
const (
	// ConfirmElicit asks through MCP elicitation when the client declared
	// it, and otherwise holds the call out of band.
	ConfirmElicit Confirm = iota
	// ConfirmOutOfBand holds the call in airlock's queue for a human.
	ConfirmOutOfBand
	// ConfirmNone has no channel: a call that needs confirmation is refused.
	ConfirmNone
)

var confirmNames = [...]string{"elicit", "out-of-band", "none"}

func (c Confirm) String() string {
	if int(c) < len(confirmNames) {
		return confirmNames[c]
	}
	return "confirm(?)"
}

// MarshalText renders the channel name.
func (c Confirm) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// Rate is at most N calls per period; the zero Rate has no limit.
type Rate struct {
	N   int
	Per time.Duration
}

// IsZero reports whether the rate sets no limit.
func (r Rate) IsZero() bool { return r.N == 0 }

func (r Rate) String() string {
	if r.IsZero() {
		return "unlimited"
	}
	switch r.Per {
	case time.Second:
		return fmt.Sprintf("%d/s", r.N)
	case time.Minute:
		return fmt.Sprintf("%d/m", r.N)
	case time.Hour:
		return fmt.Sprintf("%d/h", r.N)
	case 24 * time.Hour:
		return fmt.Sprintf("%d/d", r.N)
	}
	return fmt.Sprintf("%d/%s", r.N, r.Per)
}

// MarshalText renders the rate as written in policy files.
func (r Rate) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// stricter reports whether r allows fewer calls than o over time.
func (r Rate) stricter(o Rate) bool {
	switch {
	case r.IsZero():
		return false
	case o.IsZero():
		return true
	}
	// r.N/r.Per < o.N/o.Per; float64 because N times a period in
	// nanoseconds can overflow int64.
	return float64(r.N)*float64(o.Per) < float64(o.N)*float64(r.Per)
}

// ParseRate reads "30/h", "5/m", "100/d", "10/s" or "3/10m".
func ParseRate(s string) (Rate, error) {
	n, per, ok := strings.Cut(s, "/")
	if !ok {
		return Rate{}, fmt.Errorf("rate %q must be COUNT/PERIOD, e.g. 30/h", s)
	}
	count, err := strconv.Atoi(strings.TrimSpace(n))
	if err != nil || count < 1 {
		return Rate{}, fmt.Errorf("rate %q: the count must be a whole number of at least 1", s)
	}
	var d time.Duration
	switch per = strings.TrimSpace(per); per {
	case "s":
		d = time.Second
	case "m", "min":
		d = time.Minute
	case "h":
		d = time.Hour
	case "d":
		d = 24 * time.Hour
	default:
		if d, err = time.ParseDuration(per); err != nil || d <= 0 {
			return Rate{}, fmt.Errorf("rate %q: the period must be s, m, h, d or a duration such as 10m", s)
		}
	}
	return Rate{N: count, Per: d}, nil
}

// DefaultQuarantine is a sink's quarantine_after_source when the file does
// not set one: a firewall is safe by default, and 0s turns it off.
const DefaultQuarantine = 10 * time.Minute

// Tool is the configuration of one MCP tool.
type Tool struct {
	Class ToolClass `json:"class"`

	// Label names where a source's content comes from when no sender is
	// known per item ("web page", "inbox"); "" means "<server>/<tool>".
	Label string `json:"label,omitempty"`
	// Items is the field of a source's structuredContent holding the list
	// of items (messages), Sender the field of an item with the sender's
	// address, Text the field with the item's text. With them, each item is
	// rendered as one quoted message labelled by the sender's contact name.
	Items  string `json:"items,omitempty"`
	Sender string `json:"sender,omitempty"`
	Text   string `json:"text,omitempty"`
	// KeepMedia passes a source's images, audio and binary resources on
	// (media: pass); by default they are replaced by a note, since they can
	// carry text the sanitiser cannot see.
	KeepMedia bool `json:"keep_media,omitempty"`

	// RecipientArg is the argument of a sink holding the recipient's
	// contact name; TextArg the argument holding the text (for dedup).
	RecipientArg string `json:"recipient_arg,omitempty"`
	TextArg      string `json:"text_arg,omitempty"`
	// SendName keeps the contact's name in the forwarded call instead of
	// replacing it with the contact's address (send_as: name).
	SendName bool `json:"send_name,omitempty"`
	// Rate limits the sink's calls; Dedup refuses the same text to the same
	// recipient within the window.
	Rate  Rate          `json:"rate"`
	Dedup time.Duration `json:"dedup,omitempty"`
	// Confirm is the channel for a call that needs a human's yes.
	Confirm Confirm `json:"confirm"`
	// Quarantine is how long after a source returned content from someone
	// not in the contacts a call needs confirmation.
	Quarantine time.Duration `json:"quarantine_after_source,omitempty"`
	// ReplyToWriter exempts from the quarantine a send to a contact who
	// wrote one of the messages read in the window.
	ReplyToWriter bool `json:"reply_to_writer,omitempty"`

	// File and Line locate the entry.
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
}

// Server is the configuration of one MCP server, by the name the agent's
// configuration gives it.
type Server struct {
	// Default is the class of the server's tools that Tools does not list.
	Default ToolClass        `json:"default"`
	Tools   map[string]*Tool `json:"tools,omitempty"`
}

// Contact is one entry of the contact book.
type Contact struct {
	Name    string `json:"name"`
	Address string `json:"address"`
}

// Config is the compiled "mcp:" section of the policy in effect: every
// layer's section, merged.
type Config struct {
	// Contacts is the contact book sinks may send to, in file order.
	Contacts []Contact `json:"contacts,omitempty"`
	// Servers maps a server name to its configuration.
	Servers map[string]*Server `json:"servers,omitempty"`
	// Redact lists argument names whose values the journal does not keep.
	Redact []string `json:"redact,omitempty"`
	// Ignored says what untrusted project files asked for and did not get
	// (they may only tighten).
	Ignored []string `json:"ignored,omitempty"`
}

// Tool returns the configuration of one tool; nil and ClassUnknown (or the
// server's default class) when it is not listed.
func (m *Config) Tool(server, tool string) (*Tool, ToolClass) {
	s := m.Servers[server]
	if s == nil {
		return nil, ClassUnknown
	}
	if t := s.Tools[tool]; t != nil {
		return t, t.Class
	}
	return nil, s.Default
}

// Contact finds a contact by name, ignoring case and surrounding space.
func (m *Config) Contact(name string) (Contact, bool) {
	name = strings.TrimSpace(name)
	for _, c := range m.Contacts {
		if strings.EqualFold(c.Name, name) {
			return c, true
		}
	}
	return Contact{}, false
}

// ContactByAddress finds the contact whose address is addr, comparing
// addresses without spaces, dashes, dots-in-numbers or parentheses and
// ignoring case.
func (m *Config) ContactByAddress(addr string) (Contact, bool) {
	k := NormalizeAddress(addr)
	if k == "" {
		return Contact{}, false
	}
	for _, c := range m.Contacts {
		if NormalizeAddress(c.Address) == k {
			return c, true
		}
	}
	return Contact{}, false
}

// NormalizeAddress is the form addresses are compared in: lower case,
// without the spaces, dashes and parentheses people write phone numbers
// with.
func NormalizeAddress(addr string) string {
	return strings.ToLower(strings.Map(func(r rune) rune {
		switch r {
		case ' ', '-', '(', ')', '\t':
			return -1
		}
		return r
	}, strings.TrimSpace(addr)))
}

// mcpDoc is the "mcp:" section as written; pointers are nil for keys not
// given, so that an untrusted project file's section can tighten only what
// it names.
type mcpDoc struct {
	line     int
	contacts []Contact
	cLine    int
	redact   []string
	servers  []*mcpServerDoc
}

type mcpServerDoc struct {
	name  string
	line  int
	def   *ToolClass
	tools []*mcpToolDoc
}

type mcpToolDoc struct {
	name, file     string
	line           int
	class          ToolClass
	label          *string
	items          *string
	sender         *string
	text           *string
	media          *bool
	recipientArg   *string
	textArg        *string
	sendName       *bool
	rate           *Rate
	dedup          *time.Duration
	confirm        *Confirm
	quarantine     *time.Duration
	replyToWriter  *bool
	sourceOnlyLine int
	sinkOnlyLine   int
}

func (d *mcpDoc) decode(n *yaml.Node) error {
	d.line = n.Line
	return strictyaml.Fields(n, "mcp", map[string]func(*yaml.Node) error{
		"contacts": func(v *yaml.Node) error {
			d.cLine = v.Line
			if v.Kind != yaml.MappingNode {
				return strictyaml.At(v.Line, strictyaml.ErrBadValue, "contacts must be a mapping of name: address")
			}
			seen := map[string]bool{}
			for i := 0; i+1 < len(v.Content); i += 2 {
				k, a := v.Content[i], v.Content[i+1]
				addr, err := strictyaml.Scalar(a, "a contact's address")
				if err != nil {
					return err
				}
				name := strings.TrimSpace(k.Value)
				switch {
				case name == "":
					return strictyaml.At(k.Line, strictyaml.ErrBadValue, "a contact needs a name")
				case strings.TrimSpace(addr) == "":
					return strictyaml.At(a.Line, strictyaml.ErrBadValue, "contact %q needs an address", name)
				case seen[strings.ToLower(name)]:
					return strictyaml.At(k.Line, strictyaml.ErrBadValue, "contact %q given twice", name)
				case looksLikeAddress(name):
					return strictyaml.At(k.Line, strictyaml.ErrBadValue, "contact name %q looks like an address: give a name, e.g. Alice: %q", name, name)
				}
				seen[strings.ToLower(name)] = true
				d.contacts = append(d.contacts, Contact{Name: name, Address: strings.TrimSpace(addr)})
			}
			return nil
		},
		"redact": func(v *yaml.Node) (err error) {
			d.redact, err = strictyaml.StringList(v, "redact")
			return err
		},
		"servers": func(v *yaml.Node) error {
			if v.Kind != yaml.MappingNode {
				return strictyaml.At(v.Line, strictyaml.ErrBadValue, "servers must be a mapping of server name to its settings")
			}
			for i := 0; i+1 < len(v.Content); i += 2 {
				k, sv := v.Content[i], v.Content[i+1]
				if k.Value == "" || strings.Contains(k.Value, "__") {
					return strictyaml.At(k.Line, strictyaml.ErrBadValue, "server name %q must be non-empty and not contain \"__\"", k.Value)
				}
				s := &mcpServerDoc{name: k.Value, line: k.Line}
				if err := s.decode(sv); err != nil {
					return err
				}
				d.servers = append(d.servers, s)
			}
			return nil
		},
	})
}

// looksLikeAddress reports whether s is written like a phone number or an
// email address rather than a name.
func looksLikeAddress(s string) bool {
	if strings.Contains(s, "@") {
		return true
	}
	digits := 0
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case strings.ContainsRune("+-.() ", r):
		default:
			return false
		}
	}
	return digits >= 3
}

func (s *mcpServerDoc) decode(n *yaml.Node) error {
	return strictyaml.Fields(n, "server "+s.name, map[string]func(*yaml.Node) error{
		"default": func(v *yaml.Node) error {
			str, err := strictyaml.Scalar(v, "default")
			if err != nil {
				return err
			}
			c, err := ParseToolClass(str)
			if err != nil || c == ClassSink {
				return strictyaml.At(v.Line, strictyaml.ErrBadValue, "default must be unknown, neutral, private or source (a sink needs its own recipient_arg)")
			}
			s.def = &c
			return nil
		},
		"tools": func(v *yaml.Node) error {
			if v.Kind != yaml.MappingNode {
				return strictyaml.At(v.Line, strictyaml.ErrBadValue, "tools must be a mapping of tool name to its settings")
			}
			for i := 0; i+1 < len(v.Content); i += 2 {
				k, tv := v.Content[i], v.Content[i+1]
				if k.Value == "" {
					return strictyaml.At(k.Line, strictyaml.ErrBadValue, "a tool needs a name")
				}
				t := &mcpToolDoc{name: k.Value, line: k.Line}
				if err := t.decode(tv); err != nil {
					return err
				}
				s.tools = append(s.tools, t)
			}
			return nil
		},
	})
}

func (t *mcpToolDoc) decode(n *yaml.Node) error {
	var hasClass bool
	str := func(dst **string, what string, sink bool) func(*yaml.Node) error {
		return func(v *yaml.Node) error {
			s, err := strictyaml.Scalar(v, what)
			if err != nil {
				return err
			}
			if s == "" {
				return strictyaml.At(v.Line, strictyaml.ErrBadValue, "%s must not be empty", what)
			}
			*dst = &s
			t.mark(v.Line, sink)
			return nil
		}
	}
	dur := func(dst **time.Duration, what string) func(*yaml.Node) error {
		return func(v *yaml.Node) error {
			s, err := strictyaml.Scalar(v, what)
			if err != nil {
				return err
			}
			d, err := time.ParseDuration(s)
			if err != nil || d < 0 {
				return strictyaml.At(v.Line, strictyaml.ErrBadValue, "%s must be a duration such as 2m or 1h30m, not %q", what, s)
			}
			*dst = &d
			t.mark(v.Line, true)
			return nil
		}
	}
	flag := func(dst **bool, what string, sink bool) func(*yaml.Node) error {
		return func(v *yaml.Node) (err error) {
			*dst, err = strictyaml.Bool(v, what)
			t.mark(v.Line, sink)
			return err
		}
	}
	err := strictyaml.Fields(n, "tool "+t.name, map[string]func(*yaml.Node) error{
		"class": func(v *yaml.Node) error {
			s, err := strictyaml.Scalar(v, "class")
			if err != nil {
				return err
			}
			c, err := ParseToolClass(s)
			if err != nil || c == ClassUnknown {
				return strictyaml.At(v.Line, strictyaml.ErrBadValue, "class must be source, sink, private or neutral, not %q", s)
			}
			t.class, hasClass = c, true
			return nil
		},
		"label":  str(&t.label, "label", false),
		"items":  str(&t.items, "items", false),
		"sender": str(&t.sender, "sender", false),
		"text":   str(&t.text, "text", false),
		"media": func(v *yaml.Node) error {
			s, err := strictyaml.Scalar(v, "media")
			if err != nil {
				return err
			}
			if s != "drop" && s != "pass" {
				return strictyaml.At(v.Line, strictyaml.ErrBadValue, "media must be drop or pass, not %q", s)
			}
			keep := s == "pass"
			t.media = &keep
			t.mark(v.Line, false)
			return nil
		},
		"recipient_arg": str(&t.recipientArg, "recipient_arg", true),
		"text_arg":      str(&t.textArg, "text_arg", true),
		"send_as": func(v *yaml.Node) error {
			s, err := strictyaml.Scalar(v, "send_as")
			if err != nil {
				return err
			}
			if s != "address" && s != "name" {
				return strictyaml.At(v.Line, strictyaml.ErrBadValue, "send_as must be address or name, not %q", s)
			}
			b := s == "name"
			t.sendName = &b
			t.mark(v.Line, true)
			return nil
		},
		"rate": func(v *yaml.Node) error {
			s, err := strictyaml.Scalar(v, "rate")
			if err != nil {
				return err
			}
			r, err := ParseRate(s)
			if err != nil {
				return strictyaml.BadValue(v.Line, err)
			}
			t.rate = &r
			t.mark(v.Line, true)
			return nil
		},
		"dedup": dur(&t.dedup, "dedup"),
		"confirm": func(v *yaml.Node) error {
			s, err := strictyaml.Scalar(v, "confirm")
			if err != nil {
				return err
			}
			for i, name := range confirmNames {
				if name == s {
					c := Confirm(i)
					t.confirm = &c
					t.mark(v.Line, true)
					return nil
				}
			}
			return strictyaml.At(v.Line, strictyaml.ErrBadValue, "confirm must be elicit, out-of-band or none, not %q", s)
		},
		"quarantine_after_source": dur(&t.quarantine, "quarantine_after_source"),
		"reply_to_writer":         flag(&t.replyToWriter, "reply_to_writer", true),
	})
	switch {
	case err != nil:
		return err
	case !hasClass:
		return strictyaml.At(n.Line, strictyaml.ErrBadValue, "tool %q needs a class (source, sink, private or neutral)", t.name)
	case t.class != ClassSink && t.sinkOnlyLine != 0:
		return strictyaml.At(t.sinkOnlyLine, strictyaml.ErrBadValue, "tool %q is a %s: recipient_arg, text_arg, send_as, rate, dedup, confirm, quarantine_after_source and reply_to_writer are for sinks", t.name, t.class)
	case t.class != ClassSource && t.sourceOnlyLine != 0:
		return strictyaml.At(t.sourceOnlyLine, strictyaml.ErrBadValue, "tool %q is a %s: label, items, sender, text and media are for sources", t.name, t.class)
	case t.items != nil && t.text == nil:
		return strictyaml.At(n.Line, strictyaml.ErrBadValue, "source %q gives items but not text: the field of an item with its text", t.name)
	case (t.sender != nil || t.text != nil) && t.items == nil:
		return strictyaml.At(n.Line, strictyaml.ErrBadValue, "source %q gives sender or text but not items: the field of structuredContent with the list of items", t.name)
	}
	return nil
}

// mark remembers the first line of a class-specific key, for the check
// that it fits the class.
func (t *mcpToolDoc) mark(line int, sink bool) {
	if sink && t.sinkOnlyLine == 0 {
		t.sinkOnlyLine = line
	}
	if !sink && t.sourceOnlyLine == 0 {
		t.sourceOnlyLine = line
	}
}

// compile turns a tool entry as written into its configuration.
func (t *mcpToolDoc) compile() *Tool {
	c := &Tool{Class: t.class, File: t.file, Line: t.line, Quarantine: DefaultQuarantine}
	if t.class != ClassSink {
		c.Quarantine = 0
	}
	set := func(dst *string, src *string) {
		if src != nil {
			*dst = *src
		}
	}
	set(&c.Label, t.label)
	set(&c.Items, t.items)
	set(&c.Sender, t.sender)
	set(&c.Text, t.text)
	set(&c.RecipientArg, t.recipientArg)
	set(&c.TextArg, t.textArg)
	if t.media != nil {
		c.KeepMedia = *t.media
	}
	if t.sendName != nil {
		c.SendName = *t.sendName
	}
	if t.rate != nil {
		c.Rate = *t.rate
	}
	if t.dedup != nil {
		c.Dedup = *t.dedup
	}
	if t.confirm != nil {
		c.Confirm = *t.confirm
	}
	if t.quarantine != nil {
		c.Quarantine = *t.quarantine
	}
	if t.replyToWriter != nil {
		c.ReplyToWriter = *t.replyToWriter
	}
	return c
}

// merge adds a file's "mcp:" section. With authority (the user's file,
// AIRLOCK_POLICY, a trusted project file) a tool entry replaces the one
// before it and contacts are added. Without it (an untrusted project file)
// the section may only tighten tools already configured: a lower rate, a
// longer dedup or quarantine, a stricter confirmation, no reply-to-writer
// exception, more redaction. Contacts, new tools and class changes are
// ignored and listed in Config.Ignored.
func (m *Config) merge(d *mcpDoc, file string, authority bool) error {
	ignore := func(format string, args ...any) {
		m.Ignored = append(m.Ignored, fmt.Sprintf("%s: ", file)+fmt.Sprintf(format, args...))
	}
	for _, r := range d.redact {
		if !containsFold(m.Redact, r) {
			m.Redact = append(m.Redact, r)
		}
	}
	if len(d.contacts) > 0 {
		if authority {
			for _, c := range d.contacts {
				replaced := false
				for i := range m.Contacts {
					if strings.EqualFold(m.Contacts[i].Name, c.Name) {
						m.Contacts[i], replaced = c, true
					}
				}
				if !replaced {
					m.Contacts = append(m.Contacts, c)
				}
			}
		} else {
			ignore("contacts (an untrusted project file cannot add contacts; run airlock trust after review)")
		}
	}
	if m.Servers == nil {
		m.Servers = map[string]*Server{}
	}
	for _, sd := range d.servers {
		s := m.Servers[sd.name]
		if s == nil {
			if !authority {
				// A tighter default (unknown asks) is fine; tools it names
				// are new to the user's policy and cannot be trusted.
				if sd.def != nil && *sd.def == ClassUnknown {
					m.Servers[sd.name] = &Server{Default: ClassUnknown, Tools: map[string]*Tool{}}
				}
				if len(sd.tools) > 0 {
					ignore("server %s is not in your policy; its tool classes apply once you trust the file", sd.name)
				}
				continue
			}
			s = &Server{Tools: map[string]*Tool{}}
			m.Servers[sd.name] = s
		}
		if sd.def != nil {
			switch {
			case authority:
				s.Default = *sd.def
			case *sd.def == ClassUnknown && s.Default != ClassSource:
				// Unknown asks for every call: tighter than any class but
				// source, whose results are also sanitised and start the
				// quarantine. Turning a source into unknown would keep a
				// yes from the human but lose both, so it is not tighter.
				s.Default = *sd.def
			case *sd.def != s.Default:
				ignore("server %s default %s (an untrusted project file may only set it to unknown, and not for a source)", sd.name, *sd.def)
			}
		}
		for _, td := range sd.tools {
			td.file = file
			cur := s.Tools[td.name]
			if authority {
				if td.class == ClassSink && td.recipientArg == nil {
					// A tightening entry in an untrusted file may leave it
					// out; a sink being defined may not.
					return &strictyaml.FileError{File: file, Line: td.line, Err: fmt.Errorf("%w: sink %q needs recipient_arg: the argument that names the recipient (by contact name)", strictyaml.ErrBadValue, td.name)}
				}
				s.Tools[td.name] = td.compile()
				continue
			}
			if cur == nil {
				ignore("tool %s/%s is not in your policy; its class applies once you trust the file", sd.name, td.name)
				continue
			}
			if td.class != cur.Class {
				ignore("tool %s/%s class %s (your policy says %s; an untrusted project file cannot change it)", sd.name, td.name, td.class, cur.Class)
				continue
			}
			tightenTool(cur, td, func(what string) { ignore("tool %s/%s %s (looser than your policy)", sd.name, td.name, what) })
		}
	}
	return nil
}

// tightenTool applies the parts of an untrusted entry that are stricter.
func tightenTool(cur *Tool, td *mcpToolDoc, looser func(string)) {
	if td.rate != nil {
		if td.rate.stricter(cur.Rate) {
			cur.Rate = *td.rate
		} else if *td.rate != cur.Rate {
			looser("rate " + td.rate.String())
		}
	}
	if td.dedup != nil {
		if *td.dedup > cur.Dedup {
			cur.Dedup = *td.dedup
		} else if *td.dedup < cur.Dedup {
			looser("dedup " + td.dedup.String())
		}
	}
	if td.quarantine != nil {
		if *td.quarantine > cur.Quarantine {
			cur.Quarantine = *td.quarantine
		} else if *td.quarantine < cur.Quarantine {
			looser("quarantine_after_source " + td.quarantine.String())
		}
	}
	if td.confirm != nil {
		if *td.confirm > cur.Confirm {
			cur.Confirm = *td.confirm
		} else if *td.confirm < cur.Confirm {
			looser("confirm " + td.confirm.String())
		}
	}
	if td.replyToWriter != nil {
		if !*td.replyToWriter {
			cur.ReplyToWriter = false
		} else if !cur.ReplyToWriter {
			looser("reply_to_writer true")
		}
	}
	if td.media != nil {
		if !*td.media {
			cur.KeepMedia = false
		} else if !cur.KeepMedia {
			looser("media pass")
		}
	}
	// Labels, item fields, argument names and send_as say how to read the
	// tool, not how strict to be; only the user's file sets them.
	differs := func(v *string, cur string) bool { return v != nil && *v != cur }
	if differs(td.label, cur.Label) || differs(td.items, cur.Items) || differs(td.sender, cur.Sender) || differs(td.text, cur.Text) ||
		differs(td.recipientArg, cur.RecipientArg) || differs(td.textArg, cur.TextArg) || td.sendName != nil && *td.sendName != cur.SendName {
		looser("label, items, sender, text, recipient_arg, text_arg or send_as")
	}
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// ServerNames lists the configured servers in order.
func (m *Config) ServerNames() []string {
	names := make([]string, 0, len(m.Servers))
	for n := range m.Servers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Schema makes an empty Config for policy.Load to compile the layers'
// sections into (policy.Options.MCP).
func Schema() policy.MCPSchema { return &Config{} }

// Decode reads one layer's "mcp:" section strictly and returns the
// function that merges it into c with the layer's authority
// (policy.MCPSchema).
func (m *Config) Decode(n *yaml.Node) (merge func(file string, authority bool) error, err error) {
	d := &mcpDoc{}
	if err := d.decode(n); err != nil {
		return nil, err
	}
	return func(file string, authority bool) error { return m.merge(d, file, authority) }, nil
}

// Of is the "mcp:" configuration of a policy: what Schema compiled when
// the policy was loaded with it, or else the layers' sections compiled
// now. The error names every mistake of every layer's section, with
// file:line; a caller deciding MCP calls refuses them on it.
func Of(p *policy.Policy) (*Config, error) {
	if c, ok := p.MCP.Schema.(*Config); ok {
		return c, nil
	}
	c := &Config{}
	if err := p.MCP.Compile(c); err != nil {
		return nil, err
	}
	return c, nil
}
