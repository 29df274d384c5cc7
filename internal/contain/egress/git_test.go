package egress

import (
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitOrSkip finds git; under CI it must be there.
func gitOrSkip(t *testing.T) string {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git is not installed, and CI=true: the git push and clone tests must run")
		}
		t.Skip("git is not installed")
	}
	return git
}

// gitRun runs git in dir with env and returns its combined output.
func gitRun(t *testing.T, git, dir string, env []string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(git, args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func mustGit(t *testing.T, git, dir string, env []string, args ...string) string {
	t.Helper()
	out, err := gitRun(t, git, dir, env, args...)
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(out)
}

// TestGitOverHTTP: a git server (git http-backend behind net/http/cgi) is
// cloned through the proxy over HTTP and over inspected HTTPS, and a push
// to it is held: git-upload-pack POSTs are reads by structure,
// git-receive-pack POSTs are writes.
func TestGitOverHTTP(t *testing.T) {
	git := gitOrSkip(t)
	for _, scheme := range []string{"http", "https"} {
		t.Run(scheme, func(t *testing.T) {
			e := newEnv(t, "")
			dir := t.TempDir()
			home := filepath.Join(dir, "home")
			os.MkdirAll(home, 0o755)
			caFile := filepath.Join(dir, "ca.pem")
			if err := os.WriteFile(caFile, e.p.CACertPEM(), 0o644); err != nil {
				t.Fatal(err)
			}
			base := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0",
				"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com"}

			// The server: a bare repository with one commit, pushes enabled.
			root := filepath.Join(dir, "srv")
			bare := filepath.Join(root, "repo.git")
			mustGit(t, git, dir, base, "init", "-q", "--bare", "-b", "main", bare)
			mustGit(t, git, bare, base, "config", "http.receivepack", "true")
			seed := filepath.Join(dir, "seed")
			mustGit(t, git, dir, base, "init", "-q", "-b", "main", seed)
			os.WriteFile(filepath.Join(seed, "README"), []byte("hello\n"), 0o644)
			mustGit(t, git, seed, base, "add", "README")
			mustGit(t, git, seed, base, "commit", "-q", "-m", "first")
			mustGit(t, git, seed, base, "push", "-q", bare, "main")
			before := mustGit(t, git, bare, base, "rev-parse", "main")

			backend := &cgi.Handler{Path: git, Args: []string{"http-backend"}, Env: []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1"}}
			var srv *httptest.Server
			if scheme == "https" {
				srv = httptest.NewTLSServer(backend)
				e.trust(srv.Certificate())
			} else {
				srv = httptest.NewServer(backend)
			}
			defer srv.Close()

			// The client inside: only the proxy variables and airlock's CA.
			inside := append(base, "http_proxy="+e.proxyURL.String(), "https_proxy="+e.proxyURL.String(), "GIT_SSL_CAINFO="+caFile)
			clone := filepath.Join(dir, "clone")
			if out, err := gitRun(t, git, dir, inside, "clone", srv.URL+"/repo.git", clone); err != nil {
				t.Fatalf("git clone through the proxy failed: %v\n%s", err, out)
			}
			if b, err := os.ReadFile(filepath.Join(clone, "README")); err != nil || string(b) != "hello\n" {
				t.Fatalf("the clone lacks the server's file: %q %v", b, err)
			}
			os.WriteFile(filepath.Join(clone, "README"), []byte("changed\n"), 0o644)
			mustGit(t, git, clone, inside, "commit", "-q", "-am", "second")
			out, err := gitRun(t, git, clone, inside, "push", "origin", "main")
			if err == nil {
				t.Fatalf("git push through the proxy succeeded:\n%s", out)
			}
			if after := mustGit(t, git, bare, base, "rev-parse", "main"); after != before {
				t.Fatalf("the push reached the server: main moved from %s to %s", before, after)
			}
			items, err := e.j.Open(timeNow())
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, it := range items {
				if it.Tool == http.MethodPost && strings.HasSuffix(it.URL, "/repo.git/git-receive-pack") && strings.HasPrefix(it.URL, scheme+"://") {
					found = true
				}
			}
			if !found || len(items) != 1 {
				var got []string
				for _, it := range items {
					got = append(got, it.Tool+" "+it.URL)
				}
				t.Fatalf("queue %v, want the push's POST .../git-receive-pack alone; git said:\n%s", got, out)
			}
		})
	}
}
