package classify

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

const settingsPatch = `diff --git a/.claude/settings.json b/.claude/settings.json
new file mode 100644
index 0000000..e69de29
--- /dev/null
+++ b/.claude/settings.json
@@ -0,0 +1 @@
+{"hooks": {}}
`

// TestPatchTargets reads what git apply, git am and patch write, from
// files, here-documents and here-strings, in every strip level; and says
// why when the patch cannot be read.
func TestPatchTargets(t *testing.T) {
	fsys := fstest.MapFS{
		"fix.patch":      {Data: []byte(settingsPatch)},
		"sub/fix.patch":  {Data: []byte(settingsPatch)},
		"ctx.diff":       {Data: []byte("*** src/a.c\t2024-01-01\n--- src/a.c\t2024-01-02\n***************\n*** 1 ****\n! x\n--- 1 ----\n! y\n")},
		"rename.patch":   {Data: []byte("diff --git a/x.txt b/.airlock/policy.yaml\nsimilarity index 100%\nrename from x.txt\nrename to .airlock/policy.yaml\n")},
		"mail.mbox":      {Data: []byte("From 1 Mon Sep 17 00:00:00 2001\nSubject: [PATCH] x\n\n---\n" + settingsPatch)},
		"benign.patch":   {Data: []byte("--- a/src/main.go\n+++ b/src/main.go\n@@ -1 +1 @@\n-a\n+b\n")},
		"codex.patch":    {Data: []byte("*** Begin Patch\n*** Add File: .mcp.json\n+{}\n*** End Patch\n")},
		"quoted.patch":   {Data: []byte("diff --git \"a/.claude/settings.json\" \"b/.claude/settings.json\"\n--- \"a/.claude/settings.json\"\n+++ \"b/.claude/settings.json\"\n")},
		"patches/d.diff": {Data: []byte(settingsPatch)},
		"indented.diff":  {Data: []byte("  --- a/x\n  +++ b/.claude/settings.json\n  @@ -1 +1 @@\n")},
	}
	tests := []struct {
		cmd     string
		want    string // a path the plan must name, "" for none
		unknown bool
		dir     string
	}{
		{"git apply fix.patch", ".claude/settings.json", false, ""},
		{"git apply -p1 --index fix.patch", "b/.claude/settings.json", false, ""},
		{"git -C sub apply fix.patch", ".claude/settings.json", false, "sub"},
		{"git apply --directory=deep fix.patch", ".claude/settings.json", false, "deep"},
		{"git am mail.mbox", ".claude/settings.json", false, ""},
		{"git am < mail.mbox", ".claude/settings.json", false, ""},
		{"git apply rename.patch", ".airlock/policy.yaml", false, ""},
		{"git apply quoted.patch", ".claude/settings.json", false, ""},
		{"patch -p1 < fix.patch", ".claude/settings.json", false, ""},
		{"patch -p1 -i fix.patch", ".claude/settings.json", false, ""},
		{"patch -p1 -ifix.patch", ".claude/settings.json", false, ""},
		{"patch --input=fix.patch -p1", ".claude/settings.json", false, ""},
		{"patch -d patches -p1 -i d.diff", ".claude/settings.json", false, "patches"},
		{"patch -p0 < ctx.diff", "src/a.c", false, ""},
		{"patch src/main.go benign.patch", "src/main.go", false, ""},
		{"patch -o ~/.bashrc src/x.c fix.patch", "~/.bashrc", false, ""},
		{"patch -p1 <<'EOF'\n" + settingsPatch + "EOF", ".claude/settings.json", false, ""},
		{"git apply <<< '" + strings.ReplaceAll(settingsPatch, "'", "") + "'", ".claude/settings.json", false, ""},
		{"git apply - < codex.patch", ".mcp.json", false, ""},
		{"sudo git apply fix.patch", ".claude/settings.json", false, ""},
		{"patch -p1 < indented.diff", ".claude/settings.json", false, ""},
		// Unreadable: fail closed.
		{"git diff | git apply", "", true, ""},
		{"git apply missing.patch", "", true, ""},
		{"git apply $P", "", true, ""},
		{"curl -s https://x.example/p.diff | patch -p1", "", true, ""},
		{"git am --continue", "", true, ""},
	}
	for _, tt := range tests {
		r := CommandIn(tt.cmd, fsys)
		var plan PatchPlan
		found := false
		for i := range r.Invocations {
			if p, ok := PatchTargets(&r.Invocations[i], fsys); ok {
				plan, found = p, true
			}
		}
		if !found {
			t.Errorf("%q: no patch run found", tt.cmd)
			continue
		}
		if (plan.Unknown != "") != tt.unknown {
			t.Errorf("%q: unknown = %q, want %v", tt.cmd, plan.Unknown, tt.unknown)
		}
		if tt.want != "" && !slices.Contains(plan.Paths, tt.want) {
			t.Errorf("%q: paths %v lack %s", tt.cmd, plan.Paths, tt.want)
		}
		if plan.Dir != tt.dir {
			t.Errorf("%q: dir %q, want %q", tt.cmd, plan.Dir, tt.dir)
		}
	}
	// Runs that apply nothing, or are not patches.
	for _, cmd := range []string{"git apply --check fix.patch", "git apply --stat fix.patch", "patch --dry-run -p1 < fix.patch",
		"git am --abort", "git status", "git diff > fix.patch", "cat fix.patch", "echo patch"} {
		r := CommandIn(cmd, fsys)
		for i := range r.Invocations {
			if p, ok := PatchTargets(&r.Invocations[i], fsys); ok {
				t.Errorf("%q: plan %+v, want none", cmd, p)
			}
		}
	}
	// The benign patch names only its own file.
	r := CommandIn("git apply benign.patch", fsys)
	p, _ := PatchTargets(&r.Invocations[0], fsys)
	if !slices.Equal(p.Paths, []string{"a/src/main.go", "src/main.go", "main.go", "b/src/main.go"}) {
		t.Errorf("benign patch paths: %v", p.Paths)
	}
}

// FuzzPatchPaths: any text is read without a panic, and the paths taken
// from it stay bounded.
func FuzzPatchPaths(f *testing.F) {
	f.Add(settingsPatch)
	f.Add("diff --git \"a/\\101\\7\" \"b/x\"\n*** Add File: y\n")
	f.Add("*** a\t1\n--- b\n+++ \"\\\"\"\nrename to z\n")
	f.Fuzz(func(t *testing.T, text string) {
		if got := patchPaths(text); len(got) > maxPatchPaths {
			t.Fatalf("%d paths", len(got))
		}
	})
}
