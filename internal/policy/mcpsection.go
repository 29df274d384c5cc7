package policy

import "strings"

// This file holds where the "mcp:" section may come from and with what
// authority (sections.go). Its schema (tool classes, contacts, rates,
// quarantine) is the MCP firewall's: internal/mcp/mcpconfig decodes,
// merges and validates it, and policy does not import it.

// MCPSchema is the schema of the "mcp:" section (mcpconfig.Schema makes
// one).
type MCPSchema = SectionSchema

// MCPLayer is one layer's "mcp:" section as written.
type MCPLayer = SectionLayer

// MCPSections are the "mcp:" sections of the layers in effect. Read them
// with mcpconfig.Of, which returns the compiled configuration: the nodes
// are the MCP firewall's to decode, and nothing else reads them.
type MCPSections = Sections

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
