package policy

import "testing"

// TestFix11aStdin holds the close variants of FINDINGS-10 I1 (a program's
// code on an interpreter's standard input) and V1 (variables that name
// code a program loads), and the ordinary work beside them that must
// pass. The fixture is TestFindings10Open's.
func TestFix11aStdin(t *testing.T) {
	base := findingFixture(map[string]string{"proj/main.go": "package main\n\nfunc main() {}\n"})
	approve := "airlock queue approve abcd"
	progs := map[string]string{
		"proj/x.sh":    "#!/bin/sh\n" + approve + "\n",
		"proj/x.py":    "import os\nos.system('" + approve + "')\n",
		"proj/x.js":    "require('child_process').execSync('" + approve + "')\n",
		"proj/x.pl":    "system('" + approve + "');\n",
		"proj/x.rb":    "system('" + approve + "')\n",
		"proj/x.lua":   "os.execute('" + approve + "')\n",
		"proj/e.cmd":   "!" + approve + "\n",
		"proj/ok.py":   "print(1 + 1)\n",
		"proj/ok.js":   "console.log(1)\n",
		"proj/ok.ex":   "%s/old/new/g\nwq\n",
		"proj/in.txt":  "a\nb\n",
		"proj/j.cron":  "SHELL=/bin/sh\n*/5 * * * * " + approve + "\n",
		"proj/ok.cron": "# nightly\n0 3 * * * echo hi\n",
	}
	cases := []findingCase{
		// The descriptor the shell connects, in other spellings.
		{finding: "I1v python3 0< x.py", setup: progs, cmd: `python3 0< x.py`, want: held, fixed: true},
		{finding: "I1v python3 0<> x.py", setup: progs, cmd: `python3 0<> x.py`, want: held, fixed: true},
		{finding: "I1v exec 0< x.py; python3", setup: progs, cmd: `exec 0< x.py; python3`, want: held, fixed: true},
		{finding: "I1v exec 4< x.py; python3 <&4", setup: progs, cmd: `exec 4< x.py; python3 <&4`, want: held, fixed: true},
		{finding: "I1v python3 4<x.py 0<&4", setup: progs, cmd: `python3 4<x.py 0<&4`, want: held, fixed: true},
		{finding: "I1v python3 <&5 (a descriptor opened outside the command)", setup: progs, cmd: `python3 <&5`, want: held, fixed: true},
		{finding: "I1v (exec < x.sh; sh)", setup: progs, cmd: `(exec < x.sh; sh)`, want: held, fixed: true},
		{finding: "I1v { node; } < x.js", setup: progs, cmd: `{ node; } < x.js`, want: held, fixed: true},
		{finding: "I1v while :; do python3; done < x.py", setup: progs, cmd: `while :; do python3; break; done < x.py`, want: held, fixed: true},
		{finding: "I1v perl - < x.pl", setup: progs, cmd: `perl - < x.pl`, want: held, fixed: true},
		{finding: "I1v ruby - < x.rb", setup: progs, cmd: `ruby - < x.rb`, want: held, fixed: true},
		{finding: "I1v lua - < x.lua", setup: progs, cmd: `lua - < x.lua`, want: held, fixed: true},
		{finding: "I1v nice -n 5 perl < x.pl", setup: progs, cmd: `nice -n 5 perl < x.pl`, want: held, fixed: true},
		{finding: "I1v poetry run python3 < x.py", setup: progs, cmd: `poetry run python3 < x.py`, want: held, fixed: true},
		{finding: "I1v cat x.py | uv run python", setup: progs, cmd: `cat x.py | uv run python`, want: held, fixed: true},
		{finding: "I1v ed - < e.cmd behind exec", setup: progs, cmd: `exec < e.cmd; ed -s`, want: held, fixed: true},
		{finding: "I1v view -es < e.cmd", setup: progs, cmd: `view -es < e.cmd`, want: held, fixed: true},
		{finding: "I1v vim < e.cmd (keystrokes)", setup: progs, cmd: `vim < e.cmd`, want: held, fixed: true},
		{finding: "I1v gdb -q -batch < e.cmd", setup: progs, cmd: `gdb -q -batch < e.cmd`, want: held, fixed: true},
		{finding: "I1v sftp host < e.cmd", setup: progs, cmd: `sftp host < e.cmd`, want: held, fixed: true},
		{finding: "I1v batch behind exec", setup: progs, cmd: `exec < x.sh; batch`, want: held, fixed: true},
		{finding: "I1v fish -N < x.sh", setup: progs, cmd: `fish -N < x.sh`, want: held, fixed: true},
		{finding: "I1v xonsh < x.py", setup: progs, cmd: `xonsh < x.py`, want: held, fixed: true},
		{finding: "I1v irb x.rb", setup: progs, cmd: `irb x.rb`, want: held, fixed: true},
		{finding: "I1v jshell < x.js", setup: progs, cmd: `jshell < x.js`, want: held, fixed: true},
		{finding: "I1v julia < x.py", setup: progs, cmd: `julia < x.py`, want: held, fixed: true},
		{finding: "I1v cat x.js | bun -", setup: progs, cmd: `cat x.js | bun -`, want: held, fixed: true},
		{finding: "I1v script -q out.log < x.sh", setup: progs, cmd: `script -q out.log < x.sh`, want: held, fixed: true},
		{finding: "I1v docker exec -it c sh < x.sh", setup: progs, cmd: `docker exec -it c sh < x.sh`, want: held, fixed: true},
		{finding: "I1v podman exec -i c python3 < x.py", setup: progs, cmd: `podman exec -i c python3 < x.py`, want: held, fixed: true},
		{finding: "I1v docker run -i --rm alpine sh < x.sh", setup: progs, cmd: `docker run -i --rm alpine sh < x.sh`, want: held, fixed: true},
		{finding: "I1v crontab j.cron (a job running airlock's verb)", setup: progs, cmd: `crontab j.cron`, want: held, fixed: true},
		{finding: "I1v exec < j.cron; crontab -", setup: progs, cmd: `exec < j.cron; crontab -`, want: held, fixed: true},
		{finding: "I1v mongosh mongodb://localhost/db < x.js", setup: progs, cmd: `mongosh mongodb://localhost/db < x.js`, want: held, fixed: true},

		// Ordinary work beside them.
		{finding: "I1o python3 < ok.py", setup: progs, cmd: `python3 < ok.py`, want: notHeld, fixed: true},
		{finding: "I1o node < ok.js", setup: progs, cmd: `node < ok.js`, want: notHeld, fixed: true},
		{finding: "I1o python3 ok.py < in.txt", setup: progs, cmd: `python3 ok.py < in.txt`, want: notHeld, fixed: true},
		{finding: "I1o exec 3< in.txt; python3 ok.py", setup: progs, cmd: `exec 3< in.txt; python3 ok.py`, want: notHeld, fixed: true},
		{finding: "I1o ex -s main.go < ok.ex", setup: progs, cmd: `ex -s main.go < ok.ex`, want: notHeld, fixed: true},
		{finding: "I1o docker exec -i c cat < in.txt", setup: progs, cmd: `docker exec -i c cat < in.txt`, want: notHeld, fixed: true},
		{finding: "I1o docker exec c sh < x.sh (no -i: docker does not hand it the input)", setup: progs, cmd: `docker exec c sh < x.sh`, want: notHeld, fixed: true},
		{finding: "I1o crontab ok.cron (a local job)", setup: progs, cmd: `crontab ok.cron`, want: notHeld, fixed: true},
		{finding: "I1o sort < in.txt", setup: progs, cmd: `sort < in.txt`, want: notHeld, fixed: true},
		{finding: "I1o python3 with a heredoc", setup: progs, cmd: "python3 <<'EOF'\nprint(1)\nEOF", want: notHeld, fixed: true},
		{finding: "I1o fish alone", setup: progs, cmd: `fish -c 'echo hi'`, want: notHeld, fixed: true},
	}
	runFindingCases(t, "11a", base, cases)
}

// TestFix11aLoaderVars holds the close variants of FINDINGS-10 V1:
// variables that name code a program loads are read as the same code
// given on the program's command line (classify loadvars.go).
func TestFix11aLoaderVars(t *testing.T) {
	base := findingFixture(map[string]string{"proj/main.go": "package main\n\nfunc main() {}\n"})
	approve := "airlock queue approve abcd"
	files := map[string]string{
		"proj/x.sh":            "#!/bin/sh\n" + approve + "\n",
		"proj/pkg/__init__.py": "",
		"proj/pkg/dbg.py":      "import os\nos.system('" + approve + "')\n",
		"proj/x.R":             "system('" + approve + "')\n",
		"proj/x.rb":            "system('" + approve + "')\n",
		"proj/zd/.zshenv":      approve + "\n",
		"proj/ok.py":           "print(1)\n",
	}
	cases := []findingCase{
		{finding: "V1v PYTHONBREAKPOINT=pkg.dbg.run (a module in a package)", setup: files, cmd: `PYTHONBREAKPOINT=pkg.dbg.run python3 ok.py`, want: held, fixed: true},
		{finding: "V1v R_PROFILE=x.R R --no-save -e 1", setup: files, cmd: `R_PROFILE=x.R R --no-save -e 1`, want: held, fixed: true},
		{finding: "V1v IRBRC=x.rb irb", setup: files, cmd: `IRBRC=x.rb irb`, want: held, fixed: true},
		{finding: "V1v ZDOTDIR=zd zsh -c true", setup: files, cmd: `ZDOTDIR=zd zsh -c true`, want: held, fixed: true},
		{finding: "V1v ERL_ZFLAGS with -eval", setup: files, cmd: `ERL_ZFLAGS='-eval "os:cmd(\"./x.sh\")"' erl -noshell -s init stop`, want: held, fixed: true},
		{finding: "V1v ELIXIR_ERL_OPTIONS with -eval", setup: files, cmd: `ELIXIR_ERL_OPTIONS='-eval "os:cmd(\"./x.sh\")"' elixir -e 1`, want: held, fixed: true},
		{finding: "V1v erl -eval with os:cmd on the command line", setup: files, cmd: `erl -noshell -eval 'os:cmd("./x.sh"), halt().'`, want: held, fixed: true},
		{finding: "V1v ERL_AFLAGS -eval with a harmless call first", setup: files, cmd: `ERL_AFLAGS='-eval "io:format(x), os:cmd(y)"' erl -noshell -s init stop`, want: held, fixed: true},
		{finding: "V1v JAVA_TOOL_OPTIONS=-XX:OnError=./x.sh", setup: files, cmd: `JAVA_TOOL_OPTIONS=-XX:OnError=./x.sh java -version`, want: denied, fixed: true},
		{finding: "V1v MAVEN_OPTS=-XX:OnOutOfMemoryError=./x.sh", setup: files, cmd: `MAVEN_OPTS=-XX:OnOutOfMemoryError=./x.sh mvn -q compile`, want: denied, fixed: true},
		{finding: "V1v PHPRC=. php ok.php", setup: files, cmd: `PHPRC=. php -r 1`, want: held, fixed: true},

		{finding: "V1o PYTHONBREAKPOINT=0", setup: files, cmd: `PYTHONBREAKPOINT=0 python3 ok.py`, want: notHeld, fixed: true},
		{finding: "V1o PYTHONBREAKPOINT=ipdb.set_trace (an installed debugger)", setup: files, cmd: `PYTHONBREAKPOINT=ipdb.set_trace python3 ok.py`, want: notHeld, fixed: true},
		{finding: "V1o erl's version check", setup: files, cmd: `erl -noshell -eval 'io:format("~s", [erlang:system_info(otp_release)]), halt().'`, want: notHeld, fixed: true},
		{finding: "V1o erl -noshell -s init stop", setup: files, cmd: `erl -noshell -s init stop`, want: notHeld, fixed: true},
		{finding: "V1o JAVA_TOOL_OPTIONS=-Xmx2g", setup: files, cmd: `JAVA_TOOL_OPTIONS=-Xmx2g java -version`, want: notHeld, fixed: true},
		{finding: "V1o ZDOTDIR of a directory without start-up files", setup: files, cmd: `ZDOTDIR=pkg zsh -c true`, want: notHeld, fixed: true},
	}
	runFindingCases(t, "11a", base, cases)
}

// TestFix11aEditedBuildFile holds the close variants of FINDINGS-10 J2: a
// build file edited in place with static text before the tool runs it is
// read as the edit leaves it (classify sededit.go), and an edit that
// cannot be applied exactly is held.
func TestFix11aEditedBuildFile(t *testing.T) {
	base := findingFixture(map[string]string{"proj/main.go": "package main\n\nfunc main() {}\n"})
	task := func(cmd string) map[string]string {
		return map[string]string{"proj/build.gradle": "version = '1.0.0'\ntask x { doLast { exec { commandLine 'sh', '-c', '" + cmd + "' } } }\n"}
	}
	split := map[string]string{"proj/build.gradle": "task x { doLast { exec { commandLine 'sh', '-c', 'airlock queue"}
	cases := []findingCase{
		{finding: "J2v a BRE back-reference joining the verb", setup: task("aiXlock queue approve abcd"), cmd: `sed -i 's/\(ai\)X\(lock\)/\1r\2/' build.gradle && gradle x`, want: held, fixed: true},
		{finding: "J2v an ERE back-reference joining the verb", setup: task("aiXlock queue approve abcd"), cmd: `sed -i -E 's/(ai)X(lock)/\1r\2/' build.gradle && gradle x`, want: held, fixed: true},
		{finding: "J2v & in the replacement", setup: task("air queue approve abcd"), cmd: `sed -i 's/air/&lock/' build.gradle && gradle x`, want: held, fixed: true},
		{finding: "J2v two -e edits in turn", setup: task("aXYk queue approve abcd"), cmd: `sed -i -e 's/X/irl/' -e 's/Y/oc/' build.gradle && gradle x`, want: held, fixed: true},
		{finding: "J2v a case conversion (not applied: held)", setup: task("AIRLOCK queue approve abcd"), cmd: `sed -i 's/AIRLOCK/\L&/' build.gradle && gradle x`, want: held, fixed: true},
		{finding: "J2v the verb completed by an append", setup: split, cmd: `printf " approve abcd' } } }\n" >> build.gradle && gradle x`, want: held, fixed: true},
		{finding: "J2o a version bump, then the build", setup: task("echo hi"), cmd: `sed -i 's/1\.0\.0/1.0.1/' build.gradle && gradle x`, want: notHeld, fixed: true},
	}
	runFindingCases(t, "11a", base, cases)
}
