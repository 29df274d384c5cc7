package policy

import (
	"encoding/base64"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunTimePathSources: a path read at run time is refused when a
// program its value can come from is not bounded away from airlock's
// secrets (FINDINGS-6 F4: du, stat, printf, echo of a glob, a list file, a
// decoder), in close spellings, and let through when every source is
// bounded (ordinary work: git ls-files, find, go list, a list of project
// files, a PID file, ids).
func TestRunTimePathSources(t *testing.T) {
	f := newFixture(t)
	home := f.path("home")
	secret := home + "/.local/state/airlock/secrets/serve.token"
	f.write("home/.local/state/airlock/secrets/serve.token", strings.Repeat("d4", 32)+"\n")
	if err := os.Chmod(filepath.Dir(secret), 0o700); err != nil {
		t.Fatal(err)
	}
	f.write("proj/.git/HEAD", "ref: refs/heads/main\n")
	f.write("proj/src/m.py", "print(1)\n")
	f.write("proj/README.md", "# r\n")
	f.write("proj/VERSION", "1.2.3\n")
	f.write("proj/server.pid", "4242\n")
	f.write("proj/files.txt", "src/m.py\nREADME.md\n")
	f.write("proj/manifest.json", `{"main":"src/m.py","files":["src/m.py","README.md"]}`)
	f.write("proj/leak.txt", secret+"\n")
	f.write("proj/scripts/leak.sh", "#!/bin/sh\ndu -a ~/.local | cut -f2 | xargs cat\n")
	f.write("proj/scripts/leak2.sh", "#!/bin/sh\nread -r p < leak.txt\ncat \"$p\"\n")
	f.write("proj/scripts/ok.sh", "#!/bin/sh\ngit ls-files '*.md' | xargs cat\n")
	f.write("proj/leak.json", `{"main":"`+secret+`"}`)
	b64 := base64.StdEncoding.EncodeToString([]byte(secret))
	hx := hex.EncodeToString([]byte(secret))
	rev := func(s string) string {
		r := []rune(s)
		for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
			r[i], r[j] = r[j], r[i]
		}
		return string(r)
	}
	p := f.load()
	decide := func(cmd string) Verdict {
		return p.DecideIn(Unattended, Action{Kind: Shell, Tool: "Bash", Command: cmd, Cwd: f.path("proj"), Snapshots: true})
	}
	deny := []string{
		// producers that list the filesystem below the secrets
		`cat $(du -a ~/.local | cut -f2 | grep serve)`,
		`du -a ~/.local | cut -f2 | xargs cat`,
		`cat $(du -a ~/.local/state | awk '{print $2}')`,
		`tree -fi ~/.local | grep serve | xargs cat`,
		`rg --files ~/.local/state | xargs head -c 99`,
		`grep -rl . ~/.local/state | xargs cat`,
		`mapfile -t a < <(du -a ~/.local); cat "${a[@]}"`,
		`x=$(du -a ~/.local); base64 $x`,
		// programs that print the words they are given
		`stat -c %n ~/.local/state/*/secrets/* | xargs cat`,
		`cat $(stat -c %n ~/.local/state/*/secrets/*)`,
		`cat $(printf '%s\n' ~/.local/state/*/secrets/*)`,
		`cat $(echo ~/.local/state/air*/sec*/ser*)`,
		`xargs cat < <(echo ~/.local/state/airlock/secrets/serve.token)`,
		`cat "$(realpath ~/.local/state/airlock/secrets/serve.token)"`,
		`printf '%s/%s\n' ~/.local/state/airlock secrets/serve.token | xargs cat`,
		`echo ~/.local/state/airlock | xargs -I{} sh -c 'cat {}/secr*/s*'`,
		`(echo -n ~/.local/state/air; echo lock/secrets/serve.token) | xargs cat`,
		// a path written to a file, then read back
		`echo ~/.local/state/airlock/secrets/serve.token > /tmp/l; xargs cat < /tmp/l`,
		`echo ~/.local/state/airlock/secrets/serve.token > /tmp/l; cat $(cat /tmp/l)`,
		`printf '%s\n' ~/.local/state/airlock/secrets/serve.token > /tmp/l; xargs -a /tmp/l cat`,
		`ls ~/.local/state/airlock/secrets > /tmp/l; cd ~/.local/state/airlock/secrets; xargs cat < /tmp/l`,
		`cp leak.txt /tmp/l; xargs -a /tmp/l cat`,
		// a file on disk that lists the path
		`cat $(cat leak.txt)`,
		`xargs -a leak.txt cat`,
		`xargs cat < leak.txt`,
		`read -r p < leak.txt; cat "$p"`,
		`cat leak.txt | while read f; do cat "$f"; done`,
		`cat $(jq -r .main leak.json)`,
		`cat $(head -1 leak.txt)`,
		`echo ~/.local/state/airlock/secrets/serve.token > "$TMPDIR/l"; xargs cat < "$TMPDIR/l"`,
		`sed -n 1p leak.txt > "$TMPDIR/l"; xargs cat < "$TMPDIR/l"`,
		`cp leak.txt "$TMPDIR/l"; xargs cat < "$TMPDIR/l"`,
		`cat $(< leak.txt)`,
		// decoded at run time
		`cat $(echo ` + b64 + ` | base64 -d)`,
		`cat $(base64 --decode <<< ` + b64 + `)`,
		`cat $(rev <<< ` + rev(secret) + `)`,
		`cat $(xxd -r -p <<< ` + hx + `)`,
		`cat "$(tr a-z n-za-m <<< abc)"`,
		`cat $(python3 -c 'print(1)')`,
		`cat $(git grep -h token)`,
		`cat $(git log -1 --format=%s)`,
		`cat $(git show HEAD:files.txt)`,
		`cat $(awk '{print "/" $1}' files.txt)`,
		`cat $(awk '{print $1}' leak.txt)`,
		`cat $(sed -n 1p files.txt)`,
		`cat $(jq -r '.files | join("/")' manifest.json)`,
		`echo ` + b64 + ` | base64 -d | xargs cat`,
		`less $(echo ` + b64 + ` | base64 -d)`,
		`grep . $(echo ` + b64 + ` | base64 -d)`,
		"cat `echo " + b64 + " | base64 -d`",
		// programs that print what they read though they may also write
		`base64 $(echo ` + b64 + ` | base64 -d)`,
		`xxd $(echo ` + b64 + ` | base64 -d)`,
		`sed -n p $(echo ` + b64 + ` | base64 -d)`,
		`sort $(echo ` + b64 + ` | base64 -d)`,
		// a suffix that a secret ends with
		`cat "$(echo ` + b64 + ` | base64 -d | xargs dirname)/serve.token"`,
		`cat "$(python3 -c 'print(1)')/human.key"`,
		// in a script the command runs
		`sh scripts/leak.sh`,
		`bash scripts/leak2.sh`,
		// wrapped
		`sudo cat $(echo ` + b64 + ` | base64 -d)`,
		`bash -c 'cat $(du -a ~/.local | grep serve)'`,
	}
	for _, cmd := range deny {
		v := decide(cmd)
		if v.Decision != Deny || !strings.HasPrefix(v.Rule, "self.") {
			t.Errorf("%q was %s by %s (%s); want a deny by self-protection", cmd, v.Decision, v.Rule, v.Message)
		}
	}
	ordinary := []string{
		`cat $(git ls-files '*.md')`,
		`wc -l $(find . -name '*.py')`,
		`cat $(git rev-parse --show-toplevel)/README.md`,
		`grep -n TODO $(git diff --name-only)`,
		`git diff --name-only | xargs cat`,
		`go test $(go list ./... | grep -v e2e)`,
		`head $(ls *.md)`,
		`cat $(cat files.txt)`,
		`xargs -a files.txt cat`,
		`xargs wc -l < files.txt`,
		`read -r f < files.txt; cat "$f"`,
		`while read -r f; do wc -l "$f"; done < files.txt`,
		`cat $(jq -r .main manifest.json)`,
		`jq -r '.files[]' manifest.json | xargs cat`,
		`kill $(cat server.pid)`,
		`docker rm $(docker ps -aq)`,
		`cd $(dirname $0) && cat README.md`,
		`for f in $(git ls-files '*.py'); do grep -c TODO "$f"; done`,
		`grep -q "$(sed -n 1p VERSION)" README.md`,
		`less $(which python3)`,
		`cat $(echo src/m.py)`,
		`printf '%s\n' src/*.py | xargs wc -l`,
		`find . -name '*.py' | xargs cat`,
		`rg -l print | xargs head -1`,
		`echo src/m.py > /tmp/l; xargs cat < /tmp/l`,
		`cat "$1"`,
		`for f in *.md; do cat "$f"; done`,
		`git ls-files | grep py | while read f; do head -1 "$f"; done`,
		`cat "$(ls -t *.md | head -1)"`,
		`ls -la $(echo ` + b64 + ` | base64 -d)`,
		`git ls-files '*.md' | xargs -I{} cat {}`,
		`sh scripts/ok.sh`,
		`cat "$(< files.txt)"`,
		`echo src/m.py > "$TMPDIR/l"; xargs cat < "$TMPDIR/l"`,
		`xargs cat < "$LIST"`,
		`rm $(git ls-files -d '*.py')`,
		`vim $(git diff --name-only)`,
		`wc -l $(git ls-files | grep '\.py$')`,
		`cat $(find . -name '*.json' | head -3)`,
		`tail -n 20 $(ls -t src/*.py | head -1)`,
		`bat $(fd -e py)`,
		`grep -c def $(rg --files src)`,
		`sort $(git ls-files '*.md')`,
		`sed -i s/a/b/ $(git ls-files '*.md')`,
		`openssl dgst $(find . -name '*.md')`,
		`python3 tool.py $(python3 -c 'print(1)')`,
		`cat $(git status --porcelain | awk '{print $2}')`,
		`head -3 $(awk -F: '{print $1}' files.txt)`,
		`diff <(git show HEAD:README.md) README.md`,
		`source <(echo x=1)`,
		`comm -12 <(sort files.txt) <(sort files.txt)`,
		`source "$(poetry env info --path)/bin/activate"`,
		`cat "$(npm root -g)/npm/package.json"`,
		`cat $(go env GOROOT)/VERSION`,
		`cat "$(python3 -c 'import sys; print(sys.prefix)')/pyvenv.cfg"`,
	}
	for _, cmd := range ordinary {
		if v := decide(cmd); v.Decision == Deny {
			t.Errorf("%q was denied by %s (%s); it is ordinary work", cmd, v.Rule, v.Message)
		}
	}
}
