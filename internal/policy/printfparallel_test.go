package policy

import (
	"os"
	"strings"
	"testing"
)

// TestPrintfPathParallel holds the close variants and the ordinary work
// around FINDINGS-8 H1, H2, H3, H5 (sem) and B4: printf's value as bash
// prints it, exported functions and a PATH the text sets, and GNU
// parallel and sem joining their words into one shell line.
func TestPrintfPathParallel(t *testing.T) {
	approve := "airlock queue approve abcd"
	runsApprove := "#!/bin/sh\n" + approve + "\n"
	base := map[string]string{
		"home/.claude/settings.json":                    "{\"hooks\":{}}\n",
		"home/.local/state/airlock/secrets/serve.token": strings.Repeat("d4", 32) + "\n",
		"proj/.claude/settings.json":                    "{\"hooks\":{}}\n",
		"proj/src/m.py":                                 "print(1)\n",
		"proj/src/a.go":                                 "package a\n",
		"proj/Makefile":                                 "build:\n\techo hi\n",
		"proj/package.json":                             `{"name":"p","scripts":{"build":"tsc","test":"jest"}}`,
		"proj/go.mod":                                   "module example.com/p\n\ngo 1.22\n",
		"proj/x.sh":                                     runsApprove,
		"proj/ok.sh":                                    "#!/bin/sh\necho ok\n",
		"proj/a.log":                                    "log\n",
	}
	// fakeMktemp is an executable mktemp and cat in ROOT/p that print
	// the hook settings' directory.
	fakeMktemp := func(t *testing.T, f *fixture) {
		for _, name := range []string{"mktemp", "cat"} {
			p := f.write("p/"+name, "#!/bin/sh\necho "+f.path("home/.claude")+"\n")
			if err := os.Chmod(p, 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	cases := []findingCase{
		// H2: printf as bash prints it.
		{finding: "H2 %b \\0141 in the middle", cmd: `$(printf 'ai%b' '\0162lock') queue approve abcd`, want: denied},
		{finding: "H2 %b \\c after a %s", cmd: `$(printf '%s%b%s' air 'lock\c' junk) queue approve abcd`, want: denied},
		{finding: "H2 %b \\c cut by a precision", cmd: `$(printf '%.7b' 'airlockzz\c') queue approve abcd`, want: denied},
		{finding: "H2 %b \\c, the format taken again", cmd: `$(printf '%b' 'airlock\c' 'junk') queue approve abcd`, want: denied},
		{finding: "H2 %x of a number", cmd: `$(printf '%xirlock' 10) queue approve abcd`, want: denied},
		{finding: "H2 format \\NNN", cmd: `$(printf '\141irlock') queue approve abcd`, want: denied},
		{finding: "H2 %b \\0NNN in a path read", cmd: `cat "$(printf '%b' '@HOME@/.local/state/airlock/secrets/serve\0056token')"`, want: denied},
		{finding: "H2 printf -v with %b \\c", cmd: `printf -v p '%b' '@HOME@/.claude/settings.json\c/../x'; : > "$p"`, want: denied},
		{finding: "H2 format \\c (zsh ends there, bash does not): unknown", cmd: `$(printf 'airlock\c x') queue approve abcd`, want: held},
		{finding: "H2 %b \\141 (zsh: literal): unknown", cmd: `$(printf '%b' '\141irlock') queue approve abcd`, want: held},
		{finding: "H2 format \\x (dash: literal): unknown", cmd: `$(printf '\x61irlock') queue approve abcd`, want: held},
		// A script written by printf, then run: its text is printf's value.
		{finding: "H2 printf \\154 written to a script, then run", cmd: `printf 'air\154ock queue approve abcd\n' > b9; sh b9`, want: denied},
		{finding: "H2 printf %b \\0154 written to a script, then run", cmd: `printf '%b\n' 'air\0154ock queue approve abcd' > b9; sh b9`, want: denied},
		{finding: "H2 echo of \\0154 (dash's echo reads it) written, then run", cmd: `echo 'air\0154ock queue approve abcd' > b9; sh b9`, want: held},
		{finding: "a script written by printf, then run", cmd: `printf '#!/bin/sh\nmake build\n' > run.sh; sh run.sh`, want: notHeld},
		// Ordinary work.
		{finding: "printf %b of a variable", cmd: `msg='done\n'; printf '%b\n' "$msg"`, want: notHeld},
		{finding: "printf %s of a glob", cmd: `printf '%s\n' *.go`, want: notHeld},
		{finding: "printf %b escapes to a file", cmd: `printf '%b' 'a\tb\n' > build.txt`, want: notHeld},
		{finding: "printf a padded table", cmd: `printf '%-10s %5d\n' a 1 b 2`, want: notHeld},
		{finding: "ls of a printf path", cmd: `ls "$(printf '%s/%s' src m.py)"`, want: notHeld},

		// H1: parallel and sem join their words into one shell line.
		{finding: "H1 parallel echo | sh ::: ./x.sh", cmd: `parallel echo "|" sh ::: ./x.sh`, want: denied},
		{finding: "H1 parallel echo ; ./x.sh ::: abc", cmd: `parallel echo ";" ./x.sh ::: abc`, want: denied},
		{finding: "H1 parallel echo && sh x.sh", cmd: `parallel -j2 echo "&&" sh x.sh ::: 1`, want: denied},
		{finding: "H1 parallel echo backticks x.sh", cmd: "parallel echo '`./x.sh`' ::: 1", want: denied},
		{finding: "H1 parallel, input from a pipe", cmd: `echo 1 | parallel echo "|" sh x.sh`, want: denied},
		{finding: "H1 parallel, input from a file list", cmd: `parallel echo ";" ./x.sh :::: src/m.py`, want: denied},
		{finding: "H1 parallel through nice", cmd: `nice parallel echo ";" ./x.sh ::: a`, want: denied},
		{finding: "H1 sem echo ; ./x.sh", cmd: `sem echo ";" ./x.sh`, want: denied},
		{finding: "H1 sem ./x.sh", cmd: `sem ./x.sh`, want: denied},
		{finding: "H1 sem -j2 --id x sh x.sh", cmd: `sem -j2 --id x sh x.sh`, want: denied},
		{finding: "H1 parallel --semaphore echo ; ./x.sh", cmd: `parallel --semaphore echo ";" ./x.sh`, want: denied},
		{finding: "H1 sem echo > hook settings", cmd: `sem echo x ">" @HOME@/.claude/settings.json`, want: denied},
		{finding: "H1 parallel a value put in quotes in the template, from a pipe", cmd: `ls | parallel "echo '{}'"`, want: held},
		{finding: "H1 parallel {= perl =}", cmd: `parallel echo '{= system("./x.sh") =}' ::: 1`, want: held},
		{finding: "H1 parallel -I with a value as a shell's text", cmd: `cat src/m.py | parallel -I XX sh -c XX`, want: held},
		{finding: "H1 parallel --sshlogin", cmd: `parallel -S host echo ::: 1`, want: held},
		{finding: "H1 parallel --onall", cmd: `parallel --onall echo ::: 1`, want: held},
		{finding: "H1 parallel -q keeps the words: echo ; ./x.sh is text", cmd: `parallel -q echo ";" ./x.sh ::: a`, want: notHeld},
		{finding: "H1 parallel quotes its values", cmd: `parallel 'echo {}' ::: ';./x.sh'`, want: notHeld},
		{finding: "H1 parallel --pipe sh < x.sh", cmd: `parallel --pipe sh < x.sh`, want: denied},
		{finding: "H1 cat x.sh | parallel --pipe bash", cmd: `cat x.sh | parallel --pipe bash`, want: held},
		{finding: "H1 PARALLEL_SHELL names the shell", cmd: `PARALLEL_SHELL=./x.sh parallel echo ::: a`, want: held},
		{finding: "H1 exported PARALLEL_SHELL", cmd: `export PARALLEL_SHELL=./x.sh; sem make`, want: held},
		{finding: "parallel --pipe wc -l", cmd: `cat a.log | parallel --pipe wc -l`, want: notHeld},
		{finding: "parallel --pipe grep < a.log", cmd: `parallel --pipe 'grep -c x' < a.log`, want: notHeld},
		// H5: sem returns before its job ends.
		{finding: "H5 sem, the script written after it", cmd: `sem 'sleep 5; sh b9'; printf 'airlock queue approve abcd\n' > b9`, want: denied},
		{finding: "H5 parallel --semaphore, the script written after it", cmd: `parallel --semaphore 'sh b9'; echo 'airlock queue approve abcd' > b9`, want: denied},
		{finding: "H5 sem rm -rf, then ln", cmd: `sem rm -rf build/y/; ln -sfn /srv/data build/y`, want: held},
		// B4 and ordinary work.
		{finding: "B4 ls src | parallel 'wc -l src/{}'", cmd: `ls src | parallel 'wc -l src/{}'`, want: notHeld},
		{finding: "B4 find | parallel -X black", cmd: `find . -name '*.py' | parallel -X black`, want: notHeld},
		{finding: "B4 find | parallel wc -l", cmd: `find . -name '*.txt' | parallel wc -l`, want: notHeld},
		{finding: "B4 ls | parallel 'gzip -k {}'", cmd: `ls *.log | parallel 'gzip -k {}'`, want: notHeld},
		{finding: "parallel gzip ::: *.log", cmd: `parallel gzip ::: *.log`, want: notHeld},
		{finding: "parallel -j4 'python3 {}' ::: src/*.py", cmd: `parallel -j4 'python3 {}' ::: src/*.py`, want: notHeld},
		{finding: "sem -j4 make", cmd: `sem -j4 make`, want: notHeld},
		{finding: "sem --wait", cmd: `sem --wait`, want: notHeld},
		{finding: "parallel go test", cmd: `parallel go test ::: ./src`, want: notHeld},
		{finding: "B4 ls | parallel 'rm -rf {}' stays held", cmd: `ls | parallel 'rm -rf {}'`, want: held},
		{finding: "B4 cat list | parallel rm -rf stays held", cmd: `cat src/m.py | parallel rm -rf`, want: held},
		{finding: "B4 ls | parallel 'echo x > ~/.claude/{}' held", cmd: `ls | parallel 'echo x > @HOME@/.claude/{}'`, want: held},
		{finding: "B4 ls | xargs -I{} cp x.sh ~/.claude/{} held", cmd: `ls | xargs -I{} cp x.sh @HOME@/.claude/{}`, want: held},
		{finding: "B4 cat list | parallel 'echo x > {}' held", cmd: `cat src/m.py | parallel 'echo x > {}'`, want: held},
		{finding: "B4 ls | parallel 'wc -l src/{} > /dev/null'", cmd: `ls src | parallel 'wc -l src/{} > /dev/null'`, want: notHeld},
		{finding: "H1 a run-time value as the command name", cmd: `cat src/m.py | parallel '{} --version'`, want: held},
		{finding: "H1 a run-time value piped to sh", cmd: `cat src/m.py | parallel 'cat {} | sh'`, want: held},
		{finding: "H1 a run-time value as BASH_ENV", cmd: `cat src/m.py | parallel 'export BASH_ENV={}; bash -c true'`, want: held},
		{finding: "H1 a run-time value as python code", cmd: `cat src/m.py | parallel 'python3 -c {}'`, want: held},
		{finding: "H1 a run-time value after cd, rm -rf *", cmd: `cat src/m.py | parallel 'cd {} && rm -rf *'`, want: held},
		{finding: "H1 a run-time value to airlock", cmd: `cat src/m.py | parallel 'airlock queue approve {}'`, want: denied},
		{finding: "B4 ls | parallel 'gzip -k src/{}'", cmd: `ls src | parallel 'gzip -k src/{}'`, want: notHeld},
		{finding: "B4 cat list | parallel 'cp {} ~/.claude/' held", cmd: `cat src/m.py | parallel 'cp {} @HOME@/.claude/'`, want: held},

		// H3: a function exported in the environment, and a PATH the
		// text sets, replace the program whose output is read.
		{finding: "H3 env BASH_FUNC_echo%% bash -c $(echo ls)", cmd: `env 'BASH_FUNC_echo%%=() { builtin printf airlock; }' bash -c '$(echo ls) queue approve abcd'`, want: denied},
		{finding: "H3 env BASH_FUNC_mktemp%% bash -c rm -rf $(mktemp -d)", cmd: `env 'BASH_FUNC_mktemp%%=() { echo @HOME@/.claude; }' bash -c 'rm -rf "$(mktemp -d)"'`, want: held},
		{finding: "H3 env BASH_FUNC_cat%% through sudo and sh -c", cmd: `sudo env 'BASH_FUNC_cat%%=() { echo x; }' sh -c 'cat a.log'`, want: held},
		{finding: "H3 env BASH_FUNC_printf%% nested two shells deep", cmd: `env 'BASH_FUNC_printf%%=() { command printf %s @HOME@/.claude/settings.json; }' bash -c "bash -c ': > \$(printf build/x)'"`, want: held},
		{finding: "H3 env BASH_FUNC_ with a run-time value", cmd: `env "BASH_FUNC_echo%%=$F" bash -c '$(echo ls) -l'`, want: held},
		{finding: "H3 PATH assigned, then $(mktemp -d) deleted", prep: fakeMktemp, cmd: `PATH=@ROOT@/p:$PATH; rm -rf "$(mktemp -d)"`, want: held},
		{finding: "H3 PATH exported, mktemp into a variable", prep: fakeMktemp, cmd: `export PATH=@ROOT@/p:$PATH; d=$(mktemp -d); rm -rf "$d"`, want: held},
		{finding: "H3 env PATH=… sh -c with $(mktemp -d)", prep: fakeMktemp, cmd: `env PATH=@ROOT@/p:$PATH sh -c 'rm -rf "$(mktemp -d)"'`, want: held},
		{finding: "H3 PATH with a run-time entry, then $(mktemp -d)", cmd: `export PATH=$TOOLS:$PATH; rm -rf "$(mktemp -d)"`, want: held},
		// A cat earlier in PATH is held wherever it runs: whether its
		// output is read ($(cat f), a pipe into xargs) is not told apart.
		{finding: "H3 hash -p gives mktemp a file of its own", cmd: `hash -p ./x.sh mktemp; rm -rf "$(mktemp -d)"`, want: held},
		{finding: "H3 hash -p gives make a file of its own", cmd: `hash -p ./x.sh make; make build`, want: held},
		{finding: "hash -r; make build", cmd: `hash -r; make build`, want: notHeld},
		{finding: "H3 a cat earlier in PATH", prep: fakeMktemp, cmd: `export PATH=@ROOT@/p:$PATH; cat a.log`, want: held},
		{finding: "H3 a PATH that holds no mktemp", cmd: `export PATH=@ROOT@/proj/src:$PATH; d=$(mktemp -d); rm -rf "$d"`, want: notHeld},
		{finding: "PATH=./node_modules/.bin:$PATH npm test", cmd: `PATH=./node_modules/.bin:$PATH npm test`, want: notHeld},
		{finding: "export PATH=$HOME/go/bin:$PATH; golangci-lint run", cmd: `export PATH=$HOME/go/bin:$PATH; golangci-lint run`, want: notHeld},
		{finding: "env FOO=1 bash -c 'echo hi'", cmd: `env FOO=1 bash -c 'echo hi'`, want: notHeld},
		{finding: "env BASH_FUNC_ of a name nobody reads", cmd: `env 'BASH_FUNC_greet%%=() { echo hi; }' bash -c 'greet'`, want: notHeld},
	}
	for i := range cases {
		cases[i].fixed = true
	}
	runFindingCases(t, "8b", base, cases)
}
