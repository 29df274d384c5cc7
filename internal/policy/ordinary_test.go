package policy

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ordinaryProject makes a project where airlock is installed at project
// scope, as "airlock install claude-code --project --gate" leaves it
// (.claude/settings.json with airlock's hooks, .airlock/policy.yaml), with
// the files ordinary work touches: a Makefile, package.json, sources, a
// build directory and caches.
func ordinaryProject(t *testing.T) (f *fixture, proj string) {
	t.Helper()
	f = newFixture(t)
	proj = f.path("proj")
	files := map[string]string{
		".git/HEAD":             "ref: refs/heads/main\n",
		".git/config":           "[core]\n\tbare = false\n",
		".claude/settings.json": `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"/opt/airlock/bin/airlock hook claude-code"}]}]}}`,
		ProjectFile:             "# The fact-forcing gate (docs/GATE.md), turned on by airlock install --gate.\ngate:\n  enabled: true\n",
		"Makefile": "all: build\nbuild:\n\tgo build -o build/app .\ntest:\n\tgo test ./...\nlint:\n\tgo vet ./...\n" +
			"clean:\n\trm -rf build bin\n\tfind . -name '*.pyc' -delete\ndeploy:\n\t./scripts/deploy.sh\n",
		"package.json":               `{"name":"app","scripts":{"test":"jest","build":"tsc -p .","lint":"eslint src","clean":"rm -rf dist build"}}`,
		"docs/Makefile":              "html:\n\tsphinx-build -b html . _build/html\n",
		"go.mod":                     "module example.com/app\n\ngo 1.22\n",
		"src/main.go":                "package main\n\nfunc main() {}\n",
		"src/a.py":                   "import requests\n",
		"src/__pycache__/a.pyc":      "",
		"src/old.go":                 "package main\n",
		"build/app":                  "",
		"build/x.o":                  "",
		"node_modules/x/index.js":    "",
		"scripts/check.sh":           "#!/bin/sh\ngo vet ./...\ngo test ./...\n",
		"scripts/check.js":           "console.log('ok')\n",
		"README.md":                  "# app\n",
		"build.log":                  "ok\n",
		".venv/bin/activate":         "export VIRTUAL_ENV=/x\n",
		"requirements.txt":           "requests\n",
		"data.txt":                   "a\nb\n",
		"vendor.tgz":                 "",
		"fix.patch":                  "",
		"home/.claude/settings.json": "{}",
		"Makefile.real":              "clean:\n\trm -rf build dist\n",
		"stale.txt":                  "build/x.o\nbuild.log\n",
		"docker-compose.yml":         "services:\n  db:\n    image: postgres:16\n  api:\n    build: .\n",
		"chart/values.yaml":          "image:\n  tag: latest\n",
		"db/schema.sql":              "create table users (id int);\n",
		"db/seed.sql":                "insert into users values (1);\n",
		"app.db":                     "",
	}
	for rel, text := range files {
		p := filepath.Join(proj, rel)
		if strings.HasPrefix(rel, "home/") {
			p = f.path(rel)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"empty", "tmp", "templates", "old", "new", "testdata"} {
		if err := os.MkdirAll(filepath.Join(proj, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return f, proj
}

// TestOrdinaryWork decides testdata/ordinary.tsv, commands an agent runs
// in ordinary work, in a project where airlock is installed at project
// scope: none may be denied in any mode, and none held in unattended mode
// except code fetched and run at once (rows tagged fetch-run).
func TestOrdinaryWork(t *testing.T) {
	f, proj := ordinaryProject(t)
	o := f.options()
	o.Cwd = proj
	o.ProjectDir = proj
	o.Protect = append(o.Protect, filepath.Join(proj, ".claude/settings.json"))
	p, err := Load(o)
	if err != nil {
		t.Fatal(err)
	}
	if p.guard.project == "" {
		t.Fatal("the project's .airlock/policy.yaml was not found: the fixture is not a project-scope install")
	}
	file, err := os.Open("../../testdata/ordinary.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	rows, held, denied, fetchRun, known, tmpFixture := 0, 0, 0, 0, 0, 0
	// The fixture, its home and the airlock files it protects live in
	// the temporary directory (t.TempDir): a command that writes or
	// deletes in /tmp reaches them here, as it does not on a machine
	// whose home and project are elsewhere. Such a refusal is logged, not
	// failed; with TMPDIR set to a directory outside /tmp and /var/tmp
	// these rows are decided as on such a machine, and must pass.
	inTmp := strings.HasPrefix(f.root, "/tmp/") || strings.HasPrefix(f.root, "/var/tmp/")
	fixtureCaused := func(cmd string, v Verdict) bool {
		return inTmp && strings.HasPrefix(v.Rule, "self.") && strings.Contains(v.Message, f.root) &&
			(strings.Contains(cmd, "/tmp") || strings.Contains(cmd, "/var/tmp"))
	}
	sc := bufio.NewScanner(file)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cmd, tag, _ := strings.Cut(line, "\t")
		rows++
		switch tag {
		case "fetch-run":
			fetchRun++
		case "known-held":
			known++
		}
		for _, mode := range []Mode{Interactive, Supervised, Unattended} {
			v := p.DecideIn(mode, Action{Kind: Shell, Tool: "Bash", Command: cmd, Cwd: proj, Snapshots: true})
			switch {
			case v.Decision == Deny && fixtureCaused(cmd, v):
				tmpFixture++
				t.Logf("%s: denied in %s mode by %s because the test's home is in %s: %s", cmd, mode, v.Rule, os.TempDir(), clipText(v.Message))
			case v.Decision == Deny:
				denied++
				t.Errorf("%s: denied in %s mode by %s: %s", cmd, mode, v.Rule, clipText(v.Message))
			case mode == Unattended && (v.Decision == Ask || v.Decision == Defer) && tag == "known-held":
				t.Logf("%s: held (%s) in unattended mode by %s, a known gap", cmd, v.Decision, v.Rule)
			case mode == Unattended && tag == "known-held":
				// A stale tag would hide the row's next regression.
				t.Errorf("%s: tagged known-held but %s by %s in unattended mode: drop the tag", cmd, v.Decision, v.Rule)
			case mode == Unattended && (v.Decision == Ask || v.Decision == Defer) && tag != "fetch-run":
				held++
				t.Errorf("%s: held (%s) in unattended mode by %s %v", cmd, v.Decision, v.Rule, v.Reasons)
			case mode == Unattended && tag == "fetch-run" && !v.Decision.Holds():
				t.Errorf("%s: fetched code run at once, %s in unattended mode; want it held", cmd, v.Decision)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if rows < 300 {
		t.Errorf("ordinary.tsv has %d commands, want at least 300", rows)
	}
	t.Logf("ordinary work: %d commands (%d fetch-and-run, %d known gaps), %d denials, %d held in unattended mode; %d decisions refused only because the test's home is in %s", rows, fetchRun, known, denied, held, tmpFixture, os.TempDir())
}
