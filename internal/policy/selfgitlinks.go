package policy

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/airlock-dev/airlock/internal/classify"
)

// This file gives the links a git command checks out to the phase of
// self-protection that reads the links a command makes before it uses
// them (selfmadelinks.go; FINDINGS-6 F8, FINDINGS-5 L5): git checkout evil
// -- s10 && cat s10/serve.token, where s10 is a link to airlock's secrets
// committed on the branch evil. The tree a command writes into the
// worktree is in the repository already, and is read at decision time:
// git ls-tree -r lists its links (mode 120000) and git cat-file their
// targets, each becoming a link of the command's own, resolved like one ln
// makes. Every link of the tree counts, whether or not the command's
// pathspec or merge keeps it (a superset).
//
// Read: checkout and switch (their branch or start point), restore
// --source, reset --hard, merge, rebase, cherry-pick, read-tree -u, stash
// pop/apply, pull from "." (its branches) or from a remote whose
// remote-tracking branch is already fetched, worktree add (into the new
// worktree), and clone of a local repository (its HEAD into the clone,
// and later git runs in the clone read the source's revisions).
//
// Limits, named: a revision known only when the command runs, or one that
// does not resolve now (made or fetched by the same command) and names no
// file, taints the worktree (every path below it may be a link whose
// target is known only then: a later read or write through one is
// refused); so does a tree with more than maxGitLinks links, or a git that
// does not answer within gitTimeout. A pull or clone from another machine
// brings a tree airlock cannot read beforehand and is not followed
// (docs/THREAT-MODEL.md: containment is the answer).

// maxGitLinks bounds the links read from one tree (a variable, so that a
// test can reach it).
var maxGitLinks = 2000

const (
	// maxGitTreeBytes bounds git ls-tree's output.
	maxGitTreeBytes = 256 << 20
	// gitTimeout bounds each git run.
	gitTimeout = 3 * time.Second
)

// gitLimitError is a tree past the limits (a type, so that nothing is
// allocated at package initialisation).
type gitLimitError struct{}

func (gitLimitError) Error() string { return "past airlock's limits" }

var errGitLimit error = gitLimitError{}

// gitTreeLinks lists the links of a revision's tree in the repository at
// repo: path from the worktree's top → target. It is a variable so tests
// can count the runs.
var gitTreeLinks = func(repo, rev string) (map[string]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	env := append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", "GIT_CONFIG_NOSYSTEM=1")
	ls := exec.CommandContext(ctx, "git", "-C", repo, "ls-tree", "-r", "-z", "--full-tree", "--end-of-options", rev)
	ls.Env = env
	out, err := ls.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := ls.Start(); err != nil {
		return nil, err
	}
	var paths, oids []string
	rd := bufio.NewReader(io.LimitReader(out, maxGitTreeBytes+1))
	read := 0
	for {
		entry, err := rd.ReadString(0)
		read += len(entry)
		if read > maxGitTreeBytes {
			_ = ls.Process.Kill()
			_ = ls.Wait()
			return nil, errGitLimit
		}
		if strings.HasPrefix(entry, "120000 blob ") {
			meta, path, ok := strings.Cut(strings.TrimSuffix(entry, "\x00"), "\t")
			if ok {
				paths = append(paths, path)
				oids = append(oids, strings.TrimPrefix(meta, "120000 blob "))
			}
			if len(paths) > maxGitLinks {
				_ = ls.Process.Kill()
				_ = ls.Wait()
				return nil, errGitLimit
			}
		}
		if err != nil {
			break
		}
	}
	if err := ls.Wait(); err != nil {
		return nil, err
	}
	links := map[string]string{}
	if len(oids) == 0 {
		return links, nil
	}
	cat := exec.CommandContext(ctx, "git", "-C", repo, "cat-file", "--batch")
	cat.Env = env
	cat.Stdin = strings.NewReader(strings.Join(oids, "\n") + "\n")
	data, err := cat.Output()
	if err != nil {
		return nil, err
	}
	for i := range oids {
		head, rest, ok := bytes.Cut(data, []byte("\n"))
		f := strings.Fields(string(head))
		if !ok || len(f) != 3 || f[0] != oids[i] {
			return nil, fmt.Errorf("git cat-file: unexpected output")
		}
		n, err := strconv.Atoi(f[2])
		if err != nil || n < 0 || n+1 > len(rest) {
			return nil, fmt.Errorf("git cat-file: unexpected size")
		}
		links[paths[i]] = string(rest[:n])
		data = rest[n+1:]
	}
	return links, nil
}

// gitWrite is a tree a git run writes: the repository its revision is
// read in, the revision, and the worktree it lands in.
type gitWrite struct {
	repo, rev, into string
	// path says the revision word may be a path (git checkout FILE),
	// which is no tree when it does not resolve.
	path bool
	// strict says a revision that does not resolve now taints the
	// worktree (it is made or fetched by the command itself); a pull's
	// upstream or a stash that is not there yet is not followed.
	strict bool
}

// gitValueOptions are the options of the subcommands read here whose
// value is the next word.
func gitValueOptions(sub, a string) bool {
	switch a {
	case "-m", "-X", "--strategy", "--strategy-option", "-S", "--gpg-sign", "--exec", "-x", "--conflict",
		"--depth", "--branch", "-o", "--origin", "--reference", "-j", "--jobs", "--template", "--separate-git-dir",
		"--upload-pack", "--shallow-since", "--shallow-exclude", "--config", "--prefix", "--index-output", "--reason":
		return true
	case "-u", "-c":
		return sub == "clone"
	case "-s":
		return sub == "merge" || sub == "pull" || sub == "rebase"
	}
	return false
}

// gitCheckouts returns the trees a git run writes into a worktree.
func (c *call) gitCheckouts(inv *classify.Invocation, sub string, rest []string, cwd string) []gitWrite {
	top := c.gitTop(filepath.Clean(c.gitDir(inv, cwd)))
	repo := top
	if src, ok := c.clones[top]; ok {
		repo = src
	}
	// The operands before "--", whether each is dynamic, and the values
	// of the options that matter.
	off := len(inv.Args) - len(rest)
	var ops []string
	var dyn []bool
	var branch, source string
	hard, update := false, false
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a == "--":
			i = len(rest)
		case gitValueOptions(sub, a):
			if (a == "--branch") && i+1 < len(rest) {
				branch = rest[i+1]
			}
			i++
		case a == "-b" || a == "-B" || a == "-c" || a == "-C" || a == "--orphan":
			// checkout -b NEW [START], clone -b BRANCH
			if i+1 < len(rest) {
				branch = rest[i+1]
				i++
			}
		case (a == "-s" || a == "--source") && (sub == "restore" || sub == "checkout"):
			if i+1 < len(rest) {
				source = rest[i+1]
				i++
			}
		case strings.HasPrefix(a, "--source="):
			source = strings.TrimPrefix(a, "--source=")
		case a == "--hard":
			hard = true
		case a == "-u":
			update = true
		case a == "-" && (sub == "checkout" || sub == "switch" || sub == "merge" || sub == "rebase" || sub == "cherry-pick"):
			ops = append(ops, "@{-1}") // the branch checked out before
			dyn = append(dyn, false)
		case a == "--onto":
			if i+1 < len(rest) {
				ops = append(ops, rest[i+1])
				dyn = append(dyn, inv.IsDynamic(off+i+1))
				i++
			}
		case strings.HasPrefix(a, "-"):
		default:
			ops = append(ops, a)
			dyn = append(dyn, inv.IsDynamic(off+i))
		}
	}
	var out []gitWrite
	add := func(rev string, d bool, into string, path, strict bool) {
		if d || strings.ContainsAny(rev, "$`") {
			rev = "\x00"
		}
		if _, tip, ok := strings.Cut(rev, ".."); ok && !path {
			// A range (cherry-pick A..B): its tip's tree.
			rev = strings.TrimPrefix(tip, ".")
			if rev == "" {
				rev = "HEAD"
			}
		}
		out = append(out, gitWrite{repo: repo, rev: rev, into: into, path: path, strict: strict})
	}
	switch sub {
	case "checkout", "switch":
		if len(ops) > 0 {
			add(ops[0], dyn[0], top, sub == "checkout", true)
		}
	case "restore":
		if source != "" {
			add(source, false, top, false, true)
		}
	case "reset":
		if hard && len(ops) > 0 {
			add(ops[0], dyn[0], top, false, true)
		}
	case "merge", "rebase", "cherry-pick":
		for i, o := range ops {
			add(o, dyn[i], top, false, true)
		}
	case "read-tree":
		if update {
			for i, o := range ops {
				add(o, dyn[i], top, false, true)
			}
		}
	case "stash":
		if len(ops) > 0 && (ops[0] == "pop" || ops[0] == "apply") {
			rev := "stash@{0}"
			if len(ops) > 1 {
				rev = ops[1]
			}
			add(rev, false, top, false, false)
		}
	case "pull":
		switch {
		case len(ops) == 0:
			add("@{u}", false, top, false, false)
		case ops[0] == "." || ops[0] == "./":
			for i, o := range ops[1:] {
				add(o, dyn[i+1], top, false, true)
			}
		default:
			// Another repository: its remote-tracking branches, when
			// they are fetched already; otherwise not followed.
			for i, o := range ops[1:] {
				add(ops[0]+"/"+o, dyn[i+1] || dyn[0], top, false, false)
			}
		}
	case "worktree":
		if len(ops) >= 2 && ops[0] == "add" {
			if dyn[1] {
				c.res.taint(filepath.Clean(top))
				return out
			}
			into := filepath.Clean(c.g.rawAbs(ops[1], cwd))
			rev := "HEAD"
			if len(ops) > 2 {
				rev = ops[2]
			}
			add(rev, len(ops) > 2 && dyn[2], into, false, true)
		}
	case "clone":
		if len(ops) == 0 || dyn[0] {
			return out
		}
		src := filepath.Clean(c.g.rawAbs(strings.TrimPrefix(ops[0], "file://"), cwd))
		if fi, err := c.g.fs.Lstat(src); err != nil || !fi.IsDir() {
			return out // another machine's: not followed
		}
		dst := strings.TrimSuffix(filepath.Base(src), ".git")
		if len(ops) > 1 {
			if dyn[1] {
				return out
			}
			dst = ops[1]
		}
		into := filepath.Clean(c.g.rawAbs(dst, cwd))
		if c.clones == nil {
			c.clones = map[string]string{}
		}
		c.clones[into] = src
		rev := "HEAD"
		if branch != "" {
			rev = branch
		}
		out = append(out, gitWrite{repo: src, rev: rev, into: into, strict: true})
	}
	return out
}

// gitLinks records the links the trees of a git run make, or taints the
// worktree where they cannot be read.
func (c *call) gitLinks(inv *classify.Invocation, sub string, rest []string, cwd string) {
	moved := false
	for _, e := range inv.Env {
		for _, v := range []string{"GIT_DIR=", "GIT_WORK_TREE=", "GIT_INDEX_FILE=", "GIT_OBJECT_DIRECTORY=", "GIT_ALTERNATE_OBJECT_DIRECTORIES=",
			"GIT_COMMON_DIR=", "GIT_NAMESPACE=", "GIT_CONFIG", "GIT_REPLACE_REF_BASE=", "GIT_NO_REPLACE_OBJECTS="} {
			moved = moved || strings.HasPrefix(e, v)
		}
	}
	for _, a := range inv.Args[1 : len(inv.Args)-len(rest)] {
		moved = moved || strings.HasPrefix(a, "--git-dir") || strings.HasPrefix(a, "--work-tree")
	}
	for _, w := range c.gitCheckouts(inv, sub, rest, cwd) {
		if moved {
			// Another repository or worktree than the one read here:
			// every path below may be a link.
			why := "git " + sub + " runs with its repository or worktree moved (GIT_DIR, --work-tree), which airlock does not read"
			c.res.taintBecause(filepath.Clean(cwd), why)
			c.res.taintBecause(w.into, why)
			continue
		}
		if w.rev == "\x00" || strings.HasPrefix(w.rev, "-") || w.rev == "" {
			c.res.taintBecause(w.into, "git "+sub+" checks out a revision known only when it runs")
			continue
		}
		links, err := gitTreeLinks(w.repo, w.rev)
		switch {
		case err == nil:
		case errors.Is(err, errGitLimit):
			c.res.taintBecause(w.into, "the tree of "+w.rev+" is past airlock's limits (2,000 links, 256 MiB of listing)")
			continue
		case errors.Is(err, context.DeadlineExceeded):
			c.res.taintBecause(w.into, "git did not list the tree of "+w.rev+" within 3 s")
			continue
		case w.path:
			if _, serr := c.g.fs.Lstat(filepath.Join(w.into, w.rev)); serr == nil {
				continue // git checkout FILE: the index's copy
			}
			c.res.taintBecause(w.into, w.rev+" does not resolve now (a revision the command fetches or makes first?)")
			continue
		case w.strict:
			c.res.taintBecause(w.into, w.rev+" does not resolve now (a revision the command fetches or makes first?)")
			continue
		default:
			continue
		}
		for p, t := range links {
			c.res.addLink(filepath.Join(w.into, p), t)
		}
	}
}

// gitTop returns the top of the worktree holding dir: the nearest
// directory at or above it with a .git entry (dir itself when there is
// none). The tree's paths are relative to it.
func (c *call) gitTop(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := c.g.fs.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if d == filepath.Dir(d) {
			return dir
		}
	}
}
