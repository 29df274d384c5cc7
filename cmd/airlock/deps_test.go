package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The airlock binary runs once per agent tool call (the hook), and Go runs
// the initialisation of every package it links before main, whichever
// subcommand is asked for: a package linked into it is paid for on every
// call, used or not. The MCP SDK lives in airlock-mcp for this reason
// (docs/BENCHMARKS.md). These rules keep the hook binary from growing
// back; they time nothing, they read the import graph.

// forbiddenDeps are packages, or trees of packages (a trailing "/"), the
// hook binary must not link, with the reason a reader needs when this
// test fails.
var forbiddenDeps = map[string]string{
	"net":                                   "sockets and a resolver; the hook decides without the network",
	"net/http":                              "an HTTP stack; the hook makes no network call (invariant 5)",
	"net/http/":                             "an HTTP stack; the hook makes no network call (invariant 5)",
	"crypto/tls":                            "TLS; the hook makes no network call",
	"crypto/x509":                           "certificates; the hook makes no network call",
	"html/template":                         "templates belong to a report or dashboard binary, not the hook",
	"text/template":                         "templates belong to a report or dashboard binary, not the hook",
	"encoding/gob":                          "gob's initialisation was measured on every hook call when the MCP SDK was linked",
	"encoding/xml":                          "not needed to decide a tool call",
	"database/sql":                          "the hook opens no database (invariant 5)",
	"log/slog":                              "structured logging; the hook reports through the journal",
	"runtime/pprof":                         "profiling",
	"plugin":                                "loads code at run time",
	"github.com/modelcontextprotocol/":      "the MCP SDK lives in airlock-mcp (it doubled the binary and its initialisation ran on every hook call)",
	"github.com/google/jsonschema-go/":      "comes with the MCP SDK; belongs in airlock-mcp",
	"golang.org/x/oauth2/":                  "comes with the MCP SDK; belongs in airlock-mcp",
	"github.com/segmentio/":                 "comes with the MCP SDK; belongs in airlock-mcp",
	"github.com/yosida95/uritemplate/":      "comes with the MCP SDK; belongs in airlock-mcp",
	"github.com/airlock-dev/airlock/e2e/":   "test harnesses",
	"github.com/airlock-dev/airlock/bench/": "benchmark programs",
	"github.com/airlock-dev/airlock/internal/mcp/proxy":                "the MCP proxy links the SDK; it runs as airlock-mcp",
	"github.com/airlock-dev/airlock/internal/contain/egress":           "the egress proxy links TLS and an HTTP stack; it runs as airlock-proxy",
	"github.com/airlock-dev/airlock/internal/contain/egress/egresscmd": "the egress proxy's service; it runs as airlock-proxy",
	"github.com/jackc/":                             "pgx, PostgreSQL's driver, is team mode's; it runs as airlock-team",
	"github.com/airlock-dev/airlock/internal/team/": "team mode links pgx and an HTTP stack; it runs as airlock-team (airlock team runs it)",
}

// allowedModules are the modules outside the standard library the hook
// binary may link. Adding one is a decision: measure the binary's
// whole-process time with go run ./bench/hooktime before and after (its
// initialisation runs on every tool call), and write the figures in
// docs/BENCHMARKS.md.
var allowedModules = []string{
	"github.com/airlock-dev/airlock",
	"mvdan.cc/sh/v3",                   // the shell parser
	"github.com/bmatcuk/doublestar/v4", // path globs in the policy
	"go.yaml.in/yaml/v3",               // the policy files
}

// deps lists the packages the package in the current directory links,
// as the release is built (CGO_ENABLED=0, as in bench/hooktime).
func deps(t *testing.T) []string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	cmd := exec.Command(gobin, "list", "-deps", "-f", "{{if not .Standard}}+{{end}}{{.ImportPath}}", ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("go list -deps: %v\n%s", err, stderr)
	}
	return strings.Fields(string(out))
}

// TestHookBinaryDeps fails when cmd/airlock links a package the hook does
// not need, or a module nobody measured.
func TestHookBinaryDeps(t *testing.T) {
	list := deps(t)
	if len(list) < 10 {
		t.Fatalf("go list -deps gave %d packages, which cannot be the whole graph: %q", len(list), list)
	}
	for _, line := range list {
		p, nonStd := strings.CutPrefix(line, "+")
		for bad, why := range forbiddenDeps {
			if p == bad || strings.HasSuffix(bad, "/") && strings.HasPrefix(p, bad) {
				t.Errorf("cmd/airlock links %s: %s.\nFind the importer with: go list -deps -f '{{.ImportPath}}: {{.Imports}}' ./cmd/airlock | grep -w %s", p, why, p)
			}
		}
		if nonStd && !inModules(p, allowedModules) {
			t.Errorf("cmd/airlock links %s, from a module not in allowedModules: measure its cost to every hook call (go run ./bench/hooktime) and record it in docs/BENCHMARKS.md before allowing it", p)
		}
	}
}

// TestDepsRuleSeesForbidden: the rule above would fail on the MCP proxy,
// which links the SDK and net/http; without this, a broken go list
// invocation that lists the wrong package would pass silently.
func TestDepsRuleSeesForbidden(t *testing.T) {
	t.Chdir("../airlock-mcp")
	found := map[string]bool{}
	for _, line := range deps(t) {
		found[strings.TrimPrefix(line, "+")] = true
	}
	for _, p := range []string{"net/http", "github.com/airlock-dev/airlock/internal/mcp/proxy"} {
		if !found[p] {
			t.Errorf("airlock-mcp does not list %s: the dependency listing is not seeing the graph", p)
		}
	}
}

func inModules(p string, mods []string) bool {
	for _, m := range mods {
		if p == m || strings.HasPrefix(p, m+"/") {
			return true
		}
	}
	return false
}
