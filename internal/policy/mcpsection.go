package policy

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// This file holds where the "mcp:" section may come from and with what
// authority. Its schema (tool classes, contacts, rates, quarantine) is
// the MCP firewall's: internal/mcp/mcpconfig decodes, merges and
// validates it, and policy does not import it. Policy only hands each
// layer's section over, with the layer's authority, so that the rule
// "an untrusted project file may only tighten" is stated once for every
// section.

// MCPSchema is the schema of the "mcp:" section (mcpconfig.Schema makes
// one). Load hands it each layer's section in layer order, and reports
// its mistakes with the file's other mistakes.
type MCPSchema interface {
	// Decode reads one layer's section strictly; its mistakes carry their
	// lines (internal/strictyaml). It returns the function that merges
	// what it read into what the layers before gave: with authority (the
	// user's file, AIRLOCK_POLICY, a trusted project file) the section
	// sets what it names; without (an untrusted project file) it may
	// only tighten. The merge's errors name the file (FileError).
	Decode(n *yaml.Node) (merge func(file string, authority bool) error, err error)
}

// MCPLayer is one layer's "mcp:" section as written.
type MCPLayer struct {
	Section
	// Authority is false for an untrusted (or changed) project file,
	// which may only tighten.
	Authority bool
}

// MCPSections are the "mcp:" sections of the layers in effect. Read them
// with mcpconfig.Of, which returns the compiled configuration: the nodes
// are the MCP firewall's to decode, and nothing else reads them.
type MCPSections struct {
	// Schema holds the sections compiled by the schema Options.MCP made;
	// nil when the policy was loaded without one (a caller that does not
	// decide MCP calls), and then mcpconfig.Of compiles Layers itself.
	Schema MCPSchema
	// Layers are the sections as written, in layer order.
	Layers []MCPLayer
}

// keepMCP remembers a file's "mcp:" section, and merges what the schema
// decoded from it (merge is nil when Load has no schema).
func (p *Policy) keepMCP(n *yaml.Node, merge func(string, bool) error, file string, authority bool) error {
	if n == nil {
		return nil
	}
	p.MCP.Layers = append(p.MCP.Layers, MCPLayer{Section: Section{File: file, Node: n}, Authority: authority})
	if merge == nil {
		return nil
	}
	return merge(file, authority)
}

// SplitToolName splits an agent's MCP tool name, "mcp__server__tool", into
// the server and the tool. ok is false for other names.
func SplitToolName(name string) (server, tool string, ok bool) {
	rest, found := strings.CutPrefix(name, "mcp__")
	if !found {
		return "", "", false
	}
	server, tool, ok = strings.Cut(rest, "__")
	if !ok || server == "" || tool == "" {
		return "", "", false
	}
	return server, tool, true
}

// ToolName is the agent's name for an MCP tool: "mcp__server__tool".
func ToolName(server, tool string) string { return "mcp__" + server + "__" + tool }
