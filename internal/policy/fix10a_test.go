package policy

import (
	"os"
	"testing"
)

// TestFix10aMake holds the close variants of FINDINGS-9's phase-2 make
// rows (M9: functions, targets named by variables, $(file <…), makefiles
// on a descriptor; M4: recipes under -C; M5: the Write tool's Makefile)
// and ordinary Makefiles that must not be held. The fixture is
// TestFindings9Open's.
func TestFix10aMake(t *testing.T) {
	base := findingFixture(map[string]string{"proj/main.go": "package main\n\nfunc main() {}\n"})
	approve := "airlock queue approve abcd"
	runsApprove := "#!/bin/sh\n" + approve + "\n"
	xsh := map[string]string{"proj/x.sh": runsApprove}
	// mkf is the project's Makefile with more files beside it.
	mkf := func(text string, more ...string) map[string]string {
		m := map[string]string{"proj/Makefile": text}
		for i := 0; i+1 < len(more); i += 2 {
			m[more[i]] = more[i+1]
		}
		return m
	}
	evil := "X := $(shell " + approve + ")\n"
	linkFd := func(t *testing.T, f *fixture) {
		if err := os.Symlink("/dev/fd/3", f.path("proj/z.mk")); err != nil {
			t.Fatal(err)
		}
	}
	cases := []findingCase{
		// Functions: every argument make expands keeps its commands.
		{finding: "M9v $(flavor $(shell airlock …)) in a recipe", setup: mkf("build:\n\t@echo $(flavor $(shell " + approve + "))\n"), cmd: `make build`, want: held, fixed: true},
		{finding: "M9v $(value $(shell airlock …)) in a recipe", setup: mkf("build:\n\t@echo $(value $(shell " + approve + "))\n"), cmd: `make build`, want: held, fixed: true},
		{finding: "M9v $(and $(shell airlock …),) in a recipe", setup: mkf("build:\n\t@echo $(and $(shell " + approve + "),)\n"), cmd: `make build`, want: held, fixed: true},
		{finding: "M9v $(call F,$(shell airlock …)) whose F ignores $(1)", setup: mkf("F = hi\nbuild:\n\t@echo $(call F,$(shell " + approve + "))\n"), cmd: `make build`, want: held, fixed: true},
		{finding: "M9v $(foreach $(shell airlock …),a,b)", setup: mkf("build:\n\t@echo $(foreach $(shell " + approve + "),a,b)\n"), cmd: `make build`, want: held, fixed: true},
		{finding: "M9v a computed name $(X$(shell airlock …))", setup: mkf("build:\n\t@echo $(X$(shell " + approve + "))\n"), cmd: `make build`, want: held, fixed: true},
		{finding: "M9v a substitution reference $(V:$(shell airlock …)=x)", setup: mkf("V = a\nbuild:\n\t@echo $(V:$(shell " + approve + ")=x)\n"), cmd: `make build`, want: held, fixed: true},
		{finding: "M9v a name with a blank $(nofunc $(shell airlock …))", setup: mkf("build:\n\t@echo $(nofunc $(shell " + approve + "))\n"), cmd: `make build`, want: held, fixed: true},
		{finding: "M9v $(let cmd,airlock,$(cmd) queue approve abcd)", setup: mkf("build:\n\t$(let cmd,airlock,$(cmd) queue approve abcd)\n"), cmd: `make build`, want: denied, fixed: true},
		{finding: "M9v $(intcmp 1,2,airlock …,x)", setup: mkf("build:\n\t$(intcmp 1,2," + approve + ",x)\n"), cmd: `make build`, want: denied, fixed: true},
		{finding: "M9v X := $(guile (system \"./x.sh\"))", setup: mkf("X := $(guile (system \"./x.sh\"))\nbuild: ; @:\n", "proj/x.sh", runsApprove), cmd: `make build`, want: held, fixed: true},
		{finding: "M9v load of a shared object", setup: mkf("load ./x.so\nbuild:\n\t@:\n"), cmd: `make build`, want: held, fixed: true},

		// Targets named by variables, functions, a whole rule in a variable.
		{finding: "M9v ${T}: ; airlock …", setup: mkf("T := build\n${T}: ; " + approve + "\n"), cmd: `make build`, want: denied, fixed: true},
		{finding: "M9v $(firstword build x): airlock …", setup: mkf("$(firstword build x):\n\t" + approve + "\n"), cmd: `make build`, want: denied, fixed: true},
		{finding: "M9v $(T) with T = $(subst Q,i,buQld)", setup: mkf("T = $(subst Q,i,buQld)\n$(T):\n\t" + approve + "\n"), cmd: `make build`, want: denied, fixed: true},
		{finding: "M9v a whole rule in a variable: R := build: ; airlock …", setup: mkf("R := build: ; " + approve + "\n$(R)\n"), cmd: `make build`, want: denied, fixed: true},
		{finding: "M9v a target from $(shell echo build)", setup: mkf("$(shell echo build):\n\t" + approve + "\n"), cmd: `make build`, want: denied, fixed: true},
		{finding: "M9v a target from a variable the environment sets", setup: mkf("$(T):\n\t" + approve + "\n"), cmd: `T=build make build`, want: denied, fixed: true},
		{finding: "M9v a target from a variable set after the rule", setup: mkf("$(T):\n\t" + approve + "\nT := build\n"), cmd: `make`, want: denied, fixed: true},
		{finding: "M9v the recipe's ; from a variable (S := ;)", setup: mkf("S := ;\nbuild: $(S) " + approve + " x=y\n"), cmd: `make build`, want: denied, fixed: true},
		{finding: "M9v the colon from a variable (T := build:)", setup: mkf("T := build:\n$(T) other: ; " + approve + "\nother: ; @:\n"), cmd: `make build`, want: denied, fixed: true},
		{finding: "M9v the colon from a variable, ; in the line (C := :)", setup: mkf("C := :\nbuild$(C) ; " + approve + "\n"), cmd: `make build`, want: denied, fixed: true},
		{finding: "M9v a rule printed by a top-level $(shell cat r.txt)", setup: mkf("$(shell cat r.txt)\n", "proj/r.txt", "build: ; "+approve+"\n"), cmd: `make build`, want: held, fixed: true},
		{finding: "M9v a rule printed by a top-level $(shell …) inside $(if)", setup: mkf("$(if 1,$(shell ./p.sh))\nbuild: ; @:\n", "proj/p.sh", "#!/bin/sh\necho 'build: ; ./x.sh'\n", "proj/x.sh", runsApprove), cmd: `make build`, want: held, fixed: true},
		{finding: "M9v a file name with ; in a $(wildcard) prerequisite starts a recipe", setup: mkf("app: $(wildcard *.go)\n\t@echo built\n", "proj/x", "", "proj/x; sh x.sh #.go", "", "proj/x.sh", runsApprove), cmd: `make app`, want: held, fixed: true},
		{finding: "M9v a file name with ; in a $(shell find …) prerequisite", setup: mkf("app: $(shell find src -name '*.go')\n\t@echo built\n", "proj/x", "", "proj/src/x; sh x.sh #.go", "", "proj/x.sh", runsApprove), cmd: `make app`, want: held, fixed: true},
		{finding: "M9v a prerequisite named by a variable", setup: mkf("P := evil\nbuild: $(P)\n\t@:\n$(P):\n\t" + approve + "\n"), cmd: `make build`, want: denied, fixed: true},

		// $(file <…) at parse time: read and evaluated; elsewhere opaque.
		{finding: "M9v $(eval $(file <y.mk)) inside $(foreach)", setup: mkf("$(foreach f,y.mk,$(eval $(file <$(f))))\nbuild: ; @:\n", "proj/y.mk", evil), cmd: `make build`, want: held, fixed: true},
		{finding: "M9v $(eval $(file <y.mk)) with a rule in y.mk", setup: mkf("$(eval $(file <y.mk))\n", "proj/y.mk", "build:\n\t"+approve+"\n"), cmd: `make build`, want: denied, fixed: true},
		{finding: "M9v $(eval $(file <$(F))) with F from the environment", setup: mkf("$(eval $(file <$(F)))\nbuild: ; @:\n", "proj/y.mk", evil), cmd: `F=y.mk make build`, want: held, fixed: true},
		{finding: "M9v $(eval $(file <y.mk)) where the command writes y.mk", setup: mkf("$(eval $(file <y.mk))\nbuild: ; @:\n"), cmd: `cp src/m.py y.mk && make build`, want: held, fixed: true},
		{finding: "M9v $(eval $(file <y.mk)) in an included makefile", setup: mkf("include inc.mk\nbuild: ; @:\n", "proj/inc.mk", "$(eval $(file <y.mk))\n", "proj/y.mk", evil), cmd: `make build`, want: held, fixed: true},

		// A makefile on a descriptor, a device, or a link to one.
		{finding: "M9v make --file=/dev/fd/3", setup: map[string]string{"proj/y.mk": "build:\n\t" + approve + "\n"}, cmd: `make --file=/dev/fd/3 build 3< y.mk`, want: held, fixed: true},
		{finding: "M9v make -f /proc/self/fd/3", setup: map[string]string{"proj/y.mk": "build:\n\t" + approve + "\n"}, cmd: `make -f /proc/self/fd/3 build 3< y.mk`, want: held, fixed: true},
		{finding: "M9v make -f z.mk, z.mk a link to /dev/fd/3", setup: map[string]string{"proj/y.mk": "build:\n\t" + approve + "\n"}, prep: linkFd, cmd: `make -f z.mk build 3< y.mk`, want: held, fixed: true},
		{finding: "M9v bash /dev/fd/3 3< x.sh", setup: xsh, cmd: `bash /dev/fd/3 3< x.sh`, want: held, fixed: true},

		// Deletions in what a run follows, under -C and without it.
		{finding: "M4v make -C /srv/data clean (the Makefile there)", setup: mkf("clean:\n\trm -f app\n"), cmd: `make -C /srv/data -f @ROOT@/proj/Makefile clean`, want: held, fixed: true},
		{finding: "M4v make --directory=/srv/data --file=…", setup: mkf("clean:\n\trm -f app *.o\n"), cmd: `make --directory=/srv/data --file=@ROOT@/proj/Makefile clean`, want: held, fixed: true},
		{finding: "M4v make -C/srv/data -f… with unlink", setup: mkf("clean:\n\tunlink app\n"), cmd: `make -C/srv/data -f@ROOT@/proj/Makefile clean`, want: held, fixed: true},
		{finding: "M4v make -C .. with a relative -f", setup: mkf("clean:\n\trm -f app\n"), cmd: `make -C .. -f proj/Makefile clean`, want: held, fixed: true},
		{finding: "M4v a recipe's rm -f of a file outside", setup: mkf("clean:\n\trm -f /srv/data/db\n"), cmd: `make clean`, want: held, fixed: true},
		{finding: "M4v a script's rm -f of a file outside", setup: map[string]string{"proj/c.sh": "rm -f /srv/data/db\n"}, cmd: `bash c.sh`, want: held, fixed: true},

		// The Write tool: scripts a written Makefile runs are followed.
		{finding: "M5v Write tool: a recipe ./x.sh", setup: xsh, write: "@ROOT@/proj/Makefile", cmd: "build:\n\t./x.sh\n", want: denied, fixed: true},
		{finding: "M5v Write tool: a recipe $(call F) with F = sh x.sh", setup: xsh, write: "@ROOT@/proj/Makefile", cmd: "F = sh x.sh\nbuild:\n\t$(call F)\n", want: denied, fixed: true},
		{finding: "M5v Write tool: a target named by a variable", write: "@ROOT@/proj/Makefile", cmd: "T := build\n$(T): ; " + approve + "\n", want: denied, fixed: true},

		// Ordinary Makefiles.
		{finding: "O make with a binary named by $(shell basename $(CURDIR))", setup: mkf("BIN := $(shell basename $(CURDIR))\n$(BIN): main.go\n\tgo build -o $@ .\ntest:\n\tgo test ./...\n"), cmd: `make test`, want: notHeld, fixed: true},
		{finding: "O make with targets from $(BINS) and a static pattern rule", setup: mkf("BINS := api cli\nall: $(BINS)\n$(BINS): %: cmd/%/main.go\n\tgo build -o bin/$@ ./cmd/$*\nclean:\n\trm -rf bin\n"), cmd: `make all`, want: notHeld, fixed: true},
		{finding: "O make clean with rm -f of single files", setup: mkf("clean:\n\trm -f app *.o\n"), cmd: `make clean`, want: notHeld, fixed: true},
		{finding: "O make clean: a line's cd .. does not move the next line's rm -f", setup: mkf("clean:\n\tcd .. && ls\n\trm -f out.txt\n"), cmd: `make clean`, want: notHeld, fixed: true},
		{finding: "O make clean: $(MAKE) -C sub clean, then rm -f here", setup: mkf("clean:\n\t$(MAKE) -C sub clean\n\trm -f app\n", "proj/sub/Makefile", "clean:\n\trm -f lib.a\n"), cmd: `make clean`, want: notHeld, fixed: true},
		{finding: "O make -C sub clean with rm -f", setup: map[string]string{"proj/sub/Makefile": "clean:\n\trm -f app *.o\n"}, cmd: `make -C sub clean`, want: notHeld, fixed: true},
		{finding: "O make with $(origin CC) and $(flavor X)", setup: mkf("ifeq ($(origin CC),default)\nCC := gcc\nendif\nX = 1\nbuild:\n\t@echo $(flavor X) $(CC)\n"), cmd: `make build`, want: notHeld, fixed: true},
		{finding: "O make with $(eval $(file <vars.mk)) of assignments", setup: mkf("$(eval $(file <vars.mk))\nbuild:\n\tgo build -o $(OUT) .\n", "proj/vars.mk", "OUT := bin/app\n"), cmd: `make build`, want: notHeld, fixed: true},
		{finding: "O make with $(let) and $(intcmp)", setup: mkf("N := $(words a b c)\nbuild:\n\t$(let first rest,go test,$(first) $(rest)) $(intcmp $(N),2,-short,,-v) ./...\n"), cmd: `make build`, want: notHeld, fixed: true},
		{finding: "O make with top-level $(shell mkdir -p …), $(info …) and $(file >…)", setup: mkf("OUT := build\n$(shell mkdir -p $(OUT)/obj)\n$(foreach d,a b,$(shell mkdir -p $(OUT)/$(d)))\n$(info version: $(shell git describe --tags 2>/dev/null || echo dev))\n$(file >$(OUT)/flags.txt,-O2)\nall:\n\tgo build -o $(OUT)/app .\n"), cmd: `make`, want: notHeld, fixed: true},
		{finding: "O make with $(wildcard) and $(shell find) prerequisites", setup: mkf("SRC := $(wildcard *.go)\napp: $(SRC) $(shell find src -name '*.go')\n\tgo build -o app .\n", "proj/src/a.go", "package src\n"), cmd: `make app`, want: notHeld, fixed: true},
		{finding: "O make -f /dev/null (no makefile)", cmd: `make -f /dev/null -p`, want: notHeld, fixed: true},
		{finding: "O Write tool: an ordinary Makefile", write: "@ROOT@/proj/Makefile", cmd: "BIN := app\n$(BIN): main.go\n\tgo build -o $@ .\ntest:\n\tgo test ./...\nclean:\n\trm -f $(BIN)\n", want: notHeld, fixed: true},
	}
	runFindingCases(t, "10a", base, cases)
}
