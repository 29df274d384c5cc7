package classify

import (
	"regexp"
	"strings"
	"sync"

	"github.com/airlock-dev/airlock/internal/shell"
)

// A program told to run code from a file reads it from its standard input
// when the file is "-", /dev/stdin or descriptor 0 (cat p.awk | awk -f -,
// sqlite3 -init /dev/stdin): that input is the code, read like the file
// would be when its text is known (a here-document, echo, < FILE) and
// opaque otherwise (FINDINGS-9 P16). Another descriptor (/dev/fd/3) is a
// file only known at run time.

// inputName reports a file name that stands for standard input (stdin)
// or another open descriptor (fd).
func inputName(name string) (stdin, fd bool) {
	switch name {
	case "-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0":
		return true, false
	}
	return false, strings.HasPrefix(name, "/dev/fd/") || strings.HasPrefix(name, "/proc/")
}

// inputCode is the code a run reads from its input, for a program (who)
// told to run "-": the literal text fed to it, or the file redirected
// into it or piped from cat FILE (read as readScript reads a script). ok is false with failed
// set when the code cannot be read, and with failed empty when nothing
// feeds the run (its input is the agent's, which types nothing).
func (c *Classifier) inputCode(inv *shell.Invocation, who string) (code string, failed Effect, ok bool) {
	if inv.StdinKnown {
		return inv.StdinText, Effect{}, true
	}
	if inv.Stdin == "" {
		// Redirections, its own or set up around it (stdinfeed.go).
		if f := c.stdinRedirect(inv); f.set {
			if f.unknown != "" {
				return "", opaque("input.code", who+" runs code read from "+f.unknown+", which airlock cannot read"), false
			}
			data, failed, ok := c.readScript(inv, f.file, f.dynamic)
			if ok {
				c.keepCode(who+" < "+f.file, f.file, data)
				return string(data), Effect{}, true
			}
			if failed.Reasons == nil {
				failed = opaque("input.code", who+" runs code read from "+clip(f.file)+", which airlock cannot read here")
			}
			return "", failed, false
		}
		if o := c.cc.stdinOuter(); o != nil {
			// The runner's input is the inner run's (cat x.py | uv run
			// python).
			return c.inputCode(o, who)
		}
	}
	if inv.Stdin == "pipe" && inv.StdinFile != "" {
		// cat FILE | awk -f -: FILE's text.
		data, failed, ok := c.readScript(inv, inv.StdinFile, false)
		if ok {
			c.keepCode(who+" < "+inv.StdinFile, inv.StdinFile, data)
			return string(data), Effect{}, true
		}
		if failed.Reasons != nil {
			return "", failed, false
		}
	}
	if inv.Stdin != "" {
		return "", opaque("input.code", who+" runs code read from its input, whose text is only known at run time"), false
	}
	return "", Effect{}, false
}

// sqliteFile reads the file of sqlite3's or duckdb's -init or -f, "-"
// and /dev/stdin being its input; false when it cannot be read and
// nothing more is known.
func (c *Classifier) sqliteFile(inv *shell.Invocation, a *sqlAnalysis, name string, dynamic bool) bool {
	stdin, fd := inputName(name)
	switch {
	case name == "/dev/null" && !dynamic:
		return true // sqlite3 -init /dev/null: no start-up file
	case dynamic:
		a.nested.Add(opaque("sql.file", inv.Name()+" runs commands from a file named at run time ("+clip(name)+")"))
		return true
	case fd:
		a.nested.Add(opaque("sql.file", inv.Name()+" runs commands from "+clip(name)+", an open file only known at run time"))
		return true
	case stdin:
		code, failed, ok := c.inputCode(inv, inv.Name()+" "+name)
		if ok {
			sqlText(c, a, code, sqlLite)
		}
		a.nested.Add(failed)
		return ok || failed.Reasons != nil
	}
	return c.sqlInputFile(inv, a, name, sqlLite)
}

// sqlPipeCommand reads a client command whose file is a program's pipe:
// sqlite3's .read '|CMD' runs CMD and reads its output as commands
// (which is only known at run time); .output, .once and .import '|CMD'
// and psql's \o, \g, \gx '|CMD' and mysql's pager run CMD. It reports
// whether the line was one.
func sqlPipeCommand(c *Classifier, a *sqlAnalysis, cmd, arg string) bool {
	lc := strings.ToLower(cmd)
	if lc == "pager" || lc == "\\p" && arg != "" {
		// mysql's pager runs its output through the program.
		a.nested.Add(c.sqlShell(cmd, arg))
		return true
	}
	switch lc {
	case ".read", ".output", ".once", ".import", "\\o", "\\out", "\\g", "\\gx", "\\w", "\\write":
	default:
		return false
	}
	t := strings.TrimSpace(arg)
	if lc == ".once" || lc == ".output" {
		// .once -x / -e / --bom before the file.
		for strings.HasPrefix(t, "-") {
			_, rest, _ := strings.Cut(t, " ")
			t = strings.TrimSpace(rest)
		}
	}
	t = sqlFirstArg(t)
	if !strings.HasPrefix(t, "|") {
		return false
	}
	prog := strings.TrimSpace(t[1:])
	a.nested.Add(c.sqlShell(cmd+" |", prog))
	if lc == ".read" {
		a.nested.Add(opaque("sql.read-pipe", cmd+" reads the output of "+clip(prog)+" as its commands, which is only known at run time"))
	}
	return true
}

// sqlFirstArg is the first argument of a client command line when it is
// quoted (up to its closing quote), else the whole rest of the line:
// psql's \o |CMD runs all of it, and more words is only more to read.
func sqlFirstArg(s string) string {
	if s == "" {
		return ""
	}
	if q := s[0]; q == '\'' || q == '"' {
		if i := strings.IndexByte(s[1:], q); i >= 0 {
			return s[1 : 1+i]
		}
		return s[1:]
	}
	return s
}

// awkFile reads an awk program file (-f, -E, -i, @include): "-" and
// /dev/stdin are the run's input (inputCode). An include's name may leave
// out ".awk". A name without "/" is looked up in AWKPATH when the run
// sets it, which is only known at run time. ok is false with failed empty
// for a file that is not there (gawk's own library for an include).
func (c *Classifier) awkFile(inv *shell.Invocation, name string, dynamic, include bool) (prog string, failed Effect, ok bool) {
	if stdin, fd := inputName(name); (stdin || fd) && !dynamic {
		// awk -f - reads its program from its input (FINDINGS-9 P16);
		// another descriptor is only known at run time.
		if fd {
			return "", opaque("awk.file", "awk runs the program on "+clip(name)+", an open file only known at run time"), false
		}
		return c.inputCode(inv, "awk -f "+name)
	}
	if !dynamic && !strings.Contains(name, "/") {
		for _, kv := range inv.Env {
			if strings.HasPrefix(kv, "AWKPATH=") {
				return "", opaque("awk.file", "awk looks the program "+clip(name)+" up in the AWKPATH the command sets"), false
			}
		}
	}
	if include && !strings.Contains(name, "/") && !strings.HasSuffix(name, ".awk") {
		name += ".awk"
	}
	data, failed, ok := c.readScript(inv, name, dynamic)
	switch {
	case ok:
		// The program file's text goes to self-protection, as a
		// script's does (FINDINGS-9 P11).
		c.keepCode(inv.Name()+" -f "+name, name, data)
		return string(data), Effect{}, true
	case failed.Reasons != nil:
		return "", failed, false
	case c.FS == nil:
		return "", opaque("awk.file", "awk runs the program in "+clip(name)+", which airlock does not read here"), false
	}
	return "", Effect{}, false
}

// awkOwnExtensions are the extensions gawk ships in its own library.
var awkOwnExtensions = map[string]bool{
	"filefuncs": true, "fnmatch": true, "fork": true, "inplace": true, "intdiv": true, "ordchr": true,
	"readdir": true, "readdir_test": true, "readfile": true, "revoutput": true, "revtwoway": true,
	"rwarray": true, "time": true, "testext": true,
}

// awkLoad rates gawk -l NAME and @load "NAME": a shared library whose code
// runs in awk, opaque unless it is one of gawk's own found in its own
// library (no AWKLIBPATH set by the command).
func awkLoad(inv *shell.Invocation, name string, dynamic bool) Effect {
	own := !dynamic && awkOwnExtensions[strings.TrimSuffix(name, ".so")]
	for _, kv := range inv.Env {
		if strings.HasPrefix(kv, "AWKLIBPATH=") {
			own = false
		}
	}
	if own {
		return Effect{}
	}
	return opaque("awk.load", "gawk loads the extension "+clip(name)+", native code airlock does not read")
}

// awkDirective is one @include or @load of a gawk program.
type awkDirective struct {
	name string
	load bool
}

// awkDirectives finds gawk's @include "FILE" and @load "FILE" directives
// in a program's text.
func awkDirectives(prog string) []awkDirective {
	var out []awkDirective
	for _, kw := range []string{"@include", "@load"} {
		rest := prog
		for {
			i := strings.Index(rest, kw)
			if i < 0 {
				break
			}
			rest = rest[i+len(kw):]
			t := strings.TrimLeft(rest, " \t")
			if !strings.HasPrefix(t, `"`) {
				continue // gawk takes only a string constant here
			}
			end := strings.IndexByte(t[1:], '"')
			if end < 0 {
				break
			}
			out = append(out, awkDirective{name: t[1 : 1+end], load: kw == "@load"})
		}
	}
	return out
}

// sqlStartFiles reads the start-up file a SQL client runs before its
// commands when the command chose it: sqlite3's .sqliterc (or
// sqlite3/sqliterc under XDG_CONFIG_HOME) and duckdb's .duckdbrc under a
// HOME the command sets, psql's PSQLRC or .psqlrc under such a HOME. Its
// dot and backslash commands (.shell, \!) run like the command's own; a
// name only known at run time is opaque. The human's own start-up files
// are not read: the agent may not write them (self-protection).
func (c *Classifier) sqlStartFiles(inv *shell.Invocation, a *sqlAnalysis, d sqlDialect) {
	var files []string
	set := func(name string) (string, bool) {
		v, ok := "", false
		for _, kv := range inv.Env {
			if val, has := strings.CutPrefix(kv, name+"="); has {
				v, ok = val, true
			}
		}
		return v, ok
	}
	prog := inv.Name()
	if home, ok := set("HOME"); ok {
		switch prog {
		case "sqlite3", "sqlite":
			files = append(files, home+"/.sqliterc")
		case "duckdb":
			files = append(files, home+"/.duckdbrc")
		case "psql":
			files = append(files, home+"/.psqlrc")
		}
	}
	if x, ok := set("XDG_CONFIG_HOME"); ok && (prog == "sqlite3" || prog == "sqlite") {
		files = append(files, x+"/sqlite3/sqliterc")
	}
	if rc, ok := set("PSQLRC"); ok && prog == "psql" {
		files = append(files, rc)
	}
	for _, f := range files {
		if strings.ContainsAny(f, "$`") || strings.HasPrefix(f, "~") {
			a.nested.Add(opaque("sql.startup", prog+" runs the start-up file "+clip(f)+", whose place is only known at run time"))
			continue
		}
		c.sqlInputFile(inv, a, f, d)
	}
}

// sqliteCodeCall finds the SQL of sqlite3's and duckdb's shells that loads
// code: load_extension() loads a shared library, duckdb's LOAD or INSTALL
// of a file is native code (edit() is read in textrunners.go).
// It is built on first use: an allowed hook call does not need it.
var sqliteCodeCall = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\bload_extension\s*\(|\b(load|install)\s+['"]?[^\s;'"]*(/|\.duckdb_extension)`)
})

// sqliteCode makes SQL that loads or runs a program opaque.
func sqliteCode(a *sqlAnalysis, text string) {
	if m := sqliteCodeCall().FindString(text); m != "" {
		a.nested.Add(opaque("sql.code", "the SQL calls "+clip(m)+", which loads or runs code airlock does not read"))
	}
}
