package policy

import (
	"path/filepath"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
	shellparse "github.com/airlock-dev/airlock/internal/shell"
)

// This file lets the agent write a project's .envrc whose lines are
// shown harmless (FINDINGS-7 B1): direnv runs the file in the human's
// shell on cd, so it stays a start-up file, but "layout python" and
// "watch_file" lines are ordinary work. A line is harmless when it is one
// of a start-up file's (harmlessLine: a comment, NAME=VALUE with an
// insensitive NAME and a value that runs nothing) or a call of direnv's
// standard library that loads no code: layout with a language (and a
// version number), watch_file and watch_dir, strict_env and
// unstrict_env. Everything else (use nix, source_env, dotenv, PATH_add,
// layout python ./x) is refused as before.

// isEnvrc reports whether a protected path is a direnv file.
func isEnvrc(p string) bool { return filepath.Base(p) == ".envrc" }

// envrcHarmless reports whether every line of a direnv file's text is
// harmless.
func envrcHarmless(text string) bool {
	for _, l := range strings.Split(text, "\n") {
		if !harmlessLine(l) && !direnvStdlibLine(l) {
			return false
		}
	}
	return true
}

// direnvStdlibLine reports whether a line calls a direnv standard-library
// function that loads no code.
func direnvStdlibLine(l string) bool {
	w := strings.Fields(l)
	if len(w) == 0 {
		return true
	}
	for _, x := range w {
		if strings.ContainsAny(x, "`$;&|<>()\\'\"{}*?[]~!#") {
			return false
		}
	}
	switch w[0] {
	case "strict_env", "unstrict_env":
		return len(w) == 1
	case "watch_file", "watch_dir":
		return len(w) > 1
	case "layout":
		if len(w) < 2 || len(w) > 3 {
			return false
		}
		switch w[1] {
		case "python", "python2", "python3", "node", "go", "ruby", "perl", "php", "julia", "pipenv", "poetry", "uv", "pdm", "hatch":
		case "pyenv", "anaconda":
			// a version or an environment's name follows
		default:
			return false
		}
		return len(w) == 2 || strings.Trim(w[2], "0123456789.") == "" || w[1] == "anaconda" && !strings.Contains(w[2], "/")
	}
	return false
}

// envrcWhole reports whether a file tool writes a direnv file whole with
// lines shown harmless.
func envrcWhole(a *Action) bool {
	if len(a.Edits) == 0 {
		return false
	}
	for _, e := range a.Edits {
		if !e.Whole || !envrcHarmless(e.New) {
			return false
		}
	}
	return true
}

// envrcWritten reports whether a run's output, redirected into a direnv
// file, is text known now whose lines are shown harmless (echo 'layout
// python' > .envrc).
func envrcWritten(inv *classify.Invocation) bool {
	text, known := shellparse.Output(&inv.Invocation)
	return known && envrcHarmless(text)
}
