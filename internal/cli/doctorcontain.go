package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/airlock-dev/airlock/internal/agentinstall"
	"github.com/airlock-dev/airlock/internal/contain/record"
	"github.com/airlock-dev/airlock/internal/contain/run"
	"github.com/airlock-dev/airlock/internal/render"
)

// doctorContain is doctor's containment section (docs/CONTAIN.md):
// whether "airlock run" can contain a command here and what is missing,
// and whether Claude Code's own sandbox has what it needs.
type doctorContain struct {
	// OS is runtime.GOOS; containment is built for Linux (bubblewrap)
	// and, for Claude Code's sandbox, macOS (Seatbelt).
	OS string `json:"os"`
	run.Probe
	// Runner is airlock-run beside airlock, "" when it is missing.
	Runner string `json:"runner"`
	// RunWorks: airlock run can contain a command here (bubblewrap works
	// and airlock-run is installed).
	RunWorks bool `json:"run_works"`
	// ClaudeSandbox: Claude Code's sandbox can run here (bwrap and socat
	// on PATH on Linux; sandbox-exec on macOS).
	ClaudeSandbox bool `json:"claude_sandbox_ready"`
	// ClaudeSandboxOn lists the Claude Code settings files that turn its
	// sandbox on (airlock install claude-code --contain writes it).
	ClaudeSandboxOn []string `json:"claude_sandbox_on,omitempty"`
	// ClaudeProxy says, for each port Claude Code's sandbox is pointed at,
	// whether airlock's proxy runs there (record.CheckProxy): only then
	// are its Bash calls decided as contained.
	ClaudeProxy []string `json:"claude_sandbox_proxy,omitempty"`
	// StalePlaceholders are the placeholders of runs whose runner was
	// killed, found (and removed while still as made) by doctor.
	StalePlaceholders []record.Stale `json:"stale_placeholders,omitempty"`
}

// claudeSandboxOn reports whether a Claude Code settings document turns
// its sandbox on.
func claudeSandboxOn(data []byte) bool {
	var s struct {
		Sandbox struct {
			Enabled bool `json:"enabled"`
		} `json:"sandbox"`
	}
	return json.Unmarshal(data, &s) == nil && s.Sandbox.Enabled
}

// containProblems: a settings file that turns Claude Code's sandbox on
// (with failIfUnavailable, every Bash command then fails) where it cannot
// run.
func containProblems(d doctorContain) []string {
	if d.ClaudeSandbox {
		return nil
	}
	var out []string
	for _, f := range d.ClaudeSandboxOn {
		out = append(out, fmt.Sprintf("containment: %s turns Claude Code's sandbox on, but it cannot run here (missing: %s)", f, strings.Join(d.Missing, "; ")))
	}
	return out
}

func doctorContainOf(exe string) doctorContain {
	d := doctorContain{OS: runtime.GOOS}
	if runtime.GOOS != "linux" {
		d.Error = "airlock run needs Linux (bubblewrap); on macOS use Claude Code's sandbox (airlock install claude-code --contain)"
		d.ClaudeSandbox = runtime.GOOS == "darwin" && fileExists("/usr/bin/sandbox-exec")
		return d
	}
	d.Probe = run.ProbeHere()
	if exe != "" {
		if p := filepath.Join(filepath.Dir(exe), RunBinary); isExecutable(p) {
			d.Runner = p
		}
	}
	if d.Runner == "" {
		d.Missing = append(d.Missing, RunBinary+" beside airlock (CGO_ENABLED=0 go install ./cmd/...)")
	}
	// The run's door: airlock-run refuses to start without it.
	door := exe != "" && isExecutable(filepath.Join(filepath.Dir(exe), EgressBinary))
	if !door {
		d.Missing = append(d.Missing, EgressBinary+" beside airlock, the sandbox's door to the network (CGO_ENABLED=0 go install ./cmd/...)")
	}
	d.RunWorks = d.Works && d.Runner != "" && door
	d.ClaudeSandbox = d.Works && d.Socat != ""
	return d
}

func printDoctorContain(w io.Writer, d doctorContain) {
	fmt.Fprintln(w, "\ncontainment (docs/CONTAIN.md):")
	state := "no"
	if d.RunWorks {
		state = "yes"
	}
	fmt.Fprintf(w, "  airlock run works here: %s\n", state)
	if d.Bwrap != "" {
		fmt.Fprintf(w, "  bwrap: %s %s\n", render.Line(d.Bwrap, 1000), render.Line(d.BwrapVersion, 200))
	}
	if d.Error != "" {
		fmt.Fprintf(w, "  why not: %s\n", render.Line(d.Error, 2000))
	}
	state = "no"
	if d.ClaudeSandbox {
		state = "yes"
	}
	fmt.Fprintf(w, "  Claude Code's sandbox can run here: %s\n", state)
	for _, f := range d.ClaudeSandboxOn {
		fmt.Fprintf(w, "  Claude Code's sandbox is on in %s\n", render.Line(f, 1000))
	}
	for _, m := range d.Missing {
		fmt.Fprintf(w, "  missing: %s\n", render.Line(m, 2000))
	}
	for _, p := range d.ClaudeProxy {
		fmt.Fprintf(w, "  Claude Code's sandbox proxy: %s\n", render.Line(p, 2000))
	}
	for _, s := range d.StalePlaceholders {
		if s.Removed {
			fmt.Fprintf(w, "  removed %s, an empty placeholder a killed airlock run (pid %d) left\n", render.Line(s.Path, 1000), s.Pid)
		} else {
			fmt.Fprintf(w, "  left %s, made empty by a killed airlock run (pid %d): %s; review it\n", render.Line(s.Path, 1000), s.Pid, render.Line(s.Why, 500))
		}
	}
}

// containRecords fills what doctor learns from airlock's state about
// containment: whether the port each settings file points Claude Code's
// sandbox at is airlock's running proxy, and the placeholders killed runs
// left, which it removes while they are still as made (as the next
// "airlock run" would).
func containRecords(d *doctorContain, stateDir string) {
	for _, f := range d.ClaudeSandboxOn {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		port := agentinstall.ClaudeSandboxPort(data)
		if port == 0 {
			continue
		}
		if err := record.CheckProxy(stateDir, port); err != nil {
			d.ClaudeProxy = append(d.ClaudeProxy, fmt.Sprintf("%s: port %d: %v; its Bash calls are not decided as contained", f, port, err))
		} else {
			d.ClaudeProxy = append(d.ClaudeProxy, fmt.Sprintf("%s: port %d is airlock's proxy", f, port))
		}
	}
	d.StalePlaceholders, _ = record.CleanStale(stateDir)
}
