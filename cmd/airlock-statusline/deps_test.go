package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// airlock-statusline runs every few hundred milliseconds while an agent
// works, and every package it links is initialised before main on every
// run: it exists only to be cheaper than the airlock binary. This rule
// reads the import graph and fails when a package creeps in.
var allowedNonStd = map[string]bool{
	"github.com/airlock-dev/airlock/cmd/airlock-statusline": true,
	"github.com/airlock-dev/airlock/internal/statusline":    true,
	"github.com/airlock-dev/airlock/internal/render":        true,
	"github.com/airlock-dev/airlock/internal/safefile":      true,
	"github.com/airlock-dev/airlock/internal/statefile":     true,
}

// forbiddenStd are standard packages it must not pay for, with the
// reason.
var forbiddenStd = map[string]string{
	"net":         "the status line opens no network connection",
	"os/exec":     "the status line runs nothing",
	"regexp":      "regexps compile at initialisation",
	"crypto/tls":  "no network",
	"crypto/x509": "no network",
}

func TestStatusLineDeps(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	cmd := exec.Command(gobin, "list", "-deps", "-f", "{{if not .Standard}}+{{end}}{{.ImportPath}}", ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	list := strings.Fields(string(out))
	seen := map[string]bool{}
	for _, line := range list {
		p, nonStd := strings.CutPrefix(line, "+")
		seen[p] = true
		if nonStd && !allowedNonStd[p] {
			t.Errorf("airlock-statusline links %s: the status line reads one file; decisions, policy and the journal belong to airlock", p)
		}
		if why, bad := forbiddenStd[p]; bad {
			t.Errorf("airlock-statusline links %s: %s", p, why)
		}
	}
	if !seen["github.com/airlock-dev/airlock/internal/statusline"] {
		t.Error("airlock-statusline does not list internal/statusline: the listing is not seeing the graph")
	}
}
