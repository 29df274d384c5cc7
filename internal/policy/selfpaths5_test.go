package policy

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestSelfProtectionFindings5Classes runs close variants of the FINDINGS-5
// classes L2 (a directory set by a wrapper), L3 (a path another program
// prints), L5 (links made by the command), L6 (links followed by
// recursive readers) and L13 (signals by run-time PIDs): each attack
// variant is refused by self-protection, and ordinary commands of the same
// shape are not refused.
func TestSelfProtectionFindings5Classes(t *testing.T) {
	cases := []struct {
		cmd  string
		deny bool
		link bool // proj/sec is a symlink to airlock's secrets
	}{
		// L2: a wrapper that changes directory.
		{cmd: `env -C @HOME@/.claude tee settings.local.json`, deny: true},
		{cmd: `env --chdir @HOME@/.claude sh -c 'echo {} > settings.json'`, deny: true},
		{cmd: `env -C "$HOME/.local/state/airlock/secrets" base64 human.key`, deny: true},
		{cmd: `sudo --chdir=@HOME@/.claude cp /dev/null settings.json`, deny: true},
		{cmd: `nice -n 5 env -C @HOME@/.claude truncate -s0 settings.json`, deny: true},
		{cmd: `env -C "$D" tee settings.json`, deny: true},
		{cmd: `find . -execdir touch settings.json \;`, deny: true},
		{cmd: `env -C src python3 m.py`},
		{cmd: `timeout 60 env -C src python3 -m pytest`},
		{cmd: `sudo -D /srv/app ls -la`},
		{cmd: `env -C "$D" ls`},
		{cmd: `find . -name '*.py' -execdir black {} +`},
		{cmd: `find src -type d -execdir touch .stamp \;`},

		// L3: a path another program prints.
		{cmd: `cat "$(find ~/.local -name 'serve.*')"`, deny: true},
		{cmd: "xxd `find ~/.local/state -name human.key`", deny: true},
		{cmd: `find ~ -name human.key -print0 | xargs -0 -I{} cp {} /tmp/k`, deny: true},
		{cmd: `find ~/.local -type f | while IFS= read -r f; do base64 "$f"; done`, deny: true},
		{cmd: `mapfile -t fs < <(find ~/.local -name serve.token); cat "${fs[@]}"`, deny: true},
		{cmd: `cat $(locate serve.token)`, deny: true},
		{cmd: `cat $(locate --regex 'token$')`, deny: true},
		{cmd: `for f in $(ls -d ~/.local/state/airlock/*); do cat $f/*; done`, deny: true},
		{cmd: `rm $(find . -name settings.json)`, deny: true},
		{cmd: `grep foo $(find . -name '*.go')`},
		{cmd: `cat $(git ls-files '*.md')`},
		{cmd: `wc -l $(find src -name '*.py')`},
		{cmd: `rm $(find . -name '*.pyc')`},
		{cmd: `find . -name '*.go' | while read f; do gofmt -l $f; done`},
		{cmd: `cat $(locate stdio.h)`},
		{cmd: `find ~ -name '*.md' | xargs cat`},
		{cmd: `find ~/.local -name '*.log' | xargs tail`},
		{cmd: `ls ~/.local/state/airlock/secrets | wc -l`},

		// L13: signals to PIDs found when the command runs (those that
		// depend on what runs now: TestSignalsToRunTimePIDs).
		{cmd: `kill $(pgrep -f hookd)`, deny: true},
		{cmd: `pgrep -f airlock-hook | while read p; do kill $p; done`, deny: true},
		{cmd: `pgrep -f 'airlock serve' | xargs -r kill -9`, deny: true},
		{cmd: `kill -TERM $(pgrep -f 'ai.lock')`, deny: true},
		{cmd: `ps -ef | grep -i airlock | awk '{print $2}' | xargs kill`, deny: true},
		{cmd: `docker run --pid=host alpine sh -c 'pkill -f airlock'`, deny: true},
		{cmd: `podman run --pid host alpine killall airlock`, deny: true},
		{cmd: `kill %1`},
		{cmd: `npm start & sleep 2; kill $!`},
		{cmd: `pkill -f 'node server.js'`},
		{cmd: `pgrep -f node | xargs kill`},
		{cmd: `docker run --pid=host --rm alpine ps aux`},
	}
	for i, c := range cases {
		// Named by number: a test's temporary directory holds its name,
		// and a command's words in it would match its own patterns.
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			f := newFixture(t)
			home := f.path("home")
			for rel, body := range map[string]string{
				"home/.claude/settings.json":                    "{\"hooks\":{}}\n",
				"home/.config/airlock/policy.yaml":              "mode: interactive\n",
				"home/.local/state/airlock/secrets/serve.token": strings.Repeat("d4", 32) + "\n",
				"home/.local/state/airlock/secrets/human.key":   strings.Repeat("k", 32),
				"proj/.claude/settings.json":                    "{\"hooks\":{}}\n",
				"proj/src/m.py":                                 "print(1)\n",
				"proj/src/a.go":                                 "package a\n",
				"proj/docs/a.md":                                "# a\n",
				"proj/.git/HEAD":                                "ref: refs/heads/main\n",
			} {
				f.write(rel, body)
			}
			if err := os.Chmod(filepath.Join(home, ".local/state/airlock/secrets"), 0o700); err != nil {
				t.Fatal(err)
			}
			if c.link {
				if err := os.Symlink(f.path("home/.local/state/airlock/secrets"), f.path("proj/sec")); err != nil {
					t.Fatal(err)
				}
			}
			cmd := strings.ReplaceAll(c.cmd, "@HOME@", home)
			v := f.load().DecideIn(Unattended, Action{Kind: Shell, Tool: "Bash", Command: cmd, Cwd: f.path("proj"), Snapshots: true})
			refused := v.Decision == Deny && strings.HasPrefix(v.Rule, "self.")
			if refused != c.deny {
				t.Errorf("%q: %s by %s (%v); want refused by self-protection: %v", cmd, v.Decision, v.Rule, v.Reasons, c.deny)
			}
			if !c.deny && v.Decision == Deny {
				t.Errorf("%q: ordinary work denied by %s (%v)", cmd, v.Rule, v.Reasons)
			}
		})
	}
}
