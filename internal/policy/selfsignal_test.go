package policy

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// TestSignalsToAirlock: signals by pattern, by name and by PID that reach
// airlock's own processes (hook service, dashboard, notifier, MCP proxy),
// debuggers attached to them and writes to a process's memory are
// refused; signals to other processes are not.
func TestSignalsToAirlock(t *testing.T) {
	f := newFixture(t)
	p := f.load()
	cwd := f.path("proj")
	deny := []string{
		"pkill -f airlock", "pkill -f hookd", "pkill -f 'airlock serve'", "pkill -9 -f 'air.*'", "pkill -f serve",
		"pkill -i AIRLOCK", "pkill -u me", "pkill -F run.pid", "pkill -f '('", "pkill -f \"$X\"",
		"killall airlock", "killall airlock-notify", "killall -9 airlock-mcp", "killall /usr/local/bin/airlock",
		"killall -r 'air'", "killall -u me", "kill -9 -1", "kill $(pgrep -f airlock)", "kill `pidof airlock`",
		"gdb -p $(pgrep airlock)", "strace -p \"$P\"", "lldb --attach-name airlock",
		"printf x > /proc/1234/mem", "dd of=/proc/self/task/9/mem", "python3 -c 'open(\"/proc/77/mem\",\"wb\")'",
	}
	// Team sync (issue 25): by name, by pattern, by its command line.
	deny = append(deny, "killall airlock-teamsync", "pkill airlock-teamsync", "pkill -f airlock-teamsync", "pkill teamsync",
		"pkill -f 'team sync'", "pkill -f 'teamsync sync'", "killall -r teamsync", "pkill -f airlock-proxy", "killall airlock-proxy")
	allow := []string{"pkill node", "pkill -f server", "pkill -f rsync", "pkill -f mitmdump", "killall node", "kill 999999", "kill -l", "kill \"$pid\"", "pgrep -f airlock", "gdb ./a.out"}
	for _, c := range deny {
		v := p.DecideIn(Unattended, Action{Kind: Shell, Tool: "Bash", Command: c, Cwd: cwd})
		if v.Decision != Deny {
			t.Errorf("%s: got %s by %s, want deny", c, v.Decision, v.Rule)
		}
	}
	for _, c := range allow {
		v := p.DecideIn(Unattended, Action{Kind: Shell, Tool: "Bash", Command: c, Cwd: cwd})
		if v.Decision == Deny {
			t.Errorf("%s: got deny by %s", c, v.Rule)
		}
	}

	// A PID is airlock's when /proc says so: a program run as "airlock"
	// (a copy of sleep) is, the same program under another name is not.
	// This part reads the machine's /proc (no test of the package runs in
	// parallel with another).
	hideProc = false
	t.Cleanup(func() { hideProc = true })
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep")
	}
	data, err := os.ReadFile(sleep)
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	for name, want := range map[string]bool{"airlock": true, "airlock-teamsync": true, "other": false} {
		bin := filepath.Join(dir, name)
		if err := os.WriteFile(bin, data, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "300")
		if err := cmd.Start(); err != nil {
			t.Skip(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		pid := strconv.Itoa(cmd.Process.Pid)
		for _, c := range []string{"kill " + pid, "kill -TERM " + pid, "kill -s KILL " + pid, "gdb -p " + pid, "strace -p" + pid, "gcore " + pid} {
			v := p.DecideIn(Unattended, Action{Kind: Shell, Tool: "Bash", Command: c, Cwd: cwd})
			if (v.Decision == Deny) != want {
				t.Errorf("%s (%s): got %s by %s", c, name, v.Decision, v.Rule)
			}
		}
	}
}
