package classify

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// This file rates destruction of the human's state that is not a file
// deletion (FINDINGS-10 X1): the desktop's settings (dconf, gsettings,
// xfconf-query) reset or replaced wholesale, the human's terminal
// sessions killed with everything running in them (tmux kill-server,
// screen -X quit; textrunners.go), and a submodule's work tree removed
// with its uncommitted changes (git submodule deinit -f; git.go). Each
// is graded like chmod -R 000 outside the project: destructive, so held.
// One key set or reset is a settings change (shared), and a read is
// nothing.

var userSettingsSpec = &Spec{
	Programs: []string{"dconf", "gsettings", "xfconf-query"},
	Classify: classifyUserSettings,
	Examples: []Example{
		{"dconf reset -f /", "shared+destructive"},
		{"dconf reset -f /org/gnome/", "shared+destructive"},
		{"dconf load / < /dev/null", "shared+destructive"},
		{"dconf load /org/gnome/terminal/ < terminal.ini", "shared+destructive"},
		{"dconf write /org/gnome/desktop/interface/clock-format \"'24h'\"", "shared"},
		{"dconf reset /org/gnome/desktop/interface/clock-format", "shared"},
		{"dconf read /org/gnome/desktop/interface/clock-format", "local"},
		{"dconf dump /org/gnome/terminal/", "local"},
		{"dconf list /", "local"},
		{"gsettings reset-recursively org.gnome.desktop.interface", "shared+destructive"},
		{"gsettings reset org.gnome.desktop.interface clock-format", "shared"},
		{"gsettings set org.gnome.desktop.interface clock-format 24h", "shared"},
		{"gsettings get org.gnome.desktop.interface clock-format", "local"},
		{"gsettings list-recursively org.gnome.desktop.interface", "local"},
		{"xfconf-query -c xfce4-panel -p / -r -R", "shared+destructive"},
		{"xfconf-query -c xfce4-panel -p /panels -s 1", "shared"},
		{"xfconf-query -c xfce4-panel -l", "local"},
	},
}

// classifyUserSettings rates the desktop's settings tools.
func classifyUserSettings(_ *Classifier, inv *shell.Invocation) Effect {
	args := inv.Args[1:]
	ops := operandsOf(args)
	name := inv.Name()
	if len(args) == 0 || hasAny(args, "--help", "-h", "help", "--version") {
		return nothing
	}
	switch name {
	case "dconf":
		if len(ops) == 0 {
			return nothing
		}
		switch ops[0] {
		case "read", "list", "dump", "watch", "help":
			return nothing
		case "load":
			return shared("settings.replace", "dconf load replaces the desktop settings under "+clip(lastOr(ops, "/"))+" with its input; ask the human to run it").destroys()
		case "reset":
			if hasAny(args, "-f") {
				return shared("settings.reset", "dconf reset -f erases every desktop setting under "+clip(lastOr(ops, "/"))+"; reset one key, or ask the human").destroys()
			}
		}
		return shared("settings.write", "dconf "+clip(ops[0])+" changes the human's desktop settings")
	case "gsettings":
		if len(ops) == 0 {
			return nothing
		}
		switch ops[0] {
		case "reset-recursively":
			return shared("settings.reset", "gsettings reset-recursively erases every setting of "+clip(lastOr(ops, "the schema"))+"; reset one key, or ask the human").destroys()
		case "set", "reset":
			return shared("settings.write", "gsettings "+ops[0]+" changes the human's desktop settings")
		}
		return nothing // get, range, describe, list-*, monitor, writable
	default: // xfconf-query
		reset, recursive, set := false, false, false
		for _, a := range args {
			switch a {
			case "-r", "--reset":
				reset = true
			case "-R", "--recursive":
				recursive = true
			case "-s", "--set", "-n", "--create", "-t", "--type", "-a", "--force-array", "-T", "--toggle":
				set = true
			}
		}
		switch {
		case reset && recursive:
			return shared("settings.reset", "xfconf-query -r -R erases every setting under the property it names; ask the human").destroys()
		case reset || set:
			return shared("settings.write", "xfconf-query changes the human's desktop settings")
		}
		return nothing
	}
}

// lastOr returns the last of words, or def when there is only the
// subcommand.
func lastOr(words []string, def string) string {
	if len(words) < 2 {
		return def
	}
	return words[len(words)-1]
}

// sessionKill rates a terminal multiplexer's command that ends every
// session, with whatever runs in them (tmux kill-server; screen -X quit
// without a session named, which ends the one it finds). Ending one
// named session (tmux kill-session -t build) is ordinary work.
func sessionKill(tool string, words []string) Effect {
	if len(words) == 0 {
		return nothing
	}
	switch {
	case tool == "tmux" && words[0] == "kill-server":
		return shared("session.kill", "tmux kill-server ends every tmux session of the human's, with what runs in them; end one session you started (tmux kill-session -t NAME), or ask the human").destroys()
	case tool == "tmux" && words[0] == "kill-session" && hasAny(words[1:], "-a"):
		return shared("session.kill", "tmux kill-session -a ends every other tmux session of the human's; end the one you started, or ask the human").destroys()
	case tool == "screen" && (words[0] == "quit" || words[0] == "kill" && strings.Contains(strings.Join(words, " "), "-a")):
		return shared("session.kill", "screen -X "+words[0]+" ends the screen session it finds, with what runs in it; name the session you started (screen -S NAME -X quit), or ask the human").destroys()
	}
	return nothing
}

// gitSubmodule rates git submodule: deinit -f (and --force) removes the
// submodules' work trees with their uncommitted changes, and update -f
// throws those changes away; the rest is local work or a fetch.
func gitSubmodule(args []string) Effect {
	ops := operandsOf(args)
	if len(ops) == 0 {
		return nothing
	}
	force := hasAny(args, "-f", "--force")
	switch ops[0] {
	case "deinit":
		if force {
			return local("git.submodule.deinit", "git submodule deinit -f removes the submodules' work trees with their uncommitted changes, which no snapshot keeps; commit or stash them first, or ask the human").destroys()
		}
	case "update":
		if force {
			return local("git.submodule.update", "git submodule update --force throws away the submodules' uncommitted changes; commit or stash them first").destroys()
		}
	}
	return nothing
}

// screenNamed reports a screen run that names its session (-S NAME, -r
// NAME, -x NAME): its -X command reaches that session only.
func screenNamed(inv *shell.Invocation) bool {
	for i := 1; i+1 < len(inv.Args); i++ {
		switch inv.Args[i] {
		case "-S", "-r", "-x", "-R", "-D", "-d":
			return !strings.HasPrefix(inv.Args[i+1], "-")
		}
	}
	return false
}
