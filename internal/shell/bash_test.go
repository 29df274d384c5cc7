package shell

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestArgvMatchesBash runs a sample of commands through the real bash with
// every program replaced by a stub that records its argv, and checks that
// Parse extracts the same argument vectors. Nothing real runs: PATH holds
// only the stubs, and the commands call programs by name.
func TestArgvMatchesBash(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal("bash is needed to confirm argv extraction: ", err)
	}
	samples := []string{
		`git push origin main`,
		`git -C "../my repo" push`,
		`g'i't pu"sh" 'ori'gin`,
		`\git push`,
		`git commit -m "fix: it's \"done\"" --author='A <a@b>'`,
		`git push origin +main:refs/heads/main`,
		`curl -XPOST -H 'Content-Type: application/json' -d '{"a": 1}' https://x.example/api`,
		`curl --data-binary @file.json "https://x.example/a?b=1&c=2"`,
		"echo $'tab\\there' $'nl\\nline' \"dq \\$HOME \\` \\\\\"",
		`rm -rf -- a\ b c\"d`,
		`printf '%s\n' a{b,c}d x{1..3}`,
		`echo a""b ''c "" ''`,
		`FOO=1 BAR="x y" git push`,
		`git push >/dev/null 2>&1`,
		`ls; git status && git log --oneline | head -n 3`,
		`(cd sub && git push) || echo failed`,
		`if true; then git push; fi`,
		`for r in origin backup; do git push "$r"; done`,
		`f() { git push "$@"; }; f origin main`,
		`bash -c 'git push origin main'`,
		`sh -c "git push origin 'main'"`,
		`eval 'git push origin main'`,
		`echo 'git push origin main' | bash`,
		`bash <<'EOF'` + "\ngit push origin main\nEOF",
		`bash <<< 'git push origin main'`,
		`npm publish --tag=next --access public`,
		`find . -name '*.tmp' -exec rm -f {} \;`,
		// Values flow through the text (values.go): what Parse reports as
		// static must be what bash runs.
		`f=~/x; cp a $f`,
		`f="a b"; cp $f "$f"`,
		`d=sub; f=$d/x.txt; cp a "${f}" ${f%.txt}.bak ${f#*/} ${f/x/y} ${#f}`,
		`a=(x "y z"); cp "${a[@]}" ${a[*]} "${a[*]}" ${a[1]} $a`,
		`a=(); a+=(p q); a[2]=r; a[0]=o; cp "${a[@]}"`,
		`x=1; x+=2; cp $x`,
		`declare f=one; typeset g=two; readonly h=three; export i=four; cp $f $g $h $i`,
		`g() { local f=in; cp $f; }; f=out; g; cp $f`,
		`for f in a "b c" d; do cp "$f"; done`,
		`for f in a{1,2}; do for g in x y; do cp $f$g; done; done`,
		`read f <<< "  p  q  "; cp "$f"`,
		`read -r f g <<< 'one two three'; cp "$f" "$g"`,
		`read -a arr <<< 'u v'; cp "${arr[@]}"`,
		"read f <<EOF\nline one\nline two\nEOF\ncp \"$f\"",
		`f=a; (f=b); cp $f`,
		`f=a; echo | f=b; cp $f`,
		`f=a; f=b true; cp $f`,
		`f=a; g=$f; f=b; cp $f $g`,
		`f=a; eval 'f=b'; cp $f`,
		`f=a; bash -c 'cp "$f"'; export f; bash -c 'cp "$f"'`,
		`e=; cp $e x "$e"`,
		`f=a; f=$(echo b); cp $f`,
		`f=a; if true; then f=b; fi; cp $f`,
		`f=a; true && f=a; cp $f`,
		`c=git; $c push`,
		`cd sub && f=$(pwd) && cp x`,
		`set -- a b; f=$1; cp $f`,
		`f=a; for f in b c; do :; done; cp $f`,
		`f=a; while false; do f=b; done; cp $f`,
		`f=a; case x in x) f=b;; esac; cp $f`,
		`f=a; case x in x) f=b;& y) cp $f;; esac`,
		`f=a; : ${f:=b}; unset f; cp x$f`,
		`declare -u f=low; cp $f`,
		`declare -n r=f; r=ref; cp $f`,
		`f=a; f=b &` + "\nwait; cp $f",
		`readonly f=a; readonly f=b; cp $f`,
		`declare -r f=a; declare f=b; cp $f`,
		`f=a; local f=b; cp $f`,
		`f=a; alias x='f=b'; x; cp $f`,
		`i=0; a[i++]=x; cp $i`,
		`cd sub; cp x; cd ..; cp y`,
		// The shell's own variables, slices and printf -v (dirvars.go,
		// printfv.go: FINDINGS-7 G6, G16, G18).
		`IFS=, read a b <<< 'p,q r'; cp "$a" "$b"`,
		`IFS=', ' read a b <<< 'x,y,'; cp "$a" "$b"`,
		`IFS=', ' read a b <<< 'x, y,z ,'; cp "$a" "$b"`,
		`IFS=, read -a w <<< ',x,,y'; cp "${w[@]}"`,
		`IFS=: read -r a b c d <<< 'p:q:r:s'; cp $a $b $c $d`,
		`IFS=,; read a b <<< ' x ,y'; cp "$a" "$b"`,
		`IFS= read a b <<< ' x y '; cp "$a" "$b"`,
		`x=abcdefZZ; cp "${x:0:${#x}-2}" ${x:2} ${x:0:-2} "${x: -2}" ${x:1:1} ${x:$((1+2))}`,
		`printf -v p '%s/%s' a b; cp $p`,
		`printf -v p '%s' a b; printf -vq %03d 7; cp $p $q`,
		`HOME=/x/.c; cp a ~/s ~`,
		`export HOME=/y; cp ~/a; bash -c 'cp ~/b'`,
		`OLDPWD=/o; cp ~-/a`,
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	log := filepath.Join(dir, "argv.log")
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	// One write per run, so that programs of a pipeline do not interleave.
	stub := "#!" + bash + "\nrec=$(printf '%s\\037' \"${0##*/}\" \"$@\"; printf x)\nprintf '%s\\036' \"${rec%x}\" >> " + log + "\n"
	names := map[string]bool{}
	for _, s := range samples {
		for _, inv := range Parse(s) {
			if inv.Opaque == "" && inv.Name() != "" {
				names[inv.Name()] = true
			}
		}
	}
	for _, shell := range []string{"bash", "sh"} {
		delete(names, shell) // the real shells run nested text
		if err := os.Symlink(bash, filepath.Join(bin, shell)); err != nil {
			t.Fatal(err)
		}
	}
	for _, builtin := range []string{"echo", "printf", "eval", "true", "cd", "f", "g", "read", "export", "declare", "local", "readonly", "typeset", "unset", "set", "wait", ":", "pwd", "false", "alias"} {
		delete(names, builtin)
	}
	for n := range names {
		if err := os.WriteFile(filepath.Join(bin, n), []byte(stub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range samples {
		os.Remove(log)
		cmd := exec.Command(bash, "-c", s)
		cmd.Dir = dir
		cmd.Env = []string{"PATH=" + bin, "HOME=" + dir}
		cmd.Stdout, cmd.Stderr = nil, nil
		if err := cmd.Run(); err != nil {
			if _, ok := err.(*exec.ExitError); !ok {
				t.Fatalf("%s: %v", s, err)
			}
		}
		data, _ := os.ReadFile(log)
		var fromBash []string
		for _, rec := range strings.Split(string(data), "\x1e") {
			if rec != "" {
				fromBash = append(fromBash, strings.Join(strings.Split(strings.TrimSuffix(rec, "\x1f"), "\x1f"), "\x00"))
			}
		}
		var fromParse []string
		skipped := false
		for _, inv := range Parse(s) {
			if inv.Opaque != "" || !names[inv.Name()] || inv.AnyDynamic(0) || strings.HasPrefix(strings.Join(inv.Via, ","), "find") {
				skipped = skipped || inv.Opaque != "" || inv.AnyDynamic(0)
				continue
			}
			args := slices.Clone(inv.Args)
			for i, a := range args {
				if strings.HasPrefix(a, "~/") {
					args[i] = dir + a[1:] // Parse keeps a tilde; bash expands it
				}
			}
			fromParse = append(fromParse, strings.Join(args, "\x00"))
		}
		fromBash = dropDynamic(s, fromBash)
		sort.Strings(fromBash) // programs of a pipeline run concurrently
		sort.Strings(fromParse)
		if skipped {
			// Parse left some runs dynamic: the ones it did make static
			// must each be a run bash made.
			left := append([]string(nil), fromBash...)
			for _, p := range fromParse {
				i := slices.Index(left, p)
				if i < 0 {
					t.Errorf("%s\n bash  %q\n parse %q (not run by bash)", s, fromBash, p)
					break
				}
				left = slices.Delete(left, i, i+1)
			}
			continue
		}
		if strings.Join(fromBash, "\n") != strings.Join(fromParse, "\n") {
			t.Errorf("%s\n bash  %q\n parse %q", s, fromBash, fromParse)
		}
	}
}

// dropDynamic removes the runs whose argv holds a run-time value: Parse
// reports those words as dynamic rather than guessing them.
func dropDynamic(src string, runs []string) []string {
	if !strings.Contains(src, `"$@"`) {
		return runs
	}
	return nil
}
