package mcpconfig

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/strictyaml"
)

const mcpUser = `
mcp:
  contacts:
    Alice: "+1 555 0100"
    Bob: bob@example.com
  redact: [body]
  servers:
    texts:
      default: neutral
      tools:
        read_messages:
          class: source
          items: messages
          sender: from
          text: text
        send_message:
          class: sink
          recipient_arg: to
          text_arg: body
          rate: 30/h
          dedup: 2m
          confirm: elicit
          reply_to_writer: true
        contacts_dump:
          class: private
`

func TestMCPConfig(t *testing.T) {
	f := newFixture(t)
	f.userFile(mcpUser)
	m := f.load()
	send, class := m.Tool("texts", "send_message")
	if class != ClassSink || send.RecipientArg != "to" || send.TextArg != "body" || send.Rate != (Rate{30, time.Hour}) ||
		send.Dedup != 2*time.Minute || send.Confirm != ConfirmElicit || send.Quarantine != DefaultQuarantine || !send.ReplyToWriter {
		t.Errorf("send_message compiled to %+v", send)
	}
	if _, c := m.Tool("texts", "other"); c != ClassNeutral {
		t.Errorf("unlisted tool of a configured server: %s, want the server default neutral", c)
	}
	if _, c := m.Tool("web", "fetch"); c != ClassUnknown {
		t.Errorf("tool of an unconfigured server: %s, want unknown", c)
	}
	if src, _ := m.Tool("texts", "read_messages"); src.Items != "messages" || src.Sender != "from" || src.Text != "text" || src.Quarantine != 0 {
		t.Errorf("read_messages compiled to %+v", src)
	}
	if c, ok := m.Contact(" alice "); !ok || c.Address != "+1 555 0100" {
		t.Errorf("Contact(alice) = %v, %v", c, ok)
	}
	if c, ok := m.ContactByAddress("+1-555-0100"); !ok || c.Name != "Alice" {
		t.Errorf("ContactByAddress = %v, %v", c, ok)
	}
	if _, ok := m.ContactByAddress("BOB@example.com"); !ok {
		t.Error("addresses compare without case")
	}
	if len(m.Redact) != 1 || m.Redact[0] != "body" {
		t.Errorf("redact = %v", m.Redact)
	}
}

// TestMCPProjectTightensOnly checks that an untrusted project file may
// tighten the user's MCP settings but never add contacts, tools or loosen.
func TestMCPProjectTightensOnly(t *testing.T) {
	tests := []struct {
		name    string
		project string
		trust   bool
		check   func(t *testing.T, m *Config)
		ignored string
	}{
		{"lower rate applies", "mcp:\n  servers:\n    texts:\n      tools:\n        send_message: {class: sink, rate: 5/h}\n", false,
			func(t *testing.T, m *Config) { want(t, m, func(s *Tool) bool { return s.Rate == Rate{5, time.Hour} }) }, ""},
		{"higher rate is ignored", "mcp:\n  servers:\n    texts:\n      tools:\n        send_message: {class: sink, rate: 100/m}\n", false,
			func(t *testing.T, m *Config) { want(t, m, func(s *Tool) bool { return s.Rate == Rate{30, time.Hour} }) }, "rate 100/m"},
		{"longer dedup applies", "mcp:\n  servers:\n    texts:\n      tools:\n        send_message: {class: sink, dedup: 1h}\n", false,
			func(t *testing.T, m *Config) { want(t, m, func(s *Tool) bool { return s.Dedup == time.Hour }) }, ""},
		{"shorter quarantine is ignored", "mcp:\n  servers:\n    texts:\n      tools:\n        send_message: {class: sink, quarantine_after_source: 0s}\n", false,
			func(t *testing.T, m *Config) {
				want(t, m, func(s *Tool) bool { return s.Quarantine == DefaultQuarantine })
			}, "quarantine_after_source 0s"},
		{"stricter confirm applies", "mcp:\n  servers:\n    texts:\n      tools:\n        send_message: {class: sink, confirm: none}\n", false,
			func(t *testing.T, m *Config) { want(t, m, func(s *Tool) bool { return s.Confirm == ConfirmNone }) }, ""},
		{"reply exception can be dropped", "mcp:\n  servers:\n    texts:\n      tools:\n        send_message: {class: sink, reply_to_writer: false}\n", false,
			func(t *testing.T, m *Config) { want(t, m, func(s *Tool) bool { return !s.ReplyToWriter }) }, ""},
		{"contacts are not added", "mcp:\n  contacts:\n    Mallory: \"+1 555 0666\"\n", false,
			func(t *testing.T, m *Config) {
				if _, ok := m.Contact("Mallory"); ok {
					t.Error("an untrusted project added a contact")
				}
			}, "cannot add contacts"},
		{"class change is ignored", "mcp:\n  servers:\n    texts:\n      tools:\n        send_message: {class: neutral}\n", false,
			func(t *testing.T, m *Config) { want(t, m, func(s *Tool) bool { return s.Class == ClassSink }) }, "cannot change it"},
		{"new tool is ignored", "mcp:\n  servers:\n    texts:\n      tools:\n        post: {class: neutral}\n", false,
			func(t *testing.T, m *Config) {
				if _, c := m.Tool("texts", "post"); c != ClassNeutral || m.Servers["texts"].Tools["post"] != nil {
					t.Error("an untrusted project configured a new tool")
				}
			}, "not in your policy"},
		{"redaction adds", "mcp:\n  redact: [token]\n", false,
			func(t *testing.T, m *Config) {
				if !containsFold(m.Redact, "token") {
					t.Error("redact not added")
				}
			}, ""},
		{"trusted project adds contacts", "mcp:\n  contacts:\n    Carol: \"+1 555 0102\"\n", true,
			func(t *testing.T, m *Config) {
				if _, ok := m.Contact("Carol"); !ok {
					t.Error("a trusted project could not add a contact")
				}
			}, ""},
		{"trusted project loosens", "mcp:\n  servers:\n    texts:\n      tools:\n        send_message: {class: sink, recipient_arg: to, rate: 100/h}\n", true,
			func(t *testing.T, m *Config) {
				want(t, m, func(s *Tool) bool { return s.Rate == Rate{100, time.Hour} })
			}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.userFile(mcpUser)
			pf := f.projectFile(tt.project)
			if tt.trust {
				f.trust(pf)
			}
			m := f.load()
			tt.check(t, m)
			got := strings.Join(m.Ignored, "\n")
			if tt.ignored == "" && got != "" || !strings.Contains(got, tt.ignored) {
				t.Errorf("ignored = %q, want it to mention %q", got, tt.ignored)
			}
		})
	}
}

func want(t *testing.T, m *Config, ok func(*Tool) bool) {
	t.Helper()
	s, _ := m.Tool("texts", "send_message")
	if s == nil || !ok(s) {
		t.Errorf("send_message is %+v", s)
	}
}

func TestMCPParseErrors(t *testing.T) {
	tests := []struct {
		name, yaml string
		line       int
		kind       error
		text       string
	}{
		{"unknown key", "mcp:\n  contact: {}\n", 2, strictyaml.ErrUnknownKey, `"contact"`},
		{"sink without recipient", "mcp:\n  servers:\n    s:\n      tools:\n        send:\n          class: sink\n", 5, strictyaml.ErrBadValue, "needs recipient_arg"},
		{"tool without class", "mcp:\n  servers:\n    s:\n      tools:\n        send: {rate: 3/h}\n", 5, strictyaml.ErrBadValue, "needs a class"},
		{"bad class", "mcp:\n  servers:\n    s:\n      tools:\n        send: {class: outbox}\n", 5, strictyaml.ErrBadValue, "class must be"},
		{"bad rate", "mcp:\n  servers:\n    s:\n      tools:\n        send: {class: sink, recipient_arg: to, rate: thirty}\n", 5, strictyaml.ErrBadValue, "COUNT/PERIOD"},
		{"bad dedup", "mcp:\n  servers:\n    s:\n      tools:\n        send: {class: sink, recipient_arg: to, dedup: soon}\n", 5, strictyaml.ErrBadValue, "duration"},
		{"bad confirm", "mcp:\n  servers:\n    s:\n      tools:\n        send: {class: sink, recipient_arg: to, confirm: maybe}\n", 5, strictyaml.ErrBadValue, "elicit, out-of-band or none"},
		{"sink key on a source", "mcp:\n  servers:\n    s:\n      tools:\n        read:\n          class: source\n          rate: 3/h\n", 7, strictyaml.ErrBadValue, "are for sinks"},
		{"source key on a sink", "mcp:\n  servers:\n    s:\n      tools:\n        send:\n          class: sink\n          recipient_arg: to\n          items: x\n", 8, strictyaml.ErrBadValue, "are for sources"},
		{"items without text", "mcp:\n  servers:\n    s:\n      tools:\n        read: {class: source, items: messages}\n", 5, strictyaml.ErrBadValue, "gives items but not text"},
		{"contact named like a number", "mcp:\n  contacts:\n    \"+15550100\": Alice\n", 3, strictyaml.ErrBadValue, "looks like an address"},
		{"contact twice", "mcp:\n  contacts:\n    Alice: \"1\"\n    alice: \"2\"\n", 4, strictyaml.ErrBadValue, "given twice"},
		{"sink default", "mcp:\n  servers:\n    s:\n      default: sink\n", 4, strictyaml.ErrBadValue, "default must be"},
		{"server name with __", "mcp:\n  servers:\n    a__b: {}\n", 3, strictyaml.ErrBadValue, "must be non-empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			file := f.userFile(tt.yaml)
			_, loadErr := policy.Load(f.options(Schema))
			err := loadErr
			var fe *strictyaml.FileError
			if !errors.As(err, &fe) || fe.File != file || fe.Line != tt.line || !errors.Is(err, tt.kind) || !strings.Contains(err.Error(), tt.text) {
				t.Errorf("Load: got %v, want %s:%d, %v, %q", err, file, tt.line, tt.kind, tt.text)
			}
			// Loaded without the schema, the policy keeps the section
			// as written, and Of finds the same mistake.
			p, perr := policy.Load(f.options(nil))
			if perr != nil {
				t.Fatalf("Load without the schema: %v", perr)
			}
			_, lazy := Of(p)
			if lazy == nil || loadErr == nil || lazy.Error() != loadErr.Error() {
				t.Errorf("Of: got %v, want what Load said", lazy)
			}
		})
	}
}

func TestParseRate(t *testing.T) {
	tests := []struct {
		in   string
		want Rate
		ok   bool
	}{
		{"30/h", Rate{30, time.Hour}, true},
		{"5/m", Rate{5, time.Minute}, true},
		{"100/d", Rate{100, 24 * time.Hour}, true},
		{"3/10m", Rate{3, 10 * time.Minute}, true},
		{"0/h", Rate{}, false},
		{"30", Rate{}, false},
		{"30/fortnight", Rate{}, false},
		{"-1/h", Rate{}, false},
	}
	for _, tt := range tests {
		got, err := ParseRate(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("ParseRate(%q) = %v, %v", tt.in, got, err)
		}
	}
	if !(Rate{5, time.Hour}).stricter(Rate{30, time.Hour}) || (Rate{1, time.Second}).stricter(Rate{30, time.Hour}) || !(Rate{30, time.Hour}).stricter(Rate{}) {
		t.Error("stricter is wrong")
	}
}

// An untrusted project may set a server's default to unknown (every call
// then asks), but not a source's: a source's results are sanitised and
// start the quarantine, which unknown would lose after a human's yes.
func TestMCPProjectKeepsASource(t *testing.T) {
	for _, tt := range []struct {
		name, userDefault string
		want              ToolClass
		ignored           string
	}{
		{"neutral becomes unknown", "neutral", ClassUnknown, ""},
		{"source stays source", "source", ClassSource, "not for a source"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.userFile("mcp:\n  servers:\n    mail:\n      default: " + tt.userDefault + "\n")
			f.projectFile("mcp:\n  servers:\n    mail:\n      default: unknown\n")
			m := f.load()
			if got := m.Servers["mail"].Default; got != tt.want {
				t.Errorf("default = %v, want %v", got, tt.want)
			}
			got := strings.Join(m.Ignored, "\n")
			if tt.ignored == "" && got != "" || !strings.Contains(got, tt.ignored) {
				t.Errorf("ignored = %q, want it to mention %q", got, tt.ignored)
			}
		})
	}
}
