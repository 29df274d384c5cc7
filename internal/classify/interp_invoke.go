package classify

import (
	"github.com/airlock-dev/airlock/internal/firstuse"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify/interp"
	"github.com/airlock-dev/airlock/internal/shell"
)

// ---------------------------------------------------------------- invocations

// interpOpts describes an interpreter's command line.
type interpOpts struct {
	lang      string
	code      string   // short options whose value is code (python c, ruby e)
	value     string   // short options that take a value, attached or separate
	attached  string   // short options whose optional value can only be attached
	digits    string   // short options followed by optional digits (perl -l, -0)
	libs      string   // of the above, those naming a library to load first
	module    byte     // python's -m
	pathOpt   byte     // ruby's -S: run a program found on PATH
	fileOpt   byte     // php's -f FILE
	help      string   // short options that only print help or the version
	longCode  []string // long options whose value is code
	longValue []string // long options that take a separate value
	stopAfter bool     // option parsing ends after the code (python -c)
}

// interpRun is what an interpreter's arguments say it will run.
type interpRun struct {
	code      []string
	codeIdx   []int // index in inv.Args of each code word
	libs      []string
	module    string
	modArgs   []string
	script    string
	scriptIdx int
	pathProg  bool
	stdin     bool // "-": the program comes from standard input
	help      bool
}

// parse reads an interpreter's options the getopt way, stopping at the
// script operand.
func (o interpOpts) parse(args []string) interpRun {
	var r interpRun
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if i+1 < len(args) && len(r.code) == 0 {
				r.script, r.scriptIdx = args[i+1], i+1
			}
			return r
		case a == "-":
			r.stdin = true
			return r
		case strings.HasPrefix(a, "--"):
			name, val, has := strings.Cut(a, "=")
			switch {
			case name == "--help" || name == "--version":
				r.help = true
				return r
			case hasAny(o.longCode, name):
				idx := i
				if !has && i+1 < len(args) {
					i++
					val, idx = args[i], i
				}
				r.code, r.codeIdx = append(r.code, val), append(r.codeIdx, idx)
				if o.stopAfter {
					return r
				}
			case hasAny(o.longValue, name) && !has:
				i++
			}
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				ch, rest := a[j], a[j+1:]
				take := func() (string, int) {
					if rest != "" {
						return rest, i
					}
					if i+1 < len(args) {
						i++
						return args[i], i
					}
					return "", i
				}
				switch {
				case strings.IndexByte(o.help, ch) >= 0:
					r.help = true
					return r
				case strings.IndexByte(o.code, ch) >= 0:
					v, idx := take()
					r.code, r.codeIdx = append(r.code, v), append(r.codeIdx, idx)
					if o.stopAfter {
						return r
					}
					j = len(a)
				case o.module != 0 && ch == o.module:
					r.module, _ = take()
					r.modArgs = args[i+1:]
					return r
				case o.fileOpt != 0 && ch == o.fileOpt:
					v, idx := take()
					r.script, r.scriptIdx = v, idx
					return r
				case o.pathOpt != 0 && ch == o.pathOpt:
					r.pathProg = true
				case strings.IndexByte(o.value, ch) >= 0:
					v, _ := take()
					if strings.IndexByte(o.libs, ch) >= 0 {
						r.libs = append(r.libs, v)
					}
					j = len(a)
				case strings.IndexByte(o.attached, ch) >= 0:
					if strings.IndexByte(o.libs, ch) >= 0 && rest != "" {
						r.libs = append(r.libs, rest)
					}
					j = len(a)
				case strings.IndexByte(o.digits, ch) >= 0:
					for j+1 < len(a) && a[j+1] >= '0' && a[j+1] <= '9' {
						j++
					}
				}
			}
		default:
			if len(r.code) == 0 {
				r.script, r.scriptIdx = a, i
			}
			return r
		}
	}
	return r
}

// interpPrelude turns libraries loaded by options into code, so that the
// reader sees them (ruby -rsocket, perl -MIO::Socket).
func interpPrelude(lang string, libs []string) string {
	var b strings.Builder
	for _, l := range libs {
		switch lang {
		case interp.Ruby:
			b.WriteString("require '" + l + "'\n")
		case interp.Perl:
			b.WriteString("use " + strings.TrimPrefix(l, "-") + ";\n")
		case interp.Lua:
			b.WriteString("require('" + l + "')\n")
		}
	}
	return b.String()
}

// interpClassify rates an interpreter run: code on the command line or on
// standard input is read; so is a script file, when the classifier
// can read files.
func interpClassify(c *Classifier, inv *shell.Invocation, o interpOpts) Effect {
	e := interpMain(c, inv, o)
	e.Add(interpPreloads(c, inv, o))
	return e
}

// interpPreloads rates the local files node loads before the program
// (-r, --require, --import, --loader, and the same in NODE_OPTIONS): they
// run first, whatever the program is.
func interpPreloads(c *Classifier, inv *shell.Invocation, o interpOpts) Effect {
	if o.lang != interp.JavaScript {
		return nothing
	}
	args := inv.Args[1:]
	if v, ok := inv.Getenv("NODE_OPTIONS"); ok {
		args = append(strings.Fields(v), args...)
	}
	var e Effect
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || !strings.HasPrefix(a, "-") && i > 0 && !strings.HasPrefix(args[i-1], "-") {
			break // the program and its own arguments
		}
		name, val, has := strings.Cut(a, "=")
		switch name {
		case "-r", "--require", "--import", "--loader", "--experimental-loader":
		default:
			continue
		}
		if !has {
			if i+1 >= len(args) {
				break
			}
			i++
			val = args[i]
		}
		if strings.HasPrefix(val, "./") || strings.HasPrefix(val, "../") || strings.HasPrefix(val, "/") {
			e.Add(c.interpScript(inv, inv.Name(), o.lang, val, strings.ContainsAny(val, "$`")))
		}
	}
	return e
}

// interpMain rates the program an interpreter run executes.
func interpMain(c *Classifier, inv *shell.Invocation, o interpOpts) Effect {
	who := inv.Name()
	r := o.parse(inv.Args)
	switch {
	case r.help:
		return nothing
	case len(r.code) > 0:
		e := interpCodeWords(c, inv, who, o.lang, r)
		// The local modules the code loads run too (codeloads.go).
		e.Add(c.codeImports(inv, who, o.lang, strings.Join(r.code, "\n")))
		return e
	case r.module != "":
		e := interpPythonModule(c, who, r.module, r.modArgs)
		// A module in the project runs from its file.
		mod := strings.ReplaceAll(r.module, ".", "/")
		e.Add(c.interpScript(inv, who, o.lang, mod+".py", false))
		e.Add(c.interpScript(inv, who, o.lang, mod+"/__main__.py", false))
		return e
	case r.pathProg && r.script != "":
		return c.nested(shell.Join(inv.Args[r.scriptIdx:]))
	case r.script != "":
		if inv.IsDynamic(r.scriptIdx) && strings.HasPrefix(r.script, "<(") {
			return opaque("interp.script.dynamic", who+" runs a script produced at run time by "+clip(r.script))
		}
		// A script file is followed when the classifier can read files.
		return c.interpScript(inv, who, o.lang, r.script, inv.IsDynamic(r.scriptIdx))
	}
	return interpStdin(c, inv, who, o.lang)
}

// interpStdin rates an interpreter that reads its program from standard
// input: a REPL when nothing feeds it; the literal text of a heredoc or
// echo, or the file a redirection, a group's, an exec's or cat's pipe
// feeds it (python3 < x.py is python3 x.py), read as its script would be
// (inputCode); opaque when what feeds it cannot be read.
func interpStdin(c *Classifier, inv *shell.Invocation, who, lang string) Effect {
	if f := c.stdinRedirect(inv); inv.Stdin == "" && f.set && f.unknown == "" {
		// A file, read as its script operand would be: a file that is
		// not there runs nothing (the shell does not start the run).
		return c.interpScript(inv, who+" <", lang, f.file, f.dynamic)
	}
	code, failed, ok := c.inputCode(inv, who)
	if !ok {
		if failed.Reasons != nil && inv.Stdin != "" && !inv.StdinKnown && inv.StdinFile == "" {
			return opaque("interp.stdin", who+" runs code read from its input, whose text is only known at run time")
		}
		return failed
	}
	if inv.StdinKnown {
		return interpAnalyse(c, who, lang, code)
	}
	inner, deeper := c.deeper()
	if !deeper {
		return fileLimit(who + " < input")
	}
	return interpAnalyse(inner, who, lang, code).through("script.interp", who+" runs the program fed on its standard input")
}

// interpCodeWords rates the code words of a run. A word holding shell
// expansions is read from its source; if an expansion falls outside the
// code's own string literals it could splice in any code, so the run is
// opaque as well.
func interpCodeWords(c *Classifier, inv *shell.Invocation, who, lang string, r interpRun) Effect {
	var parts []string
	dynamic := false
	for k, w := range r.code {
		if inv.IsDynamic(r.codeIdx[k]) {
			dynamic = true
			u, ok := interpUnquoteDynamic(w)
			if !ok {
				return opaque("interp.code.dynamic", who+" runs code computed at run time ("+clip(w)+")")
			}
			w = u
		}
		parts = append(parts, w)
	}
	src := interpPrelude(lang, r.libs) + strings.Join(parts, "\n")
	e := interpAnalyse(c, who, lang, src)
	if dynamic && !interp.ExpansionsInLiterals(lang, src) {
		e.Add(opaque("interp.code.dynamic", who+" code has text spliced in by the shell at run time, outside its string literals"))
	}
	return e
}

// interpUnquoteDynamic recovers the code of a dynamic word written as one
// double-quoted shell string; other shapes cannot be recovered.
func interpUnquoteDynamic(w string) (string, bool) {
	if len(w) < 2 || w[0] != '"' || w[len(w)-1] != '"' {
		return "", false
	}
	body := w[1 : len(w)-1]
	var b strings.Builder
	for k := 0; k < len(body); k++ {
		switch {
		case body[k] == '\\' && k+1 < len(body) && strings.IndexByte("\\\"$`\n", body[k+1]) >= 0:
			k++
			if body[k] != '\n' {
				b.WriteByte(body[k])
			}
		case body[k] == '"':
			return "", false
		default:
			b.WriteByte(body[k])
		}
	}
	return b.String(), true
}

// interpPythonModules maps a module run with python -m to the program of the
// same tool, whose spec then rates it (python -m pip is pip).
var interpPythonModules = firstuse.Table[map[string]string]{Build: func() map[string]string {
	return map[string]string{
		"pip": "pip", "pip3": "pip", "twine": "twine", "poetry": "poetry", "uv": "uv", "pipx": "pipx", "pdm": "pdm",
		"hatch": "hatch", "flit": "flit", "awscli": "aws", "conda": "conda", "ansible": "ansible", "pytest": "pytest",
		"black": "black", "ruff": "ruff", "mypy": "mypy", "django": "django-admin", "httpie": "http", "mkdocs": "mkdocs",
		"maturin": "maturin", "nox": "nox", "tox": "tox", "sphinx": "sphinx-build", "huggingface_hub": "huggingface-cli",
	}
}}

// interpPythonModule rates python -m MODULE: a tool with its own spec is
// rated by it; pip and twine keep a small fallback so that they are held
// even where their spec is absent; other modules are local work.
func interpPythonModule(c *Classifier, who, module string, args []string) Effect {
	if prog, ok := interpPythonModules.Get()[module]; ok && specFor(prog) != nil {
		return c.nested(shell.Join(append([]string{prog}, args...)))
	}
	ops := operandsOf(args)
	sub := ""
	if len(ops) > 0 {
		sub = ops[0]
	}
	if hasAny(args, "--help", "-h", "--version", "-V") {
		return nothing
	}
	switch module {
	case "pip", "pip3":
		switch {
		case sub == "install" && hasAny(args, "--dry-run"), sub == "download", sub == "wheel", sub == "index", sub == "search":
			return netRead("pip.read", who+" -m pip "+sub+" reads from a package index")
		case sub == "install":
			return shared("pip.install", who+" -m pip install installs packages from a package index").reads()
		case sub == "uninstall":
			return shared("pip.uninstall", who+" -m pip uninstall removes installed packages")
		}
	case "twine":
		if sub == "upload" {
			return external("twine.upload", who+" -m twine upload publishes a package to a registry")
		}
	case "ensurepip":
		return shared("pip.install", who+" -m ensurepip installs pip")
	case "webbrowser":
		return netRead("interp.webbrowser", who+" -m webbrowser opens a URL")
	case "smtpd", "aiosmtpd":
		return netRead("interp.smtpd", who+" -m "+module+" receives mail from the network")
	}
	return nothing
}
