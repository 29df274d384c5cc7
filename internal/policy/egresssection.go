package policy

import "gopkg.in/yaml.v3"

// This file holds where the "egress:" section may come from and with
// what authority, as mcpsection.go does for "mcp:". Its schema (hosts
// passed through, read, write-only or never reached, and whether HTTPS
// is inspected) is the egress proxy's: internal/contain/egress/egressconfig
// decodes, merges and validates it, and policy does not import it.
// Policy decides Net actions (net.go) on what the proxy looked up there
// (NetRequest.Listed).

// EgressSchema is the schema of the "egress:" section
// (egressconfig.Schema makes one). Load hands it each layer's section in
// layer order, and reports its mistakes with the file's other mistakes.
type EgressSchema interface {
	// Decode reads one layer's section strictly; its mistakes carry their
	// lines (internal/strictyaml). It returns the function that merges
	// what it read into what the layers before gave: with authority the
	// section sets what it names; without (an untrusted project file) it
	// may only tighten. The merge's errors name the file.
	Decode(n *yaml.Node) (merge func(file string, authority bool) error, err error)
}

// EgressLayer is one layer's "egress:" section as written.
type EgressLayer struct {
	Section
	// Authority is false for an untrusted (or changed) project file,
	// which may only tighten.
	Authority bool
}

// EgressSections are the "egress:" sections of the layers in effect.
// Read them with egressconfig.Of.
type EgressSections struct {
	// Schema holds the sections compiled by the schema Options.Egress
	// made; nil when the policy was loaded without one, and then
	// egressconfig.Of compiles Layers itself.
	Schema EgressSchema
	// Layers are the sections as written, in layer order.
	Layers []EgressLayer
}

// keepEgress remembers a file's "egress:" section, and merges what the
// schema decoded from it (merge is nil when Load has no schema).
func (p *Policy) keepEgress(n *yaml.Node, merge func(string, bool) error, file string, authority bool) error {
	if n == nil {
		return nil
	}
	p.Egress.Layers = append(p.Egress.Layers, EgressLayer{Section: Section{File: file, Node: n}, Authority: authority})
	if merge == nil {
		return nil
	}
	return merge(file, authority)
}
