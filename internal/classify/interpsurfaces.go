package classify

import (
	"strings"
)

// This file reads interpreter code that writes a file that runs later
// (FINDINGS-10 J1's python edit of .git/config, and a hook written by
// open('.git/hooks/pre-commit','w')): code that names such a file in a
// string and writes files is held, since what it writes there is only
// known when it runs. A task file (a Makefile) is left to the run that
// reads it; reading these files is not a write.

// interpWriteWords are the spellings of writing a file in the languages
// interp reads.
var interpWriteWords = []string{"write", "append", "'w'", `"w"`, "'a'", `"a"`, "'wb'", `"wb"`, "'ab'", `"ab"`,
	"'w+'", `"w+"`, "'a+'", `"a+"`, "'r+'", `"r+"`, "copy", "rename", "replace(", "symlink", "link(", "move", ">>",
	"fputs", "dump(", "'>", `">`, "spurt", "put_contents", "sink("}

// interpSurfaceWrites holds code that names a file that runs later in a
// string and writes files.
func interpSurfaceWrites(who, src string) Effect {
	writes := false
	for _, w := range interpWriteWords {
		if strings.Contains(src, w) {
			writes = true
			break
		}
	}
	if !writes {
		return nothing
	}
	for _, lit := range quotedLiterals(src) {
		name := strings.TrimLeft(lit, "<>+ ")
		if name == "" || len(name) > 4096 {
			continue
		}
		kind, task := surfaceKind(name)
		if kind == "" || task {
			continue
		}
		return opaque("interp.surface-write", who+" code names "+clip(name)+", "+kind+", and writes files: what it writes there runs later and is only known when the code runs; write it with the Write tool or a plain redirection, which airlock reads")
	}
	return nothing
}

// quotedLiterals returns the text between matching single, double or
// back quotes, unescaped only as far as \\n and \\t.
func quotedLiterals(src string) []string {
	var out []string
	for i := 0; i < len(src); i++ {
		q := src[i]
		if q != '\'' && q != '"' && q != '`' {
			continue
		}
		j := i + 1
		for j < len(src) && src[j] != q {
			if src[j] == '\\' {
				j++
			}
			j++
		}
		if j >= len(src) {
			break
		}
		out = append(out, src[i+1:j])
		i = j
	}
	return out
}
