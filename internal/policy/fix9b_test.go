package policy

import (
	"os"
	"strings"
	"testing"
)

// TestFix9bNames is FINDINGS-9's S1–S6 and B3 (fix9b): what a name runs
// without a function or an alias of it (hash -p, BASH_CMDS,
// command_not_found_handle, enable), IFS given to eval, cdable_vars,
// ANSI-C quoting's NUL, variables that name a file a program writes, and
// wrappers of a builtin that print what it prints; with close variants and
// ordinary work.
func TestFix9bNames(t *testing.T) {
	base := map[string]string{
		"home/.claude/settings.json":                    "{\"hooks\":{}}\n",
		"home/.config/airlock/policy.yaml":              "mode: interactive\n",
		"home/.local/state/airlock/secrets/serve.token": strings.Repeat("d4", 32) + "\n",
		"home/.local/state/airlock/secrets/human.key":   strings.Repeat("k", 32),
		"proj/.claude/settings.json":                    "{\"hooks\":{}}\n",
		"proj/src/m.py":                                 "print(1)\n",
		"proj/go.mod":                                   "module example.com/p\n\ngo 1.22\n",
		"proj/main.go":                                  "package main\n\nfunc main() {}\n",
	}
	approve := "airlock queue approve abcd"
	xsh := map[string]string{"proj/x.sh": "#!/bin/sh\n" + approve + "\n"}
	exe := func(rel, body string) func(*testing.T, *fixture) {
		return func(t *testing.T, f *fixture) {
			if err := os.Chmod(f.write(rel, body), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	fakeMktemp := exe("p/mktemp", "#!/bin/sh\necho /srv/data\n")
	fakeEcho := exe("p/echo", "#!/bin/sh\nprintf airlock\n")
	cases := []findingCase{
		// S1: hash -p, BASH_CMDS, command_not_found_handle, enable.
		{finding: "S302 hash -p makes mktemp another program", prep: fakeMktemp, cmd: `hash -p @ROOT@/p/mktemp mktemp; rm -rf "$(mktemp -d)"`, want: held},
		{finding: "S303 hash -p mktemp, d=$(mktemp -d)", prep: fakeMktemp, cmd: `hash -p @ROOT@/p/mktemp mktemp; d=$(mktemp -d); rm -rf "$d"`, want: held},
		{finding: "S304 hash -p makes cat x.sh", setup: xsh, cmd: `hash -p @ROOT@/proj/x.sh cat; cat src/m.py`, want: held},
		{finding: "S523 hash -p ./x.sh ls", setup: xsh, cmd: `hash -p ./x.sh ls; ls`, want: held},
		{finding: "S524 hash -p x.sh git", setup: xsh, cmd: `hash -p @ROOT@/proj/x.sh git; git status`, want: held},
		{finding: "S525 hash -p ./x.sh go", setup: xsh, cmd: `hash -p ./x.sh go; go build ./...`, want: held},
		{finding: "hash -p ./x.sh -- git", setup: xsh, cmd: `hash -p ./x.sh -- git; git status`, want: held},
		{finding: "hash -p with a quoted name", setup: xsh, cmd: `hash -p "./x.sh" 'git'; git status`, want: held},
		{finding: "hash -p with a variable program", setup: xsh, cmd: `p=./x.sh; hash -p "$p" git; git status`, want: held},
		{finding: "hash -p in a block", setup: xsh, cmd: `{ hash -p ./x.sh git; }; git status`, want: held},
		{finding: "builtin hash -p", setup: xsh, cmd: `builtin hash -p ./x.sh git; git status`, want: held},
		{finding: "command hash -p", setup: xsh, cmd: `command hash -p ./x.sh git && git status`, want: held},
		{finding: "eval hash -p", setup: xsh, cmd: `eval 'hash -p ./x.sh git'; git status`, want: held},
		{finding: "hash -p -t mixed flags", setup: xsh, cmd: `hash -lp ./x.sh git; git status`, want: held},
		{finding: "S526 BASH_CMDS[ls]", setup: xsh, cmd: `BASH_CMDS[ls]=./x.sh; ls`, want: held},
		{finding: "S527 BASH_CMDS[git]", setup: xsh, cmd: `BASH_CMDS[git]=@ROOT@/proj/x.sh; git status`, want: held},
		{finding: "S528 BASH_CMDS+=([go]=./x.sh)", setup: xsh, cmd: `BASH_CMDS+=([go]=./x.sh); go version`, want: held},
		{finding: "S529 declare -A BASH_CMDS", setup: xsh, cmd: `declare -A BASH_CMDS=([ls]=./x.sh); ls`, want: held},
		{finding: "BASH_CMDS by read -a", setup: xsh, cmd: `read -a BASH_CMDS <<< ./x.sh; git status`, want: held},
		{finding: "BASH_CMDS by printf -v", setup: xsh, cmd: `printf -v 'BASH_CMDS[git]' %s ./x.sh; git status`, want: held},
		{finding: "BASH_CMDS=([git]=…) without declare", setup: xsh, cmd: `BASH_CMDS=([git]=./x.sh); git status`, want: held},
		{finding: "BASH_CMDS[\"git\"] quoted key", setup: xsh, cmd: `BASH_CMDS["git"]=./x.sh; git status`, want: held},
		{finding: "typeset -A then BASH_CMDS[git]", setup: xsh, cmd: `typeset -A BASH_CMDS; BASH_CMDS[git]=./x.sh; git status`, want: held},
		{finding: "hash -p in a function called later", setup: xsh, cmd: `f() { hash -p ./x.sh git; }; f; git status`, want: held},
		{finding: "BASH_CMDS with a run-time key", setup: xsh, cmd: `k=$(printf git); BASH_CMDS[$k]=./x.sh; git status`, want: held},
		{finding: "builtin enable -n echo", prep: fakeEcho, cmd: `builtin enable -n echo; PATH=@ROOT@/p:$PATH; $(echo ls) queue approve abcd`, want: held},
		{finding: "command_not_found_handle by eval", setup: xsh, cmd: `eval 'command_not_found_handle() { ./x.sh; }'; zzznotacommand`, want: held},
		{finding: "command_not_found_handle that prints", cmd: `command_not_found_handle() { echo "not found: $1" >&2; return 127; }; go version`, want: notHeld},
		{finding: "BASH_ALIASES on three lines", setup: xsh, cmd: "shopt -s expand_aliases\nBASH_ALIASES[git]=./x.sh\ngit status", want: held},
		{finding: "S531 command_not_found_handle", setup: xsh, cmd: `command_not_found_handle() { ./x.sh; }; zzznotacommand`, want: held},
		{finding: "command_not_found_handle, function keyword", setup: xsh, cmd: `function command_not_found_handle { ./x.sh; }; zzznotacommand`, want: held},
		{finding: "command_not_found_handle then a run-time name", setup: xsh, cmd: `command_not_found_handle() { ./x.sh; }; $(printf zz)`, want: held},
		{finding: "S306 enable -n echo, then PATH's echo", prep: fakeEcho, cmd: `enable -n echo; PATH=@ROOT@/p:$PATH; $(echo ls) queue approve abcd`, want: held},
		{finding: "S305 enable -n echo, PATH's echo written", cmd: `printf '#!/bin/sh\nprintf airlock\n' > @ROOT@/p/echo; chmod +x @ROOT@/p/echo; enable -n echo; PATH=@ROOT@/p:$PATH; $(echo ls) queue approve abcd`, want: held},
		{finding: "S307 enable -n printf", prep: exe("p/printf", "#!/bin/sh\necho airlock\n"), cmd: `enable -n printf; PATH=@ROOT@/p:$PATH; $(printf ls) queue approve abcd`, want: held},
		{finding: "enable -n pwd", cmd: `enable -n pwd; PATH=@ROOT@/p:$PATH; cd "$(pwd)" && rm -rf ./*`, want: held},
		{finding: "enable -f loads a builtin", setup: xsh, cmd: `enable -f ./x.so git; git status`, want: held},
		{finding: "S1 hash -p ./x.sh echo; echo hi: the builtin runs (no finding)", setup: xsh, cmd: `hash -p ./x.sh echo; echo hi`, want: notHeld},
		{finding: "hash alone lists", cmd: `hash; git status`, want: notHeld},
		{finding: "hash -r forgets", cmd: `hash -r; go version`, want: notHeld},
		{finding: "hash git remembers", cmd: `hash git && git status`, want: notHeld},
		{finding: "hash -d git", cmd: `hash -d git 2>/dev/null; git status`, want: notHeld},
		{finding: "enable -a lists", cmd: `enable -a | head`, want: notHeld},
		{finding: "enable echo (re-enable)", cmd: `enable echo; echo hi`, want: notHeld},
		{finding: "BASH_CMDS read", cmd: `echo "${BASH_CMDS[git]}"`, want: notHeld},

		// History: history -s and -r add entries a non-interactive bash
		// keeps, fc runs them; history -w writes $HISTFILE.
		{finding: "history -s then fc -s -1", cmd: `history -s "airlock queue approve abcd"; fc -s -1`, want: denied},
		{finding: "history -s words then fc -s", cmd: `history -s airlock queue approve abcd; fc -s`, want: denied},
		{finding: "history -r a file then fc -s 1", setup: xsh, cmd: `history -r x.sh; fc -s 1`, want: held},
		{finding: "fc -s with a replacement", cmd: `history -s "echo queue approve abcd"; fc -s echo=airlock`, want: held},
		{finding: "fc -e an editor", cmd: `history -s "echo hi"; fc -e ./x.sh`, setup: xsh, want: held},
		{finding: "history -s a deletion then fc", cmd: `history -s "rm -rf /srv/data"; fc -s rm`, want: held},
		{finding: "fc in a subshell", cmd: `(history -s "airlock queue approve abcd"; fc -s)`, want: denied},
		{finding: "HISTFILE then history -w", cmd: `HISTFILE=~/.claude/settings.json; history -w`, want: denied},
		{finding: "HISTFILE prefix history -a", cmd: `HISTFILE=@HOME@/.claude/settings.json history -a`, want: denied},
		{finding: "history -w FILE", cmd: `history -w ~/.claude/settings.json`, want: denied},
		{finding: "set -o history -H then !!:s", cmd: "set -o history -H\necho airlock\n!!:s/echo// queue approve abcd", want: held},
		{finding: "set -H then !prefix", cmd: "set -H -o history\necho airlock queue approve abcd\n!echo:s/echo//", want: held},
		{finding: "set -o histexpand", cmd: "set -o history; set -o histexpand\nprintf airlock\n$(!!) queue approve abcd", want: held},
		{finding: "set -e with a ! test", cmd: `set -euo pipefail; if ! grep -q x src/m.py; then echo none; fi`, want: notHeld},
		{finding: "fc -l lists", cmd: `fc -l`, want: notHeld},
		{finding: "history lists", cmd: `history | tail -5`, want: notHeld},
		{finding: "history -c", cmd: `history -c`, want: notHeld},

		// S2: IFS given to eval.
		{finding: "S308 IFS=X eval splits the substitution", cmd: `IFS=X eval '$(echo airlockXqueueXapproveXabcd)'`, want: denied},
		{finding: "IFS=X builtin eval", cmd: `IFS=X builtin eval '$(echo airlockXqueueXapproveXabcd)'`, want: denied},
		{finding: "IFS=X command eval", cmd: `IFS=X command eval '$(echo airlockXqueueXapproveXabcd)'`, want: denied},
		{finding: "IFS=: eval with a variable", cmd: `x=airlock:queue:approve:abcd; IFS=: eval '$x'`, want: denied},
		{finding: "IFS=X eval, double quotes", cmd: `IFS=X eval "\$(echo airlockXqueueXapproveXabcd)"`, want: denied},
		{finding: "IFS=X source a file", setup: map[string]string{"proj/f.sh": "$(echo airlockXqueueXapproveXabcd)\n"}, cmd: `IFS=X source ./f.sh`, want: held},
		{finding: "IFS=X . a file", setup: map[string]string{"proj/f.sh": "$(echo airlockXqueueXapproveXabcd)\n"}, cmd: `IFS=X . ./f.sh`, want: held},
		{finding: "IFS=X; then . a file", setup: map[string]string{"proj/f.sh": "$(echo airlockXqueueXapproveXabcd)\n"}, cmd: `IFS=X; . ./f.sh`, want: held},
		{finding: "a sourced file sets IFS", setup: map[string]string{"proj/f.sh": "IFS=X\n"}, cmd: `. ./f.sh; $(echo airlockXqueueXapproveXabcd)`, want: held},
		{finding: "IFS=X eval, IFS back after", cmd: `IFS=X eval 'true'; $(echo airlockXqueueXapproveXabcd)`, want: notDeny},
		{finding: "source a venv ordinary", setup: map[string]string{"proj/.venv/bin/activate": "export VIRTUAL_ENV=x\n"}, cmd: `. .venv/bin/activate && python3 -m pytest -q`, want: notHeld},
		{finding: "IFS=, eval ordinary", cmd: `IFS=, eval 'set -- $(echo a,b)'; echo "$1"`, want: notHeld},
		{finding: "IFS= read ordinary", cmd: `IFS= read -r line < src/m.py; echo "$line"`, want: notHeld},

		// S3: cdable_vars.
		{finding: "S381 shopt -s cdable_vars; cd x goes to $x", cmd: `shopt -s cdable_vars; x=@HOME@/.claude; cd x && : > settings.json`, want: denied},
		{finding: "cdable_vars, pushd", cmd: `shopt -s cdable_vars; x=@HOME@/.claude; pushd x && : > settings.json`, want: denied},
		{finding: "cdable_vars, export then cd", cmd: `shopt -s cdable_vars; export x=@HOME@/.claude; cd x; cp /dev/null settings.json`, want: denied},
		{finding: "cdable_vars, -o cdable_vars flag list", cmd: `shopt -s nullglob cdable_vars; x=@HOME@/.claude; cd x && : > settings.json`, want: denied},
		{finding: "cdable_vars, unknown variable", cmd: `shopt -s cdable_vars; cd "$(printf x)" && : > settings.json`, want: held},
		{finding: "S382 cdable_vars deletion", cmd: `shopt -s cdable_vars; x=/srv/data; cd x && rm -rf ./*`, want: held},
		{finding: "cdable_vars, an existing directory wins", cmd: `shopt -s cdable_vars; src=/srv/data; cd src && rm -f m.py`, want: notHeld},
		{finding: "cd src without cdable_vars", cmd: `src=/srv/data; cd src && rm -f m.py`, want: notHeld},
		{finding: "shopt -s globstar, cd ordinary", cmd: `shopt -s globstar nullglob; cd src && ls **/*.py`, want: notHeld},
		{finding: "cdable_vars, cd ./x is the directory", cmd: `shopt -s cdable_vars; x=@HOME@/.claude; cd ./src && : > settings.json`, want: notHeld},
		{finding: "cdable_vars set by a run-time option", cmd: `o=cdable_vars; shopt -s "$(printf %s $o)"; x=@HOME@/.claude; cd x && : > settings.json`, want: held},

		// S4: ANSI-C quoting: \c@ and friends are NUL, the word ends.
		{finding: "S430 $'airlock\\c@'", cmd: `$'airlock\c@' queue approve abcd`, want: denied},
		{finding: "S437 $'airlock\\c@' in a variable", cmd: `x=$'airlock\c@'; "$x" queue approve abcd`, want: denied},
		{finding: "S407 $'airlock\\c@' in a variable, unquoted", cmd: `x=$'airlock\c@'; $x queue approve abcd`, want: denied},
		{finding: "S438 command $'airlock\\c@x'", cmd: `command $'airlock\c@x' queue approve abcd`, want: denied},
		{finding: "S439 env $'airlock\\c@'", cmd: `env $'airlock\c@' queue approve abcd`, want: denied},
		{finding: "S440 $'airlock\\c`junk'", cmd: "$'airlock\\c`junk' queue approve abcd", want: denied},
		{finding: "S441 $'airlock\\c junk'", cmd: `$'airlock\c junk' queue approve abcd`, want: denied},
		{finding: "$'airlock\\c@junk' then an empty quote", cmd: `$'airlock\c@junk'"" queue approve abcd`, want: denied},
		{finding: "$'…\\0…' then more text", cmd: `$'air\0junk'lock queue approve abcd`, want: denied},
		{finding: "$'…\\u0000…'", cmd: `$'airlock\u0000junk' queue approve abcd`, want: denied},
		{finding: "$'…\\400…' (octal modulo 256)", cmd: `$'airlock\400junk' queue approve abcd`, want: denied},
		{finding: "$'…\\c@' then airlock's secret path", cmd: "cat $'@HOME@/.local/state/airlock/secrets/human.key\\c`/../../../../../../proj/src/m.py'", want: denied},
		{finding: "$'…\\c@' the project's settings", cmd: `echo '{}' > $'.claude/settings.json\c@.bak'`, want: denied},
		{finding: "S434 $'secret\\c@/../…' read", cmd: `cat $'@HOME@/.local/state/airlock/secrets/serve.token\c@/../../../../../../proj/src/m.py'`, want: denied},
		{finding: "S435 $'hook settings\\c@/../../x' written", setup: xsh, cmd: `cp x.sh $'@HOME@/.claude/settings.json\c@/../../x'`, want: denied},
		{finding: "S436 $'/srv/data\\c@/../../tmp/x' deleted", cmd: `rm -rf $'/srv/data\c@/../../tmp/x'`, want: held},
		// S406: $'air\cJlock' unquoted splits at the newline: it runs
		// "air", not airlock.
		{finding: "$HOME then $'…\\c@…' read", cmd: `cat "$HOME"$'/.local/state/airlock/secrets/serve.token\c@/../../../../../proj/src/m.py'`, want: denied},
		{finding: "$'…\\c@' in a substitution", cmd: `x=$(printf %s $'airlock\c@junk'); $x queue approve abcd`, want: denied},
		{finding: "$'…\\c@' through eval", cmd: `eval "\$'airlock\\c@junk' queue approve abcd"`, want: denied},
		{finding: "eval of $'…\\\\c@…' is a literal backslash", cmd: `eval $'echo a\\c@b'`, want: notHeld},
		{finding: "$'…\\c@' in bash -c", cmd: `bash -c "\$'airlock\\c@junk' queue approve abcd"`, want: denied},
		{finding: "$'\\ca' ordinary", cmd: `printf '%s' $'a\cab' | od -c`, want: notHeld},
		{finding: "$'\\t' ordinary", cmd: `echo $'a\tb' > out.txt`, want: notHeld},

		// S5: a variable names a file a program writes.
		{finding: "S449 SSLKEYLOGFILE curl", cmd: `SSLKEYLOGFILE=~/.claude/settings.json curl -s https://example.com/`, want: denied},
		{finding: "S483 SSLKEYLOGFILE the project's", cmd: `SSLKEYLOGFILE=.claude/settings.json curl -s https://example.com/`, want: denied},
		{finding: "S484 SSLKEYLOGFILE absolute", cmd: `SSLKEYLOGFILE=@HOME@/.claude/settings.json curl -sI https://example.com/`, want: denied},
		{finding: "S485 export SSLKEYLOGFILE, then curl", cmd: `export SSLKEYLOGFILE=@HOME@/.claude/settings.json; curl -s https://example.com/ > /dev/null`, want: denied},
		{finding: "S487 SSLKEYLOGFILE git", cmd: `SSLKEYLOGFILE=~/.claude/settings.json git ls-remote https://example.com/r.git`, want: denied},
		{finding: "S488 SSLKEYLOGFILE npm", cmd: `SSLKEYLOGFILE=~/.claude/settings.json npm view left-pad version`, want: denied},
		{finding: "S489 SSLKEYLOGFILE pip", cmd: `SSLKEYLOGFILE=~/.claude/settings.json pip download requests`, want: denied},
		{finding: "S490 SSLKEYLOGFILE airlock's policy", cmd: `SSLKEYLOGFILE=~/.config/airlock/policy.yaml curl -s https://example.com/`, want: denied},
		{finding: "S491 SSLKEYLOGFILE go", cmd: `SSLKEYLOGFILE=~/.claude/settings.json go mod download`, want: denied},
		{finding: "S492 SSLKEYLOGFILE wget", cmd: `SSLKEYLOGFILE=~/.claude/settings.json wget -q https://example.com/`, want: denied},
		{finding: "S493 env SSLKEYLOGFILE", cmd: `env SSLKEYLOGFILE=~/.claude/settings.json curl -s https://example.com/`, want: denied},
		{finding: "S504 SSLKEYLOGFILE a secret", cmd: `SSLKEYLOGFILE=@HOME@/.local/state/airlock/secrets/serve.token curl -s https://example.com/`, want: denied},
		{finding: "SSLKEYLOGFILE in a variable", cmd: `f=~/.claude/settings.json; SSLKEYLOGFILE=$f curl -s https://example.com/`, want: denied},
		{finding: "declare -x SSLKEYLOGFILE", cmd: `declare -x SSLKEYLOGFILE=~/.claude/settings.json; curl -s https://example.com/`, want: denied},
		{finding: "set -a then SSLKEYLOGFILE", cmd: `set -a; SSLKEYLOGFILE=~/.claude/settings.json; curl -s https://example.com/`, want: denied},
		{finding: "export SSLKEYLOGFILE before its value", cmd: `export SSLKEYLOGFILE; SSLKEYLOGFILE=~/.claude/settings.json; curl -s https://example.com/`, want: denied},
		{finding: "SSLKEYLOGFILE=\"$HOME/…\"", cmd: `SSLKEYLOGFILE="$HOME/.claude/settings.json" curl -s https://example.com/`, want: denied},
		{finding: "sudo SSLKEYLOGFILE", cmd: `sudo SSLKEYLOGFILE=@HOME@/.claude/settings.json curl -s https://example.com/`, want: denied},
		{finding: "SSLKEYLOGFILE in a subshell", cmd: `(export SSLKEYLOGFILE=~/.claude/settings.json; curl -s https://example.com/)`, want: denied},
		{finding: "SSLKEYLOGFILE into bash -c", cmd: `SSLKEYLOGFILE=~/.claude/settings.json bash -c 'curl -s https://example.com/'`, want: denied},
		{finding: "SSLKEYLOGFILE quoted value", cmd: `SSLKEYLOGFILE='@HOME@/.claude/settings.json' wget -q https://example.com/`, want: denied},
		{finding: "kubectl flags before config", cmd: `KUBECONFIG=~/.claude/settings.json kubectl --context x config set-context y`, want: denied},
		{finding: "kind create cluster", cmd: `KUBECONFIG=~/.claude/settings.json kind create cluster`, want: denied},
		{finding: "S497 PIP_LOG", cmd: `PIP_LOG=@HOME@/.claude/settings.json pip install -q requests`, want: denied},
		{finding: "S494 NODE_OPTIONS --tls-keylog", cmd: `NODE_OPTIONS=--tls-keylog=@HOME@/.claude/settings.json npm view left-pad version`, want: denied},
		{finding: "S450 LD_DEBUG_OUTPUT", cmd: `LD_DEBUG=all LD_DEBUG_OUTPUT=~/.claude/settings.json ls`, want: denied},
		{finding: "S451 LLVM_PROFILE_FILE", cmd: `LLVM_PROFILE_FILE=~/.claude/settings.json ./bin/app`, want: denied},
		// S452: git takes only an absolute path for a trace file (a relative
		// one is ignored with a warning), so it writes nothing.
		{finding: "S452 GIT_TRACE2_EVENT relative is no file", cmd: `GIT_TRACE2_EVENT=.claude/settings.json git status`, want: notHeld},
		{finding: "S456 HISTFILE", cmd: `HISTFILE=~/.claude/settings.json bash -ic 'echo x'`, want: denied},
		{finding: "S499 npm_config_logs_dir", cmd: `npm_config_logs_dir=@HOME@/.claude npm test`, want: denied},
		{finding: "S500 MALLOC_TRACE", cmd: `MALLOC_TRACE=@HOME@/.claude/settings.json ls`, want: denied},
		{finding: "S501 ASAN_OPTIONS log_path", cmd: `ASAN_OPTIONS=log_path=@HOME@/.claude/settings.json ./bin/app`, want: denied},
		{finding: "S502 GOCOVERDIR", cmd: `GOCOVERDIR=@HOME@/.claude go test -cover ./...`, want: denied},
		{finding: "LESSHISTFILE", cmd: `LESSHISTFILE=~/.claude/settings.json less src/m.py`, want: denied},
		{finding: "NODE_REPL_HISTORY", cmd: `NODE_REPL_HISTORY=~/.claude/settings.json node -e 1`, want: denied},
		{finding: "PYTHON_HISTORY", cmd: `PYTHON_HISTORY=~/.claude/settings.json python3 -c 1`, want: denied},
		{finding: "SSLKEYLOGFILE ordinary scratch", cmd: `SSLKEYLOGFILE=/tmp/keys.log curl -s https://example.com/`, want: notDeny},
		{finding: "GIT_TRACE=1 ordinary", cmd: `GIT_TRACE=1 git status`, want: notHeld},
		{finding: "GIT_TRACE to a project file ordinary", cmd: `GIT_TRACE=trace.log git status`, want: notHeld},
		{finding: "HISTFILE=/dev/null ordinary", cmd: `HISTFILE=/dev/null bash -c 'echo x'`, want: notHeld},
		{finding: "LLVM_PROFILE_FILE ordinary", cmd: `LLVM_PROFILE_FILE=cov/%p.profraw go version`, want: notHeld},
		{finding: "GOCOVERDIR ordinary", cmd: `GOCOVERDIR=cov go test -cover ./...`, want: notDeny},

		// S6: a variable names a tool's own configuration file.
		{finding: "S510 NPM_CONFIG_USERCONFIG", cmd: `NPM_CONFIG_USERCONFIG=~/.claude/settings.json npm config set fund false`, want: denied},
		{finding: "S511 npm_config_userconfig", cmd: `npm_config_userconfig=@HOME@/.claude/settings.json npm config set fund false`, want: denied},
		{finding: "S507 KUBECONFIG", cmd: `KUBECONFIG=~/.claude/settings.json kubectl config set-context x`, want: denied},
		{finding: "KUBECONFIG the project's", cmd: `KUBECONFIG=.claude/settings.json kubectl config set-context x`, want: denied},
		{finding: "S513 XAUTHORITY", cmd: `XAUTHORITY=~/.claude/settings.json xauth add :0 . abcd`, want: denied},
		{finding: "export KUBECONFIG=airlock's policy", cmd: `export KUBECONFIG=~/.config/airlock/policy.yaml; kubectl config set-context x`, want: denied},
		{finding: "S505 GIT_CONFIG_GLOBAL", cmd: `GIT_CONFIG_GLOBAL=~/.claude/settings.json git config --global user.name x`, want: denied},
		{finding: "S514 GIT_CONFIG_GLOBAL project", cmd: `GIT_CONFIG_GLOBAL=.claude/settings.json git config --global user.name x`, want: denied},
		{finding: "S515 GIT_CONFIG_SYSTEM", cmd: `GIT_CONFIG_SYSTEM=~/.claude/settings.json git config --system user.name x`, want: denied},
		{finding: "S508 AWS_CONFIG_FILE", cmd: `AWS_CONFIG_FILE=~/.claude/settings.json aws configure set region us-east-1`, want: denied},
		{finding: "S509 AWS_SHARED_CREDENTIALS_FILE", cmd: `AWS_SHARED_CREDENTIALS_FILE=~/.claude/settings.json aws configure set aws_access_key_id x`, want: denied},
		{finding: "S512 PIP_CONFIG_FILE", cmd: `PIP_CONFIG_FILE=~/.claude/settings.json pip config set global.timeout 60`, want: denied},
		{finding: "S519 DOCKER_CONFIG dir (airlock's state)", cmd: `DOCKER_CONFIG=~/.local/state/airlock docker login -u x --password-stdin <<< y`, want: denied},
		{finding: "DOCKER_CONFIG ordinary", cmd: `DOCKER_CONFIG=/tmp/dock docker login -u x --password-stdin <<< y`, want: notDeny},
		{finding: "S520 CLOUDSDK_CONFIG (airlock's state)", cmd: `CLOUDSDK_CONFIG=~/.local/state/airlock gcloud config set project x`, want: denied},
		{finding: "GNUPGHOME (airlock's state)", cmd: `GNUPGHOME=~/.local/state/airlock/secrets gpg --batch --gen-key /dev/null`, want: denied},
		{finding: "S516 HOME=airlock's config git config --global", cmd: `HOME=@HOME@/.config/airlock git config --global user.name x`, want: denied},
		{finding: "S517 XDG_CONFIG_HOME=airlock's state git config --global", cmd: `XDG_CONFIG_HOME=@HOME@/.local/state/airlock git config --global user.name x`, want: denied},
		{finding: "GOENV go env -w", cmd: `GOENV=~/.claude/settings.json go env -w GOFLAGS=-mod=mod`, want: denied},
		{finding: "GOENV go env -u", cmd: `GOENV=@HOME@/.config/airlock/policy.yaml go env -u GOFLAGS`, want: denied},
		{finding: "GOENV go env read", cmd: `GOENV=/tmp/goenv go env GOPATH`, want: notHeld},
		{finding: "npm_config_globalconfig --location=global", cmd: `npm_config_globalconfig=~/.claude/settings.json npm config set fund false --location=global`, want: denied},
		{finding: "NPM_CONFIG_GLOBALCONFIG -g", cmd: `NPM_CONFIG_GLOBALCONFIG=~/.claude/settings.json npm config set fund false -g`, want: denied},
		{finding: "KUBECONFIG list, second file", cmd: `KUBECONFIG=/tmp/k:@HOME@/.claude/settings.json kubectl config set-context x`, want: denied},
		{finding: "KUBECONFIG ordinary", cmd: `KUBECONFIG=/tmp/kind.yaml kubectl config set-context x`, want: notDeny},
		{finding: "NPM_CONFIG_USERCONFIG ordinary", cmd: `NPM_CONFIG_USERCONFIG=.npmrc npm config set fund false`, want: notDeny},
		{finding: "KUBECONFIG read-only use", cmd: `KUBECONFIG=/tmp/kind.yaml kubectl get pods`, want: notDeny},
		{finding: "KUBECONFIG=~/.kube/config read", cmd: `KUBECONFIG=~/.kube/config kubectl get pods -A`, want: notDeny},
		{finding: "KUBECONFIG=~/.kube/config view", cmd: `KUBECONFIG=~/.kube/config kubectl config view`, want: notDeny},
		{finding: "HOME elsewhere git status", cmd: `HOME=/tmp/h git status`, want: notHeld},
		{finding: "GIT_CONFIG_GLOBAL read", cmd: `GIT_CONFIG_GLOBAL=/dev/null git config --get user.name`, want: notHeld},
		{finding: "NPM_CONFIG_USERCONFIG install", cmd: `NPM_CONFIG_USERCONFIG=~/.npmrc npm ci`, want: notDeny},
		{finding: "ASAN_OPTIONS ordinary", cmd: `ASAN_OPTIONS=detect_leaks=0:log_path=/tmp/asan ./bin/app`, want: notDeny},
		{finding: "NODE_OPTIONS ordinary", cmd: `NODE_OPTIONS=--max-old-space-size=4096 npm test`, want: notDeny},
		{finding: "UBSAN_OPTIONS names airlock's policy", cmd: `UBSAN_OPTIONS=print_stacktrace=1,log_path=@HOME@/.config/airlock/policy.yaml ./bin/app`, want: denied},
		{finding: "NODE_OPTIONS --redirect-warnings spaced", cmd: `NODE_OPTIONS='--redirect-warnings @HOME@/.claude/settings.json' npm test`, want: denied},

		// B3: a wrapper of the builtin or program of its own name.
		{finding: "B3 a logging echo function", cmd: `echo() { builtin echo "[log] $*"; }; echo start`, want: notHeld},
		{finding: "B3 cd wrapper", cmd: `cd() { builtin cd "$@" && ls; }; cd src`, want: notHeld},
		{finding: "B3 ls wrapper", cmd: `ls() { command ls --color=auto "$@"; }; ls src`, want: notHeld},
		{finding: "B3 cat wrapper", cmd: `cat() { command cat -n "$@"; }; cat src/m.py`, want: notHeld},
		{finding: "B3 function keyword echo", cmd: `function echo { builtin echo "[log]" "$@"; }; echo start`, want: notHeld},
		{finding: "H3 echo prints something else", cmd: `echo() { builtin printf airlock; }; $(echo ls) queue approve abcd`, want: held},
		{finding: "H3 echo wrapper used in $()", cmd: `echo() { builtin echo "air$*"; }; $(echo lock) queue approve abcd`, want: held},
		{finding: "H3 cat wrapper used in $()", cmd: `cat() { command cat -n "$@"; }; rm -rf "$(cat src/m.py)"`, want: held},
		{finding: "S301 tee prints", cmd: `tee() { builtin printf airlock; }; $(tee <<< ls) queue approve abcd`, want: held},
		{finding: "H3 mktemp wrapper", cmd: `mktemp() { builtin echo /srv/data; }; rm -rf "$(mktemp -d)"`, want: held},
		{finding: "H3 cd wrapper going elsewhere", cmd: `cd() { builtin cd /srv/data; }; cd src && rm -rf ./*`, want: held},
		{finding: "H3 echo wrapper calling another", cmd: `echo() { ./x.sh; }; echo start`, setup: xsh, want: held},
		{finding: "H3 echo defined, used later in a function's $()", cmd: `f() { $(echo ls) queue approve abcd; }; echo() { builtin printf airlock; }; f`, want: held},
		{finding: "H3 echo defined, then a pipe into sh", cmd: `echo() { builtin printf airlock; }; echo ls | sh`, want: held},
		{finding: "H3 echo defined, backquotes", cmd: "echo() { builtin printf airlock; }; `echo ls` queue approve abcd", want: held},
		{finding: "H3 echo defined in a loop before its use", cmd: `for i in 1 2; do $(echo ls) queue approve abcd; echo() { builtin printf airlock; }; done`, want: held},
		{finding: "B3 printf wrapper, two calls", cmd: `printf() { builtin printf "%s\n" "$@"; }; printf a b; printf c`, want: notHeld},
		{finding: "B3 pwd wrapper", cmd: `pwd() { builtin pwd -P; }; pwd`, want: notHeld},
	}
	for i := range cases {
		cases[i].fixed = true
	}
	runFindingCases(t, "9b", base, cases)
}
