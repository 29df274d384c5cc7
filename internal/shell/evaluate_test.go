package shell

import (
	"strings"
	"testing"
)

// Bash expands command substitutions inside array subscripts and
// arithmetic text that builtins evaluate, even when the word was single
// quoted: the inner command runs and must be found.
func TestEvaluatedWordsRunCommands(t *testing.T) {
	for _, src := range []string{
		`let 'a[$(git push origin main)]=1'`,
		`x=1 let 'a[$(git push origin main)]=1'`,
		`let x=1 'a[$(git push origin main)]++'`,
		"let 'a[`git push origin main`]=1'",
		`declare -i x='a[$(git push origin main)]'`,
		`typeset -i x='a[$(git push origin main)]'`,
		`local -i x='a[$(git push origin main)]'`,
		`declare 'a[$(git push origin main)]=1'`,
		`readonly 'a[$(git push origin main)]=1'`,
		`export 'a[$(git push origin main)]=1'`,
		`declare -a x='($(git push origin main))'`,
		`declare -n r='a[$(git push origin main)]'`,
		`test -v 'a[$(git push origin main)]'`,
		`[ -v 'a[$(git push origin main)]' ]`,
		`printf -v 'a[$(git push origin main)]' x`,
		`printf -v'a[$(git push origin main)]' x`,
		`read 'a[$(git push origin main)]' <<< x`,
		`read -r -a 'a[$(git push origin main)]' <<< x`,
		`unset 'a[$(git push origin main)]'`,
		`mapfile -t 'a[$(git push origin main)]' < f`,
		`readarray 'a[$(git push origin main)]' < f`,
		`getopts ab 'a[$(git push origin main)]'`,
		`wait -p 'a[$(git push origin main)]'`,
		`builtin let 'a[$(git push origin main)]=1'`,
		`command let 'a[$(git push origin main)]=1'`,
		`bash -c "let 'a[\$(git push origin main)]=1'"`,
		`let "a[\$(git push origin main)]=1"`,
		`let 'a[${x:-$(git push origin main)}]=1'`,
		`let "a[\$(git push origin main)]=$n"`,
		`printf -v "a[\$(git push origin main)]$i" x`,
		`declare -i "$v"='a[$(git push origin main)]'`,
		// Quoted words inside the shell's own arithmetic contexts.
		`echo $(( 'a[$(git push origin main)]' ))`,
		`(( x = 'a[$(git push origin main)]' ))`,
		`[[ -v 'a[$(git push origin main)]' ]]`,
		`[[ 'a[$(git push origin main)]' -eq 1 ]]`,
		`for (( i='a[$(git push origin main)]'; i<1; i++ )); do :; done`,
		`echo ${x:'a[$(git push origin main)]'}`,
		`echo ${a["a[\$(git push origin main)]"]}`,
		`a['a[$(git push origin main)]']=1`,
		`echo $[ 'a[$(git push origin main)]' ]`,
		// A value kept in a variable and evaluated later.
		`x='a[$(git push origin main)]'; echo $((x))`,
		`x='a[$(git push origin main)]'; (( x ))`,
		`export x='a[$(git push origin main)]'; let x`,
		`x='a[$(git push origin main)]' let x`,
	} {
		found := false
		for _, line := range render(src) {
			if strings.HasPrefix(line, "git push origin main") {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: the evaluated git push was not found: %q", src, render(src))
		}
	}
}

// mapfile -C runs its callback as shell text.
func TestMapfileCallbackIsShellText(t *testing.T) {
	got := render(`mapfile -C 'git push origin main' -c 1 arr < f`)
	if !strings.Contains(strings.Join(got, "\n"), "git push origin main | mapfile -C") {
		t.Errorf("callback not parsed: %q", got)
	}
}

// Text in an evaluating position that cannot be parsed is opaque.
func TestEvaluatedWordUnparsableIsOpaque(t *testing.T) {
	got := render(`let 'a[$(git push origin main]=1'`)
	if !strings.Contains(strings.Join(got, "\n"), "OPAQUE") {
		t.Errorf("unparsable subscript not opaque: %q", got)
	}
}

// Words these builtins only store, and plain data, stay data.
func TestEvaluatedWordsLeaveDataAlone(t *testing.T) {
	for src, want := range map[string]string{
		`printf -v x '%s' '$(date)'`: "printf -v x %s $(date)",
		`read -p '$(date)' x`:        "read -p $(date) x",
		`echo 'a[$(git push)]'`:      "echo a[$(git push)]",
	} {
		got := render(src)
		if len(got) != 1 || got[0] != want {
			t.Errorf("%s: got %q, want [%q]", src, got, want)
		}
	}
}

// let and declare clauses that store data run nothing.
func TestEvaluatedClausesStoringData(t *testing.T) {
	for _, src := range []string{`let 'x=1+2'`, `declare x='$(date)'`, `export PS1='$(git branch) $ '`, `local -i n=3`} {
		if got := render(src); len(got) != 0 {
			t.Errorf("%s: got %q, want no run", src, got)
		}
	}
}

// Evaluated subscripts nested in evaluated subscripts hit the nesting
// limit: an opaque run, never a silent allow.
func TestEvaluatedSubscriptsNestingBounded(t *testing.T) {
	s := "git push origin main"
	for range 5 {
		s = strings.NewReplacer(`\`, `\\`, `"`, `\"`, `$`, `\$`, "`", "\\`").Replace(s)
		s = `let "a[\$(` + s + `)]"`
	}
	var got []string
	for _, inv := range (Limits{MaxBytes: 1 << 16, MaxNesting: 3, MaxInvocations: 100}).Parse(s) {
		got = append(got, inv.Opaque+strings.Join(inv.Args, " "))
	}
	if !strings.Contains(strings.Join(got, "\n"), "limit reached") {
		t.Errorf("5 nested evaluated subscripts past a nesting limit of 3 not opaque: %q", got)
	}
	if got := render(s); !strings.Contains(strings.Join(got, "\n"), "git push origin main") {
		t.Errorf("5 nested evaluated subscripts: push not found: %q", got)
	}
}
