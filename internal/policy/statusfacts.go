package policy

// ProjectLoosens reports whether a project policy file loosens the
// user's policy: a project file the user trusted by hash (only a trusted
// one may loosen) that adds an allow or warn rule, or sets the mode. The
// status line marks such a session, so the human sees that this
// project's calls pass under the project's terms, not only the user's.
// A change a trusted project makes to a mode's table is not counted.
func (p *Policy) ProjectLoosens() bool {
	trusted := false
	for _, l := range p.Layers {
		if l.Origin == Project && l.Status == Applied {
			trusted = true
		}
	}
	if !trusted {
		return false
	}
	if p.ModeOrigin == Project {
		return true
	}
	for _, r := range p.Rules {
		if r.Origin == Project && (r.Decision == Allow || r.Decision == Warn) {
			return true
		}
	}
	return false
}
