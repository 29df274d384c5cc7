package policy

import (
	"os"
	"strings"
	"testing"
)

// TestMakeReadsDecided runs classify's TestMakeReads through the policy:
// a make run whose shell, makefiles, built-in rules' programs or
// exported variables run airlock's verb or write its files is refused,
// as the same commands are when written out; ordinary make runs (CC=gcc,
// CFLAGS=-O2, -j4, -f build.mk, an include of config.mk, PREFIX under
// the home) are neither refused nor held. The fixture is
// TestFindings8Open's.
func TestMakeReadsDecided(t *testing.T) {
	base := map[string]string{
		"home/.claude/settings.json":                    "{\"hooks\":{}}\n",
		"home/.config/airlock/policy.yaml":              "mode: interactive\n",
		"home/.local/state/airlock/secrets/serve.token": strings.Repeat("d4", 32) + "\n",
		"proj/x.sh":       "#!/bin/sh\nairlock queue approve abcd\n",
		"proj/ok.c":       "int main(){return 0;}\n",
		"proj/go.mod":     "module example.com/p\n\ngo 1.22\n",
		"proj/Makefile":   "include config.mk\nbuild:\n\tgo build ./...\ntest: build\n\tgo test ./...\ninstall: build\n\tcp app $(DESTDIR)$(PREFIX)/bin/app\n.PHONY: build test install\n",
		"proj/config.mk":  "PREFIX ?= /usr/local\nCC = gcc\n",
		"proj/build.mk":   "all:\n\tgo build ./...\n",
		"proj/bash.mk":    "SHELL := /bin/bash\n.SHELLFLAGS := -eu -o pipefail -c\n.ONESHELL:\nall:\n\t@echo hi\n",
		"proj/hook.mk":    "$(file >>$(HOME)/.claude/settings.json,{})\nall: ; @:\n",
		"proj/verb.mk":    "X != airlock queue approve abcd\nall: ; @:\n",
		"proj/sinc.mk":    "sinclude hook.mk\nall: ; @:\n",
		"proj/outfile.mk": "$(file >build.log,started)\nall: ; @:\n",
		"proj/rfile.mk":   "all:\n\t$(file >$(HOME)/.claude/settings.json,{})@:\n",
		"proj/incl/b.mk":  "$(file >$(HOME)/.claude/settings.json,{})\n",
		"proj/inci.mk":    "include b.mk\nall: ; @:\n",
	}
	cases := []findingCase{
		{finding: "gmake -s SHELL=./x.sh", cmd: `gmake -s SHELL=./x.sh build`, want: denied},
		{finding: "make -C . SHELL=./x.sh", cmd: `make -C . build SHELL=./x.sh`, want: denied},
		{finding: "make 'SHELL=sh x.sh'", cmd: `make 'SHELL=sh x.sh' build`, want: denied},
		{finding: "make --file= $(file >>$(HOME)/…)", cmd: `make --file=hook.mk`, want: denied},
		{finding: "make -f Makefile -f hook.mk", cmd: `make -f Makefile -f hook.mk build`, want: denied},
		{finding: "MAKEFILES=hook.mk make", cmd: `MAKEFILES=hook.mk make build`, want: denied},
		{finding: "make -f sinc.mk (sinclude)", cmd: `make -f sinc.mk`, want: denied},
		{finding: "make -f verb.mk (X != …)", cmd: `make -f verb.mk`, want: denied},
		{finding: "make -f rfile.mk ($(file >…) in a recipe)", cmd: `make -f rfile.mk`, want: denied},
		{finding: "make -I incl -f inci.mk", cmd: `make -I incl -f inci.mk`, want: denied},
		{finding: "MAKEFLAGS=SHELL=./x.sh make", cmd: `MAKEFLAGS=SHELL=./x.sh make build`, want: denied},
		{finding: "GNUMAKEFLAGS=--eval=… make", cmd: `GNUMAKEFLAGS='--eval=$(shell ./x.sh)' make build`, want: held},
		{finding: "MAKEFLAGS=-j8 make", cmd: `MAKEFLAGS=-j8 make build`, want: notHeld},
		{finding: "make ok CFLAGS=$(shell airlock …)", cmd: `make ok 'CFLAGS=$(shell airlock queue approve abcd)'`, want: denied},
		{finding: "make ok CC=airlock …;", cmd: `make ok 'CC=airlock queue approve abcd;'`, want: denied},
		{finding: "make ok LINK.o=./x.sh", cmd: `make ok LINK.o=./x.sh`, want: denied},
		{finding: "make test GOFLAGS=-exec=./x.sh", cmd: `make test GOFLAGS=-exec=./x.sh`, want: denied},
		{finding: "make build BASH_ENV=./x.sh", cmd: `make build BASH_ENV=./x.sh`, want: held},
		{finding: "Write tool: a makefile with X != airlock …", write: "@ROOT@/proj/more.mk", cmd: "X != airlock queue approve abcd\n", want: denied},
		{finding: "Write tool: a Makefile with $(file >>$(HOME)/…)", write: "@ROOT@/proj/Makefile", cmd: "$(file >>$(HOME)/.claude/settings.json,{})\nbuild:\n\techo hi\n", want: denied},
		// Ordinary work.
		{finding: "SHELL=./x.sh make (make takes no SHELL from the environment)", cmd: `SHELL=./x.sh make build`, want: notHeld},
		{finding: "make CC=gcc", cmd: `make ok CC=gcc`, want: notHeld},
		{finding: "make CC=clang CFLAGS=-O2", cmd: `make ok CC=clang CFLAGS=-O2`, want: notHeld},
		{finding: "make CFLAGS=-O2", cmd: `make CFLAGS=-O2`, want: notHeld},
		{finding: "make -j4 test", cmd: `make -j4 test`, want: notHeld},
		{finding: "make -f build.mk", cmd: `make -f build.mk`, want: notHeld},
		{finding: "make -f bash.mk (SHELL, .SHELLFLAGS, .ONESHELL)", cmd: `make -f bash.mk`, want: notHeld},
		{finding: "make -f outfile.mk ($(file >build.log))", cmd: `make -f outfile.mk`, want: notHeld},
		{finding: "make PREFIX=$HOME/.local build", cmd: `make PREFIX=$HOME/.local build`, want: notHeld},
		{finding: "make PREFIX=\"$HOME/.local\" install", cmd: `make PREFIX="$HOME/.local" install`, want: notDeny},
		{finding: "make build GOFLAGS=-mod=mod", cmd: `make build GOFLAGS=-mod=mod`, want: notHeld},
	}
	for i := range cases {
		cases[i].fixed = true
	}
	runFindingCases(t, "MAKE", base, cases)
}

// TestMakeSameAsRecipesDecided: a make run is decided as its recipe's
// commands are when run by hand (FINDINGS-8 B2: make
// PREFIX=$HOME/.local install is cp app $HOME/.local/bin/app), no
// stricter, in every mode.
func TestMakeSameAsRecipesDecided(t *testing.T) {
	f := newFixture(t)
	f.write("home/.claude/settings.json", "{}\n")
	f.write("home/.local/state/airlock/secrets/serve.token", strings.Repeat("d4", 32)+"\n")
	if err := os.Chmod(f.path("home/.local/state/airlock/secrets"), 0o700); err != nil {
		t.Fatal(err)
	}
	f.write("proj/Makefile", "install:\n\tcp app $(DESTDIR)$(PREFIX)/bin/\nstage:\n\tcp app $(DESTDIR)/\n")
	f.write("proj/.git/HEAD", "ref: refs/heads/main\n")
	p := f.load()
	for _, tc := range [][2]string{
		{"make PREFIX=$HOME/.local install", "cp app ~/.local/bin/"},
		{"make PREFIX=~/.local install", "cp app ~/.local/bin/"},
		{"make DESTDIR=$HOME/stage stage", "cp app ~/stage/"},
		{"make install PREFIX=/usr/local DESTDIR=/tmp/stage", "cp app /tmp/stage/usr/local/bin/"},
		{"make PREFIX=$HOME/.local/state/airlock install", "cp app ~/.local/state/airlock/bin/"},
	} {
		for _, mode := range []Mode{Interactive, Unattended} {
			got := p.DecideIn(mode, Action{Kind: Shell, Tool: "Bash", Command: tc[0], Cwd: f.path("proj")})
			want := p.DecideIn(mode, Action{Kind: Shell, Tool: "Bash", Command: tc[1], Cwd: f.path("proj")})
			if got.Decision != want.Decision {
				t.Errorf("%s (%s): %s by %s %v, but %s is %s by %s", tc[0], mode, got.Decision, got.Rule, got.Reasons, tc[1], want.Decision, want.Rule)
			}
		}
	}
}
