package classify

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// This file reads settings written through a tool's own verb that make
// the tool run a program at its next use, the human's too (FINDINGS-9
// P14), and runners that hand a file to a known interpreter (P12):
//
//   - gh config set editor|pager|browser CMD, kubectl config
//     set-credentials --exec-command=CMD (and set users.X.exec.command),
//     aws configure set [profile.X.]credential_process CMD: CMD is read as
//     the command it is;
//   - systemctl enable|link of a unit file by its path (it runs at the
//     next login or boot): held, and the unit's commands are read;
//   - rustup toolchain link NAME DIR, asdf plugin add NAME DIR, mise
//     plugins install|link NAME DIR of a local directory: the
//     programs there run for every later cargo or tool, and are not read;
//   - yarn node FILE is node FILE (uv run FILE.py is python FILE.py:
//     publish.go uvRun).

// laterPrograms is the effect of the settings and runners above for one
// run.
func (c *Classifier) laterPrograms(inv *shell.Invocation) Effect {
	args := inv.Args
	if len(args) < 3 {
		return nothing
	}
	var e Effect
	ops, at := operandWords(inv)
	switch inv.Name() {
	case "gh":
		// gh config set [-h HOST] KEY VALUE
		ops, at = nil, nil
		for j := 1; j < len(args); j++ {
			switch a := args[j]; {
			case a == "-h" || a == "--host":
				j++
			case !strings.HasPrefix(a, "-"):
				ops, at = append(ops, a), append(at, j)
			}
		}
		if len(ops) >= 4 && ops[0] == "config" && ops[1] == "set" {
			switch ops[2] {
			case "editor", "pager", "browser":
				e.Add(c.embedded("gh config set "+ops[2]+" (gh runs it later)", ops[3], inv.IsDynamic(at[3])))
			}
		}
	case "kubectl", "oc":
		if len(ops) >= 2 && ops[0] == "config" {
			switch ops[1] {
			case "set-credentials":
				for j := 1; j < len(args); j++ {
					v, ok := strings.CutPrefix(args[j], "--exec-command=")
					if !ok && args[j] == "--exec-command" && j+1 < len(args) {
						j++
						v, ok = args[j], true
					}
					if ok && v != "" {
						e.Add(c.embedded("kubectl config set-credentials --exec-command (kubectl runs it at every call as that user)", shell.Join([]string{v}), inv.IsDynamic(j)))
					}
				}
			case "set":
				if len(ops) >= 4 && strings.HasPrefix(ops[2], "users.") && strings.HasSuffix(ops[2], ".exec.command") {
					e.Add(c.embedded("kubectl config set "+ops[2]+" (kubectl runs it at every call as that user)", shell.Join([]string{ops[3]}), inv.IsDynamic(at[3])))
				}
			}
		}
	case "aws":
		if len(ops) >= 4 && ops[0] == "configure" && ops[1] == "set" {
			if k := ops[2]; k == "credential_process" || strings.HasSuffix(k, ".credential_process") {
				e.Add(c.embedded("aws configure set "+k+" (the AWS CLI and SDKs run it at every call)", ops[3], inv.IsDynamic(at[3])))
			}
		}
	case "systemctl":
		if len(ops) >= 2 && (ops[0] == "enable" || ops[0] == "link" || ops[0] == "reenable") {
			for k, u := range ops[1:] {
				if !strings.Contains(u, "/") {
					continue // a unit by name: one installed where units live
				}
				e.Add(opaque("systemd.unit-path", "systemctl "+ops[0]+" "+clip(u)+" makes a unit file of the project's run at the next login or boot, outside the agent's session; install units where the human keeps them").sharedTier())
				if inv.IsDynamic(at[1+k]) || c.FS == nil {
					continue
				}
				if data, err := c.readFile(u); err == nil {
					e.Add(c.embeddedIn(u, "a systemd unit", string(data)))
				}
			}
		}
	case "rustup":
		if len(ops) >= 4 && ops[0] == "toolchain" && ops[1] == "link" && (inv.IsDynamic(at[3]) || localDir(ops[3])) {
			e.Add(opaque("toolchain.link", "rustup toolchain link "+ops[2]+" "+clip(ops[3])+" makes the programs in "+clip(ops[3])+" the cargo and rustc of every later run that selects it, and airlock does not read them").sharedTier())
		}
	case "asdf", "mise", "rtx":
		if len(ops) >= 4 && (ops[0] == "plugin" || ops[0] == "plugins") && (ops[1] == "add" || ops[1] == "install" || ops[1] == "link") {
			if d := ops[3]; inv.IsDynamic(at[3]) || strings.HasPrefix(d, "./") || strings.HasPrefix(d, "../") || strings.HasPrefix(d, "/") && localDir(d) {
				e.Add(opaque("plugin.local", inv.Name()+" "+ops[0]+" "+ops[1]+" "+ops[2]+" "+clip(d)+" installs a plugin whose scripts run whenever its tools are used, and airlock does not read them").sharedTier())
			}
		}
	case "yarn", "yarnpkg":
		if args[1] == "node" {
			e.Add(c.embedded("yarn node", "node "+shell.Join(args[2:]), inv.AnyDynamic(2)))
		}
	}
	return e
}

// operandWords returns a run's words after its name that are not
// options, and their indexes.
func operandWords(inv *shell.Invocation) ([]string, []int) {
	var ops []string
	var at []int
	for j := 1; j < len(inv.Args); j++ {
		a := inv.Args[j]
		if strings.HasPrefix(a, "-") {
			continue
		}
		ops = append(ops, a)
		at = append(at, j)
	}
	return ops, at
}

// vimKeystrokes reads vim -s FILE (and -W's partner, the keystrokes vim
// replays as if typed): its ":" lines that run shell commands are the
// command's runs, and its text goes to self-protection; other keystrokes
// (a normal-mode !!) are not read, so the run is held (FINDINGS-9 P11).
func (c *Classifier) vimKeystrokes(inv *shell.Invocation) Effect {
	switch inv.Name() {
	case "vim", "nvim", "gvim", "vi", "mvim":
	default:
		return nothing
	}
	args := inv.Args[1:]
	for i, a := range args {
		if a == "--" {
			break
		}
		if a == "-e" || a == "-E" || strings.HasPrefix(a, "-e") && !strings.HasPrefix(a, "--") {
			return nothing // Ex mode: -s is silent, not a file
		}
		if a != "-s" || i+1 >= len(args) {
			continue
		}
		f := args[i+1]
		e := opaque("vim.keystrokes", inv.Name()+" -s "+clip(f)+" replays keystrokes from a file, which can run shell commands airlock does not read")
		data, failed, ok := c.readScript(inv, f, inv.IsDynamic(2+i))
		if !ok {
			e.Add(failed)
			return e
		}
		c.keepCode(inv.Name()+" -s "+f, f, data)
		for _, line := range strings.Split(string(data), "\n") {
			if t, ok := strings.CutPrefix(strings.TrimSpace(line), ":"); ok {
				if _, cmd, ok := strings.Cut(t, "!"); ok && strings.TrimSpace(cmd) != "" {
					e.Add(c.embedded(inv.Name()+" -s :!", cmd, false))
				}
			}
		}
		return e
	}
	return nothing
}
