package policy

// This file holds where the "egress:" section may come from and with
// what authority (sections.go), as mcpsection.go does for "mcp:". Its
// schema (hosts passed through, read, write-only or never reached,
// whether HTTPS is inspected, loopback) is the egress proxy's:
// internal/contain/egress/egressconfig decodes, merges and validates it,
// and policy does not import it. Policy decides Net actions (net.go) on
// what the proxy looked up there (NetRequest.Listed).

// EgressSchema is the schema of the "egress:" section
// (egressconfig.Schema makes one).
type EgressSchema = SectionSchema

// EgressLayer is one layer's "egress:" section as written.
type EgressLayer = SectionLayer

// EgressSections are the "egress:" sections of the layers in effect.
// Read them with egressconfig.Of.
type EgressSections = Sections
