//go:build linux

package runner

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/airlock-dev/airlock/internal/contain/run"
)

// SetAsideSuffix is added to the name of a protected file the command
// created where none was when the run started, at the project's top
// (.mcp.json, .envrc, opencode.json, crush.json, ...).
//
// Why set aside, and not fenced by a placeholder like the protected
// paths in directories: an empty file at the project's top would stand
// in the work tree during every run (eight of them, most projects having
// none), where the agent's own `git add -A` commits it. Why not left
// where it is with a warning (as before): each of these files makes a
// later, uncontained start run code (direnv runs .envrc when the shell
// enters the project, Claude Code starts .mcp.json's servers, OpenCode
// and Crush load their config's plugins, hooks and servers), and a
// warning at the end of an agent's session scrolls away. Set aside under
// another name, no tool reads it; the human reads it and keeps it with
// one mv. An agent that writes one of these files inside is rare and
// legitimate (it was asked to add an MCP server or an .envrc): its work
// is kept, only not in force until a human looks. An existing one is
// bound read-only for the run, like every protected file.
const SetAsideSuffix = run.SetAsideSuffix

// setAside renames each path of unfenced (protected, absent when the run
// started) that now exists in the project to NAME.airlock-review (or
// NAME.airlock-review.N when taken), and says so with the command that
// keeps it. The sandbox is gone by then (nothing outlives the command),
// so nothing inside races the rename. Outside the project, or when the
// rename fails, it only warns, as a warning is all that is left.
func setAside(project string, unfenced []string, stderr io.Writer) {
	for _, p := range unfenced {
		if _, err := os.Lstat(p); err != nil {
			continue
		}
		if project == "" || filepath.Dir(p) != project {
			fmt.Fprintf(stderr, "airlock run: warning: %s was created during the run; it is a file airlock protects (agent settings or airlock's own): review it before an agent starts again\n", p)
			continue
		}
		to, err := run.SetAsideName(p)
		if err == nil {
			err = os.Rename(p, to)
		}
		if err != nil {
			fmt.Fprintf(stderr, "airlock run: warning: %s was created during the run and could not be set aside (%v): it runs code at the next start of an agent or tool outside the sandbox; review it before one starts\n", p, err)
			continue
		}
		who := "an agent or tool (direnv, an MCP client, OpenCode, Crush) next starts here"
		if c, ok := run.CodeFileFor(filepath.Base(p)); ok {
			who = c.Reason
		}
		fmt.Fprintf(stderr, "airlock run: %s was created during the run; it runs code outside the sandbox (%s), so it was set aside as %s. Read it; to keep it: mv %s %s\n",
			filepath.Base(p), who, filepath.Base(to), shellWord(to), shellWord(p))
	}
}

// setAsideModules renames the files of each submodule repository the run
// made under .git/modules that would run a program at the human's next
// git command (run.NewModuleFiles: a config with keys git itself does not
// write there, hooks other than git's samples) to NAME.airlock-review,
// and says so (FINDINGS-9 C1). The submodule keeps its objects and refs;
// without its config git reads it with the defaults.
func setAsideModules(project string, before []string, stderr io.Writer) {
	for _, p := range run.NewModuleFiles(project, before) {
		to, err := run.SetAsideName(p)
		if err == nil {
			err = os.Rename(p, to)
		}
		if err != nil {
			fmt.Fprintf(stderr, "airlock run: warning: %s was made during the run in a new submodule repository and could not be set aside (%s): git runs what it names at your next git command; review it first\n", clip(p), clip(err.Error()))
			continue
		}
		fmt.Fprintf(stderr, "airlock run: %s was made during the run in a new submodule repository; git would run what it names at your next git command here, outside the sandbox, so it was set aside as %s. Read it; to keep it: mv %s %s\n",
			clip(p), clip(filepath.Base(to)), shellWord(clip(to)), shellWord(clip(p)))
	}
}

// shellWord quotes a path for a command the human copies.
func shellWord(s string) string {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '/' || c == '.' || c == '-' || c == '_') {
			return "'" + escapeQuotes(s) + "'"
		}
	}
	return s
}

func escapeQuotes(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\'' {
			out = append(out, `'\''`...)
			continue
		}
		out = append(out, s[i])
	}
	return string(out)
}
