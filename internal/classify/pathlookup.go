package classify

import (
	"path"
	"slices"
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// A program found through a PATH the command sets (FINDINGS-4 K8):
// PATH=$PWD/bin:$PATH git status runs bin/git when that file exists,
// whatever git's spec says, as bin/git status does (namesakeScript). The
// value flows through the text (a prefix, export, or a plain assignment,
// which changes the exported PATH): its entries before the inherited
// $PATH are searched in order, with $PWD and $(pwd) the command's
// directory and $HOME and ~ the home. The first entry that holds the
// program is the file that runs: a text script there is followed like a
// script run by its path; a compiled program, or one in a system
// directory, is the program its name says, as before.
//
// An entry known only at run time ($GOPATH/bin, $(npm bin)) may hold a
// program of any name: the run is opaque (asked, or held when nobody
// watches). An entry that holds no such file now is passed over unless
// another run of the same command may write into it (cp x tools/, tar x
// -C tools): then which file runs is only known at run time, and the run
// is opaque. A file the same command writes from literal text is read
// from that text (readScript).

// pathBuiltins are the shell's own commands, which PATH does not reach.
func pathBuiltin(name string) bool {
	switch name {
	case "cd", "pushd", "popd", "echo", "printf", "test", "[", "export", "pwd", "true", "false", ":", "read",
		"set", "unset", "source", ".", "eval", "exec", "command", "type", "hash", "alias", "unalias", "local",
		"declare", "typeset", "readonly", "builtin", "let", "shift", "return", "exit", "trap", "wait", "ulimit",
		"umask", "getopts", "break", "continue", "jobs", "fg", "bg", "kill", "enable", "shopt", "dirs", "history":
		return true
	}
	return false
}

// outputTrusted names the programs whose output the analysis reads as
// what the program prints ($(mktemp -d) a new temporary name, $(cat f)
// f's lines, $(basename p) a name): shell walk.go's shadows lists them
// for a function or an alias of the name.
func outputTrusted(name string) bool {
	switch name {
	case "mktemp", "cat", "ls", "find", "stat", "realpath", "readlink", "basename", "dirname", "which", "pwd", "test", "[":
		return true
	}
	return false
}

// pathRun rates a run of a program named without a directory when the
// command sets PATH for it, and of the wrappers it was found through
// (timeout, sudo, bash -c, xargs: programs PATH finds as well); handled
// false leaves the run as before.
func (c *Classifier) pathRun(inv *shell.Invocation) (Effect, bool) {
	if inv.Opaque != "" || inv.Remote != "" {
		return nothing, false
	}
	if _, set := inv.Getenv("PATH"); !set {
		return nothing, false
	}
	e, handled := c.pathLookup(inv, inv.Path)
	for _, v := range inv.Via {
		if f := strings.Fields(v); len(f) > 0 {
			if w, ok := c.pathLookup(inv, f[0]); ok {
				e.Add(w)
				handled = true
			}
		}
	}
	return e, handled
}

// pathLookup finds one program through the run's PATH.
func (c *Classifier) pathLookup(inv *shell.Invocation, prog string) (Effect, bool) {
	if prog == "" || strings.ContainsAny(prog, `/\`) || pathBuiltin(normWord(prog)) {
		return nothing, false
	}
	val, _ := inv.Getenv("PATH")
	dirs, dynamic := pathDirs(val)
	if dynamic != "" {
		return opaque("path.dynamic", prog+" is looked up in a PATH whose entry "+clip(dynamic)+" is only known at run time, so which program runs cannot be known. Run it by its full path, or set PATH to directories written out."), true
	}
	for _, d := range dirs {
		file := path.Join(d, prog)
		if d == "." {
			file = "./" + prog
		}
		if strings.HasPrefix(d, "/") && systemBinDir(file) {
			if exists, _ := c.exists(file); exists {
				return nothing, false // the system's own program
			}
			continue
		}
		if c.cc.writesInto(inv, d) {
			return opaque("path.written", prog+" is looked up in "+d+", which the same command copies or extracts files into, so which program runs cannot be known beforehand. Write the files in one command and run the program in the next."), true
		}
		if !c.cc.writtenElsewhere(inv, file) {
			// A file that cannot be looked at (a missing directory, a
			// file where a directory is named, no permission) cannot
			// be run from there either.
			if exists, _ := c.exists(file); !exists {
				continue
			}
		}
		shadow := nothing
		if outputTrusted(normWord(prog)) {
			// What $(mktemp -d) prints is read as a new temporary name,
			// $(cat f) as f's lines: another file of the name makes that
			// false (FINDINGS-8 H3), script or not.
			shadow = opaque("path.shadows", prog+" runs "+file+", found through the PATH the command sets, so what $("+prog+" …) prints is not known. Run "+prog+" by its full path (/usr/bin/"+prog+"), or leave PATH as it is.")
		}
		data, failed, ok := c.readScript(inv, file, false)
		if !ok {
			failed.Add(shadow)
			return failed, failed.Reasons != nil
		}
		if binary(data) || !strings.HasPrefix(string(data), "#!") && !c.cc.writtenElsewhere(inv, file) {
			// A compiled program, or a file the kernel would not run as
			// a script: rated by its name, as a run by its path is.
			return shadow, shadow.Reasons != nil
		}
		e, _ := c.scriptFile(inv, file, false)
		e.Reasons = append([]Reason{{"path.script", prog + " runs " + file + ", found through the PATH the command sets"}}, e.Reasons...)
		e.Add(shadow)
		return e, true
	}
	return nothing, false
}

// pathDirs splits a PATH value (as the text has it) into the directories
// searched before the inherited PATH, made relative to the command's
// directory where they name it; dynamic is the first entry known only at
// run time.
func pathDirs(val string) (dirs []string, dynamic string) {
	if strings.ContainsAny(val, `'\`) {
		return nil, val
	}
	val = strings.ReplaceAll(val, `"`, "")
	for _, e := range strings.Split(val, ":") {
		if e == "$PATH" || e == "${PATH}" {
			return dirs, ""
		}
		e = pathEntry(e)
		if strings.ContainsAny(e, "$`") {
			return dirs, e
		}
		dirs = append(dirs, e)
	}
	return dirs, ""
}

// pathEntry rewrites the spellings of the command's directory and of the
// home at the start of a PATH entry; an empty entry is the directory.
func pathEntry(e string) string {
	if e == "" {
		return "."
	}
	for _, pwd := range []string{"$PWD", "${PWD}", "$(pwd)", "`pwd`", "$(pwd -P)", "$(pwd -L)"} {
		if e == pwd {
			return "."
		}
		if rest, ok := strings.CutPrefix(e, pwd+"/"); ok {
			return "./" + rest
		}
	}
	for _, home := range []string{"$HOME", "${HOME}", "~"} {
		if e == home {
			return "~"
		}
		if rest, ok := strings.CutPrefix(e, home+"/"); ok {
			return "~/" + rest
		}
	}
	return e
}

// writesInto reports whether a run of the command other than inv may
// write files into dir under names its words do not give: a word that
// names dir itself (cp x tools, tar x -C tools, mv d tools) where that
// run may write. A word naming dir/FILE is writtenElsewhere's.
func (cc *cmdContext) writesInto(inv *shell.Invocation, dir string) bool {
	if cc == nil {
		return false
	}
	dir = path.Clean(dir)
	for i := range cc.invs {
		other := &cc.invs[i]
		if other.Source == inv.Source && other.Line == inv.Line && slices.Equal(other.Args, inv.Args) {
			continue
		}
		switch other.Name() {
		case "mkdir", "chmod", "chown", "chgrp", "touch", "ls", "test", "[", "cd", "pushd":
			continue // they make or look at the directory, not files in it
		}
		if mayWrite(other)[dir] > 0 {
			return true
		}
	}
	return false
}
