package classify

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
)

// This file gives roles to words that are settings or member names, not
// paths (FINDINGS-10 B6): a glob in a value of `go env -w` (GOPRIVATE=
// github.com/me/*) or in the member patterns of an archive listing
// (unzip -l app.zip '*.json') names no file of the machine. A word with
// no role counts as a path written, so these were read as writes to
// ./github.com/me/* and ./*.json, which may match the hook settings.

// goEnvSettings are the go env variables whose values are module path
// patterns, target names or switches: never a path, a program or flags.
// GOBIN, GOPATH, GOCACHE, GOFLAGS (-toolexec, -modfile), CC, GOAUTH
// (a command) and the others keep the reading of every word.
var goEnvSettings = map[string]bool{
	"GOPRIVATE": true, "GONOPROXY": true, "GONOSUMDB": true, "GOINSECURE": true, "GO111MODULE": true,
	"GOOS": true, "GOARCH": true, "GOAMD64": true, "GOARM": true, "GOARM64": true, "GO386": true,
	"GOMIPS": true, "GOMIPS64": true, "GOPPC64": true, "GORISCV64": true, "GOWASM": true,
	"CGO_ENABLED": true, "GOEXPERIMENT": true, "GOTELEMETRY": true, "GOVCS": true, "GODEBUG": true,
}

// settingRoles gives the roles of go env and of an archive listing;
// false when the run is neither.
func (b *roleBuilder) settingRoles() bool {
	args := b.inv.Args
	switch b.inv.Name() {
	case "go":
		if len(args) < 2 || args[1] != "env" {
			return false
		}
		b.add(1, RoleRead, false)
		for i := 2; i < len(args); i++ {
			a := args[i]
			if strings.HasPrefix(a, "-") || b.inv.IsDynamic(i) {
				continue
			}
			key, _, assign := strings.Cut(a, "=")
			if !assign || goEnvSettings[key] {
				// A name printed or unset (go env GOPATH, go env -u X),
				// or a setting's value: read, never written.
				b.add(i, RoleRead, false)
			}
		}
		return true
	case "unzip":
		p := argv.Spec{Short: "dxP"}.Parse(args[1:])
		if !p.Has("-l", "-t", "-v", "-Z", "-p") || p.Has("-d") {
			return false // extraction: roles.go
		}
		// Lists, tests or prints: the archive is read, the words after
		// it are member names and patterns inside it.
		for _, idx := range p.OperandIndex {
			b.add(idx+1, RoleRead, false)
		}
		for _, f := range p.Flags {
			if f.Name == "-x" {
				b.value(f, 1, RoleRead)
			}
		}
		return true
	}
	return false
}
