package policy

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// Every form the table calls slash-free, and close forms it must not.
func TestSlashFreeSubstitutions(t *testing.T) {
	yes := []string{
		"date +%s", "date +%Y%m%d", "date -u +%FT%H%M%SZ", "date +%Y-%m-%d_%H:%M", "date -I", "date -Iseconds",
		"date --iso-8601=seconds", "date -d yesterday +%F", "date --date=@0 +%s", "date +%-d", "date +v%Y.%m",
		"nproc", "id -u", "id -g", "uuidgen", "wc -l < list.txt", "git rev-parse --verify HEAD", "git rev-parse --short HEAD",
		"git rev-parse --short=8 --verify HEAD", "git rev-list --count HEAD",
	}
	no := []string{
		"date +%D", "date +%x", "date +%c", "date +%Y/%m", "date '+%d/%m'", "date +%+", "date +%Ex", "date -f file",
		"id -un", "id", "whoami", "hostname", "uname -a", "wc -l list.txt", "wc -l < a > b",
		"git rev-parse --abbrev-ref HEAD", "git rev-parse --show-toplevel", "git rev-parse HEAD main", "git rev-parse",
		"git describe", "git -C x rev-parse HEAD", "git rev-parse HEAD", "git rev-parse ..",
		"date", "date -R", "date +..", "date +.claude", "date +x..y", "date +%b", "date +%a", "date +%Z", "date +%Ey", "date +%Od", "date +%p", "cat VERSION", "basename x", "date +%s; rm x", "date $FMT",
		"FOO=1 date", "date &",
	}
	check := func(src string) bool {
		f, err := syntax.NewParser().Parse(strings.NewReader("x=$("+src+")"), "")
		if err != nil {
			t.Fatalf("%q: %v", src, err)
		}
		cs := f.Stmts[0].Cmd.(*syntax.CallExpr).Assigns[0].Value.Parts[0].(*syntax.CmdSubst)
		_, ok := slashFreeSubst(cs)
		return ok
	}
	for _, s := range yes {
		if !check(s) {
			t.Errorf("$(%s) not taken as slash-free", s)
		}
	}
	for _, s := range no {
		if check(s) {
			t.Errorf("$(%s) taken as slash-free: its output may hold a /", s)
		}
	}
}

func TestSlashFreeGlob(t *testing.T) {
	g := &guard{vars: map[string]string{"HOME": "/home/u"}}
	for src, want := range map[string]string{
		"config.yaml.$(date +%s)":           "config.yaml. config.yaml.[ 0-9+-]*",
		"/tmp/p-$$.diff":                    "/tmp/p-.diff /tmp/p-[0-9]*.diff",
		"run-$((i+1)).txt":                  "run-.txt run-[0-9-]*.txt",
		"$HOME/x-${#a}":                     "/home/u/x- /home/u/x-[0-9]*",
		"'a*b'-$(date +%s)":                 `a\*b- a\*b-[ 0-9+-]*`,
		"x-$(git rev-parse --short HEAD).t": "x-.t x-[0-9a-f]*.t",
		"v$(date +v%Y)":                     "v v[v]*",
		"$(date +%s)/$(date +%s)":           "/ [ 0-9+-]*/ /[ 0-9+-]* [ 0-9+-]*/[ 0-9+-]*",
	} {
		got, ok := g.slashFreeGlob(src)
		if !ok || strings.Join(got, " ") != want {
			t.Errorf("%s: %q %v, want %q", src, strings.Join(got, " "), ok, want)
		}
	}
	for _, src := range []string{"plain.txt", "x-$NAME", "x-$(cat f)", "${f##*/}", "x-$(date +%Y/%m)", "$@", "$(date +..)",
		"$(git rev-parse ..)", "$$$$$$$$$$"} {
		if got, ok := g.slashFreeGlob(src); ok {
			t.Errorf("%s taken as slash-free (%q)", src, got)
		}
	}
}
