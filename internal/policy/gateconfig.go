package policy

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/airlock-dev/airlock/internal/gate/pathglob"

	"github.com/airlock-dev/airlock/internal/strictyaml"
)

// GateConfig is the policy's "gate:" section: the settings of the
// fact-forcing gate (internal/gate, docs/GATE.md). The zero value is the
// default: the gate is off.
//
// The GATEGUARD_* and ECC_GATEGUARD environment variables are read by the
// gate itself, on top of these settings.
type GateConfig struct {
	// Enabled turns the gate on (gate.enabled).
	Enabled bool
	// RoutineBashOff turns off only the once-per-session routine Bash gate
	// (gate.routine_bash: false).
	RoutineBashOff bool
	// FullDenials is how many denials of a session carry the full list of
	// facts before later ones are condensed to one line
	// (gate.full_denials); nil means defaultGateFullDenials.
	FullDenials *int
	// EvidenceWindow is how recent a read or search must be to count as
	// evidence (gate.evidence_window); 0 means defaultGateEvidenceWindow.
	EvidenceWindow time.Duration
	// ExtraDestructive lists regular expressions (RE2 syntax, matched
	// without regard to case) that mark more Bash commands as destructive
	// for the gate (gate.extra_destructive). Every layer's patterns apply.
	ExtraDestructive []string
	// ExemptGlobs lists globs of files whose first edit or creation is not
	// gated (gate.exempt_globs), in the dialect of package pathglob.
	ExemptGlobs []string
	// StateDir is where per-session gate state lives (gate.state_dir); ""
	// means the gate's default under airlock's state directory.
	StateDir string
}

// The gate's defaults.
const (
	// defaultGateFullDenials is how many denials per session are given in
	// full before they are condensed.
	defaultGateFullDenials = 3
	// defaultGateEvidenceWindow is how recent a read or search must be.
	defaultGateEvidenceWindow = 30 * time.Minute
)

// Denials returns FullDenials, or its default.
func (c *GateConfig) Denials() int {
	if c.FullDenials == nil {
		return defaultGateFullDenials
	}
	return *c.FullDenials
}

// Window returns EvidenceWindow, or its default.
func (c *GateConfig) Window() time.Duration {
	if c.EvidenceWindow <= 0 {
		return defaultGateEvidenceWindow
	}
	return c.EvidenceWindow
}

// gateDoc is the "gate:" section as written in one file.
type gateDoc struct {
	enabled          *bool
	routineBash      *bool
	fullDenials      *int
	evidenceWindow   time.Duration
	extraDestructive []string
	exemptGlobs      []string
	stateDir         string
}

// decode reads the "gate:" mapping strictly, checking every pattern so a
// typo is an error with its line rather than a gate that silently grants
// or misses something.
func (g *gateDoc) decode(n *yaml.Node) error {
	flag := func(dst **bool, what string) func(*yaml.Node) error {
		return func(v *yaml.Node) (err error) {
			*dst, err = strictyaml.Bool(v, what)
			return err
		}
	}
	return strictyaml.Fields(n, "gate", map[string]func(*yaml.Node) error{
		"enabled":      flag(&g.enabled, "gate.enabled"),
		"routine_bash": flag(&g.routineBash, "gate.routine_bash"),
		"full_denials": func(v *yaml.Node) error {
			s, err := strictyaml.Scalar(v, "gate.full_denials")
			if err != nil {
				return err
			}
			n, err := strconv.Atoi(s)
			if err != nil || n < 0 {
				return strictyaml.At(v.Line, ErrBadValue, "gate.full_denials must be a whole number, 0 or more, not %q", s)
			}
			g.fullDenials = &n
			return nil
		},
		"evidence_window": func(v *yaml.Node) error {
			s, err := strictyaml.Scalar(v, "gate.evidence_window")
			if err != nil {
				return err
			}
			d, err := time.ParseDuration(s)
			if err != nil || d <= 0 {
				return strictyaml.At(v.Line, ErrBadValue, "gate.evidence_window must be a positive duration such as 30m or 1h, not %q", s)
			}
			g.evidenceWindow = d
			return nil
		},
		"extra_destructive": func(v *yaml.Node) error {
			list, err := strictyaml.StringList(v, "gate.extra_destructive")
			if err != nil {
				return err
			}
			for _, re := range list {
				if _, err := CompileGateRegexp(re); err != nil {
					return strictyaml.At(v.Line, ErrBadValue, "gate.extra_destructive: %v", err)
				}
			}
			g.extraDestructive = list
			return nil
		},
		"exempt_globs": func(v *yaml.Node) error {
			list, err := strictyaml.StringList(v, "gate.exempt_globs")
			if err != nil {
				return err
			}
			for _, glob := range list {
				if _, err := pathglob.Compile(glob); err != nil {
					return strictyaml.At(v.Line, ErrBadValue, "gate.exempt_globs: %v", err)
				}
			}
			g.exemptGlobs = list
			return nil
		},
		"state_dir": func(v *yaml.Node) error {
			s, err := strictyaml.Scalar(v, "gate.state_dir")
			if err != nil {
				return err
			}
			if s == "" {
				return strictyaml.At(v.Line, ErrBadValue, "gate.state_dir must not be empty")
			}
			g.stateDir = s
			return nil
		},
	})
}

// CompileGateRegexp compiles an extra destructive pattern the way the gate
// uses it: RE2 syntax, case-insensitive.
func CompileGateRegexp(src string) (*regexp.Regexp, error) {
	re, err := regexp.Compile("(?i)" + src)
	if err != nil {
		return nil, fmt.Errorf("pattern %q: %w", src, err)
	}
	return re, nil
}

// mergeGate folds one file's gate section into the policy. With authority
// (built-in, user, AIRLOCK_POLICY, a trusted project file) each key sets
// its value. Without it (an untrusted or changed project file) the section
// may only tighten: it can turn the gate or the routine Bash gate on,
// shorten the evidence window and add destructive patterns, but it cannot
// turn anything off, exempt files, move the state or change how denials
// read.
func (p *Policy) mergeGate(g *gateDoc, authority bool) {
	if g == nil {
		return
	}
	c := &p.Gate
	if g.enabled != nil && (authority || *g.enabled) {
		c.Enabled = *g.enabled
	}
	if g.routineBash != nil && (authority || *g.routineBash) {
		c.RoutineBashOff = !*g.routineBash
	}
	if g.evidenceWindow > 0 && (authority || g.evidenceWindow < c.Window()) {
		c.EvidenceWindow = g.evidenceWindow
	}
	c.ExtraDestructive = append(c.ExtraDestructive, g.extraDestructive...)
	if !authority {
		return
	}
	if g.fullDenials != nil {
		n := *g.fullDenials
		c.FullDenials = &n
	}
	c.ExemptGlobs = append(c.ExemptGlobs, g.exemptGlobs...)
	if g.stateDir != "" {
		c.StateDir = expandHome(g.stateDir, p.home)
	}
}

// EnableGate returns a policy file's content with the gate turned on
// (gate.enabled: true), and whether that changed anything. A file without
// a gate section gets one appended, leaving every other byte as it was; a
// section that exists has its enabled key set. The result is checked
// with the same strict decoding as any policy file.
func EnableGate(name string, data []byte) ([]byte, bool, error) {
	doc, err := parseFile(name, data)
	if err != nil {
		return nil, false, err
	}
	if doc.gate != nil && doc.gate.enabled != nil && *doc.gate.enabled {
		return data, false, nil
	}
	var out []byte
	if doc.gate == nil {
		out = append(out, data...)
		if len(out) > 0 && out[len(out)-1] != '\n' {
			out = append(out, '\n')
		}
		out = append(out, gateBlock...)
	} else {
		var root yaml.Node
		if err := yaml.Unmarshal(data, &root); err != nil {
			return nil, false, &FileError{File: name, Err: err}
		}
		top := root.Content[0]
		for i := 0; i+1 < len(top.Content); i += 2 {
			if top.Content[i].Value != "gate" {
				continue
			}
			g := top.Content[i+1]
			set := false
			for j := 0; j+1 < len(g.Content); j += 2 {
				if g.Content[j].Value == "enabled" {
					g.Content[j+1].Value, g.Content[j+1].Tag = "true", "!!bool"
					g.Content[j+1].LineComment = gateMark
					set = true
				}
			}
			if !set {
				g.Content = append(g.Content,
					&yaml.Node{Kind: yaml.ScalarNode, Value: "enabled"},
					&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true", LineComment: gateMark})
			}
		}
		var b bytes.Buffer
		enc := yaml.NewEncoder(&b)
		enc.SetIndent(2)
		if err := enc.Encode(&root); err != nil {
			return nil, false, &FileError{File: name, Err: err}
		}
		out = b.Bytes()
	}
	check, err := parseFile(name, out)
	if err != nil {
		return nil, false, err
	}
	if check.gate == nil || check.gate.enabled == nil || !*check.gate.enabled {
		return nil, false, &FileError{File: name, Err: fmt.Errorf("%w: could not turn the gate on in this file; set gate.enabled: true by hand", ErrBadValue)}
	}
	return out, true, nil
}
