package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// airlock-hook runs once per agent tool call, and every package it links
// is initialised before main on every call: it exists only to be cheaper
// than the airlock binary (docs/BENCHMARKS.md). This rule reads the import
// graph, times nothing, and fails when a package creeps in.

// allowedNonStd are the only packages outside the standard library it
// may link.
var allowedNonStd = map[string]bool{
	"github.com/airlock-dev/airlock/cmd/airlock-hook": true,
	"github.com/airlock-dev/airlock/internal/hookd":   true,
}

// forbiddenStd are standard packages whose initialisation or size the
// client must not pay, with the reason.
var forbiddenStd = map[string]string{
	"fmt":           "fmt brings reflection and its tables; write strings directly",
	"reflect":       "reflection: the wire is encoded by hand",
	"encoding/json": "the wire is length-prefixed binary, not JSON",
	"regexp":        "regexps compile at initialisation",
	"net":           "the net package's initialisation; the client uses raw system calls",
	"os/exec":       "the fallback replaces the process with syscall.Exec",
	"time/tzdata":   "time zone data",
	"unique":        "unique.Make at initialisation (net/netip)",
	"crypto/tls":    "TLS is the egress proxy's (airlock-proxy), never the hook client's",
	"crypto/x509":   "certificates are the egress proxy's (airlock-proxy), never the hook client's",
}

// forbiddenNonStd are packages outside the standard library, by prefix,
// named with the reason when one creeps in (allowedNonStd refuses them
// anyway; the reason is for the reader).
var forbiddenNonStd = map[string]string{
	"github.com/jackc/":                             "pgx is the team server's (airlock-team); the hook never waits on a database",
	"github.com/airlock-dev/airlock/internal/team/": "team mode runs as airlock-team and team sync; the hook never waits on the network",
}

func TestClientDeps(t *testing.T) {
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
	if len(list) < 5 {
		t.Fatalf("go list -deps gave %q, which cannot be the whole graph", list)
	}
	seen := map[string]bool{}
	for _, line := range list {
		p, nonStd := strings.CutPrefix(line, "+")
		seen[p] = true
		for bad, why := range forbiddenNonStd {
			if strings.HasPrefix(p, bad) {
				t.Errorf("airlock-hook links %s: %s", p, why)
			}
		}
		if nonStd && !allowedNonStd[p] {
			t.Errorf("airlock-hook links %s: the client links only internal/hookd; decisions belong to the service or to \"airlock hook\"", p)
		}
		if why, bad := forbiddenStd[p]; bad {
			t.Errorf("airlock-hook links %s: %s.\nFind the importer with: go list -deps -f '{{.ImportPath}}: {{.Imports}}' ./cmd/airlock-hook | grep -w %s", p, why, p)
		}
	}
	if !seen["github.com/airlock-dev/airlock/internal/hookd"] {
		t.Error("airlock-hook does not list internal/hookd: the listing is not seeing the graph")
	}
}
