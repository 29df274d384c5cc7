package policy

import (
	"strings"
	"testing"
)

// TestCarriedCode: a file the command writes with a program that carries
// its input's text (cat, cp, sort, sed, awk, dd, cpp and cc -E), then
// runs, is checked against that text; a program built by the command
// from source (cc, gcc, clang, rustc, go build, javac's java) runs its
// sources' code, which is checked the same way; a program the command
// builds into a name known only at run time ("$out/p") is that program,
// not an unreadable run (FINDINGS-8 H6, H7, H8, B3).
func TestCarriedCode(t *testing.T) {
	approve := "airlock queue approve abcd"
	base := map[string]string{
		"home/.claude/settings.json":                    "{\"hooks\":{}}\n",
		"home/.local/state/airlock/secrets/serve.token": strings.Repeat("d4", 32) + "\n",
		"proj/x.sh":    "#!/bin/sh\n" + approve + "\n",
		"proj/ok.sh":   "#!/bin/sh\necho ok\n",
		"proj/v.c":     approve + "\n",
		"proj/foo.c":   "#include <stdio.h>\nint main(){puts(\"hi\");return 0;}\n",
		"proj/main.c":  "int main(){return 0;}\n",
		"proj/bad.c":   "#include <stdlib.h>\nint main(){system(\"" + approve + "\");}\n",
		"proj/main.go": "package main\n\nfunc main() {}\n",
		"proj/go.mod":  "module example.com/p\n\ngo 1.22\n",
		"proj/in.txt":  "a\nb\n",
	}
	cSrc := `printf 'int main(){system("airlock queue approve abcd");}' > y.c; `
	cases := []findingCase{
		// Text carried from a file on disk into the file run.
		{finding: "cc -E -P v.c -o bb; bash bb", cmd: `cc -E -P v.c -o bb; bash bb`, want: denied},
		{finding: "cpp -P -o bb v.c; sh bb", cmd: `cpp -P -o bb v.c; sh bb`, want: denied},
		{finding: "cc -E -P v.c > bb; sh bb", cmd: `cc -E -P v.c > bb; sh bb`, want: denied},
		{finding: "clang -E -P -o bb v.c && chmod +x bb && ./bb", cmd: `clang -E -P -o bb v.c && chmod +x bb && ./bb`, want: denied},
		{finding: "cat x.sh > b5; sh b5", cmd: `cat x.sh > b5; sh b5`, want: denied},
		{finding: "cat x.sh | tee b5 > /dev/null; sh b5", cmd: `cat x.sh | tee b5 > /dev/null; sh b5`, want: denied},
		{finding: "sort x.sh > b5; . ./b5", cmd: `sort x.sh > b5; . ./b5`, want: denied},
		{finding: "cp x.sh b5; ./b5", cmd: `cp x.sh b5; ./b5`, want: denied},
		{finding: "mv x.sh b5 && bash b5", cmd: `mv x.sh b5 && bash b5`, want: denied},
		{finding: "cat x.sh > b4; sort b4 > b5; sh b5", cmd: `cat x.sh > b4; sort b4 > b5; sh b5`, want: denied},
		// Writers that are not words of their run.
		{finding: "dd if=x.sh of=b5; sh b5", cmd: `dd if=x.sh of=b5; sh b5`, want: denied},
		{finding: "dd of=b5 < x.sh; sh b5", cmd: `dd of=b5 < x.sh; sh b5`, want: denied},
		{finding: "sed -n s///w b5 x.sh; sh b5", cmd: `sed -n 's/a/a/w b5' x.sh; sh b5`, want: denied},
		{finding: "sed -n -e W b5 x.sh; bash b5", cmd: `sed -n -e 'W b5' x.sh; bash b5`, want: denied},
		{finding: "gawk print >> b5 of x.sh; sh b5", cmd: `gawk '{ print $0 >> "b5" }' x.sh; sh b5`, want: denied},
		{finding: "awk printf > b5 of x.sh; sh b5", cmd: `awk '{printf "%s\n", $0 > "b5"}' x.sh; sh b5`, want: denied},
		// Programs built from source, on disk or written by the command.
		{finding: "cc -o y bad.c; ./y", cmd: `cc -o y bad.c; ./y`, want: denied},
		{finding: "clang bad.c -o y && ./y", cmd: `clang bad.c -o y && ./y`, want: denied},
		{finding: "gcc -O2 bad.c && ./a.out", cmd: `gcc -O2 bad.c && ./a.out`, want: denied},
		{finding: "cc -o y -x c - <<< system(airlock); ./y", cmd: `cc -o y -x c - <<< 'int main(){system("airlock queue approve abcd");}'; ./y`, want: denied},
		{finding: "rustc m.rs && ./m", cmd: `printf 'fn main(){std::process::Command::new("airlock").args(["queue","approve","abcd"]).status().unwrap();}' > m.rs; rustc m.rs && ./m`, want: denied},
		{finding: "rustc -o m m.rs && ./m", cmd: `printf 'fn main(){std::process::Command::new("airlock").args(["queue","approve","abcd"]).status().unwrap();}' > m.rs; rustc -o m m.rs && ./m`, want: denied},
		{finding: "go build -o p . && ./p of a written main.go", cmd: `printf 'package main\nimport "os/exec"\nfunc main(){exec.Command("airlock","queue","approve","abcd").Run()}\n' > main.go; go build -o p . && ./p`, want: denied},
		{finding: "go build && ./p of a written main.go", cmd: `printf 'package main\nimport "os/exec"\nfunc main(){exec.Command("airlock","queue","approve","abcd").Run()}\n' > main.go; go build && ./p`, want: denied},
		{finding: "go run ./cmd/t of a written main.go", cmd: `mkdir -p cmd/t; printf 'package main\nimport "os/exec"\nfunc main(){exec.Command("airlock","queue","approve","abcd").Run()}\n' > cmd/t/main.go; go run ./cmd/t`, want: denied},
		{finding: "tcc -run bad.c", cmd: `tcc -run bad.c`, want: denied},
		{finding: "java Y.java", cmd: `printf 'class Y{public static void main(String[] a)throws Exception{Runtime.getRuntime().exec("airlock queue approve abcd");}}' > Y.java; java Y.java`, want: denied},
		{finding: "javac Y.java && java Y", cmd: `printf 'class Y{public static void main(String[] a)throws Exception{Runtime.getRuntime().exec("airlock queue approve abcd");}}' > Y.java; javac Y.java && java Y`, want: denied},
		{finding: "built into a mktemp directory and run", cmd: `d=$(mktemp -d); ` + cSrc + `cc -o "$d/y" y.c && "$d/y"; rm -rf "$d"`, want: denied},

		// Ordinary work.
		{finding: "cc -E foo.c | less", cmd: `cc -E foo.c | less`, want: notHeld},
		{finding: "gcc -o app main.c && ./app", cmd: `gcc -o app main.c && ./app`, want: notHeld},
		{finding: "gcc main.c && ./a.out", cmd: `gcc main.c && ./a.out`, want: notHeld},
		{finding: "go build -o bin/app . && ./bin/app --help", cmd: `go build -o bin/app . && ./bin/app --help`, want: notHeld},
		{finding: "go run .", cmd: `go run .`, want: notHeld},
		{finding: "go build && ./p", cmd: `go build && ./p -h`, want: notHeld},
		{finding: "javac Main.java && java Main", setup: map[string]string{"proj/Main.java": "class Main{public static void main(String[] a){System.out.println(1);}}\n"}, cmd: `javac Main.java && java Main`, want: notHeld},
		{finding: "dd if=/dev/zero of=/tmp/x bs=1M count=1", cmd: `dd if=/dev/zero of=/tmp/x bs=1M count=1`, want: notHeld},
		{finding: "sed -n w out.txt in.txt", cmd: `sed -n 'w out.txt' in.txt`, want: notHeld},
		{finding: "awk print > out.txt", cmd: `awk '{print > "out.txt"}' in.txt`, want: notHeld},
		{finding: "cat ok.sh > b5; sh b5 is held, not refused", cmd: `cat ok.sh > b5; sh b5`, want: notDeny},
		{finding: "go build into mktemp, run, removed", cmd: `out=$(mktemp -d); go build -o "$out/p" . && "$out/p" -h; rm -rf "$out"`, want: notHeld},
		{finding: "cc into mktemp, run, removed", cmd: `d=$(mktemp -d) && cc -o "$d/t" main.c && "$d/t"; rm -rf "$d"`, want: notHeld},
		{finding: "cc into mktemp, run", cmd: `d=$(mktemp -d) && cc -o "$d/t" main.c && "$d/t"`, want: notHeld},
		{finding: "go build into mktemp, run unquoted", cmd: `out=$(mktemp -d); go build -o "$out/p" ./... && $out/p --version`, want: notHeld},
		{finding: "a program built into mktemp, replaced, run, is held", cmd: `d=$(mktemp -d); cc -o "$d/t" main.c; cp /srv/data/tool "$d/t"; "$d/t"`, want: held},
		// A program the command did not build there stays unreadable.
		{finding: "copied into mktemp and run is held", cmd: `d=$(mktemp -d); cp /srv/data/tool "$d/p"; "$d/p"`, want: held},
		{finding: "computed name without a slash is held", cmd: `p=$(mktemp -d); go build -o "$p" .; $p`, want: held},
	}
	for i := range cases {
		cases[i].fixed = true
	}
	runFindingCases(t, "8c", base, cases)
}
