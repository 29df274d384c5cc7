package shell

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// lastRun renders the last run of src named name, as render does
// (dynamic words marked "~"), with its redirections as "> target".
func runsOf(src, name string) []string {
	var out []string
	for _, inv := range Parse(src) {
		if inv.Name() != name {
			continue
		}
		words := make([]string, len(inv.Args))
		for i, a := range inv.Args {
			if inv.IsDynamic(i) {
				a = "~" + a
			}
			words[i] = a
		}
		for _, r := range inv.Redirects {
			t := r.Target
			if r.Dynamic {
				t = "~" + t
			}
			words = append(words, r.Op+" "+t)
		}
		out = append(out, strings.Join(words, " "))
	}
	return out
}

// TestValuesFlow: each form of assignment earlier in the text is put into
// the words of later runs; what the walker cannot know stays dynamic.
func TestValuesFlow(t *testing.T) {
	tests := []struct {
		src  string
		want []string // the runs of cp, in order
	}{
		// Plain assignments, quoting, braces and operators.
		{`f=~/.claude/settings.json; cp x $f`, []string{"cp x ~/.claude/settings.json"}},
		{`f=~/.claude/settings.json; cp x "$f" ${f} "${f}"`, []string{"cp x ~/.claude/settings.json ~/.claude/settings.json ~/.claude/settings.json"}},
		{`f=a.bak; cp x ${f%.bak} ${f#a} ${f/a/b} ${#f}`, []string{"cp x a .bak b.bak 5"}},
		{`f="a b"; cp $f "$f"`, []string{"cp a b a b"}},
		{`d=~/.claude; cp x $d/settings.json "$d"/settings.json`, []string{"cp x ~/.claude/settings.json ~/.claude/settings.json"}},
		{`x=~/.claude; y=$x/s; cp $y`, []string{"cp ~/.claude/s"}},
		{`x=a; x+=b; cp $x`, []string{"cp ab"}},
		{`e=; cp $e x`, []string{"cp x"}},
		{`f=x; f=y; cp $f`, []string{"cp y"}},
		// Declarations.
		{`declare f=a; cp $f`, []string{"cp a"}},
		{`declare -g f=a; cp $f`, []string{"cp a"}},
		{`typeset f=a; cp $f`, []string{"cp a"}},
		{`readonly f=a; cp $f`, []string{"cp a"}},
		{`export F=a; cp $F`, []string{"cp a"}},
		{`declare -x F=a; cp $F`, []string{"cp a"}},
		{`export 'F=a'; cp $F`, []string{"cp a"}},
		{`builtin export F=a; cp $F`, []string{"cp a"}},
		{`command declare F=a; cp $F`, []string{"cp a"}},
		{`g() { local f=a; cp $f; }; g`, []string{"cp a"}},
		{`declare -i f=1+1; cp $f`, []string{"cp ~$f"}},
		{`declare -u f=a; cp $f`, []string{"cp ~$f"}},
		{`declare -n r=f; r=a; cp $f`, []string{"cp ~$f"}},
		{`f=a; declare f; cp $f`, []string{"cp ~$f"}},
		{`f=a; export f; cp $f`, []string{"cp a"}},
		// Arrays.
		{`a=(x "y z"); cp "${a[@]}"`, []string{"cp x y z"}},
		{`a=(x "y z"); cp ${a[*]}`, []string{"cp x y z"}},
		{`a=(x y); cp ${a[1]} $a`, []string{"cp y x"}},
		{`a=(); a+=(p); a[1]=q; cp "${a[@]}"`, []string{"cp p q"}},
		{`a[0]=p; cp $a`, []string{"cp p"}},
		{`a=([3]=p); cp $a`, []string{"cp ~$a"}},
		{`a=(x); cp ${a[$i]}`, []string{"cp ~${a[$i]}"}},
		{`declare -A m=([k]=v); cp ${m[k]}`, []string{"cp ~${m[k]}"}},
		{`declare -a a=(p q); cp ${a[1]}`, []string{"cp q"}},
		// for words, once per word.
		{`for f in a b; do cp $f; done`, []string{"cp a", "cp b"}},
		{`for f in a{1,2}; do cp "$f"; done`, []string{"cp a1", "cp a2"}},
		{`for f in *.py; do cp "$f"; done`, []string{`cp ~"*.py"`}},
		{`for f in $(ls); do cp "$f"; done`, []string{`cp ~"$(ls)"`}},
		{`for f in $HOME/a b; do cp $f; done`, []string{`cp ~$HOME/a`, "cp b"}},
		{`read f <<< $HOME/x; cp $f`, []string{`cp ~$HOME/x`}},
		{"read f <<EOF\n$HOME/x\nEOF\ncp $f", []string{`cp ~$HOME/x`}},
		{`a=($HOME/x y); cp ${a[1]} "${a[@]}"`, []string{`cp y ~$HOME/x y`}},
		{`for f in a b; do g=$f; done; cp $g $f`, []string{"cp ~$g ~$f"}},
		{`f=a; for i in 1 2; do cp $f; f=b; done`, []string{"cp ~$f", "cp ~$f"}},
		{`select f in a b; do cp $f; done`, []string{"cp ~$f"}},
		{`for ((i=0; i<2; i++)); do cp $i; done`, []string{"cp ~$i"}},
		// read from a here-string or a here-document.
		{`read f <<< ~/.claude/settings.json; cp $f`, []string{"cp ~/.claude/settings.json"}},
		{`read -r f g <<< 'one two three'; cp "$f" "$g"`, []string{"cp one two three"}},
		{`read -a a <<< 'u v'; cp "${a[@]}"`, []string{"cp u v"}},
		{"read f <<EOF\nline one\nline two\nEOF\ncp \"$f\"", []string{"cp line one"}},
		{"read f <<'EOF'\n$x\nEOF\ncp \"$f\"", []string{"cp $x"}},
		{`read f < list.txt; cp $f`, []string{"cp ~$f"}},
		{`f=a; read f; cp $f`, []string{"cp ~$f"}},
		{`f=a; read -d , f <<< 'x,y'; cp $f`, []string{"cp ~$f"}},
		{`f=a; echo b | read f; cp $f`, []string{"cp ~$f"}},
		// Branches: only what holds either way.
		{`f=a; if x; then f=b; fi; cp $f`, []string{"cp ~$f"}},
		{`f=a; if x; then f=b; else f=b; fi; cp $f`, []string{"cp b"}},
		{`if x; then f=b; cp $f; elif y; then f=c; cp $f; else cp $f; fi`, []string{"cp b", "cp c", "cp ~$f"}},
		{`f=a; x || f=b; cp $f`, []string{"cp ~$f"}},
		{`f=a; x && f=a; cp $f`, []string{"cp a"}},
		{`f=a; case x in x) f=b;; y) ;; esac; cp $f`, []string{"cp ~$f"}},
		{`f=a; case x in x) f=b;& y) cp $f;; esac`, []string{"cp ~$f"}},
		// Subshells, substitutions, pipelines and background jobs keep
		// their assignments.
		{`f=a; (f=b; cp $f); cp $f`, []string{"cp b", "cp a"}},
		{`f=a; echo $(f=b); cp $f`, []string{"cp a"}},
		{`f=a; f=b | true; cp $f`, []string{"cp a"}},
		{`f=a; f=b & cp $f`, []string{"cp a"}},
		{`f=a; true | f=b; cp $f`, []string{"cp ~$f"}},
		// Functions: the body knows none of the caller's values, and the
		// caller forgets what the body may set.
		{`g() { cp $f; }; f=a; g`, []string{"cp ~$f"}},
		{`g() { f=b; }; f=a; g; cp $f`, []string{"cp ~$f"}},
		{`h() { f=b; }; g() { h; }; f=a; g; cp $f`, []string{"cp ~$f"}},
		{`g() { x=b; }; f=a; g; cp $f`, []string{"cp a"}},
		// What the walker does not follow forgets everything.
		{`f=a; eval 'f=b'; cp $f`, []string{"cp b"}},
		{`f=a; eval "$x"; cp $f`, []string{"cp ~$f"}},
		{`f=a; source x.sh; cp $f`, []string{"cp ~$f"}},
		{`f=a; $cmd; cp $f`, []string{"cp ~$f"}},
		{`f=a; : ${f:=b}; cp $f`, []string{"cp ~$f"}},
		{`unset f; : ${f:=b}; cp $f`, []string{"cp ~$f"}},
		{`f=a; (( f = 2 )); cp $f`, []string{"cp ~$f"}},
		{`f=a; let f=2; cp $f`, []string{"cp ~$f"}},
		{`f=a; printf -v f x; cp $f`, []string{"cp x"}},
		{`f=a; printf -v f "$y"; cp $f`, []string{"cp ~$f"}},
		{`f=a; unset f; cp $f`, []string{"cp ~$f"}},
		{`f=a; sudo read f; cp $f`, []string{"cp a"}},
		{`readonly f=a; f=b; cp $f`, []string{"cp a"}},
		{`declare -r f=a; declare f=b; read f <<< c; cp $f`, []string{"cp a"}},
		{`f=a; local f=b; cp $f`, []string{"cp ~$f"}},
		{`f=a; alias x='f=b'; x; cp $f`, []string{"cp ~$f"}},
		{`i=0; a[i++]=x; cp $i`, []string{"cp ~$i"}},
		// Nested shells start with the exported values only.
		{`f=a; bash -c 'cp $f'`, []string{"cp ~$f"}},
		{`export f=a; bash -c 'cp $f'`, []string{"cp a"}},
		{`f=a; bash -c "cp $f"`, []string{"cp a"}},
		// Unknown and dynamic values keep the text they were built from.
		{`cp $HOME/x`, []string{"cp ~$HOME/x"}},
		{`f=$HOME/x; cp $f`, []string{"cp ~$HOME/x"}},
		{`d=$(mktemp -d); cp x "$d/"`, []string{`cp x ~"$(mktemp -d)/"`}},
		{`f=a; g=$f$(date); cp "$g"`, []string{`cp ~"a$(date)"`}},
		// Redirections and here-documents.
		{`f=~/.claude/settings.json; cp x > $f`, []string{"cp x > ~/.claude/settings.json"}},
		{`f=out; cp x > "$f.txt" 2> $g`, []string{"cp x > out.txt > ~$g"}},
	}
	for _, tt := range tests {
		if got := runsOf(tt.src, "cp"); !slices.Equal(got, tt.want) {
			t.Errorf("%s\n got  %q\n want %q", tt.src, got, tt.want)
		}
	}
}

// TestValuesHeredoc: an unquoted here-document fed to a shell gets the
// values too.
func TestValuesHeredoc(t *testing.T) {
	src := "f=~/.claude/settings.json\nbash <<EOF\ncp x $f\nEOF"
	if got := runsOf(src, "cp"); !slices.Equal(got, []string{"cp x ~/.claude/settings.json"}) {
		t.Errorf("got %q", got)
	}
}

// TestValuesDir: each run gets the directory it happens in.
func TestValuesDir(t *testing.T) {
	tests := []struct {
		src  string
		want []string // Dir of each run of cp ("?" for unknown)
	}{
		{`cp a b`, []string{""}},
		{`cd ~/.claude && cp a b`, []string{"~/.claude"}},
		{`cd sub; cp a b; cd ../x; cp a b; cd /tmp; cp a b; cd; cp a b`, []string{"sub", "x", "/tmp", "~"}},
		{`d=~/.claude; cd $d; cp a b`, []string{"~/.claude"}},
		{`cd "$(cat f)"; cp a b; cd x; cp a b; cd /y; cp a b`, []string{"?", "?", "/y"}},
		{`cd a; cd -; cp a b`, []string{""}},
		{`cd -; cp a b`, []string{"?"}},
		{`cd "$HOME/.claude"; cp a b; cd ${HOME}; cp a b; cd $HOME$x; cp a b`, []string{"~/.claude", "~", "?"}},
		{`cd /a; cd /b; cd -; cp a b`, []string{"/a"}},
		{`pushd ~/.claude; cp a b; popd; cp a b`, []string{"~/.claude", ""}},
		{`pushd /a >/dev/null; pushd /b; popd; cp a b; popd; cp a b; popd; cp a b`, []string{"/a", "", "?"}},
		{`(cd /a; cp a b); cp a b`, []string{"/a", ""}},
		{`x && cd /a; cp a b`, []string{"?"}},
		{`cd /a && bash -c 'cp a b'`, []string{"/a"}},
		{`g() { cp a b; }; cd /a; g`, []string{"?"}},
		{`g() { cd /a; }; g; cp a b`, []string{"?"}},
		{`for d in a b; do cd $d; done; cp a b`, []string{"?"}},
		{`sudo cd /a; cp a b`, []string{""}},
	}
	for _, tt := range tests {
		var got []string
		for _, inv := range Parse(tt.src) {
			if inv.Name() == "cp" {
				d := inv.Dir
				if d == DirUnknown {
					d = "?"
				}
				got = append(got, d)
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s\n got  %q\n want %q", tt.src, got, tt.want)
		}
	}
}

// TestValuesLimits: past each limit a word stays dynamic; it is never
// dropped or guessed.
func TestValuesLimits(t *testing.T) {
	// More variables than kept: the last ones stay dynamic.
	var b strings.Builder
	for i := 0; i < maxVars+5; i++ {
		fmt.Fprintf(&b, "v%d=x; ", i)
	}
	b.WriteString("cp $v0 $v" + fmt.Sprint(maxVars+4))
	if got := runsOf(b.String(), "cp"); !slices.Equal(got, []string{"cp x ~$v" + fmt.Sprint(maxVars+4)}) {
		t.Errorf("many variables: got %q", got)
	}
	// A value longer than kept.
	long := strings.Repeat("a", maxValueLen+1)
	if got := runsOf("f="+long+"; cp $f", "cp"); !slices.Equal(got, []string{"cp ~$f"}) {
		t.Errorf("long value: got %q", got)
	}
	// A loop over more words than walked one by one.
	words := strings.Repeat("w ", maxLoopValues+1)
	if got := runsOf("for f in "+words+"; do cp $f; done", "cp"); !slices.Equal(got, []string{"cp ~$f"}) {
		t.Errorf("long loop: got %q", got)
	}
	// Nested loops past the walk budget: the inner variable stays dynamic.
	outer := strings.Repeat("o ", maxLoopValues)
	inner := strings.Repeat("i ", maxLoopValues)
	got := runsOf("for a in "+outer+"; do for b in "+inner+"; do cp $a $b; done; done", "cp")
	if len(got) == 0 || len(got) > maxLoopWalks+maxLoopValues {
		t.Fatalf("nested loops: %d runs", len(got))
	}
	dynamic := 0
	for _, g := range got {
		if strings.Contains(g, "~$b") {
			dynamic++
		}
		if !strings.HasPrefix(g, "cp o ") && !strings.HasPrefix(g, "cp ~$a ") {
			t.Errorf("nested loops: %q", g)
		}
	}
	if dynamic == 0 {
		t.Errorf("nested loops past the budget: no inner run left dynamic")
	}
	// A big array.
	arr := "a=(" + strings.Repeat("x ", maxArrayElems+1) + "); cp ${a[0]}"
	if got := runsOf(arr, "cp"); !slices.Equal(got, []string{"cp ~${a[0]}"}) {
		t.Errorf("big array: got %q", got)
	}
}

// TestValuesTrap: a trap action runs with the values its shell has when
// it ends.
func TestValuesTrap(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{`t=/tmp/x; trap 'cp a "$t"' EXIT`, []string{"cp a /tmp/x"}},
		{`t=/tmp/x; trap 'cp a "$t"' EXIT; t=~/.claude`, []string{"cp a ~/.claude"}},
		{`t=/tmp/x; (trap 'cp a "$t"' EXIT; t=/y); t=/z`, []string{"cp a /y"}},
		{`trap "$x" EXIT`, nil},
	}
	for _, tt := range tests {
		if got := runsOf(tt.src, "cp"); !slices.Equal(got, tt.want) {
			t.Errorf("%s\n got  %q\n want %q", tt.src, got, tt.want)
		}
	}
}

// TestSubstOutputKnown: a command substitution of one echo or printf of
// known words is its output; anything else stays dynamic.
func TestSubstOutputKnown(t *testing.T) {
	tests := []struct {
		src  string
		want []string // the runs of cp, in order
	}{
		{`cp x $(echo ~/.claude/settings.json)`, []string{"cp x ~/.claude/settings.json"}},
		{"cp x `echo a b`", []string{"cp x a b"}},
		{`cp x "$(echo a b)"`, []string{"cp x a b"}},
		{`cp x "$(printf %s/s ~/.claude)"`, []string{"cp x ~/.claude/s"}},
		{`f=$(echo ~/.claude); cp x $f/settings.json`, []string{"cp x ~/.claude/settings.json"}},
		{`d=~/.claude; cp x $(echo $d)/s`, []string{"cp x ~/.claude/s"}},
		{`cp x "$(echo -n a)b"`, []string{"cp x ab"}},
		// Not told from the text: more than one statement, a redirection,
		// another program, a nested substitution, a run-time value.
		{`cp x $(echo a; echo b)`, []string{"cp x ~$(echo a; echo b)"}},
		{`cp x $(echo a > f)`, []string{"cp x ~$(echo a > f)"}},
		{`cp x $(cat f)`, []string{"cp x ~$(cat f)"}},
		{`cp x $(echo $(cat f))`, []string{"cp x ~$(echo $(cat f))"}},
		{`cp x $(echo $HOME)`, []string{"cp x ~$(echo $HOME)"}},
		{`cp x $(X=1 echo a)`, []string{"cp x ~$(X=1 echo a)"}},
	}
	for _, tc := range tests {
		if got := runsOf(tc.src, "cp"); !slices.Equal(got, tc.want) {
			t.Errorf("%s:\n got  %q\n want %q", tc.src, got, tc.want)
		}
	}
	// The name of the program run.
	for src, want := range map[string]string{"$(echo ls) -l": "ls", "`echo git` push": "git", "$(printf rm) -rf x": "rm"} {
		invs := Parse(src)
		if len(invs) == 0 || invs[0].Name() != want || invs[0].IsDynamic(0) {
			t.Errorf("%s: first run %v, want %s", src, invs, want)
		}
	}
}
