package vocab

import "fmt"

// Decision is what airlock answers for one action, from least to most strict.
type Decision int8

// The decisions, in increasing strictness.
const (
	// Allow lets the action run.
	Allow Decision = iota
	// Warn lets the action run and shows a message.
	Warn
	// Ask has a human confirm the action now, in the agent's own interface.
	Ask
	// Defer refuses the action now and holds it for human review.
	Defer
	// Deny refuses the action and does not hold it.
	Deny
)

var decisionNames = [...]string{"allow", "warn", "ask", "defer", "deny"}

func (d Decision) String() string {
	if int(d) < len(decisionNames) {
		return decisionNames[d]
	}
	return fmt.Sprintf("decision(%d)", int8(d))
}

// ParseDecision reads a decision name.
func ParseDecision(s string) (Decision, error) {
	for i, n := range decisionNames {
		if n == s {
			return Decision(i), nil
		}
	}
	return 0, fmt.Errorf("unknown decision %q (want allow, warn, ask, defer or deny)", s)
}

// MarshalText renders the decision name.
func (d Decision) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads a decision name.
func (d *Decision) UnmarshalText(b []byte) error {
	v, err := ParseDecision(string(b))
	if err == nil {
		*d = v
	}
	return err
}

// Holds reports whether the decision stops the action from running now.
func (d Decision) Holds() bool { return d >= Ask }

// Mode is how closely a human watches the agent.
type Mode int8

// The modes, from most to least watched.
const (
	// Interactive: a human watches every call and can answer a prompt.
	Interactive Mode = iota
	// Supervised: a human checks in now and then.
	Supervised
	// Unattended: nobody watches, as in an overnight loop.
	Unattended
	// NumModes is how many modes there are, for tables indexed by mode.
	NumModes
)

var modeNames = [...]string{"interactive", "supervised", "unattended"}

func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("mode(%d)", int8(m))
}

// ParseMode reads a mode name.
func ParseMode(s string) (Mode, error) {
	for i, n := range modeNames {
		if n == s {
			return Mode(i), nil
		}
	}
	return 0, fmt.Errorf("unknown mode %q (want interactive, supervised or unattended)", s)
}

// MarshalText renders the mode name.
func (m Mode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads a mode name.
func (m *Mode) UnmarshalText(b []byte) error {
	v, err := ParseMode(string(b))
	if err == nil {
		*m = v
	}
	return err
}
