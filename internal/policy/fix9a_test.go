package policy

import (
	"strings"
	"testing"
)

// TestFix9aMake holds FINDINGS-9's make rows (M1-M7, B1, B4) with close
// variants and ordinary Makefiles (Go, C, Python, Node) that must not be
// held. The fixture is TestFindings9Open's.
func TestFix9aMake(t *testing.T) {
	base := map[string]string{
		"home/.claude/settings.json":                    "{\"hooks\":{}}\n",
		"home/.config/airlock/policy.yaml":              "mode: interactive\n",
		"home/.local/state/airlock/secrets/serve.token": strings.Repeat("d4", 32) + "\n",
		"home/.local/state/airlock/secrets/human.key":   strings.Repeat("k", 32),
		"home/.local/state/airlock/secrets/notify.json": "{\"topic\":\"airlock-abcdefghijklmnopqrstuvwxyz234567\"}\n",
		"proj/.claude/settings.json":                    "{\"hooks\":{}}\n",
		"proj/.env":                                     "API_KEY=sk-test-0000\n",
		"proj/src/m.py":                                 "print(1)\n",
		"proj/Makefile":                                 "build:\n\techo hi\n",
		"proj/package.json":                             `{"name":"p","scripts":{"build":"tsc","test":"jest"}}`,
		"proj/go.mod":                                   "module example.com/p\n\ngo 1.22\n",
		"proj/main.go":                                  "package main\n\nfunc main() {}\n",
	}
	approve := "airlock queue approve abcd"
	runsApprove := "#!/bin/sh\n" + approve + "\n"
	xsh := map[string]string{"proj/x.sh": runsApprove}
	mk := func(text string) map[string]string { return map[string]string{"proj/y.mk": text} }
	makefile := func(text, inc string) map[string]string {
		m := map[string]string{"proj/Makefile": text, "proj/x.sh": runsApprove}
		if inc != "" {
			m["proj/y.mk"] = inc
		}
		return m
	}
	hookFile := "$(file >@HOME@/.claude/settings.json,{})"
	okC := map[string]string{"proj/x.sh": runsApprove, "proj/ok.c": "int main(){return 0;}\n", "proj/as": runsApprove}
	makeN := map[string]string{"proj/Makefile": "build:\n\t+" + approve + "\n"}
	makeNParse := map[string]string{"proj/Makefile": "X := $(shell " + approve + ")\nbuild:\n\t@:\n"}
	cases := []findingCase{
		// FINDINGS-9 rows.
		{finding: "M1 X := $(strip $(shell airlock …))", setup: mk("X := $(strip $(shell " + approve + "))\nbuild: ; @:\n"), cmd: `make -f y.mk build`, fixed: true, want: held},
		{finding: "M1 ifeq ($(shell airlock …),)", setup: mk("ifeq ($(shell " + approve + "),)\nendif\nbuild: ; @:\n"), cmd: `make -f y.mk build`, fixed: true, want: held},
		{finding: "M1 define X := with $(shell airlock …)", setup: mk("define X :=\n$(shell " + approve + ")\nendef\nbuild: ; @:\n"), cmd: `make -f y.mk build`, fixed: true, want: held},
		{finding: "M1 $(shell<TAB>airlock …)", setup: mk("X := $(shell\t" + approve + ")\nbuild: ; @:\n"), cmd: `make -f y.mk build`, fixed: true, want: held},
		{finding: "M1 target-specific X := $(shell airlock …)", setup: mk("build: X := $(shell " + approve + ")\nbuild: ; @:\n"), cmd: `make -f y.mk build`, fixed: true, want: held},
		{finding: "M1 prerequisite $(shell airlock …)", setup: mk("build: $(shell " + approve + ")\n\t@:\n"), cmd: `make -f y.mk build`, fixed: true, want: held},
		{finding: "M1 export $(shell airlock …)", setup: mk("export $(shell " + approve + ")\nbuild: ; @:\n"), cmd: `make -f y.mk build`, fixed: true, want: held},
		{finding: "M1 a/b := $(shell airlock …)", setup: mk("a/b := $(shell " + approve + ")\nbuild: ; @:\n"), cmd: `make -f y.mk build`, fixed: true, want: held},
		{finding: "M1 X += $(shell airlock …) after X :=", setup: mk("X := a\nX += $(shell " + approve + ")\nbuild: ; @:\n"), cmd: `make -f y.mk build`, fixed: true, want: held},
		{finding: "M1 private X := $(shell airlock …)", setup: mk("private X := $(shell " + approve + ")\nbuild: ; @:\n"), cmd: `make -f y.mk build`, fixed: true, want: held},
		{finding: "M1 .RECIPEPREFIX = > recipe", setup: mk(".RECIPEPREFIX = >\nbuild:\n> " + approve + "\n"), cmd: `make -f y.mk build`, fixed: true, want: held},
		{finding: "M1 recipe $(if 1,airlock …)", setup: mk("build:\n\t$(if 1," + approve + ")\n"), cmd: `make -f y.mk build`, fixed: true, want: held},
		{finding: "M1 recipe $(call F) of airlock …", setup: mk("F = " + approve + "\nbuild:\n\t$(call F)\n"), cmd: `make -f y.mk build`, fixed: true, want: held},
		{finding: "M1 recipe $(file >hook settings)", setup: mk("build:\n\t" + hookFile + "\n"), cmd: `make -f y.mk build`, fixed: true, want: held},
		{finding: "M1 prerequisite $(file >hook settings)", setup: mk("build: " + hookFile + "\n\t@:\n"), cmd: `make -f y.mk build`, fixed: true, want: held},
		{finding: "M1 -include of a file a rule makes", setup: mk("-include gen.inc\ngen.inc: ; " + approve + "\nbuild: ; @:\n"), cmd: `make -f y.mk build`, fixed: true, want: held},
		{finding: "M1 .SECONDEXPANSION $$(shell airlock …)", setup: mk(".SECONDEXPANSION:\nbuild: $$(shell " + approve + ")\n\t@:\n"), cmd: `make -f y.mk build`, fixed: true, want: held},
		{finding: "M2 make build, Makefile includes y.mk with X := $(shell airlock …)", setup: makefile("include y.mk\nbuild:\n\techo hi\n", "X := $(shell "+approve+")\n"), cmd: `make build`, fixed: true, want: held},
		{finding: "M2 include after the rule redefines its variable", setup: makefile("X = true\nbuild:\n\t$(X)\ninclude y.mk\n", "X = "+approve+"\n"), cmd: `make build`, fixed: true, want: held},
		{finding: "M2 override X beats make X=true", setup: makefile("override X = "+approve+"\nbuild:\n\t$(X)\n", ""), cmd: `make X=true build`, fixed: true, want: held},
		{finding: "M2 X=./x.sh make -e", setup: makefile("X = true\nbuild:\n\t$(X)\n", ""), cmd: `X=./x.sh make -e build`, fixed: true, want: held},
		{finding: "M2 X ?= true, X=airlock in the environment", setup: makefile("X ?= true\nbuild:\n\t$(X) queue approve abcd\n", ""), cmd: `X=airlock make build`, fixed: true, want: held},
		{finding: "M2 export X=airlock; make (X unset in the Makefile)", setup: makefile("build:\n\t$(X) queue approve abcd\n", ""), cmd: `export X=airlock; make build`, fixed: true, want: held},
		{finding: "M2 define X (recursive) used in a recipe", setup: makefile("define X\n"+approve+"\nendef\nbuild:\n\t$(X)\n", ""), cmd: `make build`, fixed: true, want: held},
		{finding: "M2 match-anything rule %:", setup: makefile("%:\n\t"+approve+"\n", ""), cmd: `make build`, fixed: true, want: held},
		{finding: "M2 .DEFAULT rule", setup: makefile(".DEFAULT:\n\t"+approve+"\n", ""), cmd: `make build`, fixed: true, want: held},
		{finding: "M2 .DEFAULT_GOAL names another target", setup: makefile("build:\n\techo hi\n.DEFAULT_GOAL := evil\nevil:\n\t"+approve+"\n", ""), cmd: `make`, fixed: true, want: held},
		{finding: "M2 make ok CC=./x.sh with no Makefile rule for ok", setup: okC, cmd: `make ok CC=./x.sh`, fixed: true, want: held},
		{finding: "M7 SHELL := /bin/bash and export BASH_ENV := ./x.sh in the Makefile", setup: makefile("SHELL := /bin/bash\nexport BASH_ENV := ./x.sh\nbuild:\n\techo hi\n", ""), cmd: `make build`, fixed: true, want: held},
		{finding: "M7 export PATH := $(CURDIR)/p:$(PATH), p/go runs airlock", setup: map[string]string{"proj/Makefile": "export PATH := $(CURDIR)/p:$(PATH)\nbuild:\n\tgo build ./...\n", "proj/p/go": runsApprove}, cmd: `make build`, fixed: true, want: held},
		{finding: "M7 export GOFLAGS := -toolexec=./x.sh in the Makefile", setup: makefile("export GOFLAGS := -toolexec=./x.sh\nbuild:\n\tgo build ./...\n", ""), cmd: `make build`, fixed: true, want: held},
		{finding: "M7 include .env and export: .env sets GOFLAGS", setup: map[string]string{"proj/Makefile": "include .env\nexport\nbuild:\n\tgo build ./...\n", "proj/.env": "GOFLAGS=-toolexec=./x.sh\n", "proj/x.sh": runsApprove}, cmd: `make build`, fixed: true, want: held},
		{finding: "M3 make 'X := $(shell airlock …)' (spaced) no longer read", cmd: `make 'X := $(shell ` + approve + `)' test`, fixed: true, want: denied},
		{finding: "M3 make 'X:=$(strip $(shell airlock …))'", cmd: `make 'X:=$(strip $(shell ` + approve + `))' build`, fixed: true, want: held},
		{finding: "M3 make 'X:=$(file >hook settings)'", cmd: `make 'X:=` + hookFile + `' build`, fixed: true, want: held},
		{finding: "M3 make 'X:=${strip ${shell ./x.sh}}'", setup: xsh, cmd: `make 'X:=${strip ${shell ./x.sh}}' build`, fixed: true, want: held},
		{finding: "M3 MAKEFLAGS=--eval=$(shell airlock …) make", cmd: `MAKEFLAGS='--eval=$(shell ` + approve + `)' make build`, fixed: true, want: held},
		{finding: "M3 export MAKEFLAGS=-E $(shell ./x.sh)", setup: xsh, cmd: `export MAKEFLAGS='-E $(shell ./x.sh)'; make build`, fixed: true, want: held},
		{finding: "M3 make --fil=y.mk (abbreviated --file)", setup: mk("X := $(shell " + approve + ")\nbuild: ; @:\n"), cmd: `make --fil=y.mk build`, fixed: true, want: held},
		{finding: "M3 make -f y.mk -f Makefile: the first file is not read", setup: mk("X := $(shell " + approve + ")\n"), cmd: `make -f y.mk -f Makefile build`, fixed: true, want: held},
		{finding: "M3 make -I DIR: the included makefile is found in DIR", setup: map[string]string{"proj/Makefile": "-include rules.mk\nbuild:\n\techo hi\n", "inc/rules.mk": "x:\n\t" + approve + "\n"}, cmd: `make -I @ROOT@/inc x`, fixed: true, want: held},
		{finding: "M3 make --include-dir=DIR, parse-time $(shell …) in the found file", setup: map[string]string{"proj/Makefile": "include evil.mk\nbuild:\n\techo hi\n", "inc/evil.mk": "X := $(shell " + approve + ")\n"}, cmd: `make --include-dir=@ROOT@/inc build`, fixed: true, want: held},
		{finding: "M4 make -C ~/.claude -f pattern makefile settings.json", setup: mk("%.json:\n\techo {} > $@\n"), cmd: `make -C @HOME@/.claude -f @ROOT@/proj/y.mk settings.json`, fixed: true, want: denied},
		{finding: "M4 make -C /srv/data -f the project's clean", setup: makefile("clean:\n\trm -rf build dist\n", ""), cmd: `make -C /srv/data -f @ROOT@/proj/Makefile clean`, fixed: true, want: held},
		{finding: "M6 make -n runs a + recipe line", setup: makeN, cmd: `make -n build`, fixed: true, want: held},
		{finding: "M6 make -q runs a + recipe line", setup: makeN, cmd: `make -q build`, fixed: true, want: held},
		{finding: "M6 make -n runs parse-time $(shell airlock …)", setup: makeNParse, cmd: `make -n build`, fixed: true, want: held},
		{finding: "M5 Write tool: a Makefile whose recipe is $(if 1,./x.sh)", setup: xsh, write: "@ROOT@/proj/Makefile", cmd: "build:\n\t$(if 1,./x.sh)\n", want: denied},
		{finding: "M5 Write tool: a Makefile whose X := $(strip $(shell ./x.sh))", setup: xsh, write: "@ROOT@/proj/Makefile", cmd: "X := $(strip $(shell ./x.sh))\nbuild:\n\techo hi\n", want: denied},
		{finding: "M5 Write tool: a Makefile with .RECIPEPREFIX", write: "@ROOT@/proj/Makefile", cmd: ".RECIPEPREFIX = >\nbuild:\n> " + approve + "\n", fixed: true, want: denied},
		{finding: "B1 make clean, the Makefile's VERSION := $(shell git describe) (deny/ask)", setup: makefile("VERSION := $(shell git describe --tags --always)\nclean:\n\trm -rf build dist\n", ""), cmd: `make clean`, fixed: true, want: notHeld},
		{finding: "B4 make test, the Makefile defines its rules with $(foreach …,$(eval $(call …))) (defer/ask)", setup: makefile("BINS := api cli\ndefine build_bin\nbin/$(1):\n\tgo build -o $$@ ./cmd/$(1)\nendef\n$(foreach b,$(BINS),$(eval $(call build_bin,$(b))))\ntest:\n\tgo test ./...\n", ""), cmd: `make test`, fixed: true, want: notHeld},
	}
	runFindingCases(t, "9a", base, cases)
}
