package shell

import (
	"path"
	"slices"
	"testing"
)

// dirsOf returns the Dir of each run of prog in src ("?" for unknown).
func dirsOf(l Limits, src, prog string) []string {
	var got []string
	for _, inv := range l.Parse(src) {
		if inv.Name() == prog {
			d := inv.Dir
			if d == DirUnknown {
				d = "?"
			}
			got = append(got, d)
		}
	}
	return got
}

// TestAndChainDir: a part of a && chain runs in the directory the parts
// before it left, and afterwards only what holds wherever the chain may
// have stopped is known (FINDINGS-5 B1).
func TestAndChainDir(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want []string // Dir of each run of cp
	}{
		{`ls && cd src && cp a b`, []string{"src"}},
		{`ls && cd src && ls && cp a b`, []string{"src"}},
		{`cd a && cd b && cd c && cp a b`, []string{"a/b/c"}},
		{`x=1 && cd src && cp a b; cp a b`, []string{"src", "?"}},
		{`ls && cd /a && cd /b; cp a b`, []string{"?"}},
		{`cd /a && ls && cd /b; cp a b`, []string{"?"}},
		{`cd /a; ls && make && cd /a; cp a b`, []string{"/a"}},
		{`ls || cd src && cp a b`, []string{"?"}},
		{`(ls && cd src) && cp a b`, []string{""}},
		{`ls && { cd src; } && cp a b`, []string{"src"}},
	} {
		if got := dirsOf(DefaultLimits, tt.src, "cp"); !slices.Equal(got, tt.want) {
			t.Errorf("%s\n got  %q\n want %q", tt.src, got, tt.want)
		}
	}
	// A var set in one part is known in the next, and not after the chain
	// when a part between could have failed.
	if got := runsOf(`f=~/.claude/settings.json && true && cp x $f`, "cp"); !slices.Equal(got, []string{"cp x ~/.claude/settings.json"}) {
		t.Errorf("got %q", got)
	}
}

// TestSourceKeepsDir: a sourced file the caller can read and that cannot
// change directory leaves the directory known; anything else forgets it
// (FINDINGS-5 B2).
func TestSourceKeepsDir(t *testing.T) {
	files := map[string]string{
		"src/.venv/bin/activate": "deactivate () {\n  unset VIRTUAL_ENV\n  hash -r 2>/dev/null\n}\ndeactivate nondestructive\nVIRTUAL_ENV=/p/.venv\nexport VIRTUAL_ENV\nPATH=\"$VIRTUAL_ENV/bin:$PATH\"\n",
		".venv/bin/activate":     "export VIRTUAL_ENV=/p/.venv\n",
		"cd.sh":                  "cd /tmp\n",
		"fn.sh":                  "python() { cd /; command python \"$@\"; }\n",
		"builtin.sh":             "builtin cd /\n",
		"computed.sh":            "$X /\n",
		"eval.sh":                "eval \"$X\"\n",
		"nested.sh":              ". ./other.sh\n",
		"cdpath.sh":              "export CDPATH=/\n",
		"trap.sh":                "trap 'cd /' DEBUG\n",
		"alias.sh":               "alias ls='cd /'\n",
		"broken.sh":              "if then\n",
		"pushd.sh":               "f() { pushd /x; }\n",
	}
	var asked []string
	l := DefaultLimits
	l.SourceText = func(dir, name string) (string, bool) {
		p := path.Join(dir, name)
		asked = append(asked, p)
		text, ok := files[p]
		return text, ok
	}
	for _, tt := range []struct {
		src  string
		want []string // Dir of each run of cp
	}{
		{`source .venv/bin/activate && cp a b`, []string{""}},
		{`cd src && . .venv/bin/activate; cp a b`, []string{"src"}},
		{`cd src && source ./.venv/bin/activate && cd .. && cp a b`, []string{""}},
		{`source ./missing.sh; cp a b`, []string{"?"}},
		{`source env.sh; cp a b`, []string{"?"}}, // a bare name is looked up in PATH first
		{`source "$F"; cp a b`, []string{"?"}},
		{`cd "$D"; source .venv/bin/activate; cp a b`, []string{"?"}},
	} {
		if got := dirsOf(l, tt.src, "cp"); !slices.Equal(got, tt.want) {
			t.Errorf("%s\n got  %q\n want %q", tt.src, got, tt.want)
		}
	}
	for name := range files {
		if name == ".venv/bin/activate" || name == "src/.venv/bin/activate" {
			continue
		}
		src := "cd /w && source ./" + name + "; cp a b"
		if got := dirsOf(l, src, "cp"); !slices.Equal(got, []string{"?"}) {
			t.Errorf("%s: got %q, want the directory unknown", src, got)
		}
	}
	// The variables are forgotten all the same.
	if got := runsOf2(l, `f=~/.claude; source .venv/bin/activate; cp x $f/settings.json`, "cp"); len(got) != 1 || got[0] == "cp x ~/.claude/settings.json" {
		t.Errorf("a variable set before a sourced file kept its value: %q", got)
	}
	// Without SourceText nothing is read.
	if got := dirsOf(DefaultLimits, `source .venv/bin/activate && cp a b`, "cp"); !slices.Equal(got, []string{"?"}) {
		t.Errorf("no reader: got %q", got)
	}
	if !slices.Contains(asked, "src/.venv/bin/activate") {
		t.Errorf("the sourced file was not looked up from the shell's directory: %q", asked)
	}
}

func runsOf2(l Limits, src, prog string) []string {
	var out []string
	for _, inv := range l.Parse(src) {
		if inv.Name() == prog {
			out = append(out, inv.String())
		}
	}
	return out
}
