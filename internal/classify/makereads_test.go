package classify

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/airlock-dev/airlock/internal/shell"
)

// makeProject is a project whose makefiles give make its programs: the
// shell for recipes, makefiles read first or included, built-in rules.
var makeProject = fstest.MapFS{
	"x.sh":        {Data: []byte("#!/bin/sh\ngit push origin main\n")},
	"ok.c":        {Data: []byte("int main(){return 0;}\n")},
	"Makefile":    {Data: []byte("build:\n\tgo build ./...\n\ntest: build\n\tgo test ./...\n\ninstall:\n\tcp app $(DESTDIR)$(PREFIX)/bin/app\n\n.PHONY: build test install\n")},
	"shell.mk":    {Data: []byte("SHELL := ./x.sh\nbuild:\n\techo hi\n")},
	"override.mk": {Data: []byte("override SHELL = ./x.sh\nall:\n\techo hi\n")},
	"export.mk":   {Data: []byte("export SHELL = sh x.sh\nall:\n\techo hi\n")},
	"flags.mk":    {Data: []byte(".SHELLFLAGS := -c ./x.sh;\nall:\n\techo hi\n")},
	"bash.mk":     {Data: []byte("SHELL := /bin/bash\n.SHELLFLAGS := -eu -o pipefail -c\n.ONESHELL:\nall:\n\techo hi\n\tgo build ./...\n")},
	"x.mk":        {Data: []byte("X := $(shell ./x.sh)\n")},
	"inc.mk":      {Data: []byte("include a.mk\nall:\n\techo hi\n")},
	"a.mk":        {Data: []byte("-include b.mk\n")},
	"b.mk":        {Data: []byte("X := $(shell ./x.sh)\n")},
	"conf.mk":     {Data: []byte("include config.mk\nall:\n\t$(CC) -o app main.c\n")},
	"config.mk":   {Data: []byte("PREFIX ?= /usr/local\nCC = gcc\n")},
	"build.mk":    {Data: []byte("all:\n\tgo build ./...\n")},
	"file.mk":     {Data: []byte("$(file >out.txt,hello)\nall: ; @:\n")},
	"push.mk":     {Data: []byte("$(file >$(X),$(shell ./x.sh))\nall: ; @:\n")},
	"eval.mk":     {Data: []byte("$(eval X := $(shell ./x.sh))\nall: ; @:\n")},
	"recipe.mk":   {Data: []byte("all:\n\t@echo $(eval Y := $(shell ./x.sh))done\n")},
	"prog.mk":     {Data: []byte("app: main.o\n\t$(CC) -o app main.o\n")},
	"target.mk":   {Data: []byte("all: build\nbuild: SHELL = ./x.sh\nbuild:\n\techo hi\n")},
	"incl/b2.mk":  {Data: []byte("X := $(shell ./x.sh)\n")},
	"inci.mk":     {Data: []byte("include b2.mk\nall: ; @:\n")},
	"dyn.mk":      {Data: []byte("all: $(GOAL)\nrelease:\n\t./x.sh\nbuild:\n\tgo build ./...\n")},
	"dinc.mk":     {Data: []byte("-include $(CONF).mk\nall: ; @:\n")},
	"which.mk":    {Data: []byte("SHELL := $(shell which bash)\n.SHELLFLAGS := -euo pipefail -c\nall:\n\tgo build ./...\n")},
	"envsh.mk":    {Data: []byte("SHELL := /usr/bin/env bash -o pipefail\nall:\n\tgo build ./...\n")},
	"zsh.mk":      {Data: []byte("SHELL = /bin/zsh\n.SHELLFLAGS = -ec\nall:\n\tgo test ./...\n")},
	"whichx.mk":   {Data: []byte("SHELL := $(shell command -v x.sh)\nall:\n\tgo build ./...\n")},
	"goal.mk":     {Data: []byte("all:\n\techo hi\nrelease:\n\t./x.sh\n")},
}

// TestMakeReads: what a make run executes is read as what it is. The
// shell make runs recipe lines with (SHELL, .SHELLFLAGS, MAKESHELL: on
// the command line, after --, in any makefile it reads) runs every line;
// GNU make takes SHELL from no environment. Every makefile make reads is
// read (-f, repeated; MAKEFILES, on the command line or in the
// environment; include lines, recursively), with what it runs while it
// reads ($(shell …), $(file …)). A program of make's built-in rules that
// the command line or the environment names runs when a target has no
// recipe, and the command line's variables are in every recipe's
// environment. Each row with an attack has its ordinary-work neighbours.
func TestMakeReads(t *testing.T) {
	for _, tc := range []struct {
		cmd, label, reason string
	}{
		// The shell of every recipe line.
		{"make SHELL=./x.sh build", "external", "x.sh:2: git push"},
		{"make build SHELL=./x.sh", "external", "x.sh:2: git push"},
		{"make build -- SHELL=./x.sh", "external", "x.sh:2: git push"},
		{"gmake -s SHELL=./x.sh build", "external", "x.sh:2: git push"},
		{"make 'SHELL=sh x.sh' build", "external", "x.sh:2: git push"},
		{"make SHELL=./x.sh", "external", "x.sh:2: git push"},
		{"make '.SHELLFLAGS=-c ./x.sh;' build", "external", "x.sh:2: git push"},
		{"make MAKESHELL=./x.sh build", "external", "x.sh:2: git push"},
		{"make -f shell.mk", "external", "x.sh:2: git push"},
		{"make --file=shell.mk build", "external", "x.sh:2: git push"},
		{"make -f override.mk", "external", "x.sh:2: git push"},
		{"make -f export.mk", "external", "x.sh:2: git push"},
		{"make -f flags.mk", "external", "x.sh:2: git push"},
		{"make SHELL=$SH build", "local+opaque", "known only at run time"},
		{"make -f target.mk", "external", "x.sh:2: git push"},
		{"make -f goal.mk .DEFAULT_GOAL=release", "external", "x.sh:2: git push"},
		{"make -f goal.mk .DEFAULT_GOAL=$G", "local+opaque", "computed at run time"},
		{"make -f goal.mk", "local", ""},
		{"make -f dyn.mk GOAL=$(cat goal)", "local+opaque", "computed at run time"},
		{"make -f dyn.mk GOAL=build", "local", ""},
		{"make -f dyn.mk GOAL='build release'", "external", "x.sh:2: git push"},
		{"make -f dinc.mk CONF=$(cat conf)", "local+opaque", "known only at run time"},
		{"make -f dinc.mk CONF=b", "external", "x.sh:2: git push"},
		{"make VERSION=$(git describe --tags) build", "local", ""},
		{"SHELL=./x.sh make build", "local", ""},
		{"make SHELL=/bin/bash build", "local", ""},
		{"make -f which.mk", "local", ""},
		{"make -f envsh.mk", "local", ""},
		{"make -f zsh.mk", "local", ""},
		{"make -f bash.mk", "local", ""},
		{"make SHELL=bash '.SHELLFLAGS=-ec' build", "local", ""},
		// Every makefile make reads.
		{"make -f Makefile -f x.mk build", "external", "x.sh:2: git push"},
		{"make build MAKEFILES=x.mk", "external", "x.sh:2: git push"},
		{"MAKEFILES=x.mk make build", "external", "x.sh:2: git push"},
		{"MAKEFILES=$M make build", "local+opaque", "MAKEFILES"},
		{"make -f inc.mk", "external", "b.mk:1"},
		{"make -I incl -f inci.mk", "external", "b2.mk:1"},
		{"make --include-dir=nowhere -I incl -f inci.mk", "external", "b2.mk:1"},
		{"cp incl/b2.mk b2.mk; make -f inci.mk", "external+opaque", "written by the same command"},
		{"make -f inci.mk", "local", ""},
		{"make -f eval.mk", "external+opaque", "x.sh:2: git push"},
		{"make -f recipe.mk", "external", "x.sh:2: git push"},
		{"make -f push.mk", "external", "x.sh:2: git push"},
		{"make -f file.mk", "local", ""},
		{"make -f build.mk", "local", ""},
		{"make -f conf.mk", "local", ""},
		{"make MAKEFILES=config.mk build", "local", ""},
		{"printf 'include x.mk\\n' > y.mk; make -f y.mk", "external", "x.sh:2: git push"},
		{"printf \"$X\" > b.mk; make -f inc.mk", "local+opaque", "written by the same command"},
		{"cat other > y.mk; make -f y.mk", "local+opaque", "written by the same command"},
		// MAKEFLAGS and GNUMAKEFLAGS carry options and variables.
		{"MAKEFLAGS=SHELL=./x.sh make build", "external", "x.sh:2: git push"},
		{"make build 'MAKEFLAGS=SHELL=./x.sh'", "external", "x.sh:2: git push"},
		{"GNUMAKEFLAGS='-s CC=./x.sh' make ok", "external", "x.sh:2: git push"},
		{"MAKEFLAGS='--eval=$(shell ./x.sh)' make build", "local+opaque", "--eval"},
		{"MAKEFLAGS=$F make build", "local+opaque", "MAKEFLAGS"},
		{"make build MAKEFLAGS=$F", "local+opaque", "computed at run time"},
		{"MAKEFLAGS=-j8 make build", "local", ""},
		{"MAKEFLAGS='ks -j4 --no-print-directory' make test", "local", ""},
		// Built-in rules' programs, when a target has no recipe.
		{"make ok CC=./x.sh", "external", "x.sh:2: git push"},
		{"make ok 'CC=sh x.sh'", "external", "x.sh:2: git push"},
		{"CC=./x.sh make ok", "external", "x.sh:2: git push"},
		{"make ok 'CFLAGS=-O2; ./x.sh'", "external", "x.sh:2: git push"},
		{"make ok 'CFLAGS=$(shell ./x.sh)'", "external", "x.sh:2: git push"},
		{"make -f prog.mk CC=./x.sh", "external", "x.sh:2: git push"},
		{"make build CC=./x.sh", "external", "CC runs the command ./x.sh"}, // go build's cgo
		{"make ok CC=gcc", "local", ""},
		{"make ok CC=clang CFLAGS=-O2", "local", ""},
		{"CC=clang make ok", "local", ""},
		{"make -j4 test", "local", ""},
		{"make -s CFLAGS=-O2 test", "local", ""},
		// The command line's variables are the recipes' environment.
		{"make build GOFLAGS=-toolexec=./x.sh", "external", "x.sh:2: git push"},
		{"make test GOFLAGS=-exec=./x.sh", "external", "x.sh:2: git push"},
		{"GOFLAGS=-toolexec=./x.sh make build", "external", "x.sh:2: git push"},
		{"make build GOFLAGS=-mod=mod", "local", ""},
		{"make install PREFIX=/usr/local DESTDIR=/tmp/stage", "local", ""},
		{"make PREFIX=$HOME/.local install", "local", ""},
		{"make DESTDIR=\"$HOME/stage\" install", "local", ""},
	} {
		c := Classifier{Limits: shell.DefaultLimits, FS: makeProject}
		r := c.Command(tc.cmd)
		var msgs []string
		for _, re := range r.Reasons {
			msgs = append(msgs, re.Rule+": "+re.Message)
		}
		all := strings.Join(msgs, "\n")
		if r.Label() != tc.label || !strings.Contains(all, tc.reason) {
			t.Errorf("%s: got %s\n%s\nwant %s with %q", tc.cmd, r.Label(), all, tc.label, tc.reason)
		}
	}
}

// TestMakeSameAsRecipes: a make run gets what its recipe's commands get
// when they are run by hand, with the command line's variables in their
// environment and put into the recipe (make PREFIX=$HOME/.local install
// is cp app $HOME/.local/bin/app), no stricter.
func TestMakeSameAsRecipes(t *testing.T) {
	for _, tc := range [][2]string{
		{"make PREFIX=$HOME/.local install", "PREFIX=$HOME/.local cp app $HOME/.local/bin/app"},
		{"make DESTDIR=$HOME/stage install", "DESTDIR=$HOME/stage cp app $HOME/stage/bin/app"},
		{"make install PREFIX=/usr/local", "PREFIX=/usr/local cp app /usr/local/bin/app"},
		{"make build GOFLAGS=-toolexec=./x.sh", "GOFLAGS=-toolexec=./x.sh go build ./..."},
		{"make build PATH=/tmp/p", "PATH=/tmp/p go build ./..."},
		{"make build BASH_ENV=./x.sh", "BASH_ENV=./x.sh go build ./..."},
		{"make build LD_PRELOAD=./x.so", "LD_PRELOAD=./x.so go build ./..."},
		{"make SHELL=./x.sh build", "./x.sh -c 'go build ./...'"},
		{"make ok CC=./x.sh", "./x.sh ok.c -o ok"},
		{"make -f whichx.mk", "x.sh -c 'go build ./...'"},
		{"make -f which.mk", "bash -euo pipefail -c 'go build ./...'"},
	} {
		c := Classifier{Limits: shell.DefaultLimits, FS: makeProject}
		got, want := c.Command(tc[0]), c.Command(tc[1])
		if got.Label() != want.Label() {
			t.Errorf("%s: got %s, but %s gets %s", tc[0], got.Label(), tc[1], want.Label())
		}
	}
}
