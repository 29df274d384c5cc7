//go:build linux

package runner

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/airlock-dev/airlock/internal/clierror"
	"github.com/airlock-dev/airlock/internal/contain/run"
)

// Main is the airlock-run binary: "airlock run" starts it with its own
// arguments.
//
//	airlock-run [--proxy-socket PATH [--proxy-ca FILE]] [--writable DIR]... [--expose FILE]... [--] COMMAND [ARG...]
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	o := Options{Stdin: stdin, Stdout: stdout, Stderr: stderr}
	var writable, expose []string
	i := 0
flags:
	for ; i < len(args); i++ {
		a := args[i]
		need := func() (string, bool) {
			if i+1 >= len(args) {
				return "", false
			}
			i++
			return args[i], true
		}
		var ok bool
		switch a {
		case "--":
			i++
			break flags
		case "--proxy-socket":
			o.ProxySocket, ok = need()
		case "--proxy-ca":
			o.CAFile, ok = need()
		case "--expose":
			var f string
			f, ok = need()
			expose = append(expose, f)
		case "--writable":
			var w string
			w, ok = need()
			writable = append(writable, w)
		default:
			if len(a) > 1 && a[0] == '-' {
				return clierror.Print(stderr, &clierror.Usage{Msg: "unknown flag " + a, Hints: []string{"airlock run [--writable DIR]... [--] COMMAND [ARG...]"}})
			}
			break flags
		}
		if !ok {
			return clierror.Print(stderr, &clierror.Usage{Msg: a + " needs a value"})
		}
	}
	cmd := args[i:]
	if len(cmd) == 0 {
		return clierror.Print(stderr, &clierror.Usage{Msg: "no command to run", Hints: []string{"airlock run -- COMMAND [ARG...]"}})
	}
	cwd, err := os.Getwd()
	if err != nil {
		return clierror.Print(stderr, err)
	}
	self, err := os.Executable()
	if err == nil {
		self, err = filepath.EvalSymlinks(self)
	}
	if err != nil {
		return clierror.Print(stderr, fmt.Errorf("cannot find airlock-run's own binary: %w", err))
	}
	// airlock itself sits beside airlock-run (runCompanion finds it
	// there), and so does the bridge.
	exe := filepath.Join(filepath.Dir(self), "airlock")
	bridge := filepath.Join(filepath.Dir(self), run.BridgeBinary)
	if _, err := os.Stat(bridge); err != nil {
		return clierror.Print(stderr, &clierror.Usage{Msg: "cannot contain the command: " + run.BridgeBinary + " is not beside airlock-run",
			Hints: []string{"CGO_ENABLED=0 go install ./cmd/... (it installs every airlock binary side by side)"}})
	}
	if _, err := os.Stat(exe); err != nil {
		exe = ""
	}
	if writable != nil {
		for j, w := range writable {
			if !filepath.IsAbs(w) {
				writable[j] = filepath.Join(cwd, w)
			}
		}
		// --writable adds to the default caches.
		if home := os.Getenv("HOME"); filepath.IsAbs(home) {
			for _, d := range run.DefaultWritable {
				writable = append(writable, filepath.Join(home, d))
			}
		}
	}
	o.Config = run.Config{Getenv: os.Getenv, Environ: os.Environ(), Cwd: cwd, Executable: exe,
		Writable: writable, Expose: expose, Bridge: bridge, Command: cmd}
	if o.ProxySocket == "" {
		// The door is airlock-proxy beside airlock-run, started at the
		// sandbox's first connection (doorproc.go); Run refuses when it
		// cannot start.
		door := filepath.Join(filepath.Dir(self), DoorBinary)
		if st, err := os.Stat(door); err != nil || st.IsDir() {
			return clierror.Print(stderr, &clierror.Usage{Msg: "cannot contain the command: " + DoorBinary + " (the egress proxy, the sandbox's one door to the network) is not beside airlock-run",
				Hints: []string{"CGO_ENABLED=0 go install ./cmd/... (it installs every airlock binary side by side)", "or pass --proxy-socket PATH of a running proxy; airlock run never runs a command uncontained"}})
		}
		o.DoorProgram = door
	}
	status, err := Run(o)
	if err != nil {
		return clierror.Print(stderr, err)
	}
	return status
}
