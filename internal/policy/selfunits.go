package policy

import (
	"path/filepath"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
)

// This file is the phase of self-protection for service managers
// (FINDINGS-6 F7): systemctl kill, stop, mask or disable --now of a unit
// named after airlock's programs (airlock-hookd, 'airlock*') stops or
// signals airlock's processes as surely as kill does, whether or not an
// install put such a unit there (a human may have). A unit word known only
// at run time, or a glob that matches airlock's names, counts as naming
// them. Starting, reading and restarting other units is left to the
// table (systemctl --user restart myapp).

// unitStops are the systemctl verbs that stop, signal, freeze or keep
// from starting the units they name.
func unitStops(verb string) bool {
	switch verb {
	case "stop", "kill", "mask", "disable", "freeze", "restart", "try-restart", "reload-or-restart",
		"try-reload-or-restart", "condrestart", "force-reload", "set-property", "edit", "revert", "clean",
		"link", "preset", "reenable":
		return true
	}
	return false
}

// stopsAll are the systemctl verbs that stop every unit of the manager
// and leave the machine up: exit (the user manager) and isolate (every
// unit the target does not pull in). The power verbs stop the agent too,
// and are the table's (held).
func stopsAll(verb string) bool {
	return verb == "exit" || verb == "isolate"
}

// systemctlValueFlags are systemctl options whose value is the next word.
func systemctlValueFlags(a string) bool {
	switch a {
	case "-s", "--signal", "-p", "--property", "-t", "--type", "--state", "-H", "--host", "-M", "--machine",
		"-n", "--lines", "-o", "--output", "--kill-whom", "--kill-value", "--root", "--image", "--job-mode",
		"--what", "--when", "--message", "--drop-in", "--preset-mode", "--timestamp":
		return true
	}
	return false
}

// airlockUnitNames are the unit names airlock's processes would run
// under: each of its programs, with the resident verbs (airlock-hookd).
func (g *guard) airlockUnitNames() []string {
	names := append([]string(nil), airlockBinaries...)
	for _, v := range []string{"hookd", "serve", "notify", "proxy", "mcp", "team", "teamsync", "dashboard"} {
		names = append(names, "airlock-"+v, "airlock@"+v)
	}
	if g.exeName != "" {
		names = append(names, g.exeName)
	}
	return names
}

// unitIsAirlock reports whether a unit word (a name, perhaps with a type
// suffix or an instance, or a glob) names one of airlock's units.
func (g *guard) unitIsAirlock(w string) bool {
	base := w
	if i := strings.LastIndex(base, "."); i > 0 {
		switch base[i+1:] {
		case "service", "socket", "timer", "path", "scope", "slice", "target", "mount":
			base = base[:i]
		}
	}
	low := strings.ToLower(base)
	if strings.HasPrefix(low, "airlock") || g.airlockProgram(low) {
		return true
	}
	if strings.ContainsAny(w, "*?[") {
		for _, n := range g.airlockUnitNames() {
			for _, cand := range []string{n, n + ".service", n + ".socket"} {
				if ok, err := filepath.Match(strings.ToLower(w), cand); ok || err != nil {
					return true
				}
			}
		}
	}
	return false
}

// units refuses a systemctl (or service) run that stops, signals or
// disables one of airlock's units.
func (c *call) units(inv *classify.Invocation) *refusal {
	name := inv.Name()
	var verb string
	var units []int
	verbDyn := false
	switch name {
	case "systemctl":
		for i := 1; i < len(inv.Args); i++ {
			a := inv.Args[i]
			if strings.HasPrefix(a, "-") && !inv.IsDynamic(i) {
				if systemctlValueFlags(a) {
					i++
				}
				continue
			}
			if verb == "" {
				verb, verbDyn = a, inv.IsDynamic(i)
				continue
			}
			units = append(units, i)
		}
		if verb == "" || !verbDyn && !unitStops(verb) && !stopsAll(verb) {
			return nil
		}
		if !verbDyn && stopsAll(verb) {
			return &refusal{RuleAirlockCommand, name + " " + verb + " stops every unit of the manager, airlock's own services (its hook service, dashboard or notifier) included, which keep the human in the loop. Stop the units you mean by name; if this is really needed, ask the human to do it."}
		}
	case "loginctl":
		// Ending the user's sessions or signalling all of the user's
		// processes reaches airlock's as kill -1 does.
		for i := 1; i < len(inv.Args); i++ {
			switch inv.Args[i] {
			case "kill-user", "terminate-user", "kill-session", "terminate-session", "terminate-seat":
				return &refusal{RuleAirlockCommand, "loginctl " + inv.Args[i] + " signals every process of the session or user, airlock's own (its hook service, dashboard or notifier) included, which keep the human in the loop. Signal the processes you mean by PID; if this is really needed, ask the human to do it."}
			}
		}
		return nil
	case "service":
		// service NAME ACTION
		if len(inv.Args) < 3 || inv.Args[1] == "--status-all" {
			return nil
		}
		switch inv.Args[2] {
		case "status":
			return nil
		}
		verb, units = inv.Args[2], []int{1}
	default:
		return nil
	}
	for _, i := range units {
		w := inv.Args[i]
		if inv.IsDynamic(i) {
			if _, ok := c.g.known(w); !ok {
				return &refusal{RuleAirlockCommand, name + " " + verb + " of " + clipText(w) + ", a unit known only when the command runs: it could be one of airlock's services (its hook service, dashboard or notifier), which keep the human in the loop. Name the unit literally; leave airlock's services alone, and ask the human if this is really needed."}
			}
		}
		if c.g.unitIsAirlock(w) {
			return &refusal{RuleAirlockCommand, name + " " + verb + " " + clipText(w) + " stops, signals or disables airlock's own service (its hook service, dashboard or notifier), which keeps the human in the loop. Leave airlock's services alone and go on with your task; if this is really needed, ask the human to do it."}
		}
	}
	return nil
}
