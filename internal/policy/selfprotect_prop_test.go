package policy

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSelfProtectionProperty: over random protected paths and random
// spellings of them (symlink chains in a temporary directory, ".."
// segments, "./", variables, case, globs, moves of parent directories,
// interpreter writes, redirections, dd of=, tee, cp, install, sed -i), no
// write to a protected path is ever allowed, in any mode, whatever the
// user's policy says. The seeds are fixed, so a failure replays.
func TestSelfProtectionProperty(t *testing.T) {
	f := newFixture(t)
	f.userFile("rules:\n  - id: everything\n    match: {tool: \"*\"}\n    decision: allow\n")
	f.projectFile("mode: interactive\n")
	home := f.env["HOME"]
	proj := f.path("proj")
	cwd := f.path("proj/sub")
	for _, d := range []string{"proj/sub/deep", "home/.claude", "home/.codex", "home/.local/state/airlock/secrets", "home/.config/airlock", "proj/.claude", "links"} {
		if err := os.MkdirAll(f.path(d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// Symlink chains: links/a -> links/b -> home; links/p -> proj;
	// proj/sub/up -> ../.. (relative); links/c -> home/.claude.
	mustLink(t, "b", f.path("links/a"))
	mustLink(t, home, f.path("links/b"))
	mustLink(t, proj, f.path("links/p"))
	mustLink(t, "../..", f.path("proj/sub/up"))
	mustLink(t, filepath.Join(home, ".claude"), f.path("links/c"))
	p := f.load()

	// Protected files, as paths relative to a base the spelling picks.
	targets := []struct{ base, rel string }{
		{home, ".claude/settings.json"},
		{home, ".claude/settings.local.json"},
		{home, ".config/airlock/policy.yaml"},
		{home, ".local/state/airlock/journal/000001.jsonl"},
		{home, ".local/state/airlock/trust.json"},
		{home, ".local/state/airlock/secrets/key"},
		{home, ".codex/config.toml"},
		{home, ".gemini/settings.json"},
		{home, ".bashrc"},
		{home, ".profile"},
		{proj, ".claude/settings.json"},
		{proj, ".airlock/policy.yaml"},
		{proj, ".github/hooks/airlock.json"},
		{"/opt/airlock/bin", "airlock-mcp"},
		{"/opt/airlock/bin", "airlock"},
	}
	// spell returns one way to write base/rel seen from cwd.
	spell := func(r *rand.Rand, base, rel string) string {
		full := filepath.Join(base, rel)
		switch r.Intn(13) {
		case 0:
			return full
		case 1:
			if base == home {
				return "~/" + rel
			}
		case 2:
			if base == home {
				return "$HOME/" + rel
			}
			if base == proj {
				return "$CLAUDE_PROJECT_DIR/" + rel
			}
		case 3:
			if x, err := filepath.Rel(cwd, full); err == nil {
				return x
			}
		case 4: // through the symlink chain
			if base == home {
				return f.path("links/a") + "/" + rel
			}
			if base == proj {
				return f.path("links/p") + "/" + rel
			}
		case 5: // a relative symlink, then ".."
			if x, err := filepath.Rel(f.root, full); err == nil {
				// up/.. is the parent of root as the kernel sees it
				// (not proj/sub, as a lexical clean would say).
				return "up/../" + filepath.Base(f.root) + "/" + strings.Repeat("./", r.Intn(3)) + "proj/sub/up/" + x
			}
		case 6: // ".." through real directories
			return filepath.Join(base, "..") + "/" + filepath.Base(base) + "/./" + rel
		case 7: // case (macOS file systems ignore it)
			return strings.ToUpper(full[:1]) + full[1:]
		case 8: // a glob over the last component
			b := filepath.Base(full)
			return filepath.Dir(full) + "/" + b[:len(b)-1] + "?"
		case 9: // a glob over a directory
			parts := strings.Split(full, "/")
			i := 1 + r.Intn(len(parts)-1)
			if len(parts[i]) > 1 {
				parts[i] = parts[i][:1] + "*"
				return strings.Join(parts, "/")
			}
		case 10:
			if strings.HasPrefix(full, filepath.Join(home, ".claude")+"/") {
				return f.path("links/c") + strings.TrimPrefix(full, filepath.Join(home, ".claude"))
			}
		case 11: // what pwd prints, read at decision time
			if x, err := filepath.Rel(cwd, full); err == nil {
				return `"$(pwd)"/` + x
			}
		case 12: // the work tree's top level, read at decision time
			if x, err := filepath.Rel(proj, full); err == nil {
				return "$(git rev-parse --show-toplevel)/" + x
			}
		}
		return full
	}
	ops := []func(r *rand.Rand, path, parent string) string{
		func(_ *rand.Rand, p, _ string) string { return "echo x > " + p },
		func(_ *rand.Rand, p, _ string) string { return "echo x >> " + p },
		func(_ *rand.Rand, p, _ string) string { return "dd if=/dev/zero of=" + p },
		func(_ *rand.Rand, p, _ string) string { return "echo x | tee -a " + p },
		func(_ *rand.Rand, p, _ string) string { return "cp /tmp/x " + p },
		func(_ *rand.Rand, p, _ string) string { return "install -m 755 /tmp/x " + p },
		func(_ *rand.Rand, p, _ string) string { return "sed -i s/a/b/ " + p },
		func(_ *rand.Rand, p, _ string) string { return "truncate -s0 " + p },
		func(_ *rand.Rand, p, _ string) string { return "rm -f " + p },
		func(_ *rand.Rand, p, _ string) string { return "mv /tmp/x " + p },
		func(_ *rand.Rand, p, _ string) string { return "chmod 777 " + p },
		func(_ *rand.Rand, _, d string) string { return "mv " + d + " /tmp/elsewhere" },
		func(_ *rand.Rand, _, d string) string { return "rm -rf " + d },
		func(_ *rand.Rand, _, d string) string { return "tar -C " + d + " -xf /tmp/evil.tar" },
		func(_ *rand.Rand, _, d string) string { return "cp -r /tmp/evil/. " + d },
		func(_ *rand.Rand, _, d string) string { return "rsync -a /tmp/evil/ " + d + "/" },
		func(_ *rand.Rand, p, _ string) string { return "bash -c 'echo x > " + p + "'" },
		func(_ *rand.Rand, p, _ string) string { return "sudo tee " + p + " < /tmp/x" },
		func(_ *rand.Rand, p, _ string) string { return "python3 -c 'open(\"" + p + "\", \"w\").write(\"x\")'" },
		func(_ *rand.Rand, p, _ string) string {
			return "node -e 'require(\"fs\").writeFileSync(\"" + p + "\", \"x\")'"
		},
		func(_ *rand.Rand, p, _ string) string { return "perl -e 'open(F, \">" + p + "\")'" },
		func(_ *rand.Rand, p, _ string) string { return "cd /tmp && cp x " + p },
	}
	for seed := int64(1); seed <= 4; seed++ {
		r := rand.New(rand.NewSource(seed))
		for i := 0; i < 1500; i++ {
			tg := targets[r.Intn(len(targets))]
			path := spell(r, tg.base, tg.rel)
			// A parent: one of the target's directories below its base,
			// or the base itself, spelled the same way.
			rel := tg.rel
			if k := strings.Count(rel, "/"); k > 0 {
				rel = strings.Join(strings.Split(rel, "/")[:1+r.Intn(k)], "/")
			}
			parent := spell(r, tg.base, rel)
			if !strings.Contains(rel, "/") && r.Intn(2) == 0 {
				parent = spell(r, tg.base, rel)
			}
			op := ops[r.Intn(len(ops))]
			cmd := op(r, path, parent)
			if strings.HasPrefix(cmd, "cd ") && strings.Contains(cmd, "$(pwd)") {
				continue // the cd changes what pwd prints: another path
			}
			if strings.Contains(cmd, "python3") || strings.Contains(cmd, "node -e") || strings.Contains(cmd, "perl -e") {
				if strings.ContainsAny(path, "*?") {
					continue // interpreters do not expand globs
				}
			}
			a := Action{Kind: Shell, Tool: "Bash", Command: cmd, Cwd: cwd}
			if r.Intn(5) == 0 && !strings.ContainsAny(path, "*?") && !strings.ContainsAny(path[:1], "$\"") {
				a = Action{Kind: Write, Tool: "Write", Paths: []string{path}, Cwd: cwd, Edits: []Edit{{Whole: true, New: "export AIRLOCK_POLICY=/tmp/p\n"}}}
			}
			m := Mode(r.Intn(int(numModes)))
			v := p.DecideIn(m, a)
			if v.Decision != Deny || !strings.HasPrefix(v.Rule, "self.") {
				t.Fatalf("seed %d #%d: %s %q (%s) was %s by %s; want a self-protection deny\n%v", seed, i, a.Kind, cmd, fmt.Sprint(a.Paths), v.Decision, v.Rule, v.Reasons)
			}
		}
	}
}

// TestSelfProtectionPropertyOrdinary is the other side: the same
// spellings of files that are not airlock's pass self-protection.
func TestSelfProtectionPropertyOrdinary(t *testing.T) {
	f := newFixture(t)
	home := f.env["HOME"]
	cwd := f.path("proj/sub")
	for _, d := range []string{"proj/sub/src", "home/notes", "links"} {
		if err := os.MkdirAll(f.path(d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mustLink(t, home, f.path("links/h"))
	p := f.load()
	files := []string{cwd + "/src/main.go", home + "/notes/todo.md", cwd + "/README.md", "/tmp/scratch/out.txt"}
	spellings := []func(string) string{
		func(s string) string { return s },
		func(s string) string { return strings.Replace(s, home, "~", 1) },
		func(s string) string { return strings.Replace(s, home, f.path("links/h"), 1) },
		func(s string) string { x, _ := filepath.Rel(cwd, s); return x },
		func(s string) string { return filepath.Dir(s) + "/./" + filepath.Base(s) },
	}
	ops := []string{"echo x > %s", "cp /tmp/x %s", "sed -i s/a/b/ %s", "rm -f %s", "python3 -c 'open(\"%s\", \"w\")'", "dd if=/dev/zero of=%s count=1"}
	r := rand.New(rand.NewSource(7))
	for i := 0; i < 500; i++ {
		cmd := fmt.Sprintf(ops[r.Intn(len(ops))], spellings[r.Intn(len(spellings))](files[r.Intn(len(files))]))
		v := p.DecideIn(Interactive, Action{Kind: Shell, Tool: "Bash", Command: cmd, Cwd: cwd})
		if strings.HasPrefix(v.Rule, "self.") {
			t.Fatalf("#%d %q refused by %s: %s", i, cmd, v.Rule, v.Message)
		}
	}
}

func mustLink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}
