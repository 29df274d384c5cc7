// Package egressconfig owns the "egress:" section of airlock's policy
// file: which hosts the egress proxy passes through without looking
// (the agent's own model API), which hosts reads may go to, which hosts
// only receive (so even a read of them is held), which hosts are never
// reached, and whether HTTPS is inspected. It decodes the section
// strictly (an unknown key names file:line) and merges the layers: an
// untrusted project file may only tighten what the user's file set.
//
// It is a package of its own, apart from the proxy, so that the command
// line (and the hook, which loads the same policy) can check a policy
// file's section without linking a TLS stack or even the net package.
package egressconfig

import (
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/strictyaml"
)

// Config is the "egress:" section in effect.
type Config struct {
	// Passthrough are hosts tunnelled without inspection nor decision:
	// trusted (the agent's own model API).
	Passthrough []string
	// ReadHosts, when set (ReadHostsSet), are the only hosts a read may
	// go to without being held; unset, any host may be read.
	ReadHosts    []string
	ReadHostsSet bool
	// WriteOnly are hosts that only receive data: a read of them is
	// held like a write.
	WriteOnly []string
	// Never are hosts every request to is refused, not queued.
	Never []string
	// NoInspect turns HTTPS inspection off: a tunnel to a host that is
	// not passthrough is then held as a whole (inspect: false).
	NoInspect bool
	// AllowLoopback lets requests reach this machine's own loopback
	// (allow_loopback: true): the dashboard and every local service
	// listen there, so it is off by default, and only the user's file
	// can turn it on.
	AllowLoopback bool
	// Ignored lists what an untrusted project file asked for that would
	// loosen the section, for airlock policy check to show.
	Ignored []string
}

// Schema makes the schema Load hands each layer's section to
// (policy.Options.Egress).
func Schema() policy.EgressSchema { return &Config{} }

// Of is the "egress:" configuration of a policy: what Schema compiled
// when the policy was loaded with it, or else the layers' sections
// compiled now, with every mistake named by file:line.
func Of(p *policy.Policy) (*Config, error) {
	if c, ok := p.Egress.Schema.(*Config); ok {
		return c, nil
	}
	c := &Config{}
	if err := p.Egress.Compile(c); err != nil {
		return nil, err
	}
	return c, nil
}

// doc is one layer's section as written.
type doc struct {
	passthrough, readHosts, writeOnly, never []string
	readSet                                  bool
	inspect, loopback                        *bool
}

// Decode reads one layer's "egress:" section strictly and returns the
// function that merges it into c with the layer's authority.
func (c *Config) Decode(n *yaml.Node) (func(file string, authority bool) error, error) {
	d := &doc{}
	hosts := func(dst *[]string, what string) func(*yaml.Node) error {
		return func(v *yaml.Node) error {
			list, err := strictyaml.StringList(v, what)
			if err != nil {
				return err
			}
			for i, h := range list {
				line := v.Line
				if v.Kind == yaml.SequenceNode {
					line = v.Content[i].Line
				}
				norm, err := Host(h)
				if err != nil {
					return strictyaml.BadValue(line, fmt.Errorf("%s: %w", what, err))
				}
				*dst = append(*dst, norm)
			}
			return nil
		}
	}
	err := strictyaml.Fields(n, "egress", map[string]func(*yaml.Node) error{
		"passthrough": hosts(&d.passthrough, "passthrough"),
		"read_hosts": func(v *yaml.Node) error {
			d.readSet = true
			return hosts(&d.readHosts, "read_hosts")(v)
		},
		"write_only_hosts": hosts(&d.writeOnly, "write_only_hosts"),
		"never":            hosts(&d.never, "never"),
		"inspect": func(v *yaml.Node) (err error) {
			d.inspect, err = strictyaml.Bool(v, "inspect")
			return err
		},
		"allow_loopback": func(v *yaml.Node) (err error) {
			d.loopback, err = strictyaml.Bool(v, "allow_loopback")
			return err
		},
	})
	if err != nil {
		return nil, err
	}
	return func(file string, authority bool) error { c.merge(d, file, authority); return nil }, nil
}

// merge adds a layer. With authority the lists add up, read_hosts and
// inspect are set. Without it (an untrusted project file) only what
// tightens counts: more write-only and never hosts, a narrower
// read_hosts, inspection turned on; passthrough hosts, a wider
// read_hosts and inspection turned off are ignored and listed.
func (c *Config) merge(d *doc, file string, authority bool) {
	ignore := func(format string, args ...any) {
		c.Ignored = append(c.Ignored, file+": "+fmt.Sprintf(format, args...))
	}
	c.WriteOnly = appendNew(c.WriteOnly, d.writeOnly...)
	c.Never = appendNew(c.Never, d.never...)
	if authority {
		c.Passthrough = appendNew(c.Passthrough, d.passthrough...)
		if d.readSet {
			c.ReadHosts, c.ReadHostsSet = appendNew(nil, d.readHosts...), true
		}
		if d.inspect != nil {
			c.NoInspect = !*d.inspect
		}
		if d.loopback != nil {
			c.AllowLoopback = *d.loopback
		}
		return
	}
	if d.loopback != nil && *d.loopback {
		ignore("egress allow_loopback (an untrusted project file cannot open this machine's loopback; run airlock trust after review)")
	}
	if len(d.passthrough) > 0 {
		ignore("egress passthrough %s (an untrusted project file cannot exempt hosts from inspection; run airlock trust after review)", strings.Join(d.passthrough, ", "))
	}
	if d.readSet {
		if !c.ReadHostsSet {
			c.ReadHosts, c.ReadHostsSet = appendNew(nil, d.readHosts...), true
		} else {
			var keep []string
			for _, h := range c.ReadHosts {
				if containsHost(d.readHosts, h) {
					keep = append(keep, h)
				}
			}
			c.ReadHosts = keep
		}
	}
	if d.inspect != nil {
		if *d.inspect {
			c.NoInspect = false
		} else if !c.NoInspect {
			ignore("egress inspect: false (an untrusted project file cannot turn inspection off)")
		}
	}
}

// Host checks and normalises one host pattern: a host name or IP
// address, or "*.domain" for every name under domain; lower case, no
// scheme, port or path.
func Host(h string) (string, error) {
	h = strings.ToLower(strings.TrimSpace(h))
	switch {
	case h == "":
		return "", errors.New("an empty host")
	case strings.Contains(h, "://") || strings.ContainsAny(h, "/?#@ "):
		return "", fmt.Errorf("%q is not a host name: write the host alone (api.example.com), without scheme, path or user", h)
	}
	if strings.HasPrefix(h, "[") || strings.Count(h, ":") >= 2 {
		// An IPv6 address, as the proxy writes it (net.IP's short form).
		h = strings.Trim(h, "[]")
		for _, r := range h {
			if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r == ':' || r == '.') {
				return "", fmt.Errorf("%q is not an IPv6 address", h)
			}
		}
		return h, nil
	}
	if strings.Contains(h, ":") {
		return "", fmt.Errorf("%q has a port: write the host alone; every port of it is meant", h)
	}
	name := strings.TrimPrefix(h, "*.")
	if strings.Contains(name, "*") {
		return "", fmt.Errorf("%q: only a leading \"*.\" is allowed (every name under a domain)", h)
	}
	for _, label := range strings.Split(name, ".") {
		if label == "" || len(label) > 63 {
			return "", fmt.Errorf("%q is not a host name", h)
		}
		for _, r := range label {
			if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
				return "", fmt.Errorf("%q is not a host name (character %q)", h, r)
			}
		}
	}
	return h, nil
}

// Match reports whether host (a name or an address, any case, no port;
// an IPv6 address in its short form) is one pattern names.
func Match(patterns []string, host string) bool {
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	for _, p := range patterns {
		if p == host {
			return true
		}
		if d, ok := strings.CutPrefix(p, "*."); ok && strings.HasSuffix(host, "."+d) {
			return true
		}
	}
	return false
}

// IsPassthrough reports whether requests to host are tunnelled without
// inspection nor decision. A never host is never passed through.
func (c *Config) IsPassthrough(host string) bool {
	return c != nil && Match(c.Passthrough, host) && !Match(c.Never, host)
}

// Inspect reports whether HTTPS is inspected.
func (c *Config) Inspect() bool { return c == nil || !c.NoInspect }

// Listed is what the section says of host, as policy.NetRequest.Listed
// carries it to the decision: never, write-only, unlisted (read_hosts
// does not name it) or "".
func (c *Config) Listed(host string) string {
	switch {
	case c == nil:
		return ""
	case Match(c.Never, host):
		return policy.ListedNever
	case Match(c.WriteOnly, host):
		return policy.ListedWriteOnly
	case c.ReadHostsSet && !Match(c.ReadHosts, host):
		return policy.ListedUnlisted
	}
	return ""
}

func appendNew(list []string, hs ...string) []string {
	for _, h := range hs {
		if !containsHost(list, h) {
			list = append(list, h)
		}
	}
	return list
}

func containsHost(list []string, h string) bool {
	for _, x := range list {
		if x == h {
			return true
		}
	}
	return false
}
