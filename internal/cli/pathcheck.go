package cli

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// pathCheck is what doctor says about finding airlock on PATH. The hooks
// run airlock by its absolute path, so PATH matters to the human: the
// airlock they type must be the one the hooks run, or "queue approve"
// and "policy show" speak for another version.
type pathCheck struct {
	// OnPath is the first "airlock" on PATH, "" when there is none.
	OnPath string `json:"on_path"`
	// Same says OnPath is this very binary.
	Same bool `json:"same_binary"`
	// Fix says what to do, "" when nothing is wrong.
	Fix string `json:"fix,omitempty"`
}

// checkPath looks "airlock" up in the PATH of e and compares it with the
// running binary exe.
func checkPath(e *env, exe string) pathCheck {
	var c pathCheck
	c.OnPath = lookPath(e.getenv("PATH"), "airlock")
	dir := filepath.Dir(exe)
	switch {
	case exe == "":
		c.Fix = "cannot tell which binary is running"
	case c.OnPath == "":
		c.Fix = "airlock is not on PATH: add " + dir + " to PATH (e.g. export PATH=\"" + dir + ":$PATH\" in your shell's profile); go install ./cmd/... puts it in $(go env GOBIN), or $(go env GOPATH)/bin when GOBIN is unset"
	default:
		c.Same = sameFile(c.OnPath, exe)
		if !c.Same {
			c.Fix = "the airlock on PATH (" + c.OnPath + ") is not this binary (" + exe + "): reinstall with go install ./cmd/... from the clone, or put " + dir + " first on PATH"
		}
	}
	return c
}

// lookPath is exec.LookPath over a given PATH value, so that doctor
// judges the environment it was given rather than the process's own.
func lookPath(path, name string) string {
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, name)
		if runtime.GOOS == "windows" && !strings.HasSuffix(p, ".exe") {
			p += ".exe"
		}
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			if abs, err := filepath.Abs(p); err == nil {
				return abs
			}
			return p
		}
	}
	return ""
}

// sameFile reports whether two paths name one file, through symlinks.
func sameFile(a, b string) bool {
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}
