//go:build linux

package runner

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestGitFenceHolds is FINDINGS-10 C4 in the sandbox: a fence below a
// directory that is not fenced itself. Each variant tries to move git's
// configuration or hooks out from under the read-only binds, or to point
// git elsewhere; after the run, what the human's git reads is what it
// read before, and the run says so (status StatusGitUndone when the
// command itself succeeded).
func TestGitFenceHolds(t *testing.T) {
	needBwrap(t)
	const evil = "[core]\n\trepositoryformatversion = 0\n\tfsmonitor = ./fsmon.sh\n"
	type variant struct {
		name string
		// setup prepares the project before the run (paths relative to it).
		setup map[string]string
		// script runs inside, in the project; it prints MOVED when a
		// rename it tries succeeds.
		script string
		// unchanged must hold the same bytes after the run; gone must not
		// exist after it; aside must have been set aside.
		unchanged []string
		gone      []string
		aside     []string
		status    int
	}
	variants := []variant{{
		name:      "rename .git",
		setup:     map[string]string{".git/config": "[core]\n\tbare = false\n", ".git/objects/x": "o", ".git/refs/heads/main": "r"},
		script:    `mv .git .git.bak && echo MOVED; mkdir .git.new && mv -T .git.new .git && echo MOVED; rmdir .git && echo MOVED; true`,
		unchanged: []string{".git/config", ".git/objects/x"},
		gone:      []string{".git.bak"},
	}, {
		name:      "rename .git and make another, the findings command",
		setup:     map[string]string{".git/config": "[core]\n\tbare = false\n", ".git/objects/x": "o", ".git/refs/heads/main": "r"},
		script:    `mv .git .git.bak && echo MOVED && mkdir .git && cp -r .git.bak/objects .git.bak/refs .git.bak/HEAD .git/ && printf '` + strings.ReplaceAll(evil, "\n", `\n`) + `' > .git/config; true`,
		unchanged: []string{".git/config"},
	}, {
		name:   "commondir names a directory with its own config",
		setup:  map[string]string{".git/config": "[core]\n\tbare = false\n"},
		script: `mkdir -p .evil/hooks && printf '` + strings.ReplaceAll(evil, "\n", `\n`) + `' > .evil/config && echo ../.evil > .git/commondir`,
		gone:   []string{".git/commondir"},
		aside:  []string{".git/commondir"},
		status: StatusGitUndone,
	}, {
		name:   "config.worktree",
		setup:  map[string]string{".git/config": "[core]\n\tbare = false\n[extensions]\n\tworktreeConfig = true\n"},
		script: `printf '[core]\n\tfsmonitor = ./fsmon.sh\n' > .git/config.worktree`,
		gone:   []string{".git/config.worktree"},
		status: StatusGitUndone,
	}, {
		name:      "a .git file's gitdir",
		setup:     map[string]string{".git": "gitdir: .gitdirs/main\n", ".gitdirs/main/config": "[core]\n\tbare = false\n", ".gitdirs/main/HEAD": "ref: refs/heads/main\n", ".gitdirs/main/objects/x": "o", ".gitdirs/main/refs/x": "r"},
		script:    `printf 'gitdir: .g2\n' > .git && echo MOVED; mv .git .git.old && echo MOVED; mv .gitdirs .gd2 && echo MOVED; printf '[core]\n\tfsmonitor = x\n' >> .gitdirs/main/config && echo MOVED; echo ../../.evil > .gitdirs/main/commondir; true`,
		unchanged: []string{".git", ".gitdirs/main/config"},
		gone:      []string{".gitdirs/main/commondir"},
		status:    StatusGitUndone,
	}, {
		name:      "a submodule repository",
		setup:     map[string]string{".git/config": "[core]\n\tbare = false\n", ".git/modules/lib/config": "[core]\n\tbare = false\n", ".git/modules/lib/HEAD": "ref: refs/heads/main\n"},
		script:    `mv .git/modules/lib .git/modules/lib2 && echo MOVED; mv .git/modules .git/m2 && echo MOVED; echo ../../../.evil > .git/modules/lib/commondir; true`,
		unchanged: []string{".git/modules/lib/config"},
		gone:      []string{".git/modules/lib/commondir"},
		status:    StatusGitUndone,
	}, {
		name:      "a linked worktree's commondir",
		setup:     map[string]string{".git/config": "[core]\n\tbare = false\n", ".git/worktrees/other/commondir": "../..\n", ".git/worktrees/other/HEAD": "ref: refs/heads/x\n"},
		script:    `mkdir -p .evil && printf '[core]\n\tfsmonitor = ./fsmon.sh\n' > .evil/config && echo ../../../.evil > .git/worktrees/other/commondir && printf '[core]\n\tfsmonitor = x\n' > .git/worktrees/other/config.worktree`,
		unchanged: []string{".git/worktrees/other/commondir"},
		gone:      []string{".git/worktrees/other/config.worktree"},
		aside:     []string{".git/worktrees/other/commondir"},
		status:    StatusGitUndone,
	}, {
		name:      "an included file in the work tree",
		setup:     map[string]string{".git/config": "[core]\n\tbare = false\n[include]\n\tpath = ../shared.gitconfig\n", "shared.gitconfig": "[user]\n\tname = a\n"},
		script:    `printf '[core]\n\tfsmonitor = ./fsmon.sh\n' >> shared.gitconfig`,
		unchanged: []string{"shared.gitconfig"},
		aside:     []string{"shared.gitconfig"},
		status:    StatusGitUndone,
	}, {
		name:      "hooks in core.hooksPath",
		setup:     map[string]string{".git/config": "[core]\n\tbare = false\n\thooksPath = hooks-here\n", "hooks-here/pre-commit": "#!/bin/sh\nexit 0\n"},
		script:    `printf '#!/bin/sh\n./x.sh\n' > hooks-here/pre-commit; printf '#!/bin/sh\n./x.sh\n' > hooks-here/post-checkout`,
		unchanged: []string{"hooks-here/pre-commit"},
		gone:      []string{"hooks-here/post-checkout"},
		aside:     []string{"hooks-here/pre-commit", "hooks-here/post-checkout"},
		status:    StatusGitUndone,
	}, {
		name:      "rename .github and .hg",
		setup:     map[string]string{".git/config": "[core]\n\tbare = false\n", ".github/workflows/ci.yml": "on: push\n", ".hg/hgrc": "[ui]\n"},
		script:    `mv .github .github.bak && echo MOVED; mv .hg .hg.bak && echo MOVED; echo 'on: pull_request' > .github/workflows/ci.yml || echo CI-REFUSED`,
		unchanged: []string{".hg/hgrc"},
		gone:      []string{".github.bak", ".hg.bak"},
	}}
	for _, v := range variants {
		t.Run(v.name, func(t *testing.T) {
			w := newWorld(t, 0, 0)
			if _, ok := v.setup[".git"]; ok {
				os.RemoveAll(filepath.Join(w.project, ".git"))
			}
			before := map[string]string{}
			for rel, body := range v.setup {
				p := filepath.Join(w.project, rel)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
				before[rel] = body
			}
			st, out := runIn(t, w, newDoor(), "cd "+w.project+" && "+v.script)
			if strings.Contains(out, "MOVED") || strings.Contains(out, "CI-REFUSED") {
				t.Errorf("a rename around the fence succeeded, or ordinary work in .github was refused:\n%s", out)
			}
			if st != v.status {
				t.Errorf("status %d, want %d:\n%s", st, v.status, out)
			}
			for _, rel := range v.unchanged {
				if b, err := os.ReadFile(filepath.Join(w.project, rel)); err != nil || string(b) != before[rel] {
					t.Errorf("%s after the run: %q (%v), want %q\n%s", rel, b, err, before[rel], out)
				}
			}
			for _, rel := range v.gone {
				if _, err := os.Lstat(filepath.Join(w.project, rel)); err == nil {
					t.Errorf("%s is in force after the run:\n%s", rel, out)
				}
			}
			for _, rel := range v.aside {
				p := filepath.Join(w.project, rel)
				if _, err := os.Lstat(p + SetAsideSuffix); err != nil {
					t.Errorf("%s was not set aside: %v\n%s", rel, err, out)
				}
				if !strings.Contains(out, p) {
					t.Errorf("the run does not name %s:\n%s", p, out)
				}
			}
		})
	}
}

// TestGitFenceOrdinary: commits, branches and status in a real repository
// inside the sandbox are not disturbed by the anchors and the review: the
// run ends with the command's status and names nothing of git's.
func TestGitFenceOrdinary(t *testing.T) {
	needBwrap(t)
	git := needTool(t, "git")
	w := newWorld(t, 0, 0)
	os.RemoveAll(filepath.Join(w.project, ".git"))
	if out, err := exec.Command(git, "init", "-q", w.project).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	w.env = append(w.env, "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@example.com")
	script := `cd ` + w.project + ` && git add README && git commit -qm one && git checkout -qb topic && echo more >> README && git commit -qam two && git status --short && git gc -q && git worktree add -q wt2 && git -C wt2 status --short && mkdir -p .github/workflows && echo 'on: push' > .github/workflows/ci.yml && mv .github/workflows/ci.yml .github/workflows/ci2.yml && echo "on: push" > new.yml && mv new.yml .github/workflows/ci3.yml && echo ok`
	st, out := runIn(t, w, newDoor(), script)
	if st != 0 || !strings.Contains(out, "ok") {
		t.Fatalf("status %d:\n%s", st, out)
	}
	if strings.Contains(out, "set aside") || strings.Contains(out, "what git runs") {
		t.Errorf("ordinary git work was reported:\n%s", out)
	}
	if b, err := exec.Command(git, "-C", w.project, "log", "--oneline").Output(); err != nil || strings.Count(string(b), "\n") != 2 {
		t.Errorf("the commits made inside: %q %v", b, err)
	}
}

// TestGitFenceUnprivileged: the anchor holds when airlock-run runs as
// an unprivileged user (bubblewrap in a user namespace), as it does as
// root: .git cannot be moved, and a commondir written inside is undone.
func TestGitFenceUnprivileged(t *testing.T) {
	needBwrap(t)
	if os.Getuid() != 0 {
		t.Skip("switching to another user needs root; as an unprivileged user TestGitFenceHolds is this test")
	}
	w := newWorld(t, 65534, 65534)
	cfg := filepath.Join(w.project, ".git/config")
	if err := os.WriteFile(cfg, []byte("[core]\n\tbare = false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Lchown(cfg, 65534, 65534)
	d := newDoor()
	sockDir := filepath.Join(w.root, "door")
	os.Mkdir(sockDir, 0o755)
	sock := filepath.Join(sockDir, "proxy.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(sock, 0o777)
	go d.Serve(ln)
	defer d.Close()
	script := `id -u; mv .git .git.bak && echo MOVED; mkdir .g2 && mv -T .g2 .git && echo MOVED; echo ../.evil > .git/commondir; printf '[core]\n\tfsmonitor = x\n' > .git/config 2>/dev/null && echo MOVED; true`
	cmd := exec.Command(filepath.Join(binDir, "airlock-run"), "--proxy-socket", sock, "--", "/bin/sh", "-c", script)
	cmd.Dir = w.project
	cmd.Env = w.env
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, _ := cmd.CombinedOutput()
	if !strings.HasPrefix(string(out), "65534\n") || strings.Contains(string(out), "MOVED") {
		t.Errorf("as uid 65534 a rename around the fence or a write of the config succeeded:\n%s", out)
	}
	if st := cmd.ProcessState.ExitCode(); st != StatusGitUndone {
		t.Errorf("status %d, want %d:\n%s", st, StatusGitUndone, out)
	}
	if _, err := os.Lstat(filepath.Join(w.project, ".git/commondir")); err == nil {
		t.Errorf("the commondir written inside is in force:\n%s", out)
	}
	if b, _ := os.ReadFile(cfg); string(b) != "[core]\n\tbare = false\n" {
		t.Errorf(".git/config after the run: %q", b)
	}
}
