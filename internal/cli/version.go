package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"
)

// versionOutput is what "airlock version --json" prints.
type versionOutput struct {
	Version string `json:"version"`
	// Commit and Modified come from the VCS stamp "go build" records in a
	// checkout (absent with -buildvcs=false).
	Commit     string `json:"commit,omitempty"`
	CommitTime string `json:"commit_time,omitempty"`
	Modified   bool   `json:"modified"`
	Go         string `json:"go"`
	Platform   string `json:"platform"`
}

// buildVersion reads the version from the binary's build information: the
// module version for "go install PKG@VERSION", else the -ldflags Version;
// the VCS revision and whether the tree had changes.
func buildVersion() versionOutput {
	v := versionOutput{Version: Version, Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	if mv := bi.Main.Version; mv != "" && mv != "(devel)" {
		v.Version = mv
	}
	if bi.GoVersion != "" {
		v.Go = bi.GoVersion
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Commit = s.Value
		case "vcs.time":
			v.CommitTime = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

// runVersion is "airlock version" and "airlock --version".
func runVersion(e *env) int {
	v := buildVersion()
	if e.flags.vals["json"] != nil && *e.flags.Bool("json") {
		return writeJSON(e, v)
	}
	fmt.Fprintf(e.stdout, "airlock %s\n", v.String())
	return ExitOK
}

// String is the one-line version: "v1.2.0 (commit 1a2b3c4d5e6f, modified;
// go1.26.8 linux/amd64)".
func (v versionOutput) String() string {
	s := v.Version + " ("
	if v.Commit != "" {
		c := v.Commit
		if len(c) > 12 {
			c = c[:12]
		}
		s += "commit " + c
		if v.Modified {
			s += ", modified"
		}
		s += "; "
	}
	return s + v.Go + " " + v.Platform + ")"
}
