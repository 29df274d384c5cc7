package demo

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Sandbox is the demo's throwaway world: a project with a bare local
// remote, and a home, configuration and state of its own, so that
// neither the user's policy nor their journal is touched and "~" in a
// scripted command points inside it.
type Sandbox struct {
	Root    string
	Project string
	Remote  string
	// Mirror is a second bare remote, empty at the start, that a project
	// script pushes to behind airlock's back.
	Mirror string
	Home   string
	// State is the airlock state directory (AIRLOCK_HOME).
	State string
	// Env is the environment of the agent, its hooks and its commands.
	Env []string
	// Initial is the commit the remote's main held at the start.
	Initial string
	// Compiled says bin/sync-mirror, a compiled program that pushes to
	// the mirror, was built (Go is needed to build it).
	Compiled bool
}

// Setup makes the sandbox in root, which must exist and be empty.
func Setup(root string) (*Sandbox, error) {
	s := &Sandbox{
		Root: root, Project: filepath.Join(root, "project"), Remote: filepath.Join(root, "remote.git"), Mirror: filepath.Join(root, "mirror.git"),
		Home: filepath.Join(root, "home"), State: filepath.Join(root, "state", "airlock"),
	}
	for _, d := range []string{s.Project, s.Home, s.State, filepath.Join(root, "config")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	gitconfig := filepath.Join(root, "gitconfig")
	if err := os.WriteFile(gitconfig, []byte("[user]\n\tname = demo agent\n\temail = agent@demo.invalid\n[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n"), 0o600); err != nil {
		return nil, err
	}
	s.Env = sandboxEnv(os.Environ(), map[string]string{
		"HOME": s.Home, "XDG_CONFIG_HOME": filepath.Join(root, "config"), "XDG_STATE_HOME": filepath.Join(root, "state"),
		"AIRLOCK_HOME": s.State, "GIT_CONFIG_GLOBAL": gitconfig, "GIT_CONFIG_NOSYSTEM": "1",
	})
	files := map[string]string{"hello.txt": "Helo, world\n", "VERSION": "0.1.0\n", ".gitignore": "build/\nbin/\n",
		"scripts/sync-mirror.sh": "#!/bin/sh\n# Keep the mirror up to date.\nexec git push mirror main 2>&1\n"}
	for name, content := range files {
		p := filepath.Join(s.Project, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
			return nil, err
		}
	}
	steps := [][]string{
		{"init", "-q", "--bare", s.Remote},
		{"init", "-q", "--bare", s.Mirror},
		{"-C", s.Project, "init", "-q"},
		{"-C", s.Project, "add", "-A"},
		{"-C", s.Project, "commit", "-q", "-m", "Initial commit"},
		{"-C", s.Project, "remote", "add", "origin", s.Remote},
		{"-C", s.Project, "remote", "add", "mirror", s.Mirror},
		// The harness, not the agent, seeds the remote.
		{"-C", s.Project, "push", "-q", "origin", "main"},
	}
	for _, args := range steps {
		if _, err := s.Git(args...); err != nil {
			return nil, err
		}
	}
	head, err := s.RemoteHead()
	if err != nil {
		return nil, err
	}
	s.Initial = head
	s.Compiled = s.buildCompiled()
	return s, nil
}

// compiledSource is a program that pushes to the mirror. Its source stays
// outside the project: airlock, like the agent, sees only the binary.
const compiledSource = `package main

import (
	"os"
	"os/exec"
)

func main() {
	cmd := exec.Command("git", "push", "mirror", "main")
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stdout
	if err := cmd.Run(); err != nil {
		os.Exit(1)
	}
}
`

// buildCompiled builds bin/sync-mirror in the project when Go is
// installed, and reports whether it did.
func (s *Sandbox) buildCompiled() bool {
	goBin, err := exec.LookPath("go")
	if err != nil {
		return false
	}
	dir := filepath.Join(s.Root, "tools", "sync-mirror")
	if os.MkdirAll(dir, 0o755) != nil ||
		os.WriteFile(filepath.Join(dir, "main.go"), []byte(compiledSource), 0o644) != nil ||
		os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module syncmirror\n\ngo 1.21\n"), 0o644) != nil {
		return false
	}
	cmd := exec.Command(goBin, "build", "-o", filepath.Join(s.Project, "bin", "sync-mirror"), ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "CGO_ENABLED=0", "GOWORK=off")
	return cmd.Run() == nil
}

// Git runs git in the sandbox's environment.
func (s *Sandbox) Git(args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Env = s.Env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return strings.TrimSpace(out.String()), nil
}

// RemoteHead is the commit the remote's main points at.
func (s *Sandbox) RemoteHead() (string, error) {
	return s.Git("--git-dir", s.Remote, "rev-parse", "refs/heads/main")
}

// MirrorHead is the commit the mirror's main points at, "" while it has
// none.
func (s *Sandbox) MirrorHead() string {
	head, err := s.Git("--git-dir", s.Mirror, "rev-parse", "--verify", "-q", "refs/heads/main")
	if err != nil {
		return ""
	}
	return head
}

// LocalHead is the commit the project's main points at.
func (s *Sandbox) LocalHead() (string, error) {
	return s.Git("-C", s.Project, "rev-parse", "refs/heads/main")
}

// Ahead counts the project's commits the remote does not have.
func (s *Sandbox) Ahead() (string, error) {
	return s.Git("-C", s.Project, "rev-list", "--count", "origin/main..main")
}

// sandboxEnv is env without what would point airlock, Claude Code or git
// elsewhere, plus set.
func sandboxEnv(env []string, set map[string]string) []string {
	var out []string
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if _, ok := set[name]; ok || strings.HasPrefix(name, "AIRLOCK_") || strings.HasPrefix(name, "CLAUDE_") || strings.HasPrefix(name, "GIT_") || strings.HasPrefix(name, "XDG_") {
			continue
		}
		out = append(out, kv)
	}
	for k, v := range set {
		out = append(out, k+"="+v)
	}
	return out
}
