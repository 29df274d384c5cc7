package policy

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
)

// This file is the phase of self-protection that reads signals and
// process tampering: kill, pkill and killall aimed at airlock's own
// processes (its hook, hookd, serve, notify, the MCP proxy), and
// debuggers or tracers attached to a process. Stopping the human's
// dashboard or notifier, or rewriting a running airlock's memory, takes
// the human out of the loop as surely as editing the policy.
//
// What a pattern matches is read against the command lines airlock's
// processes have; a pattern airlock cannot read (a run-time word, a
// regular expression Go cannot compile) counts as matching. A PID is
// airlock's when /proc says so now: between the check and the signal the
// PID may be reused, and on a system without /proc a PID is unknown and
// is let through (best effort, see docs/THREAT-MODEL.md).

// airlockProcessLines are the names and command lines airlock's resident
// processes run with.
func (g *guard) airlockProcessLines() []string {
	// Every binary an install puts side by side runs as a process that
	// keeps the human in the loop or the agent fenced: the team sync
	// (airlock-teamsync, which ships held items and applies the team's
	// decisions), the egress proxy, the dashboard, the team server; and
	// the runner and bridge of a contained run.
	names := append(slices.Clone(airlockBinaries), "airlock-run", "airlock-bridge")
	if g.exeName != "" {
		names = append(names, g.exeName)
	}
	verbs := []string{"hookd", "serve", "notify", "mcp serve", "mcp run", "hook claude-code --event PreToolUse",
		"proxy", "team sync", "team serve", "team notify", "sync --interval 10s", "join"}
	var out []string
	for _, n := range names {
		out = append(out, n, "/usr/local/bin/"+n)
		for _, v := range verbs {
			out = append(out, n+" "+v, "/usr/local/bin/"+n+" "+v)
		}
	}
	return out
}

// patternHitsAirlock reports whether a pkill or killall -r pattern could
// select one of airlock's processes.
func (g *guard) patternHitsAirlock(pat string) bool {
	re, err := regexp.Compile("(?i)" + pat)
	if err != nil {
		return true
	}
	for _, l := range g.airlockProcessLines() {
		if re.MatchString(l) {
			return true
		}
	}
	return false
}

// pidIsAirlock reports whether a PID (or -PGID) names one of airlock's
// processes now. "-1" is every process the caller may signal.
func (g *guard) pidIsAirlock(w string) bool {
	w = strings.TrimPrefix(w, "-")
	if w == "1" || w == "" {
		return w == "1"
	}
	if strings.Trim(w, "0123456789") != "" {
		return false
	}
	if exe, err := g.fs.Readlink("/proc/" + w + "/exe"); err == nil && g.airlockProgram(strings.TrimSuffix(filepath.Base(strings.TrimSuffix(exe, " (deleted)")), ".exe")) {
		return true
	}
	if data, err := g.fs.ReadFile("/proc/" + w + "/cmdline"); err == nil {
		argv0, _, _ := strings.Cut(string(data), "\x00")
		if g.airlockProgram(filepath.Base(argv0)) {
			return true
		}
	}
	return false
}

// signalValueFlags are the options of kill, pkill and killall that take
// a value (so that the value is not read as a PID or pattern).
func signalValueFlags(name string) bool {
	switch name {
	case "-s", "--signal", "-n", "-g", "-G", "-P", "-t", "-u", "-U", "--ns", "--nslist", "-q", "--queue",
		"-o", "-y", "-Z", "--older-than", "--younger-than", "--user", "--group", "--parent", "--session",
		"--terminal", "--pgroup", "--euid", "--uid", "-d", "--delimiter", "--context":
		return true
	}
	return false
}

// signals returns the refusal for a signal or an attach aimed at
// airlock's processes, or nil.
func (c *call) signals(inv *classify.Invocation) *refusal {
	name := inv.Name()
	// Which programs reach other processes, and how, is classify's
	// knowledge (classify.Reaches); this phase reads their arguments.
	reach := classify.Reaches(name)
	if reach == classify.ReachNone {
		return nil
	}
	g := c.g
	held := func(what string) *refusal {
		return &refusal{RuleAirlockCommand, name + " " + what + ": it could stop or tamper with airlock's own processes (its hook service, dashboard or notifier), which keep the human in the loop. Leave airlock's processes alone and go on with your task; if this is really needed, ask the human to do it."}
	}
	var operands []string
	regex, pidFile, children := false, false, false
	for i := 1; i < len(inv.Args); i++ {
		a := inv.Args[i]
		if reach == classify.ReachPattern && (a == "-P" || a == "--parent") && i+1 < len(inv.Args) && ownPIDWord(inv.Args[i+1]) {
			// pkill -P $$: the shell's own children, never airlock's
			// service (which its own client started, not this shell).
			children = true
			i++
			continue
		}
		if inv.IsDynamic(i) {
			if reach == classify.ReachPID && !strings.Contains(strings.ToLower(a), "airlock") && !strings.Contains(strings.ToLower(a), "hookd") {
				// Where the PIDs come from decides (selfsignalpids.go).
				if ref := c.dynamicPID(inv, a); ref != nil {
					return ref
				}
				continue
			}
			return held("with a word known only when it runs (" + clipText(a) + ")")
		}
		if a == "--" {
			for j := i + 1; j < len(inv.Args); j++ {
				if inv.IsDynamic(j) && reach == classify.ReachPID {
					if ref := c.dynamicPID(inv, inv.Args[j]); ref != nil {
						return ref
					}
					continue
				}
				operands = append(operands, inv.Args[j])
			}
			break
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			flag, _, hasValue := strings.Cut(a, "=")
			debugger := reach == classify.ReachAttach
			if debugger && len(a) > 2 && a[1] != '-' && a[1] == 'p' && strings.Trim(a[2:], "0123456789") == "" {
				flag, hasValue, a = "-p", true, "-p="+a[2:] // strace -p1234
			}
			switch {
			case flag == "-l" || flag == "-L" || flag == "--list" || flag == "--help" || flag == "-V" || flag == "--version":
				if reach == classify.ReachPID || reach == classify.ReachName {
					return nil
				}
			case flag == "-r" || flag == "--regexp":
				regex = true
			case flag == "-F" || flag == "--pidfile":
				pidFile = true
				if !hasValue {
					i++
				}
			case reach == classify.ReachPID && strings.Trim(a[1:], "0123456789") == "" && i > 1:
				operands = append(operands, a) // kill -9 -1: a process group
			case debugger && (flag == "-p" || flag == "--pid" || flag == "-pid" || flag == "--attach-pid" || flag == "--attach-name" || flag == "-n"):
				if !hasValue {
					i++
					if i < len(inv.Args) {
						if inv.IsDynamic(i) {
							return held("attaching to a process known only when it runs")
						}
						a = inv.Args[i]
					}
				} else {
					_, a, _ = strings.Cut(a, "=")
				}
				if flag == "--attach-name" || flag == "-n" || !strings.HasPrefix(a, "-") && g.pidIsAirlock(a) || strings.Trim(a, "0123456789") != "" {
					return held("attaching to " + clipText(a))
				}
			case signalValueFlags(flag) && !hasValue:
				i++
			}
			continue
		}
		operands = append(operands, a)
	}
	switch reach {
	case classify.ReachPID:
		for _, o := range operands {
			if g.pidIsAirlock(o) {
				return held("signalling " + o + ", which is airlock's (or every process)")
			}
		}
	case classify.ReachPattern:
		if pidFile {
			return held("signalling the PIDs a file holds")
		}
		if len(operands) == 0 && children {
			return nil
		}
		if len(operands) == 0 {
			return held("selecting processes without a pattern")
		}
		for _, o := range operands {
			if g.patternHitsAirlock(o) {
				return held("by a pattern (" + clipText(o) + ") that matches airlock's processes")
			}
		}
	case classify.ReachName:
		if len(operands) == 0 {
			return held("selecting processes without a name")
		}
		for _, o := range operands {
			if regex && g.patternHitsAirlock(o) || !regex && g.airlockProgram(filepath.Base(o)) {
				return held("by a name (" + clipText(o) + ") that matches airlock's processes")
			}
		}
	case classify.ReachDump:
		for _, o := range operands {
			if g.pidIsAirlock(o) {
				return held("dumping " + o + ", which is airlock's")
			}
		}
	}
	return nil
}

// signalWords are the words with which code sends a signal: kill (perl,
// os.kill, Process.kill, process.kill, kill -9), its relatives, and the
// signals' names.
var signalWords = []string{"kill", "posix_kill", "pkill", "killall", "killpg", "tgkill", "signal", "send_signal", "sigstop", "sigkill", "sigterm", "sigint", "sighup", "sigquit", "sigtstp", "sigcont", "sigusr1", "sigusr2"}

// signalMention reports, for folded code that mentions airlock, a word
// with which the code may send a signal (FINDINGS-7 G12: perl -e 'kill 9,
// `pgrep airlock`', ruby Process.kill, node process.kill, python os.kill
// with pgrep's output): code that names airlock and signals is refused
// as the same signal typed as a command would be.
func signalMention(t string) string {
	for _, v := range signalWords {
		for from := 0; ; {
			i := strings.Index(t[from:], v)
			if i < 0 {
				break
			}
			i += from
			if boundary(t, i-1) && boundary(t, i+len(v)) {
				return "airlock and a signal (" + v + ")"
			}
			from = i + 1
		}
	}
	return ""
}
