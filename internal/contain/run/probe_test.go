package run

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestProbeHere(t *testing.T) {
	if _, err := exec.LookPath("bwrap"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("bwrap is not on PATH: .ci/run installs bubblewrap")
		}
		t.Skip("bwrap is not on PATH")
	}
	p := ProbeHere()
	if !p.Works || p.Bwrap == "" || p.Error != "" {
		t.Errorf("bwrap is installed but the probe says %+v", p)
	}
	t.Setenv("PATH", t.TempDir())
	p = ProbeHere()
	if p.Works || p.Bwrap != "" || p.Socat != "" {
		t.Errorf("without bwrap on PATH the probe says %+v", p)
	}
	if len(p.Missing) != 2 || !strings.Contains(p.Missing[0], "bubblewrap") || !strings.Contains(p.Missing[1], "socat") {
		t.Errorf("missing = %q, want bubblewrap and socat", p.Missing)
	}
}
