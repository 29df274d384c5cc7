package policy

import "github.com/airlock-dev/airlock/internal/vocab"

// Decision is what airlock answers for one action, from least to most
// strict. It lives in the vocabulary (internal/vocab); this alias keeps
// the policy's name for it.
type Decision = vocab.Decision

// The decisions, in increasing strictness (see vocab).
const (
	Allow = vocab.Allow
	Warn  = vocab.Warn
	Ask   = vocab.Ask
	Defer = vocab.Defer
	Deny  = vocab.Deny
)

// parseDecision reads a decision name.
func parseDecision(s string) (Decision, error) { return vocab.ParseDecision(s) }

// Mode is how closely a human watches the agent (see vocab).
type Mode = vocab.Mode

// The modes, from most to least watched (see vocab).
const (
	Interactive = vocab.Interactive
	Supervised  = vocab.Supervised
	Unattended  = vocab.Unattended
	numModes    = vocab.NumModes
)

// ParseMode reads a mode name.
func ParseMode(s string) (Mode, error) { return vocab.ParseMode(s) }
