package cli

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime"

	"github.com/airlock-dev/airlock/internal/hookd"
	"github.com/airlock-dev/airlock/internal/hookline"
	"github.com/airlock-dev/airlock/internal/render"
)

// This file is the doctor's part for the hook client and the resident
// service (docs/HOOKD.md), and for the binaries that must sit beside
// airlock: which form each installed hook line has, whether the client
// is one install would write, whether a service runs, and which
// companion binaries are missing (a warning: each serves one command,
// and a hook never needs them, unless its line names one that is gone,
// which is a problem found with the hooks).

// doctorService is what the doctor found about the hook client and the
// service.
type doctorService struct {
	// Client is the airlock-hook beside this airlock that install would
	// write into a hook line; "" with ClientWhy when there is none.
	Client    string `json:"client,omitempty"`
	ClientWhy string `json:"client_reason,omitempty"`
	// Disabled is whether AIRLOCK_HOOKD=off is set here.
	Disabled bool `json:"disabled"`
	// Socket is the service's socket for this state directory, "" when
	// there can be none; Running whether this airlock answers on it.
	Socket  string `json:"socket,omitempty"`
	Running bool   `json:"running"`
	// Companions are the binaries expected beside airlock.
	Companions []doctorCompanion `json:"companions"`
	// Warnings are findings that do not stop airlock from guarding.
	Warnings []string `json:"warnings"`
}

type doctorCompanion struct {
	Name  string `json:"name"`
	Path  string `json:"path"`
	Found bool   `json:"found"`
	// Used is what needs it.
	Used string `json:"used_by"`
}

// companions are the binaries go install ./cmd/... puts beside airlock.
var companions = []struct{ name, used string }{
	{hookline.ClientName, "the fast hook line (airlock install)"},
	{ServeBinary, "airlock serve"},
	{NotifyBinary, "airlock notify"},
	{ProxyBinary, "airlock mcp run|serve"},
	{EgressBinary, "airlock proxy (the egress proxy)"},
	{TeamBinary, "airlock team"},
	{TeamSyncBinary, "airlock team join|sync"},
}

func doctorServiceOf(e *env, exe string) doctorService {
	d := doctorService{Disabled: hookd.Disabled(e.getenv), Companions: []doctorCompanion{}, Warnings: []string{}}
	if exe == "" {
		return d
	}
	form := chooseHookForm(exe, false)
	if form.Form == hookline.Service {
		d.Client = form.Bin
	} else {
		d.ClientWhy = form.Why
		d.Warnings = append(d.Warnings, "hook client: "+form.Why+"; install writes the slower in-process line ("+installHint+")")
	}
	for _, c := range companions {
		p := filepath.Join(filepath.Dir(exe), c.name)
		found := isExecutable(p)
		d.Companions = append(d.Companions, doctorCompanion{Name: c.name, Path: p, Found: found, Used: c.used})
		if !found && c.name != hookline.ClientName {
			d.Warnings = append(d.Warnings, fmt.Sprintf("no %s beside airlock (needed only for %s): go install ./cmd/... from the clone installs every binary in one directory", c.name, c.used))
		}
	}
	if d.Disabled {
		d.Warnings = append(d.Warnings, "AIRLOCK_HOOKD=off is set here: hooks run with this environment decide in process")
	}
	if d.Socket = hookd.SocketPath(e.getenv); d.Socket != "" && runtime.GOOS == "linux" {
		c, err := hookd.Dial(d.Socket, exe)
		if err == nil {
			d.Running = true
			c.Close()
		} else if !errors.Is(err, hookd.ErrNoService) {
			d.Warnings = append(d.Warnings, fmt.Sprintf("the service's socket %s: %v (hooks decide in process; airlock hookd --stop, or remove the socket)", d.Socket, err))
		}
	}
	return d
}

// lineForm names the form of a hook line for the doctor's report.
func lineForm(command, agent string) string {
	if _, form, ok := hookline.Parse(command, agent); ok {
		return string(form)
	}
	return ""
}

func printDoctorService(w io.Writer, d doctorService) {
	fmt.Fprintln(w, "\nhook client and service (docs/HOOKD.md):")
	if d.Client != "" {
		fmt.Fprintf(w, "  client: %s\n", d.Client)
	} else {
		fmt.Fprintf(w, "  client: none usable: %s\n", render.Line(d.ClientWhy, 1000))
	}
	state := "not running (the first hook call through the client starts it)"
	switch {
	case d.Disabled:
		state = "off here (AIRLOCK_HOOKD=off)"
	case d.Socket == "":
		state = "unavailable (no usable state directory for its socket)"
	case d.Running:
		state = "running on " + d.Socket
	}
	fmt.Fprintf(w, "  service: %s\n", render.Line(state, 1000))
	for _, c := range d.Companions {
		mark := "ok  "
		if !c.Found {
			mark = "MISSING"
		}
		fmt.Fprintf(w, "  %s %s (%s)\n", mark, render.Line(c.Path, 1000), c.Used)
	}
	for _, m := range d.Warnings {
		fmt.Fprintf(w, "  warning: %s\n", render.Line(m, 2000))
	}
}
