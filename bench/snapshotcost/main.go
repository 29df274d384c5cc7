// Command snapshotcost times what a snapshot costs the hook before it
// lets destruction inside a project run, as an agent pays for it: one
// hook process per tool call.
//
// It builds, in a temporary directory, a git repository with -files
// committed files (1 KiB each) and -untracked MiB of untracked data in
// files of 1 MiB, then times the whole hook process (airlock hook
// claude-code, unattended mode) for:
//
//   - rm -rf data: the untracked data, a named target (every byte hashed);
//   - git clean -fdx: the same data found through git ls-files;
//   - git reset --hard with 100 tracked files changed (the untracked
//     data is not taken: reset does not touch it);
//
// and airlock undo of the rm -rf snapshot after the data is deleted.
// Each case runs -n times on a fresh repository state and the median is
// printed, with the snapshot's size.
//
//	go run ./bench/snapshotcost                        # builds ./cmd/airlock; 10000 files, 100 MiB, 3 runs
//	go run ./bench/snapshotcost -airlock /tmp/airlock -n 3
//
// Nothing outside the temporary directory is touched; it is removed at
// the end unless -keep.
package main

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

func main() {
	bin := flag.String("airlock", "", "airlock binary; empty: build ./cmd/airlock")
	files := flag.Int("files", 10000, "committed files")
	untracked := flag.Int("untracked", 100, "MiB of untracked data")
	n := flag.Int("n", 3, "runs per case")
	keep := flag.Bool("keep", false, "keep the temporary directory")
	flag.Parse()
	root, err := os.MkdirTemp("", "airlock-snapshotcost-")
	check(err)
	if !*keep {
		defer os.RemoveAll(root)
	}
	if *bin == "" {
		*bin = filepath.Join(root, "airlock")
		run("", nil, "go", "build", "-o", *bin, "./cmd/airlock")
	}
	proj := filepath.Join(root, "proj")
	env := append(os.Environ(), "HOME="+filepath.Join(root, "home"), "XDG_CONFIG_HOME="+filepath.Join(root, "config"),
		"AIRLOCK_HOME="+filepath.Join(root, "state"), "AIRLOCK_MODE=unattended", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=b", "GIT_AUTHOR_EMAIL=b@example.com", "GIT_COMMITTER_NAME=b", "GIT_COMMITTER_EMAIL=b@example.com")
	check(os.MkdirAll(filepath.Join(root, "home"), 0o700))
	build(proj, *files, env)
	fmt.Printf("repository: %d committed files of 1 KiB, %d MiB untracked in %d files; airlock %s\n", *files, *untracked, *untracked, *bin)

	dataDir := filepath.Join(proj, "data")
	makeData := func() {
		check(os.MkdirAll(dataDir, 0o755))
		for i := 0; i < *untracked; i++ {
			b := make([]byte, 1<<20)
			_, _ = rand.Read(b)
			check(os.WriteFile(filepath.Join(dataDir, fmt.Sprintf("blob-%03d.bin", i)), b, 0o644))
		}
	}
	changeTracked := func() {
		for i := 0; i < 100; i++ {
			check(os.WriteFile(filepath.Join(proj, "src", fmt.Sprintf("d%02d", i%100), fmt.Sprintf("f%05d.txt", i)), []byte(fmt.Sprintf("changed %d\n", i)), 0o644))
		}
	}
	var cpu time.Duration // of the last hook run, its git processes included
	hook := func(cmd string) (time.Duration, string) {
		ev, _ := json.Marshal(map[string]any{"session_id": "bench", "cwd": proj, "hook_event_name": "PreToolUse",
			"tool_name": "Bash", "tool_input": map[string]string{"command": cmd}})
		c := exec.Command(*bin, "hook", "claude-code", "--event", "PreToolUse")
		c.Env, c.Stdin = env, bytes.NewReader(ev)
		start := time.Now()
		out, err := c.Output()
		d := time.Since(start)
		check(err)
		cpu = c.ProcessState.UserTime() + c.ProcessState.SystemTime()
		if !strings.Contains(string(out), "destructive.snapshot") || !strings.Contains(string(out), "took snapshot") {
			fmt.Fprintf(os.Stderr, "snapshotcost: %s was not snapshotted: %s\n", cmd, out)
			os.Exit(1)
		}
		return d, string(out)
	}
	lastID := func() (string, int64) {
		out := run(proj, env, *bin, "snapshots", "list", "--json")
		var all []struct {
			ID   string
			Size int64
		}
		check(json.Unmarshal([]byte(out), &all))
		return all[len(all)-1].ID, all[len(all)-1].Size
	}
	type result struct {
		name string
		runs []time.Duration
		cpus []time.Duration
		size int64
	}
	var results []result
	add := func(name string, d time.Duration, size int64) {
		for i := range results {
			if results[i].name == name {
				results[i].runs = append(results[i].runs, d)
				results[i].cpus = append(results[i].cpus, cpu)
				return
			}
		}
		results = append(results, result{name, []time.Duration{d}, []time.Duration{cpu}, size})
	}
	for i := 0; i < *n; i++ {
		makeData() // new bytes every run: the snapshot writes new objects
		d, _ := hook("rm -rf data")
		id, size := lastID()
		add("hook: rm -rf data (snapshot taken)", d, size)
		check(os.RemoveAll(dataDir))
		start := time.Now()
		u := exec.Command(*bin, "undo", id)
		u.Dir, u.Env = proj, env
		check(u.Run())
		cpu = u.ProcessState.UserTime() + u.ProcessState.SystemTime()
		add("airlock undo of it (data deleted)", time.Since(start), size)

		d, _ = hook("git clean -fdx")
		_, size = lastID()
		add("hook: git clean -fdx (objects already stored)", d, size)

		changeTracked()
		d, _ = hook("git reset --hard")
		_, size = lastID()
		add("hook: git reset --hard, 100 files changed", d, size)
		run(proj, env, "git", "checkout", "-q", "--", "src")
		check(os.RemoveAll(filepath.Join(root, "state")))
	}
	for _, r := range results {
		slices.Sort(r.runs)
		slices.Sort(r.cpus)
		fmt.Printf("%-46s wall median %8s  min %8s  max %8s  cpu median %8s  (%d runs, snapshot %.1f MiB)\n", r.name,
			r.runs[len(r.runs)/2].Round(time.Millisecond), r.runs[0].Round(time.Millisecond), r.runs[len(r.runs)-1].Round(time.Millisecond),
			r.cpus[len(r.cpus)/2].Round(time.Millisecond), len(r.runs), float64(r.size)/(1<<20))
	}
	fmt.Println("cpu: user+system time of the process and the git processes it waited for")
	if *keep {
		fmt.Println("kept in", root)
	}
}

// build makes the repository with its committed files.
func build(proj string, files int, env []string) {
	for i := 0; i < files; i++ {
		dir := filepath.Join(proj, "src", fmt.Sprintf("d%02d", i%100))
		check(os.MkdirAll(dir, 0o755))
		line := bytes.Repeat([]byte(fmt.Sprintf("file %d\n", i)), 1024/len(fmt.Sprintf("file %d\n", i))+1)[:1024]
		check(os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%05d.txt", i)), line, 0o644))
	}
	run(proj, env, "git", "init", "-q")
	run(proj, env, "git", "add", "-A")
	run(proj, env, "git", "commit", "-q", "-m", "files")
}

func run(dir string, env []string, name string, args ...string) string {
	c := exec.Command(name, args...)
	c.Dir, c.Env, c.Stderr = dir, env, os.Stderr
	out, err := c.Output()
	if err != nil {
		fmt.Fprintf(os.Stderr, "snapshotcost: %s %s: %v\n", name, strings.Join(args, " "), err)
		os.Exit(1)
	}
	return string(out)
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "snapshotcost:", err)
		os.Exit(1)
	}
}
