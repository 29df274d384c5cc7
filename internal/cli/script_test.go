package cli

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/notify/notifycmd"
	"github.com/airlock-dev/airlock/internal/render"
	"github.com/airlock-dev/airlock/internal/snapshot"
)

// TestMain lets the test binary run as the airlock command inside scripts.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"airlock": func() { os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		// airlock-notify is a binary of its own (cmd/airlock-notify).
		"airlock-notify": func() { os.Exit(notifycmd.Main(os.Args[1:], os.Stdout, os.Stderr, os.Getenv)) },
		// airlock-hook stands in for the hook client (cmd/airlock-hook,
		// tested there as a process with its service): it sits beside
		// airlock, so install writes its line, and it answers as the
		// client does when it has no service: "airlock hook ...".
		"airlock-hook": func() {
			os.Exit(Main(append([]string{"hook"}, os.Args[1:]...), os.Stdin, os.Stdout, os.Stderr))
		},
		// airlock-statusline is "airlock statusline" in a binary of its
		// own (cmd/airlock-statusline); beside airlock, install runs it.
		"airlock-statusline": func() {
			os.Exit(Main(append([]string{"statusline"}, os.Args[1:]...), os.Stdin, os.Stdout, os.Stderr))
		},
		// A stand-in for airlock's egress proxy, as the hook checks it
		// (proxyrecord_script_test.go).
		"airlock-test-proxy": testProxyMain,
	})
}

// TestScripts runs the CLI scripts under testdata/script.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			// A fresh, private home for every script: airlock never reads or
			// writes the real user's configuration or state in tests.
			env.Setenv("HOME", env.WorkDir+"/home")
			env.Setenv("XDG_CONFIG_HOME", env.WorkDir+"/home/.config")
			env.Setenv("XDG_STATE_HOME", env.WorkDir+"/home/.local/state")
			// Hook events come from an interactive Claude Code session, as
			// it says to its hooks, unless a script says otherwise
			// (hook_print_mode.txtar): without it airlock assumes nobody
			// can answer an ask.
			env.Setenv("CLAUDE_CODE_SESSION_ATTENDED", "1")
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode":  cmdExitcode,
			"expand":    cmdExpand,
			"queueid":   cmdQueueID,
			"tamper":    cmdTamper,
			"cutlines":  cmdCutLines,
			"noraw":     cmdNoRaw,
			"fill":      cmdFill,
			"snapid":    cmdSnapID,
			"treesum":   cmdTreeSum,
			"ntfy":      cmdNtfy,
			"testproxy": cmdTestProxy,
		},
	})
}

// cmdExitcode runs a program and checks its exact exit status, which the
// hook protocol gives meaning to (2 blocks a tool call, 1 does not):
//
//	exitcode 2 airlock hook claude-code
func cmdExitcode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode: %v", err)
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exitcode: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("exit status %d, want %d", got, want)
	}
}

// cmdExpand replaces $WORK in files with the script's work directory, so
// recorded wire events can carry real absolute paths:
//
//	expand read-ssh.json write-policy.json
func cmdExpand(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: expand FILE...")
	}
	for _, f := range args {
		data := ts.ReadFile(f)
		ts.Check(os.WriteFile(ts.MkAbs(f), []byte(strings.ReplaceAll(data, "$WORK", ts.Getenv("WORK"))), 0o644))
	}
}

// scriptJournal opens the journal of the script's private home.
func scriptJournal(ts *testscript.TestScript) *journal.Journal {
	j, err := journal.Open(filepath.Join(ts.Getenv("XDG_STATE_HOME"), "airlock", "journal"))
	ts.Check(err)
	return j
}

// cmdQueueID sets VAR to the id of the Nth queue item (1 is the oldest),
// since ids come from the hash chain and differ on every run; with LEN,
// to its first LEN characters, a prefix:
//
//	queueid PUSH 1
//	queueid SHORT 1 3
func cmdQueueID(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 || len(args) > 3 {
		ts.Fatalf("usage: queueid VAR N [LEN]")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	items, err := scriptJournal(ts).Queue(time.Now())
	ts.Check(err)
	if n < 1 || n > len(items) {
		ts.Fatalf("queueid: %d items, no item %d", len(items), n)
	}
	id := items[n-1].ID
	if len(args) == 3 {
		l, err := strconv.Atoi(args[2])
		ts.Check(err)
		id = id[:min(l, len(id))]
	}
	ts.Setenv(args[0], id)
}

// cmdTamper replaces text in line N of the first journal segment, as
// someone covering their tracks would:
//
//	tamper 3 'git push' 'git pull'
func cmdTamper(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: tamper LINE OLD NEW")
	}
	n, err := strconv.Atoi(args[0])
	ts.Check(err)
	path := filepath.Join(scriptJournal(ts).Dir(), "journal-000001.jsonl")
	data, err := os.ReadFile(path)
	ts.Check(err)
	lines := strings.SplitAfter(string(data), "\n")
	if n < 1 || n > len(lines) || !strings.Contains(lines[n-1], args[1]) {
		ts.Fatalf("tamper: line %d does not hold %q", n, args[1])
	}
	lines[n-1] = strings.Replace(lines[n-1], args[1], args[2], 1)
	ts.Check(os.WriteFile(path, []byte(strings.Join(lines, "")), 0o600))
}

// cmdCutLines removes the last N lines of the first journal segment, as
// someone deleting their last steps would (HEAD is left as it was):
//
//	cutlines 2
func cmdCutLines(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: cutlines N")
	}
	n, err := strconv.Atoi(args[0])
	ts.Check(err)
	path := filepath.Join(scriptJournal(ts).Dir(), "journal-000001.jsonl")
	data, err := os.ReadFile(path)
	ts.Check(err)
	lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
	if n < 1 || n > len(lines) {
		ts.Fatalf("cutlines: the segment has %d lines", len(lines))
	}
	ts.Check(os.WriteFile(path, []byte(strings.Join(lines[:len(lines)-n], "")), 0o600))
}

// cmdNoRaw fails when the last command's stdout (or stderr) holds a raw
// control byte other than the line feed, an invisible or bidi rune, or
// a byte that is not UTF-8: what a human reads cannot lie.
//
//	noraw stdout
func cmdNoRaw(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 || args[0] != "stdout" && args[0] != "stderr" {
		ts.Fatalf("usage: noraw stdout|stderr")
	}
	for n, l := range strings.Split(ts.ReadFile(args[0]), "\n") {
		if i := render.Unclean(l); i >= 0 {
			ts.Fatalf("%s line %d holds a raw control or invisible character at byte %d: %q", args[0], n+1, i, l)
		}
	}
}

// cmdFill writes what a script cannot spell in a file: each <SPACES> in
// FILE becomes N spaces, each <ESC> an escape character.
//
//	fill push.json 4000
func cmdFill(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: fill FILE N")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	data := strings.ReplaceAll(ts.ReadFile(args[0]), "<SPACES>", strings.Repeat(" ", n))
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(strings.ReplaceAll(data, "<ESC>", "\x1b")), 0o644))
}

// cmdSnapID sets VAR to the id of the newest snapshot, since ids hold the
// time and a random part:
//
//	snapid ID
func cmdSnapID(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: snapid VAR")
	}
	st := snapshot.Store{StateDir: filepath.Join(ts.Getenv("XDG_STATE_HOME"), "airlock")}
	all, err := st.List()
	ts.Check(err)
	if len(all) == 0 {
		ts.Fatalf("snapid: no snapshot was taken")
	}
	ts.Setenv(args[0], all[len(all)-1].ID)
}

// cmdTreeSum writes to FILE one line per file under DIR: its path, type
// and permission bits, and the SHA-256 of its bytes (or a link's target),
// so that two trees compare byte for byte and mode for mode with cmp:
//
//	treesum proj before.txt
func cmdTreeSum(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: treesum DIR FILE")
	}
	root := ts.MkAbs(args[0])
	var b strings.Builder
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		fi, err := os.Lstat(path)
		if err != nil {
			return err
		}
		var content []byte
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			t, err := os.Readlink(path)
			if err != nil {
				return err
			}
			content = []byte(t)
		case fi.Mode().IsRegular():
			if content, err = os.ReadFile(path); err != nil {
				return err
			}
		}
		fmt.Fprintf(&b, "%s %s %x\n", rel, fi.Mode(), sha256.Sum256(content))
		return nil
	})
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(b.String()), 0o644))
}
