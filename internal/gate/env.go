package gate

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/airlock-dev/airlock/internal/gate/pathglob"
	"github.com/airlock-dev/airlock/internal/policy"
)

// The environment variables the gate reads. They keep the names and the
// meanings of the GateGuard gate's variables, so a setup written for it
// works unchanged.
const (
	// EnvECC turns the gate off with off, 0, false, disabled or disable
	// (ignoring case and surrounding spaces).
	EnvECC = "ECC_GATEGUARD"
	// EnvDisabled turns the gate off with exactly 1 (surrounding spaces
	// ignored); no other spelling.
	EnvDisabled = "GATEGUARD_DISABLED"
	// EnvRoutineDisabled turns off only the routine Bash gate with 1, true,
	// on, enabled, enable or yes (ignoring case and surrounding spaces).
	EnvRoutineDisabled = "GATEGUARD_BASH_ROUTINE_DISABLED"
	// EnvFullDenials is how many denials per session are given in full; 0
	// condenses from the first. A value that does not start with a whole
	// number of 0 or more is ignored.
	EnvFullDenials = "GATEGUARD_FACT_FORCE_FULL_DENIALS"
	// EnvExtraDestructive is one more regular expression (RE2, ignoring
	// case) marking Bash commands as destructive. A malformed one is
	// ignored and reported once on stderr; the built-in detection keeps
	// working.
	EnvExtraDestructive = "GATEGUARD_BASH_EXTRA_DESTRUCTIVE"
	// EnvStateDir is where per-session state lives.
	EnvStateDir = "GATEGUARD_STATE_DIR"
	// EnvExemptGlobs is a comma-separated list of globs (package pathglob)
	// whose files are not gated on first edit or creation.
	EnvExemptGlobs = "GATEGUARD_EXEMPT_GLOBS"
	// EnvProjectDir is Claude Code's project root, which relative exempt
	// globs are matched from.
	EnvProjectDir = "CLAUDE_PROJECT_DIR"
)

// EnvVars lists every variable the gate reads, for documentation and the
// doctor.
var EnvVars = []string{EnvECC, EnvDisabled, EnvRoutineDisabled, EnvFullDenials, EnvExtraDestructive, EnvStateDir, EnvExemptGlobs}

// normEnv is a value as the spellings are compared: trimmed, lower case.
func normEnv(s string) string { return strings.ToLower(strings.TrimSpace(s)) }

// offByEnv returns the variable that turns the gate off, or "".
func offByEnv(getenv func(string) string) string {
	if normEnv(getenv(EnvDisabled)) == "1" {
		return EnvDisabled
	}
	switch normEnv(getenv(EnvECC)) {
	case "off", "0", "false", "disabled", "disable":
		return EnvECC
	}
	return ""
}

// routineOffByEnv reports whether GATEGUARD_BASH_ROUTINE_DISABLED is set
// to one of its "yes" spellings.
func routineOffByEnv(getenv func(string) string) bool {
	switch normEnv(getenv(EnvRoutineDisabled)) {
	case "1", "true", "on", "enabled", "enable", "yes":
		return true
	}
	return false
}

// leadingCount reads a count the way GateGuard does: optional spaces, an
// optional sign and the digits that follow, ignoring anything after them
// ("5", " 5", "5x" and "5.9" are 5). It reports false for no digits or a
// negative number; a number too large for an int is capped.
func leadingCount(s string) (int, bool) {
	s = strings.TrimSpace(s)
	neg := false
	if s != "" && (s[0] == '+' || s[0] == '-') {
		neg = s[0] == '-'
		s = s[1:]
	}
	end := 0
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	if end == 0 {
		return 0, false
	}
	n, err := strconv.Atoi(s[:end])
	if err != nil {
		n = int(^uint(0) >> 1)
	}
	if neg && n != 0 {
		return 0, false
	}
	return n, true
}

// config is what the gate does in one decision: the policy's gate section
// with the environment on top.
type config struct {
	routine     bool
	fullDenials int
	window      time.Duration
	extra       []*regexp.Regexp
	exempt      pathglob.List
	stateDir    string
	// stateFrom names where stateDir came from, for the state warning.
	stateFrom string
	// warnings are configuration mistakes to report once per session.
	warnings []warning
}

// warning is a configuration mistake; key identifies it so it is reported
// once per session.
type warning struct{ key, text string }

// resolve builds the configuration from the policy and the environment.
// It returns nil when the gate is off, having done no work beyond reading
// the two kill switches.
func resolve(p *policy.Policy, getenv func(string) string) *config {
	if p == nil || !p.Gate.Enabled || offByEnv(getenv) != "" {
		return nil
	}
	g := &p.Gate
	c := &config{routine: !g.RoutineBashOff && !routineOffByEnv(getenv), fullDenials: g.Denials(), window: g.Window()}
	if raw := getenv(EnvFullDenials); raw != "" {
		if n, ok := leadingCount(raw); ok {
			c.fullDenials = n
		}
	}
	for _, src := range g.ExtraDestructive {
		// Checked when the policy was loaded.
		if re, err := policy.CompileGateRegexp(src); err == nil {
			c.extra = append(c.extra, re)
		}
	}
	if raw := getenv(EnvExtraDestructive); raw != "" {
		re, err := policy.CompileGateRegexp(raw)
		if err != nil {
			c.warnings = append(c.warnings, warning{"extra:" + raw, "airlock: warning: ignoring " + EnvExtraDestructive + ": " + err.Error() + "; the built-in destructive detection still applies"})
		} else {
			c.extra = append(c.extra, re)
		}
	}
	for _, src := range g.ExemptGlobs {
		if pat, err := pathglob.Compile(src); err == nil {
			c.exempt = append(c.exempt, pat)
		}
	}
	if raw := getenv(EnvExemptGlobs); raw != "" {
		list, errs := pathglob.ParseList(raw)
		c.exempt = append(c.exempt, list...)
		for _, err := range errs {
			c.warnings = append(c.warnings, warning{"glob:" + err.Error(), "airlock: warning: ignoring a pattern of " + EnvExemptGlobs + ": " + err.Error() + "; it exempts nothing"})
		}
	}
	switch {
	case getenv(EnvStateDir) != "":
		c.stateDir, c.stateFrom = getenv(EnvStateDir), EnvStateDir
	case g.StateDir != "":
		c.stateDir, c.stateFrom = g.StateDir, "gate.state_dir"
	case p.Paths.StateDir != "":
		c.stateDir, c.stateFrom = filepath.Join(p.Paths.StateDir, "gate"), "airlock's state directory"
	}
	return c
}
