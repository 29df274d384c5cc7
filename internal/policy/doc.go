// Package policy turns what an action does into what airlock decides:
// allow, warn, ask, defer or deny.
//
// A Policy is compiled once from layers: the built-in defaults (the mode
// table in table.go and the rules in builtin.go), the user's file, and the
// project's file. Policy.Decide then answers for one Action. Every matching
// rule and the table contribute and the strictest decision wins, with two
// exceptions that keep the user in charge: an allow rule from the user's
// own file relaxes the built-in defaults it matches, and a project file
// tightens only, unless the user trusted it by hash.
//
// Two sections of a policy file have their schema in the package they
// configure: "mcp:" (internal/mcp/mcpconfig, handed each layer's section
// through Options.MCP; mcpsection.go) and "notify:" (internal/notify,
// from the user's file only; notifyconfig.go). Policy decides which layer
// may carry them and with what authority; every section decodes with
// internal/strictyaml, so a mistake anywhere names its file:line.
//
// Self-protection (selfprotect.go) sits outside the layers: no file can
// relax it, because an agent must not be able to loosen its own firewall.
package policy
