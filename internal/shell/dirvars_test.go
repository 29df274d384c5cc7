package shell

import (
	"slices"
	"strings"
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
		{`HOME=/t bash -c 'cp a ~/s.json'`, []string{"cp a /t/s.json"}},
		{`env HOME=/t sh -c 'cd; cp a ~/s.json'`, []string{"cp a /t/s.json"}},
		{`sudo -u x HOME=/t bash -c 'cp a ~/s.json'`, []string{"cp a /t/s.json"}},
		{`HOME=/t; cp a > ~/s.json`, []string{"cp a > /t/s.json"}},
		{`declare -n r=HOME; r=/t; cp a ~/s.json`, []string{"cp a ~${HOME:?}/s.json"}},
		// eval of unknown text is held as opaque already; a sourced
		// file's assignments are not followed (THREAT-MODEL.md).
		{`eval "$x"; cp a ~/s.json`, []string{"cp a ~/s.json"}},
		// A prefix HOME is the run's own: its words' tildes are expanded
		// before it.
		{`HOME=/t cp a ~/s.json`, []string{"cp a ~/s.json"}},
		{`if x; then HOME=/t; fi; cp a $HOME/s.json "${HOME}/t"`, []string{`cp a ~${HOME:?}/s.json ~"${HOME:?}/t"`}},
		{`if x; then XDG_CONFIG_HOME=/t; fi; cp a $XDG_CONFIG_HOME/airlock/policy.yaml`, []string{`cp a ~${XDG_CONFIG_HOME:?}/airlock/policy.yaml`}},
		{`cp a $XDG_CONFIG_HOME/x`, []string{`cp a ~$XDG_CONFIG_HOME/x`}},
		// ~+ and ~- are $PWD and $OLDPWD.
		{`OLDPWD=/s; cp ~-/t b`, []string{"cp /s/t b"}},
		{`cd /s; cd /t; cp ~-/t ~+/u > ~-/o`, []string{"cp /s/t ./u > /s/o"}},
		{`cp ~-/t b`, []string{"cp ~${OLDPWD:?}/t b"}},
		{`cd sub; cp ~-/t b`, []string{"cp ~${OLDPWD:?}/t b"}},
		{`cd sub; cd -; cp ~-/t b`, []string{"cp sub/t b"}},
		{`cp "~-/t" ~-x b`, []string{"cp ~-/t ~-x b"}},
		{`PWD=/s; cp ~+/t b`, []string{"cp /s/t b"}},
		{`PWD=$(x); cp ~+/t b`, []string{"cp ~${PWD:?}/t b"}},
		{`PWD=/s; cd sub; cp ~+/t b`, []string{"cp ./t b"}},
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

// TestShellVarsIFS: IFS set by the text in a way the walker does not hold
// (one branch) makes the splitting of unquoted values unknown.
func TestShellVarsIFS(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{`IFS=,; c=a,b; cp $c`, []string{"cp a b"}},
		{`if x; then IFS=,; fi; c=a,b; cp $c`, []string{"cp ~a,b"}},
		{`c="a b"; cp $c`, []string{"cp a b"}},
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
		{`x=xx/s/t; cp ${x:$n} b`, []string{"cp ~$(: xx/s/t ${x:$n}) b"}},
		{`x=xx/s/t; cp ${x:i++} b`, []string{"cp ~$(: xx/s/t ${x:i++}) b"}},
		{`x=xx/s/t; cp "${x/$p/}.c" b`, []string{`cp ~"$(: xx/s/t ${x/$p/}).c" b`}},
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

// TestShellStartup: what a shell runs beside its commands is walked as
// runs of their own (FINDINGS-7 G5): start-up files named by an option,
// ZDOTDIR or a HOME the text set are sourced; the command substitutions of
// prompt and trace strings and exported functions' bodies are walked.
func TestShellStartup(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{`bash --init-file x.sh -i -c true`, []string{". x.sh | bash start-up", "true | bash -c"}},
		{`bash --rcfile ./r -i`, []string{". ./r | bash start-up", "bash --rcfile ./r -i"}},
		{`ZDOTDIR=. zsh -i -c true`, []string{". .zshenv | zsh start-up", ". .zshrc | zsh start-up", "true | zsh -c"}},
		{`ZDOTDIR=/z zsh -c true`, []string{". /z/.zshenv | zsh start-up", "true | zsh -c"}},
		{`HOME=/h bash -l -c true`, []string{". /h/.bash_profile | bash start-up", ". /h/.bash_login | bash start-up", ". /h/.profile | bash start-up", "true | bash -c"}},
		{`HOME=/h; sh -l -c true`, []string{". /h/.profile | sh start-up", "true | sh -c"}},
		{`PS4='$(airlock queue approve abcd)' bash -xc true`, []string{"airlock queue approve abcd | PS4", "set -x | bash -c", "true | bash -c"}},
		{"SHELLOPTS=xtrace PS4='`./x.sh`' sh -c true", []string{"x.sh | PS4", "set -o xtrace | sh -c", "true | sh -c"}},
		{`PS1='$(./x.sh)' bash -i`, []string{"x.sh | PS1", "bash -i"}},
		{`PS4='$(./x.sh)'; set -x; :`, []string{"x.sh | PS4", "set -x", ":"}},
		{`set -ex; PS4='$(./x.sh)'; :`, []string{"set -ex", "x.sh | PS4", ":"}},
		{`export PS4='$(./x.sh)'; set -o xtrace; :`, []string{"x.sh | PS4", "set -o xtrace", ":"}},
		// bash defines the exported git before its text: git status
		// calls the function (FINDINGS-8 H3).
		{`env 'BASH_FUNC_git%%=() { ./x.sh; }' bash -c 'git status'`, []string{"x.sh | env,exported function git", "x.sh | env,bash -c"}},
		{`env 'BASH_FUNC_git%%=() { ./x.sh; }' bash -c 'bash -c "git push"'`, []string{"x.sh | env,exported function git", "x.sh | env,bash -c,bash -c"}},
		{`env 'BASH_FUNC_ls%%=() { ./x.sh; }' make build`, []string{"x.sh | env,exported function ls", "make build | env"}},
		{`x='$(./x.sh)'; echo "${x@P}"`, []string{`echo ~"$(: '$(./x.sh)' ${x@P})"`, "x.sh | ${x@P}"}},
		{`echo "${y@P}"`, []string{"echo ~\"${y@P}\"", "OPAQUE"}},
		// A cd through CDPATH names each directory it may go to.
		{`CDPATH=/h:.:/g cd sub && make`, []string{"cd sub", ": | cd through CDPATH", ": | cd through CDPATH", "make"}},
		{`CDPATH=. cd sub && make`, []string{"cd sub", "make"}},
		// Ordinary work: nothing more.
		{`x=a; echo "${x@U}"`, []string{"echo A"}},
		{`bash -c 'make test'`, []string{"make test | bash -c"}},
		{`bash -l -c 'make test'`, []string{"make test | bash -c"}},
		{`PS4='+ ${BASH_SOURCE}:${LINENO}: ' bash -x build.sh`, []string{"bash -x build.sh"}},
		{`set -x; make`, []string{"set -x", "make"}},
		{`set -x; PS4='+ $LINENO '; make`, []string{"set -x", "make"}},
		{`zsh -c 'echo hi'`, []string{"echo hi | zsh -c"}},
	}
	for _, tt := range tests {
		got := render(tt.src)
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("Parse(%q)\n got  %q\n want %q", tt.src, got, tt.want)
		}
	}
}
