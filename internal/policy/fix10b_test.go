package policy

import (
	"strings"
	"testing"
)

// TestFix10b is FINDINGS-9's phase-2 rows S2b, S3b, T2b and P16 in part
// (fix10b): a function call's prefix assignments and its shell's state
// in its body, shell options from the command line, the environment and
// set/shopt in any spelling, movers' sources, and code an interpreter
// reads from its input or a file it is told to run; with close variants
// and ordinary work.
func TestFix10b(t *testing.T) {
	base := map[string]string{
		"home/.claude/settings.json":                    "{\"hooks\":{}}\n",
		"home/.config/airlock/policy.yaml":              "mode: interactive\n",
		"home/.local/state/airlock/secrets/serve.token": strings.Repeat("d4", 32) + "\n",
		"proj/.claude/settings.json":                    "{\"hooks\":{}}\n",
		"proj/src/m.py":                                 "print(1)\n",
		"proj/go.mod":                                   "module example.com/p\n\ngo 1.22\n",
		"proj/main.go":                                  "package main\n\nfunc main() {}\n",
	}
	approve := "airlock queue approve abcd"
	awkVerb := "BEGIN{system(\"" + approve + "\")}\n"
	xsh := map[string]string{"proj/x.sh": "#!/bin/sh\n" + approve + "\n"}
	cases := []findingCase{
		// S2b: a function's body reads the call's prefix assignments and
		// the calling shell's IFS, HOME, CDPATH and options.
		{finding: "S2b IFS=X f", cmd: `f(){ $(echo airlockXqueueXapproveXabcd); }; IFS=X f`, want: denied},
		{finding: "IFS=X; then f", cmd: `f(){ $(echo airlockXqueueXapproveXabcd); }; IFS=X; f`, want: denied},
		{finding: "export IFS=X; then f", cmd: `f(){ $(echo airlockXqueueXapproveXabcd); }; export IFS=X; f`, want: held},
		{finding: "f first, IFS=X f second", cmd: `f(){ $(echo airlockXqueueXapproveXabcd); }; f; IFS=X f`, want: denied},
		{finding: "IFS=X f calling g", cmd: `g(){ $(echo airlockXqueueXapproveXabcd); }; f(){ g; }; IFS=X f`, want: denied},
		{finding: "IFS from a variable", cmd: `s=X; f(){ $(echo airlockXqueueXapproveXabcd); }; IFS=$s f`, want: denied},
		{finding: "IFS only known at run time", cmd: `f(){ $(echo airlockXqueueXapproveXabcd); }; IFS=$(printf X) f`, want: held},
		{finding: "another variable: the command's name", cmd: `f(){ $c queue approve abcd; }; c=airlock f`, want: denied},
		{finding: "HOME=… f, the body's ~", cmd: `f(){ cd ~ && : > settings.json; }; HOME=@HOME@/.claude f`, want: denied},
		{finding: "CDPATH=… f", cmd: `f(){ cd x && : > settings.json; }; mkdir -p /tmp/cdp; CDPATH=@HOME@/.claude f`, want: held},
		{finding: "cdable_vars before the call", cmd: `f(){ cd x && : > settings.json; }; shopt -s cdable_vars; x=@HOME@/.claude f`, want: denied},
		{finding: "six calls with six IFS values", cmd: `f(){ $(echo airlockXqueueXapproveXabcd); }; IFS=a f; IFS=b f; IFS=c f; IFS=d f; IFS=e f; IFS=X f`, want: held},
		{finding: "sh: IFS=X : lasts", cmd: `sh -c 'IFS=X :; $(echo airlockXqueueXapproveXabcd)'`, want: held},
		{finding: "IFS=X export lasts in a POSIX shell", cmd: `IFS=X export y; $(echo airlockXqueueXapproveXabcd)`, want: held},
		{finding: "sh: IFS=X f lasts after the call", cmd: `sh -c 'f(){ :; }; IFS=X f; $(echo airlockXqueueXapproveXabcd)'`, want: held},
		{finding: "ordinary: a prefix on a function call", cmd: `build(){ go build ./...; }; CGO_ENABLED=0 build`, want: notHeld},
		{finding: "ordinary: a function called twice", cmd: `f(){ for x in a b; do echo "$x"; done; }; f; LC_ALL=C f`, want: notHeld},
		{finding: "ordinary: a function with its argument", cmd: `say(){ printf '%s\n' "$1"; }; say hi; say there`, want: notHeld},

		// S3b: options from the command line, the environment, set and
		// shopt in any spelling.
		{finding: "S3b bash -O cdable_vars -c", cmd: `bash -O cdable_vars -c 'x=@HOME@/.claude; cd x && : > settings.json'`, want: denied},
		{finding: "S3b env BASHOPTS=cdable_vars bash -c", cmd: `env BASHOPTS=cdable_vars bash -c 'x=@HOME@/.claude; cd x && : > settings.json'`, want: denied},
		{finding: "BASHOPTS prefix", cmd: `BASHOPTS=extglob:cdable_vars bash -c 'x=@HOME@/.claude; cd x && : > settings.json'`, want: denied},
		{finding: "export BASHOPTS", cmd: `export BASHOPTS=cdable_vars; bash -c 'x=@HOME@/.claude; cd x && : > settings.json'`, want: denied},
		{finding: "bash -O cdable_vars reading a here-string", cmd: `bash -O cdable_vars <<< 'x=@HOME@/.claude; cd x && : > settings.json'`, want: denied},
		{finding: "bash -O cdable_vars running a script", setup: map[string]string{"proj/s.sh": "x=$HOME/.claude; cd x && : > settings.json\n"}, cmd: `bash -O cdable_vars s.sh`, want: held},
		{finding: "bash -O cdable_vars < a script", setup: map[string]string{"proj/s.sh": "x=$HOME/.claude; cd x && : > settings.json\n"}, cmd: `bash -O cdable_vars < s.sh`, want: held},
		{finding: "cat a script | bash -O cdable_vars", setup: map[string]string{"proj/s.sh": "x=$HOME/.claude; cd x && : > settings.json\n"}, cmd: `cat s.sh | bash -O cdable_vars`, want: held},
		{finding: "BASHOPTS for a script run by its name", setup: map[string]string{"proj/s.sh": "#!/bin/bash\nx=$HOME/.claude; cd x && : > settings.json\n"}, cmd: `BASHOPTS=cdable_vars ./s.sh`, want: held},
		{finding: "shopt -qs cdable_vars", cmd: `shopt -qs cdable_vars; x=@HOME@/.claude; cd x && : > settings.json`, want: denied},
		{finding: "shopt -s -q cdable_vars", cmd: `shopt -s -q cdable_vars; x=@HOME@/.claude; cd x && : > settings.json`, want: denied},
		{finding: "builtin shopt -s cdable_vars", cmd: `builtin shopt -s cdable_vars; x=@HOME@/.claude; cd x && : > settings.json`, want: denied},
		{finding: "an option name only known at run time", cmd: `o=cdable_vars; shopt -s "$(echo $o)"; x=@HOME@/.claude; cd x && : > settings.json`, want: held},
		{finding: "bash -O of a name only known at run time", cmd: `bash -O "$(echo cdable_vars)" -c 'x=@HOME@/.claude; cd x && : > settings.json'`, want: held},
		{finding: "nullglob moves the words after a glob", cmd: `shopt -s nullglob; cp -t zz* @HOME@/.claude/ src/m.py`, want: held},
		{finding: "bash -O nullglob", cmd: `bash -O nullglob -c 'cp -t zz* @HOME@/.claude/ src/m.py'`, want: held},
		{finding: "set -k: a later NAME=value is an assignment", cmd: `bash -k -c 'git status GIT_DIR=/srv/data'`, want: held},
		{finding: "+O interactive_comments: # is a word", cmd: `bash +O interactive_comments -c ': # $(airlock queue approve abcd)'`, want: held},
		{finding: "set +B: braces stay", cmd: `set +B; x={a,b}; echo $x`, want: held},
		{finding: "an option airlock does not know", cmd: `bash -O cdspell -c 'cd .claud && : > settings.json'`, want: held},
		{finding: "set -P: cd resolves links before ..", cmd: `set -P; cd @HOME@/lnk/.. && : > settings.json`, want: held},
		{finding: "cd -P ..", cmd: `cd -P @HOME@/lnk/.. && : > settings.json`, want: held},
		{finding: "--rcfile's file turns cdable_vars on", setup: map[string]string{"proj/rc.sh": "shopt -s cdable_vars\n"}, cmd: `bash --rcfile rc.sh -i -c 'x=@HOME@/.claude; cd x && : > settings.json'`, want: denied},
		{finding: "ordinary: bash -lc", cmd: `bash -lc 'cd src && ls'`, want: notHeld},
		{finding: "a function turns cdable_vars on for its caller", cmd: `f(){ shopt -s cdable_vars; }; f; x=@HOME@/.claude; cd x && : > settings.json`, want: denied},
		{finding: "a function called twice turns it on", cmd: `f(){ shopt -s cdable_vars; }; f; f; x=@HOME@/.claude; cd x && : > settings.json`, want: denied},
		{finding: "ordinary: options in a subshell stay there", cmd: `(shopt -s nullglob; ls src/*.py); cd src && ls`, want: notHeld},
		{finding: "fish --init-command runs its text first", cmd: `fish --init-command='airlock queue approve abcd' -c true`, want: denied},
		{finding: "fish -C runs its text first", cmd: `fish -C 'airlock queue approve abcd' -c true`, want: denied},
		{finding: "ordinary: bash -o pipefail -c", cmd: `bash -o pipefail -c 'ls src | wc -l'`, want: notHeld},
		{finding: "ordinary: set -euo pipefail", cmd: `set -euo pipefail; go vet ./...`, want: notHeld},
		{finding: "ordinary: bash -O extglob -c", cmd: `bash -O extglob -c 'ls src/!(*.pyc)'`, want: notHeld},
		{finding: "ordinary: shopt -s globstar", cmd: `shopt -s globstar; ls src/**/*.py`, want: notHeld},
		{finding: "ordinary: bash -ex script", setup: map[string]string{"proj/s.sh": "echo hi\n"}, cmd: `bash -ex s.sh`, want: notHeld},
		{finding: "ordinary: set -- args", cmd: `set -- a b; echo "$@"`, want: notHeld},
		{finding: "ordinary: shopt -s nullglob without a glob", cmd: `shopt -s nullglob; echo done`, want: notHeld},
		{finding: "ordinary: nullglob, a loop over a glob", cmd: `shopt -s nullglob; for f in src/*.py; do wc -l "$f"; done`, want: notHeld},
		{finding: "ordinary: nullglob, the glob last", cmd: `shopt -s nullglob; ls src/*.py`, want: notHeld},

		// T2b: a move's source leaves its place.
		{finding: "T2b rclone move into scratch, scratch deleted", cmd: `d=$(mktemp -d); rclone move /srv/data $d; rm -rf "$d"`, want: held},
		{finding: "rclone moveto into scratch", cmd: `d=$(mktemp -d); rclone moveto /srv/data/db $d/db; rm -rf "$d"`, want: held},
		{finding: "rclone with options before move", cmd: `d=$(mktemp -d); rclone --transfers 4 move /srv/data $d; rm -rf "$d"`, want: held},
		{finding: "kioclient5 move into scratch", cmd: `d=$(mktemp -d); kioclient5 move /srv/data $d; rm -rf "$d"`, want: held},
		{finding: "hg mv into scratch", cmd: `d=$(mktemp -d); hg mv /srv/data/db $d/db; rm -rf "$d"`, want: held},
		{finding: "mc mv into scratch", cmd: `d=$(mktemp -d); mc mv --recursive /srv/data $d; rm -rf "$d"`, want: held},
		{finding: "ordinary: rclone copy into scratch", cmd: `d=$(mktemp -d); rclone copy src $d; ls $d; rm -rf "$d"`, want: notHeld},

		// P16 (awk, sqlite3): code read from the input or a file the
		// program is told to run.
		{finding: "P16 cat p.awk | awk -f -", setup: map[string]string{"proj/p.awk": awkVerb}, cmd: `cat p.awk | awk -f -`, want: denied},
		{finding: "awk -f - < p.awk", setup: map[string]string{"proj/p.awk": awkVerb}, cmd: `awk -f - < p.awk`, want: denied},
		{finding: "awk -f /dev/stdin < p.awk", setup: map[string]string{"proj/p.awk": awkVerb}, cmd: `awk -f /dev/stdin < p.awk`, want: denied},
		{finding: "awk -f - with a here-document", cmd: "awk -f - <<'E'\n" + awkVerb + "E", want: denied},
		{finding: "cat p.awk | awk -f /dev/stdin", setup: map[string]string{"proj/p.awk": awkVerb}, cmd: `cat p.awk | awk -f /dev/stdin`, want: denied},
		{finding: "a program's output piped into awk -f -", setup: xsh, cmd: `./x.sh | awk -f -`, want: held},
		{finding: "awk -f /dev/fd/3 3< p.awk", setup: map[string]string{"proj/p.awk": awkVerb}, cmd: `awk -f /dev/fd/3 3< p.awk`, want: held},
		{finding: "gawk --file=- from a pipe", setup: map[string]string{"proj/p.awk": awkVerb}, cmd: `cat p.awk | gawk --file=-`, want: held},
		{finding: "gawk -E p.awk", setup: map[string]string{"proj/p.awk": awkVerb}, cmd: `gawk -E p.awk`, want: denied},
		{finding: "gawk --exec=p.awk", setup: map[string]string{"proj/p.awk": awkVerb}, cmd: `gawk --exec=p.awk`, want: denied},
		{finding: "gawk @include of p.awk", setup: map[string]string{"proj/p.awk": awkVerb}, cmd: `gawk '@include "p.awk"; BEGIN{}'`, want: denied},
		{finding: "gawk @include without .awk", setup: map[string]string{"proj/p.awk": awkVerb}, cmd: `gawk '@include "p"; BEGIN{}'`, want: denied},
		{finding: "an included file including p.awk", setup: map[string]string{"proj/p.awk": awkVerb, "proj/q.awk": "@include \"p.awk\"\n"}, cmd: `gawk -f q.awk`, want: denied},
		{finding: "gawk -l ./x.so", cmd: `gawk -l ./x.so 'BEGIN{}'`, want: held},
		{finding: "gawk @load of a library in the project", cmd: `gawk '@load "./x"; BEGIN{}'`, want: held},
		{finding: "AWKPATH names where -f looks", setup: map[string]string{"proj/p.awk": "{print}\n"}, cmd: `AWKPATH=/tmp/evil gawk -f p.awk`, want: held},
		{finding: "ordinary: gawk -i inplace", cmd: `gawk -i inplace '{sub(/a/,"b")}1' src/m.py`, want: notHeld},
		{finding: "ordinary: gawk -l filefuncs", cmd: `gawk -l filefuncs 'BEGIN{print 1}'`, want: notHeld},
		{finding: "P16 sqlite3 -init cmd.sql .quit", setup: map[string]string{"proj/x.sh": "#!/bin/sh\n" + approve + "\n", "proj/cmd.sql": ".shell ./x.sh\n"}, cmd: `sqlite3 x.db -init cmd.sql .quit`, want: held},
		{finding: "sqlite3 -init of the verb", setup: map[string]string{"proj/cmd.sql": ".shell " + approve + "\n"}, cmd: `sqlite3 x.db -init cmd.sql .quit`, want: denied},
		{finding: "sqlite3 -bail -f cmd.sql", setup: map[string]string{"proj/cmd.sql": ".system " + approve + "\n"}, cmd: `sqlite3 -bail x.db -f cmd.sql`, want: denied},
		{finding: "sqlite3 -init /dev/stdin < cmd.sql", setup: map[string]string{"proj/cmd.sql": ".shell " + approve + "\n"}, cmd: `sqlite3 x.db -init /dev/stdin .quit < cmd.sql`, want: denied},
		{finding: "sqlite3 -init a file named at run time", cmd: `sqlite3 x.db -init "$(ls *.sql | head -1)" .quit`, want: held},
		{finding: "P16 sqlite3 .read '|./x.sh'", setup: xsh, cmd: `sqlite3 x.db ".read '|./x.sh'"`, want: held},
		{finding: ".read '|…' of the verb", cmd: `sqlite3 x.db ".read '|airlock queue approve abcd'"`, want: denied},
		{finding: ".read |cmd in -cmd", setup: xsh, cmd: `sqlite3 -cmd ".read |./x.sh" x.db .quit`, want: held},
		{finding: ".once '|cmd' runs cmd", cmd: `sqlite3 x.db ".once '|airlock queue approve abcd'" "select 1;"`, want: denied},
		{finding: ".output |cmd in a .read file", setup: map[string]string{"proj/o.sql": ".output '|airlock queue approve abcd'\nselect 1;\n"}, cmd: `sqlite3 x.db '.read o.sql'`, want: denied},
		{finding: ".import '|cmd' t", cmd: `sqlite3 x.db ".import '|airlock queue approve abcd' t"`, want: denied},
		{finding: ".load an extension", cmd: `sqlite3 x.db '.load ./x.so'`, want: held},
		{finding: "psql \\o |cmd", cmd: `psql -c 'select 1' -c '\o |airlock queue approve abcd'`, want: denied},
		{finding: "HOME=. sqlite3 runs ./.sqliterc", setup: map[string]string{"proj/.sqliterc": ".shell " + approve + "\n"}, cmd: `HOME=. sqlite3 x.db .quit`, want: denied},
		{finding: "XDG_CONFIG_HOME=. sqlite3 runs ./sqlite3/sqliterc", setup: map[string]string{"proj/sqlite3/sqliterc": ".shell " + approve + "\n"}, cmd: `XDG_CONFIG_HOME=. sqlite3 x.db .quit`, want: denied},
		{finding: "HOME=$PWD sqlite3 (a start-up file only known at run time)", cmd: `HOME=$PWD sqlite3 x.db .quit`, want: held},
		{finding: "PSQLRC=./rc.sql psql", setup: map[string]string{"proj/rc.sql": "\\! " + approve + "\n"}, cmd: `PSQLRC=./rc.sql psql -c 'select 1'`, want: denied},
		{finding: "HOME=. duckdb runs ./.duckdbrc", setup: map[string]string{"proj/.duckdbrc": ".shell " + approve + "\n"}, cmd: `HOME=. duckdb x.db -c 'select 1'`, want: denied},
		{finding: "ordinary: sqlite3 -init /dev/null", cmd: `sqlite3 -init /dev/null x.db 'select 1;'`, want: notHeld},
		{finding: "ordinary: psql -X", cmd: `psql -X -c 'select 1'`, want: notHeld},
		{finding: "sqlite3 load_extension() in SQL", cmd: `sqlite3 x.db "select load_extension('./x.so')"`, want: held},
		{finding: "sqlite3 edit() runs an editor program", setup: xsh, cmd: `sqlite3 x.db "select edit('x','./x.sh')"`, want: held},
		{finding: "duckdb LOAD of a file", cmd: `duckdb x.db "LOAD './x.duckdb_extension'"`, want: held},
		{finding: "ordinary: a column named like credit()", cmd: `sqlite3 x.db "select credit(1) from t"`, want: notHeld},
		{finding: "ordinary: awk -f p.awk", setup: map[string]string{"proj/p.awk": "{ print $1 }\n"}, cmd: `awk -f p.awk src/m.py`, want: notHeld},
		{finding: "ordinary: awk -f - with a here-document", cmd: "awk -f - src/m.py <<'E'\n{ print NR }\nE", want: notHeld},
		{finding: "ordinary: sqlite3 -init a schema", setup: map[string]string{"proj/schema.sql": "create table t(a);\n"}, cmd: `sqlite3 x.db -init schema.sql .quit`, want: notHeld},
		{finding: "ordinary: sqlite3 .read a file", setup: map[string]string{"proj/q.sql": "select 1;\n"}, cmd: `sqlite3 x.db '.read q.sql'`, want: notHeld},
		{finding: "ordinary: sqlite3 .once a file", cmd: `sqlite3 x.db '.once out.csv' 'select 1;'`, want: notHeld},
	}
	_ = xsh
	for i := range cases {
		cases[i].fixed = true
	}
	runFindingCases(t, "10b", base, cases)
}
