package shell

import (
	"slices"
	"testing"
)

// TestShellVarsTilde: once the text assigns HOME, a tilde means its value
// (FINDINGS-7 G16), or is run-time text when the value is not known; a
// text that leaves HOME alone keeps "~".
func TestShellVarsTilde(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{`HOME=/x/.claude; cp a ~/settings.json`, []string{"cp a /x/.claude/settings.json"}},
		{`export HOME=/s; cp ~/secrets/t b`, []string{"cp /s/secrets/t b"}},
		{`declare HOME=/t; cp ~/a b`, []string{"cp /t/a b"}},
		{`readonly HOME=/t; cp ~/a b`, []string{"cp /t/a b"}},
		{`HOME=/; cp ~/etc/a b`, []string{"cp //etc/a b"}},
		{`HOME=~/.claude; cp a ~/s.json`, []string{"cp a ~/.claude/s.json"}},
		{`HOME=$(cat f); cp a ~/s.json`, []string{"cp a ~$(cat f)/s.json"}},
		{`if x; then HOME=/t; fi; cp a ~/s.json`, []string{"cp a ~${HOME:?}/s.json"}},
		{`read HOME <<< /r; cp a ~/s.json`, []string{"cp a /r/s.json"}},
		{`HOME=/t; bash -c 'cp a ~/s.json'`, []string{"cp a /t/s.json"}},
		{`HOME=/t; cp a > ~/s.json`, []string{"cp a > /t/s.json"}},
		{`eval "$x"; cp a ~/s.json`, []string{"cp a ~${HOME:?}/s.json"}},
		// A prefix HOME is the run's own: its words' tildes are expanded
		// before it.
		{`HOME=/t cp a ~/s.json`, []string{"cp a ~/s.json"}},
		// Ordinary work: HOME left alone.
		{`cp a ~/notes.txt`, []string{"cp a ~/notes.txt"}},
		{`f=x; cp a ~/$f`, []string{"cp a ~/x"}},
		{`X=~/b; cp a $X`, []string{"cp a ~/b"}},
	}
	for _, tt := range tests {
		if got := runsOf(tt.src, "cp"); !slices.Equal(got, tt.want) {
			t.Errorf("%s\n got  %q\n want %q", tt.src, got, tt.want)
		}
	}
}

// TestShellVarsDir: a bare cd goes to HOME's value, cd - to OLDPWD's, and
// a relative cd with CDPATH set by the text is to a directory known only
// at run time (FINDINGS-7 G16, G17).
func TestShellVarsDir(t *testing.T) {
	tests := []struct {
		src  string
		want []string // Dir of each run of cp ("?" for unknown)
	}{
		{`HOME=/h/.claude; cd; cp a b`, []string{"/h/.claude"}},
		{`HOME=/h/.claude cd; cp a b`, []string{"/h/.claude"}},
		{`HOME=$(x) cd; cp a b`, []string{"?"}},
		{`if y; then HOME=/t; fi; cd; cp a b`, []string{"?"}},
		{`cd; cp a b`, []string{"~"}},
		{`HOME=/t; cd ~; cp a b`, []string{"/t"}},
		{`OLDPWD=/s; cd - >/dev/null; cp a b`, []string{"/s"}},
		{`OLDPWD=/s cd -; cp a b`, []string{"/s"}},
		{`OLDPWD=$(x); cd -; cp a b`, []string{"?"}},
		{`OLDPWD=/s; cd /t; cd -; cp a b`, []string{""}},
		{`cd /a; cd /b; cd -; cp a b`, []string{"/a"}},
		{`CDPATH=/h cd .config && cp a b`, []string{"?"}},
		{`export CDPATH=/h; cd sub; cp a b`, []string{"?"}},
		{`CDPATH=/h; pushd sub; cp a b`, []string{"?"}},
		{`CDPATH=$(x) cd sub; cp a b`, []string{"?"}},
		// CDPATH is not looked at for ./, ../, absolute paths, or when
		// it names only the current directory.
		{`CDPATH=/h cd ./sub; cp a b`, []string{"sub"}},
		{`CDPATH=/h cd ../up; cp a b`, []string{"../up"}},
		{`CDPATH=/h cd /abs; cp a b`, []string{"/abs"}},
		{`CDPATH=.: cd sub; cp a b`, []string{"sub"}},
		{`cd sub; cp a b`, []string{"sub"}},
	}
	for _, tt := range tests {
		var got []string
		for _, inv := range Parse(tt.src) {
			if inv.Name() != "cp" {
				continue
			}
			d := inv.Dir
			if d == DirUnknown {
				d = "?"
			}
			got = append(got, d)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s\n got  %q\n want %q", tt.src, got, tt.want)
		}
	}
}

// TestShellVarsSlices: substring expansions and printf -v of held values
// are static (FINDINGS-7 G18); a time directive is date's text (B5).
func TestShellVarsSlices(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{`x=/s/serve.token; cp ${x:0} b`, []string{"cp /s/serve.token b"}},
		{`x=/s/serve.tokenZZ; cp "${x:0:${#x}-2}" b`, []string{"cp /s/serve.token b"}},
		{`x=/s/serve.tokenZZ; cp ${x:0:-2} b`, []string{"cp /s/serve.token b"}},
		{`x=xx/s/t; cp ${x:2} b`, []string{"cp /s/t b"}},
		{`x=xx/s/t; n=2; cp ${x:n} b`, []string{"cp /s/t b"}},
		{`x=xx/s/t; cp ${x:$((1+1))} b`, []string{"cp /s/t b"}},
		{`x=abc; cp "${x:1:1}" b`, []string{"cp b b"}},
		{`printf -v p '%s/s/t' ~; cp $p b`, []string{"cp ~/s/t b"}},
		{`printf -v p '%s/s/%s' /h t; cp "$p" b`, []string{"cp /h/s/t b"}},
		{`printf -vp %s/t /h; cp $p b`, []string{"cp /h/t b"}},
		{`printf -v p -- %s/t /h; cp $p b`, []string{"cp /h/t b"}},
		{`printf -v ts '%(%F)T' -1; cp a logs/$ts`, []string{"cp a ~logs/$(date +%F)"}},
		{`printf -v ts 'x-%(%F %T)T.log'; cp a $ts`, []string{"cp a ~x-$(date '+%F %T').log"}},
		{`printf -v n '%03d' 7; cp a out/$n.txt`, []string{"cp a out/007.txt"}},
		// Run-time parts stay dynamic.
		{`x=xx/s/t; cp ${x:$n} b`, []string{"cp ~${x:$n} b"}},
		{`x=xx/s/t; cp ${x:i++} b`, []string{"cp ~${x:i++} b"}},
		{`printf -v p '%s/t' "$d"; cp $p b`, []string{`cp ~"$d"/t b`}},
		{`printf -v p "$f" a; cp $p b`, []string{"cp ~$p b"}},
		{`printf -v p '%s' a b; cp $p b`, []string{"cp ab b"}},
		{`printf -v p '%(%F)T' 1 2; cp $p b`, []string{"cp ~$p b"}},
	}
	for _, tt := range tests {
		if got := runsOf(tt.src, "cp"); !slices.Equal(got, tt.want) {
			t.Errorf("%s\n got  %q\n want %q", tt.src, got, tt.want)
		}
	}
}
