package policy

import (
	"bytes"
	"strings"

	"go.yaml.in/yaml/v3"
)

// What "airlock install --gate" writes, so that uninstall can take out
// exactly that and nothing a human wrote. A file without a gate section
// gets gateBlock appended; a section that exists gets its enabled key set
// with gateMark as its line comment.
const (
	gateBlock = "# The fact-forcing gate (docs/GATE.md), turned on by airlock install --gate.\ngate:\n  enabled: true\n"
	gateMark  = "# turned on by airlock install --gate"
)

// GateInstall says how a policy file turns the fact-forcing gate on.
type GateInstall int8

// How a policy file turns the gate on.
const (
	// GateNotSet: the file does not set gate.enabled: true.
	GateNotSet GateInstall = iota
	// GateByInstall: "airlock install --gate" set it, and uninstall may
	// take it out.
	GateByInstall
	// GateByHand: someone wrote it; uninstall leaves it.
	GateByHand
)

// DisableGate returns a policy file's content without what "airlock
// install --gate" added (the appended section, or the enabled key it
// set), whether that changed anything, and how the file turned the gate
// on before. A gate a human turned on is left alone (GateByHand). The
// result is checked with the same strict decoding as any policy file.
func DisableGate(name string, data []byte) ([]byte, bool, GateInstall, error) {
	doc, err := parseFile(name, data)
	if err != nil {
		return nil, false, GateNotSet, err
	}
	if doc.gate == nil || doc.gate.enabled == nil || !*doc.gate.enabled {
		return data, false, GateNotSet, nil
	}
	var out []byte
	if i := bytes.Index(data, []byte(gateBlock)); i >= 0 {
		out = append(append([]byte{}, data[:i]...), data[i+len(gateBlock):]...)
	} else {
		var root yaml.Node
		if err := yaml.Unmarshal(data, &root); err != nil {
			return nil, false, GateNotSet, &FileError{File: name, Err: err}
		}
		removed := false
		top := root.Content[0]
		for i := 0; i+1 < len(top.Content); i += 2 {
			if top.Content[i].Value != "gate" {
				continue
			}
			g := top.Content[i+1]
			for j := 0; j+1 < len(g.Content); j += 2 {
				if g.Content[j].Value == "enabled" && strings.TrimSpace(g.Content[j+1].LineComment) == gateMark {
					g.Content = append(g.Content[:j], g.Content[j+2:]...)
					removed = true
					break
				}
			}
		}
		if !removed {
			return data, false, GateByHand, nil
		}
		var b bytes.Buffer
		enc := yaml.NewEncoder(&b)
		enc.SetIndent(2)
		if err := enc.Encode(&root); err != nil {
			return nil, false, GateNotSet, &FileError{File: name, Err: err}
		}
		out = b.Bytes()
	}
	if _, err := parseFile(name, out); err != nil {
		return nil, false, GateNotSet, err
	}
	return out, true, GateByInstall, nil
}
