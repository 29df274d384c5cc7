package shell

import (
	"os"
	"os/exec"
	"path/filepath"
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
	for _, builtin := range []string{"echo", "printf", "eval", "true", "cd", "f"} {
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
		for _, inv := range Parse(s) {
			if inv.Opaque != "" || !names[inv.Name()] || inv.AnyDynamic(0) || strings.HasPrefix(strings.Join(inv.Via, ","), "find") {
				continue
			}
			fromParse = append(fromParse, strings.Join(inv.Args, "\x00"))
		}
		fromBash = dropDynamic(s, fromBash)
		sort.Strings(fromBash) // programs of a pipeline run concurrently
		sort.Strings(fromParse)
		if strings.Join(fromBash, "\n") != strings.Join(fromParse, "\n") {
			t.Errorf("%s\n bash  %q\n parse %q", s, fromBash, fromParse)
		}
	}
}

// dropDynamic removes the runs whose argv holds a run-time value: Parse
// reports those words as dynamic rather than guessing them.
func dropDynamic(src string, runs []string) []string {
	if !strings.Contains(src, `"$r"`) && !strings.Contains(src, `"$@"`) {
		return runs
	}
	return nil
}
