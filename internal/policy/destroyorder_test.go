package policy

import "testing"

// TestDeletionThenOtherWork: a deletion in the project is snapshotted and
// goes on when the other programs of the command start only after it has
// ended (rm -rf build && mkdir build && cd build && cmake ..). A program
// that may change what the deleted paths lead to (ln, mv, an unknown
// program) still makes the target unknown when it can run before or
// beside the deletion: earlier in the text, in the same pipeline or loop,
// or whenever a background job, a coprocess, a process substitution or a
// trap makes the order unknown.
func TestDeletionThenOtherWork(t *testing.T) {
	f, proj := ordinaryProject(t)
	f.write("proj/scripts/stash.sh", "#!/bin/sh\nmv ~/docs /tmp/x\n")
	o := f.options()
	o.Cwd, o.ProjectDir = proj, proj
	p, err := Load(o)
	if err != nil {
		t.Fatal(err)
	}
	goesOn := []string{
		"rm -rf build && mkdir build && cd build && cmake ..",
		"rm -rf dist && npm run build",
		"rm -rf out; go build -o out/x .",
		"rm -rf build/ && ln -sfn /srv/data build",
		"rm -rf build/ || mv x build",
		"rm -rf build/; bash -c 'ln -sfn /srv/data build'",
		// Text a shell runs once, to its end (bash -lc, as Codex runs
		// every command), keeps its order.
		"bash -c 'rm -rf build/; ln -sfn /srv/data build'",
		"bash -lc 'rm -rf build && mkdir build && cd build && cmake ..'",
		"rm -rf build/\nmv x build",
		"timeout 60 rm -rf build/; ln -sfn /srv/data build",
		"nice -n 5 rm -rf build/ && make",
		"if true; then rm -rf build/; fi; ln -sfn /srv/data build",
		"rm -rf build/; for i in 1 2; do ln -sfn /srv/data build; done",
		// A file of the project edited, then its backup removed: the
		// editor moves nothing into it.
		"sed -i.bak 's/0.1.0/0.2.0/' go.mod && rm go.mod.bak",
		// A lock file in scratch space, removed at exit: make copies and
		// builds, it moves nothing there.
		"trap 'rm -f /tmp/x.lock' EXIT; make build",
		"sh scripts/check.sh && rm -rf /tmp/x",
		// A new temporary directory (mktemp) and what the command put in
		// it: removed itself, whatever is inside.
		`rm -rf "$(mktemp -d)"`,
		`d=$(mktemp -d); tar xzf r.tgz -C "$d"; ls "$d"; rm -rf "$d"`,
		`trap 'rm -rf "$tmp"' EXIT; tmp=$(mktemp -d); cp src/main.go "$tmp"`,
		`tmpdir=$(mktemp -d) && git clone . "$tmpdir/copy" && ls "$tmpdir/copy"`,
		// (A read of mktemp's name is refused here only because the
		// fixture's home, and so airlock's secrets, are in /tmp.)
		`d=$(mktemp -d -t build.XXXXXX); cd "$d" && ls`,
	}
	held := []string{
		"ln -sfn /srv/data build; rm -rf build/",
		"rm -rf build/ & ln -sfn /srv/data build",
		"ln -sfn /srv/data build & rm -rf build/",
		"rm -rf build/ | ln -sfn /srv/data build",
		"for i in 1 2; do rm -rf build/; ln -sfn /srv/data build; done",
		"while true; do rm -rf build/; mv x build; done",
		`trap "ln -sfn /srv/data build" DEBUG; rm -rf build/`,
		"rm -rf build/ > >(ln -sfn /srv/data build)",
		"rm -rf build/; coproc ln -sfn /srv/data build",
		"f(){ ln -sfn /srv/data build; }; f; rm -rf build/; f",
		"bash -c 'ln -sfn /srv/data build; rm -rf build/'",
		"xargs -I{} sh -c 'rm -rf build/; ln -sfn /srv/data build' < list.txt",
		"mv build x && rm -rf build",
		"rm -rf build/ && frobnicate & true",
		// A wrapper that may return while the deletion still runs.
		"setsid -f rm -rf build/; ln -sfn /srv/data build",
		"setsid rm -rf build/; ln -sfn /srv/data build",
		// A link made first, and a deletion through it below the
		// temporary directory: rm follows the link.
		"ln -s /srv/data /tmp/x && rm -rf /tmp/x/",
		"ln -s /srv/data /tmp/x; rm -rf /tmp/x/sub",
		`d=$(mktemp -d); ln -s /srv/data "$d/x"; rm -rf "$d/x/"`,
		`d=$(mktemp -d); rm -rf "$d/.."`,
		// Data moved into scratch first, then deleted there.
		"mv ~/docs /tmp/x && rm -rf /tmp/x",
		`d=$(mktemp -d); mv ~/docs "$d"; rm -rf "$d"`,
		"sh scripts/stash.sh && rm -rf /tmp/x",
		"bash -c 'eval \"$X\"' && rm -rf /tmp/x",
		"mv ~/notes.txt /tmp/n; rm -f /tmp/n",
	}
	for _, mode := range []Mode{Unattended, Interactive} {
		for _, c := range goesOn {
			v := p.DecideIn(mode, Action{Kind: Shell, Tool: "Bash", Command: c, Cwd: proj, Snapshots: true})
			if v.Decision != Warn && v.Decision != Allow {
				t.Errorf("%s mode: %q is %s by %s (%v); want a snapshot and go on", mode, c, v.Decision, v.Rule, v.Reasons)
			}
		}
		for _, c := range held {
			v := p.DecideIn(mode, Action{Kind: Shell, Tool: "Bash", Command: c, Cwd: proj, Snapshots: true})
			if v.Decision == Warn || v.Decision == Allow {
				t.Errorf("%s mode: %q is %s by %s; want held: a program may change what the deleted paths lead to before the deletion runs", mode, c, v.Decision, v.Rule)
			}
		}
	}
}
