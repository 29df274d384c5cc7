package policy

import (
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/classify"
)

// corpusCommands reads the commands of the project's labelled corpus and
// of the peer corpora (when present beside the repository), one per line,
// LABEL<TAB>COMMAND..., with \n, \t and \\ escapes.
var propSeed, propN int64 = 24, 400

func corpusCommands(t *testing.T) []string {
	t.Helper()
	// The project's corpus and the peers' corpora as copied into the
	// repository (testdata/peer), so the test reads the same commands
	// wherever it runs.
	files := []string{filepath.Join("..", "..", "testdata", "corpus.tsv"),
		filepath.Join("..", "..", "testdata", "peer", "dcg.tsv"), filepath.Join("..", "..", "testdata", "peer", "safety-net.tsv")}
	var out []string
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			f := strings.Split(line, "\t")
			if len(f) < 2 || strings.HasPrefix(line, "#") || strings.TrimSpace(f[1]) == "" {
				continue
			}
			out = append(out, strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\\`, `\`).Replace(f[1]))
		}
	}
	if len(out) < 500 {
		t.Fatalf("only %d corpus commands read", len(out))
	}
	return out
}

// TestSelfProtectionValuesProperty (issue 24): after a random command of
// the corpora, a random protected path put through every kind of
// assignment (plain, export, declare, typeset, local, readonly, arrays,
// for, read from a here-string or a here-document, cd, pushd) and then
// written (or, for the secrets, read) by a random program form is never
// allowed. The seed is fixed, so a failure replays.
func TestSelfProtectionValuesProperty(t *testing.T) {
	f := newFixture(t)
	f.userFile("rules:\n  - id: everything\n    match: {tool: \"*\"}\n    decision: allow\n")
	f.projectFile("mode: interactive\n")
	p := f.load()
	home := f.env["HOME"]
	proj := f.path("proj")
	corpus := corpusCommands(t)

	type protected struct {
		dir, base string // the path is dir/base
		secret    bool   // read-protected
	}
	targets := []protected{
		{"~/.claude", "settings.json", false},
		{"~/.claude", "settings.local.json", false},
		{"~/.config/airlock", "policy.yaml", false},
		{"~/.local/state/airlock", "trust.json", false},
		{"~/.codex", "config.toml", false},
		{"~/.codex", "hooks.json", false},
		{"~/.gemini", "settings.json", false},
		{"~/.copilot", "config.json", false},
		{"~/.copilot/hooks", "airlock.json", false},
		{"~/.config/opencode", "opencode.json", false},
		{"/opt/airlock/bin", "airlock-hook", false},
		{"/opt/airlock/bin", "airlock", false},
		{proj + "/.claude", "settings.json", false},
		{proj + "/.airlock", "policy.yaml", false},
		{"~/.local/state/airlock/secrets", "human.key", true},
		{"~/.local/state/airlock/secrets", "serve.token", true},
	}
	// spell writes a directory one way: ~, $HOME or absolute.
	spell := func(r *rand.Rand, dir string) string {
		if !strings.HasPrefix(dir, "~") {
			return dir
		}
		switch r.Intn(3) {
		case 0:
			return "$HOME" + dir[1:]
		case 1:
			return home + dir[1:]
		}
		return dir
	}
	// refs are the ways to read variable v.
	refs := []func(v string) string{
		func(v string) string { return "$" + v },
		func(v string) string { return `"$` + v + `"` },
		func(v string) string { return "${" + v + "}" },
		func(v string) string { return `"${` + v + `}"` },
	}
	writes := []string{": > X", "echo x >> X", "printf x > X", "cp /tmp/x X", "mv /tmp/x X", "tee X < /dev/null",
		"rm -f X", "sed -i s/a/b/ X", "truncate -s0 X", "dd if=/dev/zero of=X", "bash -c \": > X\"", "(: > X)", "{ cp /tmp/x X; }"}
	reads := []string{"cat X", "cp X /tmp/y", "grep k X", "base64 X", "head -c 10 X", "tar czf /tmp/s.tgz X"}
	names := []string{"f", "p", "target", "F", "x1"}

	r := rand.New(rand.NewSource(propSeed))
	for i := int64(0); i < propN; i++ {
		pre := corpus[r.Intn(len(corpus))]
		if inv := classify.Command(pre); len(inv.Invocations) > 0 && strings.Contains(inv.Invocations[0].Opaque, "unparsable") {
			continue // an open heredoc or quote would swallow what follows
		}
		tg := targets[r.Intn(len(targets))]
		v := names[r.Intn(len(names))]
		dir := spell(r, tg.dir)
		full := dir + "/" + tg.base
		ref := refs[r.Intn(len(refs))](v)
		forms := writes
		if tg.secret {
			forms = reads
		}
		use := func(word string) string { return strings.ReplaceAll(forms[r.Intn(len(forms))], "X", word) }
		var body string
		switch r.Intn(14) {
		case 0:
			body = v + "=" + full + "\n" + use(ref)
		case 1:
			body = "export " + v + "=" + full + "\n" + use(ref)
		case 2:
			body = "declare " + v + "=" + full + "; " + use(ref)
		case 3:
			body = "typeset -g " + v + "=" + full + "; " + use(ref)
		case 4:
			body = "fn() { local " + v + "=" + full + "; " + use(ref) + "; }; fn"
		case 5:
			body = "readonly " + v + "=" + full + "; " + use(ref)
		case 6:
			// A redirection to a two-element array is refused by bash
			// (ambiguous redirect): those forms name the element.
			form := forms[r.Intn(len(forms))]
			word := []string{"${" + v + "[1]}", `"${` + v + `[@]}"`, "${" + v + "[*]}"}[r.Intn(3)]
			if strings.Contains(form, ">") {
				word = "${" + v + "[1]}"
			}
			body = v + "=(/tmp/a " + full + "); " + strings.ReplaceAll(form, "X", word)
		case 7:
			body = "for " + v + " in /tmp/a " + full + "; do " + use(ref) + "; done"
		case 8:
			body = "read " + v + " <<< " + full + "; " + use(ref)
		case 9:
			body = "read -r " + v + " <<EOF\n" + full + "\nEOF\n" + use(ref)
		case 10:
			body = "cd " + dir + " && " + use(tg.base)
		case 11:
			body = "pushd " + dir + " >/dev/null; " + use(tg.base) + "; popd"
		case 12:
			body = v + "=" + dir + "; " + use(ref[:len(ref)-map[bool]int{true: 1}[strings.HasSuffix(ref, `"`)]]+"/"+tg.base+map[bool]string{true: `"`}[strings.HasSuffix(ref, `"`)])
		case 13:
			body = v + "=/tmp/x; " + v + "=" + full + "; true && " + use(ref)
		}
		cmd := pre + "\n" + body
		m := Mode(r.Intn(int(numModes)))
		dec := p.DecideIn(m, Action{Kind: Shell, Tool: "Bash", Command: cmd, Cwd: proj})
		if dec.Decision != Deny || !strings.HasPrefix(dec.Rule, "self.") {
			t.Fatalf("#%d %s: %q was %s by %s (%v); want a self-protection deny", i, m, cmd, dec.Decision, dec.Rule, dec.Reasons)
		}
	}
}
