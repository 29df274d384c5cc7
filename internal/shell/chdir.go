package shell

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
)

// This file follows the wrappers that change directory before they run
// their command (FINDINGS-5 L2): env -C DIR, sudo -D DIR and find's
// -execdir, which runs in each found file's directory. The run they wrap,
// and shell text nested in it, happen in that directory, so its relative
// paths (operands and redirections) are relative to it: Invocation.Dir
// says so, as it does after a cd. A directory known only at run time is
// DirUnknown, which readers of Dir treat as anywhere.

// inDir returns the command as run in dest (relative to the directory the
// command is in; known is false when dest is only known at run time). The
// shell's own state is copied: the wrapper's directory does not outlast
// its run.
func (c cmd) inDir(dest string, known bool) cmd {
	v := newValues()
	if c.vals != nil {
		v = c.vals.clone()
	}
	if !known {
		if p, ok := homePath(dest); ok {
			dest, known = p, true
		}
	}
	v.chdir(dest, known)
	c.vals = v
	return c
}

// chdirOption moves the run a wrapper returns into the directory its
// option names (the last one given), when the option is there.
func chdirOption(c cmd, n cmd, p argv.Parsed, names ...string) cmd {
	f, ok := p.Last(names...)
	if !ok {
		return n
	}
	dyn := 1+f.ValueIndex < len(c.dyn) && c.dyn[1+f.ValueIndex]
	if f.Value == "" && !dyn {
		return n
	}
	return n.inDir(f.Value, !dyn)
}

// sudoSpec is sudo's options; -D/--chdir moves the run.
var sudoSpec = argv.Spec{Short: "ugpChrtDTUR", Long: []string{"--user", "--group", "--prompt", "--close-from", "--host", "--role", "--type", "--chdir", "--command-timeout", "--other-user", "--chroot"}, StopAtOperand: true}

// sudoWrapper is sudo: an option wrapper whose -D/--chdir (and --chroot,
// -R, whose new root the run starts in) moves the run's directory.
func sudoWrapper(w *walker, c cmd) (cmd, bool) {
	if p := sudoSpec.Parse(c.args[1:]); 1+p.Rest >= len(c.args) && p.Has("-s", "--shell", "-i", "--login") {
		// sudo -s, sudo -i with no command: a shell, reading its
		// commands from standard input when it is given one.
		return w.fromStdin(c, "sudo "+c.args[1])
	}
	n, done := optionWrapper(sudoSpec, 0)(w, c)
	if done {
		return n, done
	}
	// sudo VAR=value… cmd: the assignments are the command's environment
	// (HOME=DIR sudo bash -c '… ~/x').
	var assigns []string
	for len(n.args) > 1 && !n.dyn[0] {
		k, _, ok := strings.Cut(n.args[0], "=")
		if !ok || !isName(k) {
			break
		}
		assigns = append(assigns, n.args[0])
		n.args, n.dyn = n.args[1:], n.dyn[1:]
	}
	n.frame = n.frame.withEnv(assigns)
	p := sudoSpec.Parse(c.args[1:])
	if p.Has("-R", "--chroot") {
		// Paths of the run are inside the new root, which is not
		// followed: its directory is unknown.
		return n.inDir("", false), false
	}
	return chdirOption(c, n, p, "-D", "--chdir"), false
}
