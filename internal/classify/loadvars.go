package classify

import (
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/airlock-dev/airlock/internal/classify/interp"
	"github.com/airlock-dev/airlock/internal/firstuse"
	"github.com/airlock-dev/airlock/internal/shell"
)

// Variables that name code a program loads, beyond those read where the
// program's other settings are (envcode.go: GOFLAGS, TAR_OPTIONS,
// NODE_OPTIONS, PERL5OPT, RUBYOPT, PYTHONSTARTUP; codeloads.go: LUA_INIT,
// PERL5DB, npm's script shell; follow.go: BASH_ENV, ENV). Each is read as
// the same program given that code on its command line would be: a file
// of a language airlock reads is followed like a script
// (R_PROFILE_USER=x.R Rscript … is Rscript x.R first), a local module is
// its file (PYTHONBREAKPOINT=x.run imports x.py), a start-up directory is
// its start-up files (ZDOTDIR=. zsh reads ./.zshenv), flags are the
// program's flags (ERL_AFLAGS='-eval …' is erl -eval …), and code in a
// language airlock does not read is opaque. A compiled library or agent
// (LD_PRELOAD, LD_AUDIT, -javaagent:x.jar, DOTNET_STARTUP_HOOKS) is rated
// like the project's compiled program it is: local, and fenced only when
// contained (docs/THREAT-MODEL.md).

// loaderKind says how a variable's value names code.
type loaderKind int

const (
	loadFile     loaderKind = iota // a file of code in lang, run first
	loadPyModule                   // module.callable: the module's file (PYTHONBREAKPOINT)
	loadShellDir                   // a directory of a shell's start-up files (ZDOTDIR)
	loadErlFlags                   // the Erlang VM's flags (-eval, -s, -run run code)
	loadJVMFlags                   // JVM options (-XX:OnError=CMD runs a command)
	loadOpaque                     // names code airlock does not read, when set to a path
)

// loaderVar is one variable of the table.
type loaderVar struct {
	kind loaderKind
	lang string // for loadFile
	// progs are the programs that read it; nil: any (a JVM starts
	// under many names: java, mvn, gradle, sbt, kotlinc, a launcher
	// script).
	progs []string
}

var loaderVars = firstuse.Table[map[string]loaderVar]{Build: func() map[string]loaderVar {
	py := []string{"python", "python3", "python2", "pypy", "pypy3", "ipython", "pytest", "pdb"}
	r := []string{"r", "rscript"}
	erl := []string{"erl", "escript", "elixir", "iex", "mix", "rebar3", "erlc", "elixirc"}
	jvm := loaderVar{kind: loadJVMFlags}
	return map[string]loaderVar{
		"PYTHONBREAKPOINT":   {kind: loadPyModule, progs: py},
		"R_PROFILE_USER":     {kind: loadFile, lang: interp.R, progs: r},
		"R_PROFILE":          {kind: loadFile, lang: interp.R, progs: r},
		"IRBRC":              {kind: loadFile, lang: interp.Ruby, progs: []string{"irb", "rails", "pry"}},
		"ZDOTDIR":            {kind: loadShellDir, progs: []string{"zsh"}},
		"ERL_AFLAGS":         {kind: loadErlFlags, progs: erl},
		"ERL_ZFLAGS":         {kind: loadErlFlags, progs: erl},
		"ERL_FLAGS":          {kind: loadErlFlags, progs: erl},
		"ELIXIR_ERL_OPTIONS": {kind: loadErlFlags, progs: erl},
		"JAVA_TOOL_OPTIONS":  jvm, "_JAVA_OPTIONS": jvm, "JDK_JAVA_OPTIONS": jvm, "JAVA_OPTS": jvm,
		"MAVEN_OPTS": jvm, "GRADLE_OPTS": jvm, "SBT_OPTS": jvm, "ANT_OPTS": jvm, "KOTLIN_OPTS": jvm,
		"JULIA_DEPOT_PATH": {kind: loadOpaque, progs: []string{"julia"}},
		"PHPRC":            {kind: loadOpaque, progs: []string{"php", "php-cgi", "php8", "php7"}},
		"PHP_INI_SCAN_DIR": {kind: loadOpaque, progs: []string{"php", "php-cgi", "php8", "php7"}},
	}
}}

// loaderCode rates the code the variables of loaderVars make inv's
// program load.
func (c *Classifier) loaderCode(inv *shell.Invocation) Effect {
	e := erlArgs(inv)
	name := inv.Name()
	table := loaderVars.Get()
	for _, kv := range inv.Env {
		k, v, _ := strings.Cut(kv, "=")
		lv, ok := table[k]
		if !ok || lv.progs != nil && !hasAny(lv.progs, name) && !(lv.kind == loadPyModule && strings.HasPrefix(name, "python")) {
			continue
		}
		v = strings.TrimSpace(unquoteValue(v))
		if v == "" {
			continue
		}
		dyn := strings.ContainsAny(v, "$`")
		what := k + " makes " + name + " load "
		switch lv.kind {
		case loadFile:
			e.Add(c.interpScript(inv, name, lv.lang, v, dyn).through("env.code", what+clip(v)+" as code first"))
		case loadPyModule:
			e.Add(c.pyBreakpoint(inv, k, v, dyn))
		case loadShellDir:
			for _, f := range []string{".zshenv", ".zprofile", ".zshrc", ".zlogin"} {
				if s, ok := c.scriptFile(inv, path.Join(v, f), dyn); ok {
					e.Add(s.through("env.code", what+path.Join(v, f)+" at start-up"))
				}
			}
		case loadErlFlags:
			w, ok := erlCodeFlag(strings.Fields(v))
			if i := strings.Index(v, "-eval"); i >= 0 && !erlHarmless(v[i+len("-eval"):]) {
				// The words of a quoted expression are not split here:
				// all the text after -eval is read as its code.
				w, ok = "-eval", true
			}
			if ok {
				e.Add(opaque("env.code", what+"code through "+w+" ("+clip(v)+"), which airlock does not read"))
			}
		case loadJVMFlags:
			for _, w := range strings.Fields(v) {
				for _, opt := range []string{"-XX:OnError=", "-XX:OnOutOfMemoryError="} {
					if cmd, ok := strings.CutPrefix(w, opt); ok {
						e.Add(c.embedded(k+" "+strings.TrimSuffix(opt, "="), strings.Trim(cmd, `"'`), dyn))
					}
				}
			}
		case loadOpaque:
			e.Add(opaque("env.code", what+"its start-up code from "+clip(v)+", which airlock does not read"))
		}
	}
	return e
}

// erlCodeFlag finds a flag of the Erlang VM that runs code: -eval EXPR,
// -s and -run with a module other than init (-s init stop only stops),
// -pa and -pz (a directory whose modules replace the system's).
func erlCodeFlag(words []string) (string, bool) {
	for i, w := range words {
		switch w {
		case "-eval":
			if i+1 >= len(words) || !erlHarmless(words[i+1]) {
				return w, true
			}
		case "-pa", "-pz":
			return w, true
		case "-s", "-run":
			if i+1 >= len(words) || words[i+1] != "init" {
				return w, true
			}
		}
	}
	return "", false
}

// erlCall finds the remote calls of Erlang code (mod:fun( ), and the
// local calls (fun( ).
var erlCall = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`([a-z_][a-zA-Z0-9_]*)(?::([a-z_][a-zA-Z0-9_]*))?\s*\(`)
})

// erlHarmless reports whether -eval code only prints and stops (erl
// -noshell -eval 'io:format("~s", [erlang:system_info(otp_release)]),
// halt().', a version check): every call is one of a few that read or
// print.
func erlHarmless(code string) bool {
	code = strings.Trim(code, `"'`)
	for _, m := range erlCall().FindAllStringSubmatch(code, -1) {
		call := m[1]
		if m[2] != "" {
			call += ":" + m[2]
		}
		switch call {
		case "io:format", "io:fwrite", "io:put_chars", "erlang:system_info", "erlang:halt", "init:stop", "halt",
			"erlang:display", "code:root_dir", "code:lib_dir", "lists:map", "lists:join", "string:trim", "atom_to_list",
			"integer_to_list", "list_to_atom":
		default:
			return false
		}
	}
	return true
}

// erlArgs rates the Erlang VM's own code flags (erl -eval …), the same
// flags ERL_AFLAGS gives it.
func erlArgs(inv *shell.Invocation) Effect {
	switch inv.Name() {
	case "erl", "escript", "iex", "elixir":
	default:
		return nothing
	}
	if w, ok := erlCodeFlag(inv.Args[1:]); ok {
		return opaque("erl.code", inv.Name()+" runs Erlang code given with "+w+", which airlock does not read")
	}
	return nothing
}

// pyBreakpoint reads PYTHONBREAKPOINT=module.callable: breakpoint()
// imports the module, which runs it. A module of the run's directory is
// its file, read like a script; an installed one (ipdb.set_trace) is
// not the project's, and "0" turns breakpoints off.
func (c *Classifier) pyBreakpoint(inv *shell.Invocation, k, v string, dyn bool) Effect {
	if v == "0" {
		return nothing
	}
	if dyn {
		return opaque("env.code", k+" names a module known only when the command runs")
	}
	mod, _, _ := strings.Cut(v, ".")
	if i := strings.LastIndexByte(v, '.'); i > 0 {
		mod = strings.ReplaceAll(v[:i], ".", "/")
	}
	var e Effect
	for _, f := range []string{mod + ".py", mod + "/__init__.py"} {
		if ok, known := c.exists(f); ok || !known {
			e.Add(c.interpScript(inv, inv.Name(), interp.Python, f, false).through("env.code", k+" makes "+inv.Name()+" import "+f+" at breakpoint()"))
		}
	}
	return e
}
