package classify

import (
	"path"
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file is the one analysis of what a program run does to the paths
// it names: each operand's role to that program (read, written, created,
// deleted, moved, run as code, or unknown). Self-protection, the grading
// of destruction and snapshots are rules over these roles (policy), so no
// other package reads a program's words again. What is not known here is
// RoleUnknown, and a consumer treats it as a write by a program that may
// write anything (fail closed).

// Role is what an operand is to the program it is given to.
type Role uint8

const (
	// RoleUnknown: airlock does not know what the program does with it.
	RoleUnknown Role = iota
	RoleRead
	RoleWrite
	RoleCreate
	RoleDelete
	RoleMoveFrom
	RoleMoveTo
	// RoleExec: the file is run as code (bash x.sh, source x).
	RoleExec
)

var roleNames = [...]string{"unknown", "read", "write", "create", "delete", "moved-from", "moved-to", "exec"}

func (r Role) String() string {
	if int(r) < len(roleNames) {
		return roleNames[r]
	}
	return "unknown"
}

// Operand is one path a run names, and what the run does to it.
type Operand struct {
	// Word is the path as written (the argument, a redirection's target,
	// or the start path a derived operand stands for).
	Word string
	Role Role
	// Arg is the word's index in Args, -1 for a redirection or an operand
	// derived from others (the file cp writes inside a destination
	// directory, what find -delete removes below its start path).
	Arg int
	// Dynamic says the word is known only at run time.
	Dynamic bool
	// From is the source word a derived operand is named after, when
	// that name is a glob (cp build/* dist writes dist/* for each match
	// of build/*): the names it makes are those of the matches.
	From string
	// Recursive says the role applies to everything below the path (rm
	// -r, find's actions, tar c of a directory, chmod -R, cp -r's
	// destination).
	Recursive bool
	// Pattern is the find -name (no "/") or -path (with "/") filter that
	// limits which files below Word are touched; "" is all of them.
	Pattern string
	// Fold says Pattern matches without regard to case (-iname, -ipath).
	Fold bool
	// Unlisted says Word is a directory written in by names the data
	// gives, not the command line: an archive extracted there (tar x,
	// unzip, 7z x, cpio -i) writes whatever members it holds, so what
	// it may reach is everything below Word.
	Unlisted bool
	// Tracked says a derived operand stands for the files git's index
	// lists below Word (git ls-files fed to xargs or substituted), not
	// for everything there: self-protection reads the index.
	Tracked bool
	// Missing says a Tracked operand stands only for the files of the
	// index that are absent from the work tree (git ls-files --deleted):
	// self-protection skips the ones that are there now.
	Missing bool
}

// Operands returns the roles of the paths one run names, from the
// program knowledge classify has. A run airlock knows nothing of gets
// RoleUnknown for each non-option word.
func Operands(inv *shell.Invocation) []Operand {
	var ops []Operand
	for _, r := range inv.Redirects {
		if strings.HasPrefix(r.Target, "&") || r.Target == "-" {
			continue
		}
		role := RoleRead
		if r.Writes() || r.Op == "<>" {
			role = RoleWrite
		}
		ops = append(ops, Operand{Word: r.Target, Role: role, Arg: -1, Dynamic: r.Dynamic})
	}
	ops = append(ops, envOperands(inv)...)
	if inv.Opaque != "" || len(inv.Args) == 0 {
		return ops
	}
	b := roleBuilder{inv: inv, ops: ops}
	b.program()
	return b.ops
}

type roleBuilder struct {
	inv *shell.Invocation
	ops []Operand
}

func (b *roleBuilder) add(i int, role Role, recursive bool) {
	if i <= 0 || i >= len(b.inv.Args) {
		return
	}
	b.ops = append(b.ops, Operand{Word: b.inv.Args[i], Role: role, Arg: i, Dynamic: b.inv.IsDynamic(i), Recursive: recursive})
}

func (b *roleBuilder) derived(word string, role Role, recursive, dynamic bool) {
	b.ops = append(b.ops, Operand{Word: word, Role: role, Arg: -1, Dynamic: dynamic, Recursive: recursive})
}

// value adds an option's value (attached or the next word) with a role.
func (b *roleBuilder) value(f argv.Flag, offset int, role Role) {
	if !f.HasValue {
		return
	}
	i := f.ValueIndex + offset
	b.ops = append(b.ops, Operand{Word: f.Value, Role: role, Arg: i, Dynamic: b.inv.IsDynamic(i)})
}

// progName is a command word as a program name: its base name in lower
// case, without ".exe" (as shell names Args[0]).
func progName(w string) string {
	if i := strings.LastIndexAny(w, "/\\"); i >= 0 {
		w = w[i+1:]
	}
	return strings.TrimSuffix(strings.ToLower(w), ".exe")
}

// operands adds every operand of a getopt-style parse with one role.
func (b *roleBuilder) operands(p argv.Parsed, role Role, recursive bool) {
	for _, k := range p.OperandIndex {
		b.add(k+1, role, recursive)
	}
}

// unknown marks every word that is not an option as unknown.
func (b *roleBuilder) unknown() {
	for i := 1; i < len(b.inv.Args); i++ {
		if nameValue(b.inv, i) && !b.inv.IsDynamic(i) {
			// A name (cargo test --test '*'), never a path written: at
			// most the program reads the sources it names (tests/*.rs).
			b.add(i, RoleRead, false)
			continue
		}
		if a := b.inv.Args[i]; !strings.HasPrefix(a, "-") || a == "-" || b.inv.IsDynamic(i) {
			b.add(i, RoleUnknown, false)
		}
	}
}

func (b *roleBuilder) program() {
	inv := b.inv
	args := inv.Args
	name := inv.Name()
	if inv.Group {
		return
	}
	if b.readerRoles() || b.settingRoles() || b.prefixRoles() { // readroles.go, settingroles.go, prefixroles.go
		return
	}
	switch name {
	case "rm", "unlink", "rmdir", "shred", "srm", "trash", "trash-put", "rimraf":
		spec := argv.Spec{Long: []string{"--interactive"}}
		if name == "shred" {
			spec = argv.Spec{Short: "ns", Long: []string{"--iterations", "--size", "--random-source"}}
		}
		p := spec.Parse(args[1:])
		rec := name == "rimraf" || p.Has("-r", "-R", "--recursive")
		for _, f := range p.Flags {
			if len(f.Name) > 2 && f.Name[1] != '-' && strings.ContainsAny(f.Name[1:], "rR") {
				rec = true
			}
		}
		if name == "shred" && !p.Has("-u", "--remove") {
			b.operands(p, RoleWrite, false)
			return
		}
		b.operands(p, RoleDelete, rec)
		return
	case "cp", "install", "ditto":
		b.copyRoles(RoleRead, RoleWrite)
		return
	case "mv":
		b.copyRoles(RoleMoveFrom, RoleMoveTo)
		return
	case "rsync":
		b.rsyncRoles()
		return
	case "scp":
		p := argv.Spec{Short: "cFiJloPS", StopAtOperand: false}.Parse(args[1:])
		n := len(p.OperandIndex)
		for k, idx := range p.OperandIndex {
			w := p.Operands[k]
			if remoteOperand(w) {
				continue
			}
			role := RoleRead
			if k == n-1 && n > 1 {
				role = RoleWrite
			}
			b.add(idx+1, role, p.Has("-r"))
		}
		return
	case "tee":
		b.operands(argv.Spec{Long: []string{"--output-error"}}.Parse(args[1:]), RoleWrite, false)
		return
	case "dd":
		for i := 1; i < len(args); i++ {
			switch {
			case strings.HasPrefix(args[i], "of="):
				b.ops = append(b.ops, Operand{Word: args[i][3:], Role: RoleWrite, Arg: i, Dynamic: inv.IsDynamic(i)})
			case strings.HasPrefix(args[i], "if="):
				b.ops = append(b.ops, Operand{Word: args[i][3:], Role: RoleRead, Arg: i, Dynamic: inv.IsDynamic(i)})
			}
		}
		return
	case "truncate", "fallocate":
		p := argv.Spec{Short: "sroln", Long: []string{"--size", "--reference", "--offset", "--length"}}.Parse(args[1:])
		for _, f := range p.Flags {
			if f.Name == "-r" || f.Name == "--reference" {
				b.value(f, 1, RoleRead)
			}
		}
		b.operands(p, RoleWrite, false)
		return
	case "touch":
		p := argv.Spec{Short: "rdt", Long: []string{"--reference", "--date", "--time"}}.Parse(args[1:])
		for _, f := range p.Flags {
			if f.Name == "-r" || f.Name == "--reference" {
				b.value(f, 1, RoleRead)
			}
		}
		b.operands(p, RoleCreate, false)
		return
	case "mkdir":
		b.operands(argv.Spec{Short: "mZ", Long: []string{"--mode", "--context"}}.Parse(args[1:]), RoleCreate, false)
		return
	case "chmod", "chown", "chgrp", "chattr", "setfacl":
		b.modeRoles()
		return
	case "sed", "gsed":
		b.sedRoles()
		return
	case "perl":
		b.perlRoles()
		return
	case "tar", "gtar", "bsdtar":
		b.tarRoles()
		return
	case "zip":
		p := argv.Spec{Short: "bnxitiOZPsAD", Long: []string{"--exclude", "--include", "--password", "--out", "--suffixes", "--split-size", "--temp-path"}}.Parse(args[1:])
		for _, f := range p.Flags {
			if f.Name == "-b" || f.Name == "--temp-path" {
				b.value(f, 1, RoleWrite)
			}
		}
		rec := p.Has("-r", "--recurse-paths", "-R")
		for k, idx := range p.OperandIndex {
			if k == 0 {
				b.add(idx+1, RoleWrite, false)
			} else {
				b.add(idx+1, RoleRead, rec)
			}
		}
		for _, f := range p.Flags {
			if f.Name == "-O" || f.Name == "--out" {
				b.value(f, 1, RoleWrite)
			}
		}
		return
	case "unzip":
		p := argv.Spec{Short: "dxP", Long: nil}.Parse(args[1:])
		if len(p.OperandIndex) > 0 {
			b.add(p.OperandIndex[0]+1, RoleRead, false)
		}
		if p.Has("-l", "-t", "-v", "-Z", "-p") {
			return // lists, tests or prints: writes nothing
		}
		// Extraction writes the archive's members inside the directory:
		// which ones the archive says, not the command line.
		dir, idx := ".", -1
		var df argv.Flag
		for _, f := range p.Flags {
			if f.Name == "-d" && f.HasValue {
				df, idx = f, f.ValueIndex+1
			}
		}
		if idx > 0 {
			b.value(df, 1, RoleWrite)
			b.ops[len(b.ops)-1].Recursive = true
		} else {
			b.derived(dir, RoleWrite, false, false)
		}
		b.ops[len(b.ops)-1].Unlisted = true
		return
	case "7z", "7za", "7zr", "cpio", "bsdcpio", "ar", "jar", "pax", "unrar":
		b.extractRoles()
		return
	case "find":
		b.findRoles()
		return
	case "git":
		b.gitRoles()
		return
	case "echo", "printf", ":", "true", "false": // textOnly
		return // its words are text, not paths
	case "test", "[", "[[":
		for i := 1; i < len(args); i++ {
			if a := args[i]; !strings.HasPrefix(a, "-") && a != "]" && a != "]]" && a != "!" && a != "=" && a != "==" && a != "!=" {
				b.add(i, RoleRead, false)
			}
		}
		return
	case "bash", "sh", "dash", "zsh", "ksh", "mksh", "ash", "source", ".":
		for i := 1; i < len(args); i++ {
			a := args[i]
			if a == "-c" || a == "-s" {
				return
			}
			if strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+") {
				continue
			}
			b.add(i, RoleExec, false)
			return
		}
		return
	case "twine":
		b.twineRoles()
		return
	case "make", "gmake":
		b.makeRoles()
		return
	case "sqlite3", "sqlite", "duckdb":
		if b.sqliteRoles() {
			return
		}
	}
	if b.runnerRoles() {
		return
	}
	if ReadsOnlyRun(args) {
		rec := recursiveReader(args)
		for i := 1; i < len(args); i++ {
			if a := args[i]; !strings.HasPrefix(a, "-") || a == "-" || inv.IsDynamic(i) {
				b.add(i, RoleRead, rec)
			}
		}
		return
	}
	b.unknown()
}

// makeRoles: make's makefiles (-f) are code it runs; a NAME=VALUE word
// defines a variable, not a path make writes (make install
// PREFIX=~/.local): the recipes that use it are followed with the value
// put in (follow.go), and what they write is checked there; a target is
// a name make may make, of unknown role.
func (b *roleBuilder) makeRoles() {
	args := b.inv.Args
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case makeVariable(a):
			// PREFIX=$HOME/.local too: a value, which the recipes
			// that use it are followed with.
		case b.inv.IsDynamic(i):
			b.add(i, RoleUnknown, false)
		case a == "-f" || a == "--file" || a == "--makefile":
			b.add(i+1, RoleExec, false)
			i++
		case a == "-C" || a == "--directory" || a == "-I" || a == "--include-dir" || a == "-o" || a == "-W" || a == "--what-if" || a == "--old-file" || a == "--new-file" || a == "--assume-old" || a == "--assume-new" || a == "-j" || a == "--jobs" || a == "-l" || a == "--load-average":
			if a != "-j" && a != "--jobs" && a != "-l" && a != "--load-average" {
				b.add(i+1, RoleRead, false)
			}
			i++
		case strings.HasPrefix(a, "-"):
		default:
			b.add(i, RoleUnknown, false)
		}
	}
}

// MakeVariable reports a word of make's command line that defines a
// variable (NAME=VALUE, NAME:=, NAME+=, NAME?=, NAME!=), whether its value
// is known now or computed by the shell (PREFIX=$HOME/.local): its value
// is no path of make's own; the recipes that use it are followed with it.
func MakeVariable(a string) bool { return makeVariable(a) }

// makeVariable reports a NAME=VALUE (or NAME:=, NAME+=, NAME?=) word.
func makeVariable(a string) bool {
	name, _, ok := strings.Cut(a, "=")
	name = strings.TrimRight(name, ":+?!")
	if !ok || name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '_' || c == '.' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// remoteOperand reports whether an scp/rsync operand names another host
// (host:path, user@host:path, rsync://).
func remoteOperand(w string) bool {
	if strings.Contains(w, "://") {
		return true
	}
	i := strings.IndexByte(w, ':')
	return i > 0 && !strings.ContainsRune(w[:i], '/')
}

// copyRoles gives cp/install/mv's sources one role and the destination
// another; a file copied into a destination directory is named too
// (cp x .claude writes .claude/x).
func (b *roleBuilder) copyRoles(src, dst Role) {
	args := b.inv.Args
	dyn := func(int) bool { return false }
	sources := CopySources(args, dyn)
	p := argv.Spec{Short: "StmogZ", Long: []string{"--suffix", "--target-directory", "--mode", "--owner", "--group", "--context", "--backup", "--sparse", "--reflink", "--preserve", "--no-preserve", "--strip-program"}}.Parse(args[1:])
	if args[0] == "mv" {
		sources = nil
		target := -1
		for _, f := range p.Flags {
			if (f.Name == "-t" || f.Name == "--target-directory") && f.HasValue {
				target = f.ValueIndex + 1
			}
		}
		ops := p.OperandIndex
		if target < 0 && len(ops) >= 2 {
			target = ops[len(ops)-1] + 1
			ops = ops[:len(ops)-1]
		}
		if target < 0 {
			b.unknown()
			return
		}
		sources = map[int]bool{}
		for _, k := range ops {
			sources[k+1] = true
		}
	}
	if sources == nil {
		// Links (cp -l, -s), install -d, or a shape not read: unknown.
		if args[0] == "install" && p.Has("-d", "--directory") {
			b.operands(p, RoleCreate, false)
			return
		}
		b.unknown()
		return
	}
	rec := args[0] == "mv" || args[0] == "ditto" || p.Has("-r", "-R", "--recursive", "-a", "--archive")
	for _, f := range p.Flags {
		if len(f.Name) > 2 && f.Name[1] != '-' && strings.ContainsAny(f.Name[1:], "rRa") {
			rec = true
		}
	}
	dest := -1
	for i := 1; i < len(args); i++ {
		if sources[i] {
			b.add(i, src, src != RoleRead || rec)
		}
	}
	for _, f := range p.Flags {
		if (f.Name == "-t" || f.Name == "--target-directory") && f.HasValue {
			dest = f.ValueIndex + 1
		}
	}
	if dest < 0 {
		for k := len(p.OperandIndex) - 1; k >= 0; k-- {
			if i := p.OperandIndex[k] + 1; !sources[i] {
				dest = i
				break
			}
		}
	}
	if dest < 0 {
		return
	}
	b.add(dest, dst, rec)
	d := strings.TrimRight(args[dest], "/")
	// cp --parents keeps each source's whole relative path below the
	// destination (cp --parents .claude/settings.json ~ writes
	// ~/.claude/settings.json), not only its last name.
	parents := args[0] == "cp" && p.Has("--parents")
	for i := 1; i < len(args); i++ {
		if sources[i] {
			base := args[i]
			if parents && !strings.HasPrefix(base, "/") && !strings.Contains(base, "..") {
				base = strings.TrimPrefix(path.Clean(base), "./")
			} else if j := strings.LastIndexByte(strings.TrimRight(base, "/"), '/'); j >= 0 {
				base = strings.TrimRight(base, "/")[j+1:]
			}
			if base == "" || base == "." || base == ".." {
				continue
			}
			b.derived(d+"/"+strings.TrimRight(base, "/"), dst, rec, b.inv.IsDynamic(i) || b.inv.IsDynamic(dest))
			if strings.ContainsAny(base, "*?[") {
				b.ops[len(b.ops)-1].From = args[i]
			}
		}
	}
}

// rsyncRoles: local sources are read, a local destination written under
// (everything below it, with -r/-a).
func (b *roleBuilder) rsyncRoles() {
	args := b.inv.Args
	sources := CopySources(args, func(int) bool { return false })
	if sources == nil {
		b.unknown()
		return
	}
	rec := false
	for _, a := range args[1:] {
		if a == "--recursive" || a == "--archive" || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], "ra") {
			rec = true
		}
	}
	dest := -1
	for i := len(args) - 1; i > 0; i-- {
		if !sources[i] && !strings.HasPrefix(args[i], "-") {
			dest = i
			break
		}
	}
	for i := 1; i < len(args); i++ {
		if sources[i] && !remoteOperand(args[i]) {
			b.add(i, RoleRead, rec)
		}
	}
	if dest > 0 && !remoteOperand(args[dest]) {
		b.add(dest, RoleWrite, true)
	}
}

// modeRoles: chmod MODE FILE..., chown OWNER FILE...: the first operand
// is no path unless --reference names one.
func (b *roleBuilder) modeRoles() {
	args := b.inv.Args
	rec := false
	ref := false
	first := true
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-R" || a == "--recursive":
			rec = true
			continue
		case strings.HasPrefix(a, "--reference="):
			ref = true
			continue
		case a == "--reference":
			ref = true
			b.add(i+1, RoleRead, false)
			i++
			continue
		case args[0] == "setfacl" && (a == "-m" || a == "-x" || a == "-M" || a == "-X" || a == "--set" || a == "--set-file" || a == "--modify" || a == "--remove"):
			i++
			continue
		case strings.HasPrefix(a, "--"):
			continue
		case len(a) > 1 && a[0] == '-' && args[0] != "chmod" && args[0] != "chattr":
			if strings.Contains(a, "R") {
				rec = true
			}
			continue
		case len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "RvcfhHLP") == "":
			// chmod's own flags; "-w" is a mode.
			if strings.Contains(a, "R") {
				rec = true
			}
			continue
		}
		if first && !ref && args[0] != "setfacl" {
			first = false
			continue
		}
		b.add(i, RoleWrite, false)
	}
	for k := range b.ops {
		if b.ops[k].Role == RoleWrite && b.ops[k].Arg > 0 {
			b.ops[k].Recursive = rec
		}
	}
}

// sedRoles: sed -i edits its files; otherwise it reads them. The script
// (first operand without -e/-f) is no path.
func (b *roleBuilder) sedRoles() {
	args := b.inv.Args
	p := argv.Spec{Short: "efl", Long: []string{"--expression", "--file", "--line-length"}}.Parse(args[1:])
	inPlace := false
	for _, a := range args[1:] {
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "--in-place") {
			inPlace = true
		} else if len(a) > 1 && a[0] == '-' && a[1] != '-' {
			for _, c := range a[1:] {
				if c == 'i' {
					inPlace = true
				}
				if c == 'e' || c == 'f' || c == 'l' {
					break
				}
			}
		}
	}
	for _, f := range p.Flags {
		if f.Name == "-f" || f.Name == "--file" {
			b.value(f, 1, RoleRead)
		}
	}
	ops := p.OperandIndex
	if !p.Has("-e", "--expression", "-f", "--file") && len(ops) > 0 {
		ops = ops[1:]
	}
	role := RoleRead
	if inPlace {
		role = RoleWrite
	}
	for _, k := range ops {
		b.add(k+1, role, false)
	}
}

// perlRoles: perl -i -e CODE FILE... edits its files; any other perl
// run is code that may do anything.
func (b *roleBuilder) perlRoles() {
	args := b.inv.Args
	inPlace, code := false, false
	i := 1
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			break
		}
		if a == "-e" || a == "-E" {
			code = true
			i++
			continue
		}
		if strings.HasPrefix(a, "-i") || len(a) > 1 && a[1] != 'e' && a[1] != 'E' && strings.Contains(strings.SplitN(a, "e", 2)[0], "i") {
			inPlace = true
		}
		if strings.HasSuffix(a, "e") || strings.HasSuffix(a, "E") {
			code = true
			i++
		}
	}
	if !inPlace || !code {
		b.unknown()
		return
	}
	for ; i < len(args); i++ {
		b.add(i, RoleWrite, false)
	}
}

// tarRoles: c/r/u read the operands and write the archive; x writes the
// archive's members in the -C directory (or where it runs); t reads.
func (b *roleBuilder) tarRoles() {
	args := b.inv.Args
	if len(args) < 2 {
		return
	}
	words := args[1:]
	offset := 1
	// Old style: "czf ARCHIVE ..." is "-c -z -f ARCHIVE ...".
	if w := words[0]; w != "" && w[0] != '-' && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") == "" {
		words = append([]string{"-" + w}, words[1:]...)
	}
	p := argv.Spec{Short: "fCTXbKNVgLHI", Long: []string{"--file", "--directory", "--files-from", "--exclude-from",
		"--exclude", "--transform", "--xform", "--format", "--to-command", "--use-compress-program", "--owner", "--group",
		"--mode", "--mtime", "--newer", "--after-date", "--label", "--listed-incremental", "--blocking-factor",
		"--tape-length", "--starting-file", "--newer-mtime", "--info-script", "--new-volume-script", "--volno-file",
		"--rsh-command", "--suffix", "--backup", "--checkpoint-action", "--sort", "--strip-components"}}.Parse(words)
	mode := byte(0)
	for _, f := range p.Flags {
		n := f.Name
		switch n {
		case "--create":
			mode = 'c'
		case "--extract", "--get":
			mode = 'x'
		case "--list":
			mode = 't'
		case "--append":
			mode = 'r'
		case "--update":
			mode = 'u'
		case "--delete":
			mode = 'd'
		case "--diff", "--compare":
			mode = 't'
		}
		if len(n) == 2 && n[0] == '-' && strings.IndexByte("cxtrudA", n[1]) >= 0 {
			mode = n[1]
		}
	}
	// A bundle with a value letter (-czf) is one flag in the parse: read
	// the mode letters from the words themselves.
	for _, w := range words {
		if len(w) > 2 && w[0] == '-' && w[1] != '-' {
			for _, c := range w[1:] {
				if strings.IndexByte("cxtrudA", byte(c)) >= 0 {
					mode = byte(c)
				}
				if strings.IndexByte("fCTXbKNVgLHI", byte(c)) >= 0 {
					break
				}
			}
		}
	}
	archive, dir := -1, -1
	var archiveWord, dirWord string
	for _, f := range p.Flags {
		if !f.HasValue {
			continue
		}
		switch f.Name {
		case "--file", "-f":
			archive, archiveWord = f.ValueIndex+offset, f.Value
		case "--directory", "-C":
			dir, dirWord = f.ValueIndex+offset, f.Value
		case "--files-from", "--exclude-from", "-T", "-X":
			b.value(f, offset, RoleRead)
		}
	}
	if archiveWord == "-" {
		archive = -1
	}
	put := func(i int, w string, role Role) {
		b.ops = append(b.ops, Operand{Word: w, Role: role, Arg: i, Dynamic: b.inv.IsDynamic(i)})
	}
	switch mode {
	case 'c', 'r', 'u', 'A':
		if archive > 0 {
			put(archive, archiveWord, RoleWrite)
		}
		b.operands(p, RoleRead, true)
	case 'x':
		if archive > 0 {
			put(archive, archiveWord, RoleRead)
		}
		// The members written are the archive's to say: the directory is
		// written in, not all below it.
		if dir > 0 {
			// A directory named for it counts whole, as it always has:
			// tar -xf x.tar -C .claude may write its settings.
			b.ops = append(b.ops, Operand{Word: dirWord, Role: RoleWrite, Arg: dir, Dynamic: b.inv.IsDynamic(dir), Recursive: true})
		} else {
			b.derived(".", RoleWrite, false, false)
		}
		b.ops[len(b.ops)-1].Unlisted = true
	case 't':
		if archive > 0 {
			put(archive, archiveWord, RoleRead)
		}
	default:
		b.unknown()
	}
}

// extractRoles: the archivers that extract into a directory named by an
// option, or the one they run in: 7z x|e (-oDIR), cpio -i (-D DIR), ar x,
// jar x, pax -r, unrar x|e (a last operand ending in "/"). The archive
// is read; the directory is written in by the members' own names
// (Unlisted). Other modes (list, create) write nothing airlock reads
// here: their words stay unknown.
func (b *roleBuilder) extractRoles() {
	args := b.inv.Args
	name := args[0]
	extract := false
	dirIdx, dirWord := -1, ""
	archive := -1
	switch name {
	case "7z", "7za", "7zr", "unrar":
		if len(args) > 1 && (args[1] == "x" || args[1] == "e") {
			extract = true
		}
		for i := 2; i < len(args); i++ {
			a := args[i]
			switch {
			case name != "unrar" && strings.HasPrefix(a, "-o") && len(a) > 2:
				dirIdx, dirWord = i, a[2:]
			case strings.HasPrefix(a, "-"):
			case archive < 0:
				archive = i
			case name == "unrar" && strings.HasSuffix(a, "/"):
				dirIdx, dirWord = i, a
			}
		}
	case "cpio", "bsdcpio":
		for i := 1; i < len(args); i++ {
			a := args[i]
			switch {
			case a == "--extract" || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.Contains(a, "i") && !strings.ContainsAny(a, "oD"):
				extract = true
			case a == "-D" || a == "--directory":
				if i+1 < len(args) {
					dirIdx, dirWord = i+1, args[i+1]
					i++
				}
			case strings.HasPrefix(a, "--directory="):
				dirIdx, dirWord = i, strings.TrimPrefix(a, "--directory=")
			case len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.HasSuffix(a, "D"):
				extract = extract || strings.Contains(a, "i")
				if i+1 < len(args) {
					dirIdx, dirWord = i+1, args[i+1]
					i++
				}
			}
		}
	case "ar", "jar":
		if len(args) > 1 {
			m := strings.TrimPrefix(args[1], "-")
			extract = strings.Contains(m, "x")
			if len(args) > 2 {
				archive = 2
			}
		}
	case "pax":
		for i := 1; i < len(args); i++ {
			a := args[i]
			if a == "-f" && i+1 < len(args) {
				archive = i + 1
				i++
				continue
			}
			if len(a) > 1 && a[0] == '-' && strings.Contains(a, "r") && !strings.Contains(a, "w") {
				extract = true
			}
		}
	}
	if !extract {
		b.unknown()
		return
	}
	if archive > 0 {
		b.add(archive, RoleRead, false)
	}
	if dirIdx > 0 {
		b.ops = append(b.ops, Operand{Word: dirWord, Role: RoleWrite, Arg: dirIdx, Dynamic: b.inv.IsDynamic(dirIdx), Recursive: true, Unlisted: true})
		return
	}
	b.derived(".", RoleWrite, false, false)
	b.ops[len(b.ops)-1].Unlisted = true
}

// findRoles: the start paths are read; -delete deletes what matches
// below them, -exec PROG {} gives what matches the role PROG gives its
// operand, -fprint and -fls write their file. The -name/-path test (when
// the expression is one plain conjunction) limits what matches.
func (b *roleBuilder) findRoles() {
	args := b.inv.Args
	i := 1
	for ; i < len(args); i++ {
		a := args[i]
		if a == "-H" || a == "-L" || a == "-P" || strings.HasPrefix(a, "-O") {
			continue
		}
		if a == "-D" {
			i++
			continue
		}
		break
	}
	var starts []int
	for ; i < len(args); i++ {
		a := args[i]
		if !b.inv.IsDynamic(i) && (strings.HasPrefix(a, "-") || a == "(" || a == "!" || a == ",") {
			break
		}
		starts = append(starts, i)
	}
	for _, s := range starts {
		b.add(s, RoleRead, true)
	}
	pattern, fold, plain := findPattern(args[i:])
	if !plain {
		pattern, fold = "", false
	}
	// acts bounds each action by the tests its branch needs (findexpr.go);
	// an expression not read whole keeps the plain conjunction's pattern.
	acts, _, _, parsed := findReach(args[i:])
	emptyDirs := plain && hasAll(args[i:], "-empty") && typeDir(args[i:])
	derive := func(role Role, at int) {
		if role == RoleDelete && emptyDirs {
			return // only empty directories: nothing in them to lose
		}
		words := []string{"."}
		dyn := []bool{false}
		if len(starts) > 0 {
			words, dyn = nil, nil
			for _, s := range starts {
				words = append(words, args[s])
				dyn = append(dyn, b.inv.IsDynamic(s))
			}
		}
		for k, w := range words {
			o := Operand{Word: w, Role: role, Arg: -1, Dynamic: dyn[k], Recursive: true, Pattern: pattern, Fold: fold}
			if bound, ok := acts[at-i]; parsed && ok {
				b.ops = append(b.ops, bound.operands(o)...)
				continue
			}
			b.ops = append(b.ops, o)
		}
	}
	for j := i; j < len(args); j++ {
		switch args[j] {
		case "-delete":
			derive(RoleDelete, j)
		case "-fprint", "-fprint0", "-fls", "-fprintf":
			b.add(j+1, RoleWrite, false)
			j++
		case "-newer", "-anewer", "-cnewer", "-samefile", "-files0-from":
			b.add(j+1, RoleRead, false)
			j++
		case "-exec", "-execdir", "-ok", "-okdir":
			k := j + 1
			for k < len(args) && !(args[k] == ";" || args[k] == "+" && k > j+1 && args[k-1] == "{}") {
				k++
			}
			child := shell.Invocation{Args: append([]string(nil), args[j+1:k]...)}
			if len(b.inv.Dynamic) >= k {
				child.Dynamic = append([]bool(nil), b.inv.Dynamic[j+1:k]...)
			}
			if len(child.Args) > 0 {
				child.Args[0] = progName(child.Args[0])
				derive(PlaceholderRole(&child), j)
			}
			j = k
		}
	}
}

func hasAll(args []string, w string) bool {
	for _, a := range args {
		if a == w {
			return true
		}
	}
	return false
}

// typeDir reports whether a find expression limits itself to directories
// (-type d).
func typeDir(expr []string) bool {
	for j := 0; j+1 < len(expr); j++ {
		if expr[j] == "-type" && expr[j+1] == "d" {
			return true
		}
	}
	return false
}

// PlaceholderRole is the role a find -exec command gives "{}", the
// files find matched: the role of the operand holding it, unknown when
// it is in none or in several with different roles.
func PlaceholderRole(child *shell.Invocation) Role {
	role, seen := RoleUnknown, false
	for _, o := range Operands(child) {
		if o.Arg < 0 || !strings.Contains(o.Word, "{}") {
			continue
		}
		if seen && o.Role != role {
			return RoleUnknown
		}
		role, seen = o.Role, true
		if o.Recursive && role != RoleRead {
			// rm -rf {}: everything below a match goes too; the pattern
			// still names the matches.
		}
	}
	if !seen {
		if textOnly(child.Args[0]) {
			return RoleRead // echo {}: the matches are printed, not touched
		}
		for i, a := range child.Args {
			if i > 0 && strings.Contains(a, "{}") {
				return RoleUnknown
			}
		}
		if len(child.Args) > 0 && strings.Contains(child.Args[0], "{}") {
			return RoleExec
		}
		return RoleRead // {} not passed: the command does not touch the matches by name
	}
	return role
}

// textOnly reports the programs whose words are text, not paths.
func textOnly(name string) bool {
	switch name {
	case "echo", "printf", ":", "true", "false":
		return true
	}
	return false
}

// findPattern returns the first -name/-path test of a find expression
// that is not negated, and whether the expression is a plain conjunction
// (no -o, ",", or parentheses) so that the test limits what its actions
// touch. -prune in a conjunction only stops find descending into what
// matched (find . -name __pycache__ -type d -prune -exec rm -rf {} +,
// FINDINGS-9 B5): it is true, and widens nothing; with -o it keeps its
// alternative from being plain.
func findPattern(expr []string) (pattern string, fold, plain bool) {
	plain = true
	negated := false
	for j := 0; j < len(expr); j++ {
		not := negated
		negated = false
		switch a := expr[j]; a {
		case "-o", "-or", ",", "(", ")":
			plain = false
		case "!", "-not":
			// In a conjunction a negated test only takes matches away:
			// the positive -name or -path still bounds what is touched.
			negated = true
		case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename":
			if not {
				j++
				continue
			}
			if j+1 < len(expr) && pattern == "" {
				pattern = expr[j+1]
				fold = strings.HasPrefix(a, "-i")
				if a == "-path" || a == "-ipath" || strings.HasSuffix(a, "wholename") {
					if !strings.Contains(pattern, "/") {
						// A -path pattern without "/" matches only the
						// start path itself; keep it a path pattern.
						pattern = "./" + pattern
					}
				}
			}
			j++
		case "-exec", "-execdir", "-ok", "-okdir":
			k := j + 1
			for k < len(expr) && !(expr[k] == ";" || expr[k] == "+" && k > j+1 && expr[k-1] == "{}") {
				k++
			}
			j = k
		case "-regex", "-iregex":
			// A regular expression is not read: no pattern, all files.
			return "", false, false
		}
	}
	return pattern, fold, plain
}

// gitRoles: the path operands of the git subcommands whose effect on
// them is known.
func (b *roleBuilder) gitRoles() {
	args := b.inv.Args
	sub, rest, ok := GitSubcommand(args[1:])
	if !ok {
		return
	}
	b.gitDirRoles(sub)            // gitdirglob.go
	base := len(args) - len(rest) // index in args of rest[0]
	paths := func(role Role, recursive bool, all bool) {
		dd := false
		for k := 0; k < len(rest); k++ {
			a := rest[k]
			if a == "--" {
				dd = true
				continue
			}
			if a == "--output" && !dd && k+1 < len(rest) {
				// git diff/log/show --output FILE writes FILE.
				k++
				b.add(base+k, RoleWrite, false)
				continue
			}
			if strings.HasPrefix(a, "-") && !dd {
				continue
			}
			if dd || all {
				b.add(base+k, role, recursive)
			}
		}
	}
	switch sub {
	case "add", "diff", "log", "show", "blame", "annotate", "status", "ls-files", "grep", "commit", "check-ignore", "shortlog", "whatchanged", "difftool":
		// Without "--" a word is a revision, a pattern or a path, and an
		// option's value: each is only read by these subcommands (git
		// diff .claude/settings.json is a read, FINDINGS-10 B5). The
		// options that write a file they name (--output) are read by
		// optwrites.go, whatever role their value gets here.
		paths(RoleRead, false, true)
	case "rm":
		cached, rec := false, false
		for _, a := range rest {
			if a == "--cached" {
				cached = true
			}
			if a == "-r" || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.Contains(a, "r") {
				rec = true
			}
		}
		if cached {
			paths(RoleRead, false, true)
		} else {
			paths(RoleDelete, rec, true)
		}
	case "mv":
		var ops []int
		for k, a := range rest {
			if !strings.HasPrefix(a, "-") {
				ops = append(ops, base+k)
			}
		}
		for n, i := range ops {
			if n == len(ops)-1 && n > 0 {
				b.add(i, RoleMoveTo, true)
			} else {
				b.add(i, RoleMoveFrom, true)
			}
		}
	case "checkout", "restore":
		if sub == "restore" && gitRestoreStagedOnly(rest) {
			// git restore --staged without --worktree writes the index
			// only, never the files (FINDINGS-10 B5): every word is read.
			paths(RoleRead, false, true)
			return
		}
		// Paths after "--" are restored from the index or a commit: their
		// tracked contents are written back.
		paths(RoleWrite, false, false)
	}
}

// placeholders gives the runs of a find -exec command the paths find
// hands them: "{}" stands for what find matched below its start paths,
// so the operand holding it is replaced by those start paths, with the
// find's -name/-path pattern and the whole tree below each.
func placeholders(runs []Invocation) {
	var find *Invocation
	for i := range runs {
		r := &runs[i]
		if r.Name() == "find" && len(r.Via) == 0 || r.Name() == "find" && (len(runs[i].Via) == 0 || !strings.HasPrefix(r.Via[len(r.Via)-1], "find -")) {
			find = r
			continue
		}
		if len(r.Via) == 0 || !strings.HasPrefix(r.Via[len(r.Via)-1], "find -") || find == nil {
			continue
		}
		var starts []Operand
		for _, o := range find.Operands {
			if o.Arg > 0 && o.Role == RoleRead && o.Recursive {
				starts = append(starts, o)
			}
		}
		if len(starts) == 0 {
			starts = []Operand{{Word: "."}}
		}
		// The patterns of what find's actions touch (one operand each,
		// findexpr.go): the command gets any of them, so each one, and
		// none when one of them is unbounded.
		var bound findSet
		seen := false
		for _, o := range find.Operands {
			if o.Arg < 0 && o.Recursive {
				if o.Pattern == "" {
					bound = findAll
				} else {
					bound = bound.union(findSet{pats: []findPat{{o.Pattern, o.Fold}}})
				}
				seen = true
			}
		}
		if !seen {
			bound = findAll
		}
		var out []Operand
		for _, o := range r.Operands {
			if o.Arg < 0 || !strings.Contains(o.Word, "{}") {
				out = append(out, o)
				continue
			}
			for _, s := range starts {
				out = append(out, bound.operands(Operand{Word: s.Word, Role: o.Role, Arg: -1, Dynamic: s.Dynamic || o.Word != "{}",
					Recursive: true})...)
			}
		}
		r.Operands = out
	}
}

// RolesComplete reports whether every word of a run that can name a
// path is among its Operands (find: its expression's words are tests,
// not paths, and its -exec commands are runs of their own; zip: -x and
// -i take patterns).
func RolesComplete(name string) bool {
	switch name {
	case "find", "zip", "make", "gmake":
		return true
	}
	return false
}

// recursiveReader reports whether a reader reads what is below the
// directories it is given (grep -r, rg, du, tree, ls -R): reading a
// parent of a secret then reads the secret. Unknown readers count as
// recursive.
func recursiveReader(args []string) bool {
	switch args[0] {
	case "cat", "head", "tail", "wc", "less", "more", "file", "stat", "md5sum", "sha1sum", "sha256sum", "sha512sum",
		"cksum", "nl", "tac", "od", "xxd", "hexdump", "strings", "cut", "sort", "uniq", "diff", "cmp", "comm", "jq", "yq",
		"column", "basename", "dirname", "realpath", "readlink", "echo", "printf", "awk", "sed", "fold", "fmt", "pr", "paste", "join", "tr", "expand", "unexpand", "base64", "test", "[":
		for _, a := range args[1:] {
			if a == "-r" || a == "-R" || a == "--recursive" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "rR") && args[0] == "diff" {
				return true
			}
		}
		return false
	case "ls":
		for _, a := range args[1:] {
			if a == "--recursive" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "R") {
				return true
			}
		}
		return false
	}
	return true
}

// sqliteRoles gives sqlite3's and duckdb's database file its role: the
// statements in the other words change that file (and its rollback
// journal or write-ahead log beside it), so a DROP TABLE on a project's
// database is placed in the project and snapshotted like any write there.
// The words that are statements name no path. It gives nothing (the
// words stay unknown, as for any program) when the statements come from
// elsewhere (standard input, -init, -f, a word known only at run time)
// or may reach another file: ATTACH, VACUUM INTO, a dot command that
// opens, writes, reads or runs something (.open, .output, .backup,
// .import, .shell, …), or a file function (readfile, writefile, edit,
// load_extension).
func (b *roleBuilder) sqliteRoles() bool {
	p, help := sqliteArgs(b.inv)
	if help || len(p.Operands) < 2 {
		return false
	}
	for _, f := range p.Flags {
		switch f.Name {
		case "-init", "-f", "-cmd", "-c", "-s", "-vfs":
			return false
		}
	}
	for k := range p.Operands {
		if b.inv.IsDynamic(1 + p.OperandIndex[k]) {
			return false
		}
	}
	for _, text := range p.Operands[1:] {
		if sqliteReachesFiles(text) {
			return false
		}
	}
	db := p.Operands[0]
	if db == ":memory:" || strings.HasPrefix(db, "file:") || strings.HasPrefix(db, "-") {
		return false // a URI may name another file, or options
	}
	b.add(1+p.OperandIndex[0], RoleWrite, false)
	for _, side := range []string{"-journal", "-wal"} {
		b.derived(db+side, RoleWrite, false, false)
	}
	return true
}

// sqliteReachesFiles reports SQL text that may open, write, read or run
// something beyond its database.
func sqliteReachesFiles(text string) bool {
	low := strings.ToLower(text)
	for _, w := range []string{"attach", "vacuum", "readfile", "writefile", "edit(", "load_extension", "fts3_tokenizer", "zipfile", "sqlar"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	// A dot command starts a line; any at all is left to the slower
	// reading (most read or write files, or run programs).
	for _, line := range strings.Split(low, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), ".") {
			return true
		}
	}
	return false
}
