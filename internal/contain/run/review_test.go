//go:build linux

package run

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestCodeFilesDocumented: every entry of the table has a handling and a
// reason, and docs/CONTAIN.md names its pattern, so the human can find
// why a file was fenced or set aside.
func TestCodeFilesDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/CONTAIN.md")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, c := range CodeFiles {
		if c.Handling < Fence || c.Handling > Repo || strings.TrimSpace(c.Reason) == "" {
			t.Errorf("%s: no handling or reason", c.Pattern)
		}
		if seen[c.Pattern] {
			t.Errorf("%s: twice in the table", c.Pattern)
		}
		seen[c.Pattern] = true
		if !strings.Contains(string(doc), "`"+c.Pattern+"`") {
			t.Errorf("docs/CONTAIN.md does not name `%s`", c.Pattern)
		}
	}
}

// TestCodeFileFor: patterns name what they should and nothing more.
func TestCodeFileFor(t *testing.T) {
	for rel, want := range map[string]Handling{
		".vscode/tasks.json": Fence, "x.code-workspace": Fence, ".venv/bin/activate": Watch,
		".venv/lib/python3.12/site-packages/a.pth": Watch, "lib3/.git": Repo, "a/b/c/.git": Repo,
		"flake.nix": Review, ".env": Review, ".yarn/releases/yarn-4.cjs": Review, ".mvn/jvm.config": Review,
		".gdbinit": Review, "eslint.config.js": Review, "sub/.gdbinit": Review, "a/b/.envrc": Review,
		"pkg/x/.npmrc": Review, "sub/.vscode/tasks.json": Review,
	} {
		if c, ok := CodeFileFor(rel); !ok || c.Handling != want {
			t.Errorf("%s: %v %v, want %v", rel, c.Handling, ok, want)
		}
	}
	for _, rel := range []string{".git", "src/x.code-workspace", ".envrc.example", "src/flake.nix.bak", ".venv/lib/x.py", "README.md"} {
		if c, ok := CodeFileFor(rel); ok {
			t.Errorf("%s: matched %q", rel, c.Pattern)
		}
	}
}

// past waits until the file system's clock stamps a change after since:
// a write just after since may carry a coarse time just before it.
func past(t *testing.T, dir string, since time.Time) {
	p := filepath.Join(dir, "clock-probe")
	for i := 0; ; i++ {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		st, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		if changeTime(st).After(since) {
			return
		}
		if i > 1e6 {
			t.Fatal("the file system's clock does not move")
		}
	}
}

// TestReviewRun is FINDINGS-9 C2 and C1b without the sandbox: what the
// review sets aside, puts back, names, and leaves alone.
func TestReviewRun(t *testing.T) {
	root := t.TempDir()
	proj := filepath.Join(root, "proj")
	write := func(rel, body string, mode os.FileMode) string {
		p := filepath.Join(proj, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	eslint := write("eslint.config.js", "export default [];\n", 0o644)
	act := write(".venv/bin/activate", "# venv\n", 0o644)
	old := write(".oldrc", "old\n", 0o644)
	oldExe := write("old.sh", "#!/bin/sh\n", 0o755)
	write("lib0/.git/config", "[core]\n\tfsmonitor = ./x.sh\n", 0o644) // the human's own, untouched
	b, fence := takeBefore(proj, time.Now())
	if len(fence) != 0 || len(b.Kept) != 1 {
		t.Fatalf("kept %v, fenced %v", b.Kept, fence)
	}
	b.Since = time.Now()
	b.Writable = []string{proj}
	b.ReadOnly = []string{filepath.Join(proj, ".vscode")}
	past(t, root, b.Since)

	// What the run does.
	write("eslint.config.js", "require('child_process').exec('x')\n", 0o644)
	flake := write("flake.nix", "{ shellHook = \"x\"; }\n", 0o644)
	ws := write("new.code-workspace", "{}\n", 0o644)
	write(".venv/bin/activate", "# venv\ncurl x | sh\n", 0o644)
	pth := write(".venv/lib/python3.11/site-packages/x.pth", "import os\n", 0o644)
	foo := write(".foorc", "x\n", 0o644)
	hidden := write("src/.hidden/x.txt", "x\n", 0o644)
	exe := write("tool.sh", "#!/bin/sh\n", 0o755)
	for _, rel := range []string{".gitignore", ".eslintrc.json", ".prettierrc", ".github/workflows/ci.yml", "src/a.py", "node_modules/.bin/x", "node_modules/p/.foorc"} {
		write(rel, "x\n", 0o755&^0o111|0o100*boolBit(strings.Contains(rel, ".bin")))
	}
	cfg3 := write("lib3/.git/config", "[core]\n\tbare = false\n\tfsmonitor = ./fsmon.sh\n", 0o644)
	hook3 := write("lib3/.git/hooks/post-checkout", "#!/bin/sh\n", 0o755)
	sample3 := write("lib3/.git/hooks/pre-commit.sample", "#!/bin/sh\n", 0o755)
	write("lib2/.git", "gitdir: ../.gitsub/lib2\n", 0o644)
	cfg2 := write(".gitsub/lib2/config", "[core]\n\tfsmonitor = ./fsmon.sh\n", 0o644)
	plain := write("lib4/.git/config", "[core]\n\trepositoryformatversion = 0\n\tbare = false\n", 0o644)
	roFile := write(".vscode/settings.json", "{}\n", 0o644) // read-only inside: the human's
	envPlain := write(".env", "PORT=8080\n", 0o644)         // an application's settings: stays
	deepRC := write("tools/.gdbinit", "shell ./x.sh\n", 0o644)
	deepEnvrc := write("svc/api/.envrc", "./x.sh\n", 0o644)
	write("lib5-repo/HEAD", "ref: refs/heads/main\n", 0o644)
	write("lib5-repo/objects/x", "", 0o644)
	write("lib5-repo/refs/heads/x", "", 0o644)
	cfgLink := write("lib5-repo/config", "[core]\n\tfsmonitor = ./x.sh\n", 0o644)
	if err := os.MkdirAll(filepath.Join(proj, "lib5"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../lib5-repo", filepath.Join(proj, "lib5/.git")); err != nil {
		t.Fatal(err)
	}
	cfg5 := write("node_modules/p/.git/config", "[alias]\n\tst = !./x.sh\n", 0o644)

	r := ReviewRun(proj, b)
	got := map[string]Found{}
	for _, f := range r.Found {
		if f.Err != nil {
			t.Errorf("%s: %v", f.Path, f.Err)
		}
		got[f.Path] = f
	}
	aside := []string{eslint, flake, ws, cfg3, hook3, cfg2, cfg5, deepRC, deepEnvrc, cfgLink}
	for _, p := range aside {
		f, ok := got[p]
		if !ok || f.AsideAs != p+SetAsideSuffix {
			t.Errorf("%s not set aside: %+v", p, f)
			continue
		}
		if _, err := os.Lstat(f.AsideAs); err != nil {
			t.Errorf("%s: %v", f.AsideAs, err)
		}
	}
	if body, _ := os.ReadFile(eslint); string(body) != "export default [];\n" || !got[eslint].Restored {
		t.Errorf("eslint.config.js not put back: %q", body)
	}
	if body, _ := os.ReadFile(eslint + SetAsideSuffix); !strings.Contains(string(body), "child_process") {
		t.Errorf("what the run wrote is not kept aside: %q", body)
	}
	for _, p := range []string{flake, ws, cfg3, hook3, deepRC, deepEnvrc, cfgLink} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s is still in force", p)
		}
	}
	named := map[string]string{act: rVenv, pth: rVenv, foo: WhyDot, hidden: WhyDot, exe: WhyExec}
	for p, why := range named {
		if f, ok := got[p]; !ok || f.AsideAs != "" || f.Why != why {
			t.Errorf("%s: %+v, want named for %q", p, f, why)
		}
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s was moved", p)
		}
	}
	for p := range got {
		if !slices.Contains(aside, p) && named[p] == "" && !strings.HasPrefix(p, filepath.Join(proj, ".gitsub")+"/") {
			t.Errorf("%s named or set aside: %+v", p, got[p])
		}
	}
	for _, p := range []string{old, oldExe, sample3, plain, roFile, envPlain, filepath.Join(proj, "lib0/.git/config")} {
		if _, ok := got[p]; ok {
			t.Errorf("%s named: it existed before, is git's own or holds only git's keys", p)
		}
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s was moved", p)
		}
	}
}

func boolBit(b bool) os.FileMode {
	if b {
		return 1
	}
	return 0
}

// TestTrackedAtPlan: git's index is read without git, in each version
// git writes, as it was when the plan was made: a file added inside
// after it does not count as tracked.
func TestTrackedAtPlan(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	proj := t.TempDir()
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", proj}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	for _, f := range []string{"a.sh", "dir/b.sh", "dir/long/" + strings.Repeat("n", 40) + ".sh", "dir/c"} {
		if err := os.MkdirAll(filepath.Join(proj, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(proj, f), []byte(f), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	long := "dir/long/" + strings.Repeat("n", 40) + ".sh"
	for _, v := range []string{"2", "3", "4"} {
		git("rm", "-q", "--cached", "-r", "--ignore-unmatch", ".")
		git("add", "a.sh", "dir/b.sh", long)
		git("update-index", "--index-version", v)
		tracked := trackedAtPlan(proj)
		git("add", "dir/c")
		got := tracked()
		if !got["a.sh"] || !got["dir/b.sh"] || !got[long] || got["dir/c"] || len(got) != 3 {
			t.Errorf("index version %s: %v", v, got)
		}
	}
	if got := trackedAtPlan(t.TempDir())(); len(got) != 0 {
		t.Errorf("no index: %v", got)
	}
}

// BenchmarkReviewRun is the review after a run of a project with 20,000
// source files and 40,000 files in node_modules, nothing changed: the
// cost every airlock run adds at its end (docs/BENCHMARKS.md).
func BenchmarkReviewRun(b *testing.B) {
	proj := b.TempDir()
	for i := 0; i < 200; i++ {
		for _, top := range []string{"src", "node_modules", "node_modules/x"} {
			d := filepath.Join(proj, top, "d"+strconv.Itoa(i))
			if err := os.MkdirAll(d, 0o755); err != nil {
				b.Fatal(err)
			}
			for j := 0; j < 100; j++ {
				if err := os.WriteFile(filepath.Join(d, "f"+strconv.Itoa(j)), nil, 0o644); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	before, _ := takeBefore(proj, time.Now())
	before.Since = time.Now().Add(time.Hour)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if r := ReviewRun(proj, before); len(r.Found) != 0 {
			b.Fatal(r.Found)
		}
	}
}

// TestPlainEnvFile: a .env of an application's settings stays; one that
// points docker compose at another file, or loads code into node, or
// that is not read line by line, is set aside.
func TestPlainEnvFile(t *testing.T) {
	dir := t.TempDir()
	for body, want := range map[string]bool{
		"PORT=8080\nDATABASE_URL=postgres://x\n# c\n\nexport API_KEY=\"a b\"\n": true,
		"COMPOSE_FILE=evil.yml\n":               false,
		"compose_file=evil.yml\n":               false,
		"PORT=1\nNODE_OPTIONS=--require ./x.js": false,
		"DOCKER_HOST=tcp://192.0.2.1:2375\n":    false,
		"X=$(./x.sh)\n":                         false,
		"X=`./x.sh`\n":                          false,
		"PATH=./bin:$PATH\n":                    false,
		"just words\n":                          false,
		"LD_PRELOAD=./x.so\n":                   false,
		"GIT_CONFIG_COUNT=1\n":                  false,
		"ENV=./x.sh\n":                          false,
		"ENVIRONMENT=production\n":              true,
	} {
		p := filepath.Join(dir, ".env")
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := plainEnvFile(p); got != want {
			t.Errorf("%q: plain %v, want %v", body, got, want)
		}
	}
}

// TestReviewBoundTopFirst: an agent that makes more files than the walk
// looks at, in a directory that sorts first, does not hide a table file
// at the top, and the review says it stopped.
func TestReviewBoundTopFirst(t *testing.T) {
	proj := t.TempDir()
	b := &Before{Since: time.Now(), Kept: map[string]KeptFile{}}
	past(t, t.TempDir(), b.Since)
	if err := os.MkdirAll(filepath.Join(proj, "aaa", "deep"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 50; i++ {
		if err := os.WriteFile(filepath.Join(proj, "aaa", "deep", "f"+strconv.Itoa(i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	flake := filepath.Join(proj, "flake.nix")
	if err := os.WriteFile(flake, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	defer func(n int) { maxReviewEntries = n }(maxReviewEntries)
	maxReviewEntries = 20
	r := ReviewRun(proj, b)
	if !r.Truncated {
		t.Error("the walk did not say it stopped")
	}
	if len(r.Found) != 1 || r.Found[0].Path != flake || r.Found[0].AsideAs == "" {
		t.Errorf("found %+v, want flake.nix set aside", r.Found)
	}
}

// TestReviewUnreadableDir: a directory the agent left without read
// permission (a tool can still open sub/.envrc in it by name) is named.
func TestReviewUnreadableDir(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads every directory")
	}
	proj := t.TempDir()
	b := &Before{Since: time.Now(), Kept: map[string]KeptFile{}}
	past(t, t.TempDir(), b.Since)
	sub := filepath.Join(proj, "sub")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sub, ".envrc"), []byte("./x.sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(sub, 0o111); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(sub, 0o755)
	r := ReviewRun(proj, b)
	if len(r.Found) != 1 || r.Found[0].Path != sub || r.Found[0].Why != WhyUnread {
		t.Errorf("found %+v, want %s named", r.Found, sub)
	}
}
