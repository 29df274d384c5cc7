package policy

import (
	"fmt"
	"testing"

	"github.com/airlock-dev/airlock/internal/classify"
)

// TestSelfProtectionAsksClassify closes the drift class of program lists
// kept in two places: it walks classify's own tables, so a wrapper or a
// process tool added to classify is checked here without a line of this
// file changing. Every wrapper classify knows is looked through by
// self-protection (an airlock verb behind it is refused), and every
// program classify says reaches other processes is refused when it is
// pointed at airlock's.
func TestSelfProtectionAsksClassify(t *testing.T) {
	f := newFixture(t)
	p := f.load()
	cwd := f.path("proj")
	deny := func(cmd string) {
		t.Helper()
		v := p.DecideIn(Unattended, Action{Kind: Shell, Tool: "Bash", Command: cmd, Cwd: cwd})
		if v.Decision != Deny {
			t.Errorf("%s: got %s by %s, want deny", cmd, v.Decision, v.Rule)
		}
	}
	// The words a wrapper needs before the command it runs, where it
	// needs any; every other wrapper is tried with the command right
	// after its name.
	before := map[string]string{
		"timeout": "5", "gtimeout": "5", "nice": "-n 5", "chrt": "1", "taskset": "-c 1", "watch": "-n 1",
		"xargs": "-0", "nsenter": "-t 1", "flock": "/tmp/l", "chroot": "/", "prlimit": "--nofile=1",
		"cpulimit": "-l 5", "numactl": "-C 1", "faketime": "'2020-01-01'", "retry": "-t 3 --", "sudo": "-u root",
		"runuser": "-u me --", "ssh": "host", "time": "-p", "stdbuf": "-o0", "ionice": "-c 3",
	}
	// Wrappers that take the command as one word of shell text.
	text := map[string]string{"su": `su root -c "%s"`, "trap": `trap "%s" EXIT`, "parallel": `parallel ::: "%s"`}
	const verb = "airlock rules add allow 'git push'"
	for _, w := range classify.Wrappers() {
		if !classify.IsWrapper(w) {
			t.Errorf("%s: listed by classify.Wrappers but not classify.IsWrapper", w)
		}
		if form, ok := text[w]; ok {
			deny(fmt.Sprintf(form, verb))
			continue
		}
		deny(w + " " + before[w] + " " + verb)
	}
	for _, name := range classify.ProcessPrograms() {
		switch classify.Reaches(name) {
		case classify.ReachPID:
			deny(name + " -9 -1")
		case classify.ReachPattern:
			deny(name + " -f airlock")
		case classify.ReachName:
			deny(name + " airlock")
		case classify.ReachAttach:
			deny(name + " -p 1") // PID 1 is one self-protection always counts as airlock's
		case classify.ReachDump:
			deny(name + " 1")
		default:
			t.Errorf("%s: listed by classify.ProcessPrograms with no reach", name)
		}
	}
}
