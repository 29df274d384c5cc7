// Package config decodes the "notify:" section of the user's policy file,
// strictly, with file:line errors. It is apart from package notify so that
// "airlock policy check" can check the section without linking the HTTP
// client into the airlock binary, which answers every agent's tool call.
package config

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/policy"
)

// Config is the user's "notify:" section, decoded.
type Config struct {
	// Ntfy is the ntfy channel, nil when not configured.
	Ntfy *Ntfy
	// Webhook is the generic webhook, nil when not configured.
	Webhook *Webhook
}

// Ntfy configures push notifications through an ntfy server.
type Ntfy struct {
	// Server is the ntfy server's base URL (https, or http on loopback).
	Server string
	// Topic is where notifications are published; "" lets airlock make a
	// secret one (kept in <state>/secrets/notify.json).
	Topic string
	// ReplyTopic is where the buttons post their replies; "" lets airlock
	// make a secret one.
	ReplyTopic string
	// Token is an access token given inline (readable by the agent, like
	// the whole policy file); TokenFile names a file holding one.
	Token     string
	TokenFile string
	// ExpireAfter is how long a notification's buttons stay valid.
	ExpireAfter time.Duration
	// ApproveFor is how long an approval from the phone lets the agent's
	// verbatim retry through.
	ApproveFor time.Duration
}

// Webhook configures a JSON POST for each held action.
type Webhook struct {
	// URL receives the POST.
	URL string
	// Headers are sent with it (an Authorization header, say).
	Headers map[string]string
}

// Defaults of the ntfy channel.
const (
	// DefaultExpireAfter is how long buttons stay valid by default.
	DefaultExpireAfter = 12 * time.Hour
)

// ErrConfig is wrapped by every mistake in the notify section.
var ErrConfig = errors.New("bad notify section")

// Decode reads the notify section of the user's policy strictly: unknown
// keys, wrong kinds and bad values are errors naming the file and line
// (policy.FileError). A nil section decodes to nil.
func Decode(sec *policy.Section) (*Config, error) {
	if sec == nil || sec.Node == nil {
		return nil, nil
	}
	d := decoder{file: sec.File}
	c := &Config{}
	d.fields(sec.Node, "notify", map[string]func(*yaml.Node){
		"ntfy": func(v *yaml.Node) {
			c.Ntfy = &Ntfy{ExpireAfter: DefaultExpireAfter, ApproveFor: journal.DefaultApprovalExpiry}
			d.ntfy(v, c.Ntfy)
		},
		"webhook": func(v *yaml.Node) {
			c.Webhook = &Webhook{}
			d.webhook(v, c.Webhook)
		},
	})
	if len(d.errs) > 0 {
		return nil, errors.Join(d.errs...)
	}
	return c, nil
}

// decoder collects every mistake of the section, so that one run names
// them all.
type decoder struct {
	file string
	errs []error
}

func (d *decoder) fail(line int, format string, args ...any) {
	d.errs = append(d.errs, &policy.FileError{File: d.file, Line: line, Err: fmt.Errorf("%w: "+format, append([]any{ErrConfig}, args...)...)})
}

func (d *decoder) fields(n *yaml.Node, what string, h map[string]func(*yaml.Node)) {
	if n.Kind != yaml.MappingNode {
		d.fail(n.Line, "%s must be a mapping", what)
		return
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		fn, ok := h[k.Value]
		switch {
		case !ok:
			keys := make([]string, 0, len(h))
			for name := range h {
				keys = append(keys, name)
			}
			sort.Strings(keys)
			d.fail(k.Line, "unknown key %q in %s (want %s)", k.Value, what, strings.Join(keys, ", "))
		case seen[k.Value]:
			d.fail(k.Line, "%q given twice in %s", k.Value, what)
		default:
			seen[k.Value] = true
			fn(v)
		}
	}
}

func (d *decoder) scalar(v *yaml.Node, what string) (string, bool) {
	if v.Kind != yaml.ScalarNode || v.Value == "" {
		d.fail(v.Line, "%s must be a single, non-empty value", what)
		return "", false
	}
	return v.Value, true
}

func (d *decoder) duration(v *yaml.Node, what string, dst *time.Duration) {
	s, ok := d.scalar(v, what)
	if !ok {
		return
	}
	t, err := time.ParseDuration(s)
	if err != nil || journal.CheckExpiry(t) != nil {
		d.fail(v.Line, "%s must be a duration such as 30m or 12h, more than 0 and at most %s, not %q", what, journal.MaxApprovalExpiry, s)
		return
	}
	*dst = t
}

func (d *decoder) ntfy(n *yaml.Node, c *Ntfy) {
	d.fields(n, "notify.ntfy", map[string]func(*yaml.Node){
		"server": func(v *yaml.Node) {
			if s, ok := d.scalar(v, "server"); ok {
				if err := checkURL(s, false); err != nil {
					d.fail(v.Line, "server: %v", err)
					return
				}
				c.Server = strings.TrimRight(s, "/")
			}
		},
		"topic": func(v *yaml.Node) { c.Topic = d.topic(v, "topic") },
		"reply_topic": func(v *yaml.Node) {
			c.ReplyTopic = d.topic(v, "reply_topic")
		},
		"token": func(v *yaml.Node) { c.Token, _ = d.scalar(v, "token") },
		"token_file": func(v *yaml.Node) {
			if s, ok := d.scalar(v, "token_file"); ok {
				if !filepath.IsAbs(s) {
					d.fail(v.Line, "token_file must be an absolute path, not %q", s)
					return
				}
				c.TokenFile = filepath.Clean(s)
			}
		},
		"expire_after": func(v *yaml.Node) { d.duration(v, "expire_after", &c.ExpireAfter) },
		"approve_for":  func(v *yaml.Node) { d.duration(v, "approve_for", &c.ApproveFor) },
	})
	switch {
	case c.Server == "":
		d.fail(n.Line, "notify.ntfy needs a server (its base URL, such as https://ntfy.example.org)")
	case c.Token != "" && c.TokenFile != "":
		d.fail(n.Line, "notify.ntfy takes token or token_file, not both")
	case c.Topic != "" && c.Topic == c.ReplyTopic:
		d.fail(n.Line, "notify.ntfy: reply_topic must differ from topic (the replies would be shown as notifications, and the notifications read as replies)")
	}
}

// topic checks an ntfy topic name: ntfy allows letters, digits, - and _,
// at most 64.
func (d *decoder) topic(v *yaml.Node, what string) string {
	s, ok := d.scalar(v, what)
	if !ok {
		return ""
	}
	if !ValidTopic(s) {
		d.fail(v.Line, "%s %q: an ntfy topic is 1 to 64 letters, digits, - or _", what, s)
		return ""
	}
	return s
}

// ValidTopic reports whether s is a valid ntfy topic name.
func ValidTopic(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

func (d *decoder) webhook(n *yaml.Node, c *Webhook) {
	d.fields(n, "notify.webhook", map[string]func(*yaml.Node){
		"url": func(v *yaml.Node) {
			if s, ok := d.scalar(v, "url"); ok {
				if err := checkURL(s, true); err != nil {
					d.fail(v.Line, "url: %v", err)
					return
				}
				c.URL = s
			}
		},
		"headers": func(v *yaml.Node) {
			if v.Kind != yaml.MappingNode {
				d.fail(v.Line, "headers must be a mapping of header names to values")
				return
			}
			c.Headers = map[string]string{}
			for i := 0; i+1 < len(v.Content); i += 2 {
				k, val := v.Content[i], v.Content[i+1]
				if !validHeaderName(k.Value) {
					d.fail(k.Line, "header name %q is not a valid HTTP header name", k.Value)
					continue
				}
				s, ok := d.scalar(val, "header "+k.Value)
				if !ok {
					continue
				}
				if strings.ContainsAny(s, "\r\n\x00") {
					d.fail(val.Line, "header %s must be on one line", k.Value)
					continue
				}
				c.Headers[k.Value] = s
			}
		},
	})
	if c.URL == "" {
		d.fail(n.Line, "notify.webhook needs a url")
	}
}

func validHeaderName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0) {
			return false
		}
	}
	return true
}

// checkURL accepts https URLs, and http ones only to a loopback host: a
// notification carries the held command and, for ntfy, the buttons that
// decide it, which must not cross a network in clear text.
func checkURL(s string, pathOK bool) error {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return fmt.Errorf("%q is not an absolute URL", s)
	}
	if u.User != nil {
		return fmt.Errorf("%q carries credentials in the URL; use a token or a header", s)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("%q must not carry a query or a fragment", s)
	}
	if !pathOK && strings.Trim(u.Path, "/") != "" {
		// ntfy's API is at the server's root: /<topic>, /<topic>/json.
		return fmt.Errorf("%q must be the ntfy server's base URL, without a path (the topic goes in topic:)", s)
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		if loopback(u.Hostname()) {
			return nil
		}
		return fmt.Errorf("%q is plain http to another machine; use https (http is accepted on loopback only)", s)
	}
	return fmt.Errorf("%q: the scheme must be https (or http on loopback)", s)
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(strings.Trim(host, "[]"))
	return err == nil && ip.IsLoopback()
}
