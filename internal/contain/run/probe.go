package run

import (
	"bytes"
	"os/exec"
	"strings"
)

// Probe is what "airlock doctor" reports about containment here.
type Probe struct {
	// Bwrap is bubblewrap's path, "" when it is not on PATH.
	Bwrap string `json:"bwrap"`
	// BwrapVersion is what "bwrap --version" printed.
	BwrapVersion string `json:"bwrap_version,omitempty"`
	// Works: a sandbox with its own user, pid and network namespaces
	// started and ran a program here.
	Works bool `json:"works"`
	// Error is why it did not, from bubblewrap's own message.
	Error string `json:"error,omitempty"`
	// Socat is socat's path ("" when missing): Claude Code's own sandbox
	// needs bwrap and socat on PATH.
	Socat string `json:"socat"`
	// Missing names what to install, with the hint.
	Missing []string `json:"missing,omitempty"`
}

// ProbeHere checks whether "airlock run" can contain a command on this
// machine: bubblewrap is installed and can make the namespaces the runner
// uses (unprivileged user namespaces are allowed). It starts one tiny
// sandbox running "true".
func ProbeHere() Probe {
	var p Probe
	if b, err := exec.LookPath("bwrap"); err == nil {
		p.Bwrap = b
	}
	if s, err := exec.LookPath("socat"); err == nil {
		p.Socat = s
	}
	if p.Bwrap == "" {
		p.Error = ErrNoBwrap.Error()
		p.Missing = append(p.Missing, "bubblewrap (Debian and Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)")
	} else {
		if out, err := exec.Command(p.Bwrap, "--version").Output(); err == nil {
			p.BwrapVersion = strings.TrimSpace(string(out))
		}
		tru, err := exec.LookPath("true")
		if err != nil {
			tru = "/bin/true"
		}
		var stderr bytes.Buffer
		cmd := exec.Command(p.Bwrap, "--die-with-parent", "--unshare-user", "--unshare-pid", "--unshare-net",
			"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--", tru)
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			msg := strings.TrimSpace(stderr.String())
			if msg == "" {
				msg = err.Error()
			}
			p.Error = "bubblewrap could not start a sandbox: " + msg
			if strings.Contains(msg, "namespace") || strings.Contains(msg, "Operation not permitted") {
				p.Missing = append(p.Missing, "unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or on Ubuntu an AppArmor profile for bwrap: kernel.apparmor_restrict_unprivileged_userns=0)")
			}
		} else {
			p.Works = true
		}
	}
	if p.Socat == "" {
		p.Missing = append(p.Missing, "socat, for Claude Code's own sandbox (apt-get install socat)")
	}
	return p
}
