package classify

import (
	"github.com/airlock-dev/airlock/internal/firstuse"
	"strings"
)

// This file answers questions about programs for other layers (airlock's
// self-protection): which only read the files they are given, which run
// code they are handed, which move or replace whole trees. The lists are
// allow-lists for the reading side: a program missing from ReadsOnly is
// assumed to write whatever it names.

// readOnlyPrograms only read the files named on their command line (or
// take no file operands at all). Programs that write through an option
// (uniq IN OUT, xxd IN OUT) are deliberately absent; the few listed ones
// that have a write option (yq -i, less -o, file -C) are in writeOptions,
// which ReadsOnlyRun consults.
func readOnlyPrograms(name string) bool {
	switch name {
	// source and . read a file and run it in the shell; what it runs is
	// the shell's, and a start-up file is not changed by being read.
	case "cat", "tac", "head", "tail", "less", "more", "most", "wc", "grep", "egrep", "fgrep", "rg", "ag",
		"ack", "diff", "cmp", "comm", "file", "nl", "od", "hexdump", "strings", "sha256sum", "sha1sum",
		"sha512sum", "sha224sum", "sha384sum", "md5sum", "b2sum", "cksum", "sum", "shasum", "bat", "batcat",
		"jq", "yq", "cut", "tr", "paste", "fold", "fmt", "expand", "unexpand", "rev", "column", "look",
		"join", "base32", "echo", "printf", "true", "false", "pwd", "basename", "dirname", "source", ".":
		return true
	}
	return false
}

// metadataPrograms look at names, sizes and modes, never at content: what
// they are given is neither written nor read.
func metadataPrograms(name string) bool {
	switch name {
	// find only looks at names unless it runs, deletes or writes;
	// ReadsOnlyRun tells those runs apart. lsof lists open files by PID,
	// user, port or name; it opens none of them (lsof -p $$ names a
	// process, not a path).
	case "ls", "stat", "test", "[", "[[", "du", "df", "realpath", "readlink", "echo", "printf", "pwd",
		"basename", "dirname", "type", "which", "whereis", "true", "false", "cd", "pushd", "popd", "find", "lsof":
		return true
	}
	return false
}

// codeRunners run code given as an argument, a heredoc or a script: what
// that code opens cannot be told from the command line's shape.
func codeRunners(name string) bool {
	switch name {
	case "awk", "gawk", "mawk", "nawk", "busybox", "sed", "gsed", "ed", "ex", "vi", "vim", "nvim", "emacs",
		"emacsclient", "tclsh", "wish", "expect", "julia", "bun", "bunx", "pwsh", "powershell", "groovy",
		"scala", "kotlin", "swift", "elixir", "erl", "escript", "guile", "racket", "sbcl", "clojure", "make",
		"gdb", "jshell", "ts-node", "tsx", "npx", "xonsh", "nu", "sh", "bash", "zsh", "dash", "ksh", "mksh",
		"ash", "yash", "rbash", "fish", "sqlite3", "duckdb":
		return true
	}
	return false
}

// treeMovers move, delete, copy, unpack or relink whole directories, so an
// operand that is a parent of something (a project's .claude/) takes it
// along.
func treeMovers(name string) bool {
	switch name {
	case "mv", "rm", "rmdir", "cp", "rsync", "tar", "gtar", "bsdtar", "unzip", "7z", "7za", "ditto", "ln",
		"link", "chmod", "chown", "chgrp", "chattr", "setfacl", "install", "shred", "srm", "cpio", "pax",
		"rename", "mount", "bindfs", "trash", "trash-put", "gio", "find":
		return true
	}
	return false
}

// ReadsOnly reports whether a program only reads (or only prints) what
// its command line names. Unknown programs do not.
func ReadsOnly(name string) bool { return readOnlyPrograms(name) || metadataPrograms(name) }

// MetadataOnly reports whether a program looks only at file names and
// attributes, never at content.
func MetadataOnly(name string) bool { return metadataPrograms(name) }

// RunsCode reports whether a program runs code it is handed (an
// interpreter, an editor with a script, a shell with a script file).
func RunsCode(name string) bool {
	if codeRunners(name) {
		return true
	}
	s := specFor(name)
	return s != nil && isInterpSpec(s)
}

// MovesTrees reports whether a program can move, delete, copy over or
// unpack into a directory it is given, taking what is inside along.
func MovesTrees(name string) bool { return treeMovers(name) }

func isInterpSpec(s *Spec) bool {
	switch s {
	case interpPythonSpec, interpNodeSpec, interpDenoSpec, interpRubySpec, interpPerlSpec, interpPHPSpec,
		interpLuaSpec, interpRSpec, interpOsascriptSpec:
		return true
	}
	return false
}

// ReadsOnlyRun is ReadsOnly for one run, with its arguments: find only
// reads unless it deletes, writes a list or runs a command, and the
// readers in writeOptions only read unless given an option that writes
// (sort -o, yq -i, less -o, file -C).
func ReadsOnlyRun(args []string) bool {
	if len(args) == 0 {
		return true
	}
	name := args[0]
	if name == "find" {
		for _, a := range args[1:] {
			switch a {
			case "-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls":
				return false
			}
		}
		return true
	}
	if w, ok := writeOptions.Get()[name]; ok {
		return !w.writes(args[1:])
	}
	return ReadsOnly(name)
}

// writeOpts names the options with which a program that otherwise only
// reads writes a file (or runs a program).
type writeOpts struct {
	// short holds the short options that write; value the short options
	// that take a value (the rest of the word, or the next word).
	short, value string
	// long lists the long options that write. getopt_long (and argparse,
	// and less) take any prefix of a long option, so every prefix of
	// these counts: an ambiguous one is refused by the program or means
	// the write, and either way airlock fails closed.
	long []string
}

// writeOptions lists the readers in readOnlyPrograms (or answered for in
// ReadsOnlyRun) that have an option that writes a file, from their
// manuals. TestWriteOptionsPrefixes checks every prefix of each.
var writeOptions = firstuse.Table[map[string]writeOpts]{Build: func() map[string]writeOpts {
	return map[string]writeOpts{
		"sort": {short: "o", value: "kStT", long: []string{"--output", "--compress-program"}},
		// tree -R writes 00Tree.html into every directory (with -H).
		"tree": {short: "oR", value: "LPIH", long: []string{"--output"}},
		// Go yq: -i/--inplace, -s/--split-exp writes a file per result;
		// the Python yq: -i/--in-place.
		"yq": {short: "is", value: "oIp", long: []string{"--inplace", "--in-place", "--split-exp", "--split-exp-file"}},
		// less -o/-O copies its input to a log file.
		"less": {short: "oO", value: "bhjkpPtTxyzD#", long: []string{"--log-file", "--LOG-FILE"}},
		// file -C compiles the magic files into NAME.mgc.
		"file": {short: "C", value: "emfFP", long: []string{"--compile"}},
	}
}}

// writes reports whether args (without the program name) hold one of the
// write options, spelt whole, abbreviated, or inside a cluster of short
// flags (-uo FILE).
func (w writeOpts) writes(args []string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return false
		}
		if strings.HasPrefix(a, "--") {
			name, _, _ := strings.Cut(a, "=")
			if len(name) > 2 {
				for _, l := range w.long {
					if strings.HasPrefix(l, name) {
						return true
					}
				}
			}
			continue
		}
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			if strings.IndexByte(w.short, c) >= 0 {
				return true
			}
			if strings.IndexByte(w.value, c) >= 0 {
				if j == len(a)-1 {
					i++ // the value is the next word
				}
				break
			}
		}
	}
	return false
}

// copyValueFlags are the options of copying programs that take a value as
// the next word.
var copyValueFlags = firstuse.Table[map[string]map[string]bool]{Build: func() map[string]map[string]bool {
	return map[string]map[string]bool{
		"cp":      {"-S": true, "--suffix": true, "-t": true, "--target-directory": true},
		"install": {"-S": true, "--suffix": true, "-t": true, "--target-directory": true, "-m": true, "--mode": true, "-o": true, "--owner": true, "-g": true, "--group": true},
		"rsync":   {"-e": true, "--rsh": true, "--exclude": true, "--include": true, "--exclude-from": true, "--include-from": true, "--files-from": true, "--filter": true, "-f": true, "--chmod": true, "--rsync-path": true, "-T": true, "--temp-dir": true, "--backup-dir": true, "--partial-dir": true, "--compare-dest": true, "--copy-dest": true, "--link-dest": true, "--log-file": true, "-B": true, "--block-size": true, "--timeout": true, "--port": true, "--password-file": true},
	}
}}

// CopySources returns the indexes of the arguments a copying program (cp,
// install, rsync) only reads: its operands but the destination (the last
// one, or none when -t names the destination). It returns nil for other
// programs, and when it cannot tell, so that every operand counts as
// written.
func CopySources(args []string, dynamic func(int) bool) map[int]bool {
	if len(args) == 0 {
		return nil
	}
	values := copyValueFlags.Get()[args[0]]
	if values == nil {
		return nil
	}
	var ops []int
	target := false
	for i := 1; i < len(args); i++ {
		a := args[i]
		if dynamic(i) {
			return nil
		}
		if a == "--" {
			for j := i + 1; j < len(args); j++ {
				ops = append(ops, j)
			}
			break
		}
		if len(a) > 1 && a[0] == '-' {
			// A link made by cp (-l, -s) is another name for the source:
			// it counts as written.
			if args[0] == "cp" && (a == "--link" || a == "--symbolic-link" || a[1] != '-' && strings.ContainsAny(a[1:], "ls")) {
				return nil
			}
			if a == "-t" || a == "--target-directory" || len(a) > 20 && a[:20] == "--target-directory=" {
				target = true
			}
			if values[a] {
				i++
			}
			continue
		}
		ops = append(ops, i)
	}
	if !target {
		if len(ops) < 2 {
			return nil
		}
		ops = ops[:len(ops)-1]
	}
	out := make(map[int]bool, len(ops))
	for _, i := range ops {
		out[i] = true
	}
	return out
}
