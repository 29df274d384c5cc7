package classify

import (
	"path"
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// This file reads the file lists archivers and copiers take from their
// input or from a file instead of their arguments (FINDINGS-7 G2): tar
// -T/--files-from, cpio -o and -p, zip -@, 7z @LIST, rsync --files-from,
// pax -w. The files a list names are read like operands: a list written
// in the command (echo PATH | cpio -o) or on disk (tar -T LIST) gives
// static read operands; a list fed at run time (find … | tar -T -) gives
// the placeholder ListInput, which self-protection treats as xargs's
// input (a producer that reaches airlock's secrets makes it a refusal).

// ListInput is the word standing for the paths a program reads from a
// list known only at run time.
const ListInput = "{file list}"

// maxListLines bounds the lines of a list read as operands.
const maxListLines = 256

// listedFiles returns the operands a run reads through a file list.
func (c *Classifier) listedFiles(inv *shell.Invocation) []Operand {
	src, base, ok := listSource(inv)
	if !ok {
		return nil
	}
	var text string
	known := false
	switch {
	case src.index >= 0 && inv.IsDynamic(src.index):
		// --files-from <(find …): a list made at run time.
	case src.file == "-" || src.file == "/dev/stdin" || src.file == "":
		text, _, known = c.inputText(inv)
	default:
		if data, err := c.readFile(src.file); err == nil {
			text, known = string(data), true
		}
	}
	if !known {
		return []Operand{{Word: ListInput, Role: RoleRead, Arg: -1, Dynamic: true}}
	}
	var ops []Operand
	sep := "\n"
	if strings.Contains(text, "\x00") {
		sep = "\x00"
	}
	for i, l := range strings.Split(text, sep) {
		if i >= maxListLines {
			return append(ops, Operand{Word: ListInput, Role: RoleRead, Arg: -1, Dynamic: true})
		}
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if base != "" && !strings.HasPrefix(l, "/") {
			l = path.Join(base, l)
		}
		ops = append(ops, Operand{Word: l, Role: RoleRead, Arg: -1, Recursive: true})
	}
	return ops
}

// listArg is where a list comes from: a file (index is its word's index
// in Args, -1 when it is standard input).
type listArg struct {
	file  string
	index int
}

// listSource finds a run's file list; base is the directory the list's
// relative names are read from when it is not the run's own (rsync's
// source).
func listSource(inv *shell.Invocation) (src listArg, base string, ok bool) {
	args := inv.Args
	stdin := listArg{file: "-", index: -1}
	switch inv.Name() {
	case "tar", "gtar", "bsdtar":
		create := false
		for i := 1; i < len(args); i++ {
			a := args[i]
			if i == 1 && !strings.HasPrefix(a, "-") && strings.ContainsAny(a, "cru") {
				create = true
			}
			if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "cru") && !strings.ContainsAny(a[1:strings.IndexAny(a, "cru")], "fTCXbgKLNV") {
				create = true
			}
			switch {
			case a == "--create" || a == "--append" || a == "--update":
				create = true
			case (a == "-T" || a == "--files-from") && i+1 < len(args):
				src, ok = listArg{args[i+1], i + 1}, true
			case strings.HasPrefix(a, "--files-from="):
				src, ok = listArg{strings.TrimPrefix(a, "--files-from="), i}, true
			case strings.HasPrefix(a, "-T") && len(a) > 2:
				src, ok = listArg{a[2:], i}, true
			case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.HasSuffix(a, "T") && i+1 < len(args):
				src, ok = listArg{args[i+1], i + 1}, true // -cvT LIST
			}
		}
		return src, "", ok && create
	case "cpio":
		for _, a := range args[1:] {
			if a == "--create" || a == "--pass-through" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "op") {
				return stdin, "", true
			}
		}
	case "pax":
		for _, a := range args[1:] {
			if strings.HasPrefix(a, "-") && strings.Contains(a, "w") {
				ops := 0
				for _, b := range args[1:] {
					if !strings.HasPrefix(b, "-") {
						ops++
					}
				}
				return stdin, "", ops == 0
			}
		}
	case "zip":
		for _, a := range args[1:] {
			if a == "-@" || a == "--names-stdin" {
				return stdin, "", true
			}
		}
	case "7z", "7za", "7zr":
		for i, a := range args[1:] {
			if strings.HasPrefix(a, "@") && len(a) > 1 {
				return listArg{a[1:], i + 1}, "", true
			}
		}
	case "rsync":
		var ops []string
		for i := 1; i < len(args); i++ {
			a := args[i]
			switch {
			case a == "--files-from" && i+1 < len(args):
				src, ok = listArg{args[i+1], i + 1}, true
				i++
			case strings.HasPrefix(a, "--files-from="):
				src, ok = listArg{strings.TrimPrefix(a, "--files-from="), i}, true
			case !strings.HasPrefix(a, "-"):
				ops = append(ops, a)
			}
		}
		if ok && len(ops) >= 2 {
			base = ops[0]
		}
		return src, base, ok
	}
	return src, "", false
}
