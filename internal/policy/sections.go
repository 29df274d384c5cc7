package policy

import (
	"errors"

	"github.com/airlock-dev/airlock/internal/strictyaml"
	"go.yaml.in/yaml/v3"
)

// A section whose schema another package owns ("mcp:" is the MCP
// firewall's, "egress:" the egress proxy's) comes from every layer with
// that layer's authority. Policy only hands each layer's section over, so
// that the rule "an untrusted project file may only tighten" is stated
// once for every such section; the owner decodes, merges and validates.

// SectionSchema is the schema of such a section. Load hands it each
// layer's section in layer order, and reports its mistakes with the
// file's other mistakes.
type SectionSchema interface {
	// Decode reads one layer's section strictly; its mistakes carry their
	// lines (internal/strictyaml). It returns the function that merges
	// what it read into what the layers before gave: with authority (the
	// user's file, AIRLOCK_POLICY, a trusted project file) the section
	// sets what it names; without (an untrusted project file) it may
	// only tighten. The merge's errors name the file (FileError).
	Decode(n *yaml.Node) (merge func(file string, authority bool) error, err error)
}

// SectionLayer is one layer's section as written.
type SectionLayer struct {
	Section
	// Authority is false for an untrusted (or changed) project file,
	// which may only tighten.
	Authority bool
}

// Sections are one such section of every layer in effect. The owner reads
// them compiled: Schema when the policy was loaded with one, else Compile.
type Sections struct {
	// Schema holds the sections compiled by the schema the load was given;
	// nil when the policy was loaded without one.
	Schema SectionSchema
	// Layers are the sections as written, in layer order.
	Layers []SectionLayer
}

// keep remembers a file's section, and merges what the schema decoded
// from it (merge is nil when Load has no schema).
func (s *Sections) keep(n *yaml.Node, merge func(string, bool) error, file string, authority bool) error {
	if n == nil {
		return nil
	}
	s.Layers = append(s.Layers, SectionLayer{Section: Section{File: file, Node: n}, Authority: authority})
	if merge == nil {
		return nil
	}
	return merge(file, authority)
}

// Compile decodes and merges every layer's section into into, in layer
// order. The error names every mistake of every layer, with file:line.
func (s *Sections) Compile(into SectionSchema) error {
	var errs []error
	for _, l := range s.Layers {
		merge, err := into.Decode(l.Node)
		if err == nil {
			err = merge(l.File, l.Authority)
		}
		if err != nil {
			errs = append(errs, strictyaml.InFile(l.File, err))
		}
	}
	return errors.Join(errs...)
}
