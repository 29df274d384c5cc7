package classify

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
)

// This file gives the operands of three programs that can write in one
// spelling and only read in another their roles in the reading one
// (FINDINGS-10 B13): reading the hook settings with awk, python3 -m
// json.tool or fd is a read, as with cat or jq. Any spelling that could
// write (awk with an output redirection, a pipe, system() or getline, an
// extension or a program file; json.tool given an output file; fd
// running a command) is left to the rules that read every word.

// readerRoles gives the roles of a run of these programs; false when it
// is none of them, or a spelling that may write.
func (b *roleBuilder) readerRoles() bool {
	args := b.inv.Args
	switch name := b.inv.Name(); {
	case name == "awk" || name == "gawk" || name == "mawk" || name == "nawk":
		return b.awkReadRoles()
	case strings.HasPrefix(name, "python") && len(args) >= 3 && args[1] == "-m" && args[2] == "json.tool":
		return b.jsonToolRoles()
	case name == "fd" || name == "fdfind":
		return b.fdRoles()
	}
	return false
}

// awkReadRoles: awk 'PROGRAM' FILE… reads its files when the program
// has no way to write or run anything: no ">" (a redirection, or a
// comparison, which is not told apart), no "|", no system, getline,
// close or fflush; a var=value operand is an assignment, not a file.
func (b *roleBuilder) awkReadRoles() bool {
	args := b.inv.Args
	p := argv.Spec{Short: "Fv", Long: []string{"--field-separator", "--assign"}}.Parse(args[1:])
	for _, f := range p.Flags {
		if f.Name != "-F" && f.Name != "--field-separator" && f.Name != "-v" && f.Name != "--assign" {
			return false // -f, -e, -i inplace, -l, -E and the rest
		}
	}
	if len(p.Operands) == 0 || b.inv.IsDynamic(1+p.OperandIndex[0]) {
		return false
	}
	prog := p.Operands[0]
	if strings.ContainsAny(prog, ">|") || strings.Contains(prog, "system") || strings.Contains(prog, "getline") ||
		strings.Contains(prog, "close") || strings.Contains(prog, "fflush") || strings.Contains(prog, "@") {
		return false
	}
	for _, k := range p.OperandIndex[1:] {
		if w := args[k+1]; !b.inv.IsDynamic(k+1) && awkAssignment(w) {
			continue
		}
		b.add(k+1, RoleRead, false)
	}
	return true
}

// awkAssignment reports whether an awk operand is a var=value
// assignment.
func awkAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	if !ok || name == "" || name[0] >= '0' && name[0] <= '9' {
		return false
	}
	for _, c := range name {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// jsonToolRoles: python3 -m json.tool [INFILE [OUTFILE]] reads INFILE
// and writes OUTFILE (standard output without it).
func (b *roleBuilder) jsonToolRoles() bool {
	args := b.inv.Args
	p := argv.Spec{Long: []string{"--indent"}}.Parse(args[3:])
	for k, idx := range p.OperandIndex {
		role := RoleRead
		if k > 0 {
			role = RoleWrite
		}
		b.add(idx+3, role, false)
	}
	return true
}

// fdRoles: fd [PATTERN] [PATH…] lists what is below its paths; with -x
// or -X it runs a command on each, which is not read here.
func (b *roleBuilder) fdRoles() bool {
	args := b.inv.Args
	p := argv.Spec{Short: "xXeEtdjcSo", Long: []string{"--exec", "--exec-batch", "--extension", "--exclude", "--type", "--max-depth", "--min-depth",
		"--threads", "--color", "--size", "--changed-within", "--changed-before", "--owner", "--base-directory", "--path-separator",
		"--search-path", "--max-results", "--ignore-file"}}.Parse(args[1:])
	for _, f := range p.Flags {
		switch f.Name {
		case "-x", "--exec", "-X", "--exec-batch", "--base-directory":
			return false
		case "--search-path":
			if f.HasValue {
				b.value(f, 1, RoleRead)
				b.ops[len(b.ops)-1].Recursive = true
			}
		}
	}
	for k, idx := range p.OperandIndex {
		if k == 0 {
			continue // the pattern
		}
		b.add(idx+1, RoleRead, true)
	}
	return true
}
