package shell

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A shell's options change how its text is read: cdable_vars sends cd
// NAME to $NAME, nullglob drops a word, +B leaves braces alone, -k makes
// a later NAME=value word an assignment (FINDINGS-9 S3). They are turned
// on in the text (set, shopt, in any spelling), on the shell's command
// line (-O NAME, +O NAME, -o NAME, -k) and by its environment (BASHOPTS,
// SHELLOPTS). Options on a command line or in the environment are read
// as the set and shopt commands they stand for, run first in the nested
// text; each option the text turns on is then either one the reader
// follows (cdable_vars, physical, allexport, xtrace, histexpand), one
// that does not change the reading, or one that does in ways not
// followed: the text is then opaque where the option matters.

// optEffect is how the reader treats an option turned on or off.
type optEffect int

const (
	optSame     optEffect = iota // the reading does not change (or is a superset)
	optFollowed                  // the reader follows it (optionEffects)
	optUnknown                   // it changes the reading in ways not followed
)

// shoptEffects are bash's shopt options that change what a command
// does, by name; an option absent from both tables is unknown.
var shoptEffects = map[string]optEffect{
	"cdable_vars": optFollowed, "nullglob": optFollowed,
	// Globs: package policy folds case and reads dotglob from the text.
	"dotglob": optSame, "extglob": optSame, "failglob": optSame, "globasciiranges": optSame,
	"globskipdots": optSame, "globstar": optSame, "nocaseglob": optSame, "nocasematch": optSame,
	// Both ways already: aliases, echo's escapes (echoText), a last pipe.
	"expand_aliases": optSame, "xpg_echo": optSame, "lastpipe": optSame,
	// Interactive use, history, completion, messages, jobs.
	"checkhash": optSame, "checkjobs": optSame, "checkwinsize": optSame, "cmdhist": optSame,
	"complete_fullquote": optSame, "direxpand": optSame, "dirspell": optSame, "execfail": optSame,
	"extdebug": optSame, "force_fignore": optSame, "gnu_errfmt": optSame, "histappend": optSame,
	"histreedit": optSame, "histverify": optSame, "hostcomplete": optSame, "huponexit": optSame,
	"inherit_errexit": optSame, "lithist": optSame, "login_shell": optSame, "mailwarn": optSame,
	"no_empty_cmd_completion": optSame, "noexpand_translation": optSame, "progcomp": optSame,
	"progcomp_alias": optSame, "promptvars": optSame, "restricted_shell": optSame,
	"shift_verbose": optSame, "sourcepath": optSame, "varredir_close": optSame,
	"assoc_expand_once": optSame, "patsub_replacement": optSame, "array_expand_once": optSame, "bash_source_fullpath": optSame,
}

// setEffects are the options of set -o NAME, and their letters.
var setEffects = map[string]optEffect{
	"allexport": optFollowed, "physical": optFollowed, "xtrace": optFollowed, "histexpand": optFollowed,
	"errexit": optSame, "errtrace": optSame, "functrace": optSame, "hashall": optSame,
	"ignoreeof": optSame, "monitor": optSame, "noclobber": optSame, "noexec": optSame,
	"noglob": optSame, "nolog": optSame, "notify": optSame, "nounset": optSame, "onecmd": optSame,
	"pipefail": optSame, "posix": optSame, "privileged": optSame, "verbose": optSame,
	"vi": optSame, "emacs": optSame, "history": optSame,
	// On by default: turned off, they change the reading (optionEffect).
	"braceexpand": optSame, "interactive-comments": optSame,
	"keyword": optUnknown,
}

// setLetters are set's one-letter options by their long names.
var setLetters = map[byte]string{
	'a': "allexport", 'b': "notify", 'e': "errexit", 'f': "noglob", 'h': "hashall", 'k': "keyword",
	'm': "monitor", 'n': "noexec", 'p': "privileged", 't': "onecmd", 'u': "nounset", 'v': "verbose",
	'x': "xtrace", 'B': "braceexpand", 'C': "noclobber", 'E': "errtrace", 'H': "histexpand",
	'P': "physical", 'T': "functrace",
}

// optionName reports a word that may be an option's name: nothing the
// reader would take for shell syntax when it writes it into text.
func optionName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// optionText is the set and shopt text that a shell's command-line
// options (args[from:to]) and its environment's BASHOPTS and SHELLOPTS
// stand for; ok is false with a reason when an option cannot be written
// so (a name only known at run time, or one that is no name).
func optionText(c cmd, from, to int) (text string, ok bool, why string) {
	var lines []string
	for _, env := range []struct{ name, cmd string }{{"SHELLOPTS", "set -o"}, {"BASHOPTS", "shopt -s"}} {
		val, has := envValue(c.env, env.name)
		if !has || val == "" {
			continue
		}
		for _, o := range strings.Split(val, ":") {
			if o == "" {
				continue
			}
			if !optionName(o) {
				return "", false, env.name + " holding an option name airlock cannot read"
			}
			lines = append(lines, env.cmd+" "+o)
		}
	}
	for i := from; i < to && i < len(c.args); i++ {
		a := c.args[i]
		if c.dyn[i] {
			return "", false, "an option only known at run time"
		}
		if len(a) < 2 || a[0] != '-' && a[0] != '+' || strings.HasPrefix(a, "--") {
			continue
		}
		sign := a[:1]
		var letters []byte
		for j := 1; j < len(a); j++ {
			switch f := a[j]; f {
			case 'o', 'O':
				if i+1 >= len(c.args) || c.dyn[i+1] || !optionName(c.args[i+1]) {
					return "", false, "an option name airlock cannot read"
				}
				i++
				if f == 'o' {
					lines = append(lines, "set "+sign+"o "+c.args[i])
				} else if sign == "-" {
					lines = append(lines, "shopt -s "+c.args[i])
				} else {
					lines = append(lines, "shopt -u "+c.args[i])
				}
			case 'c', 's', 'i', 'l', 'r', 'D':
				// How the shell starts, not an option of its text.
			default:
				if _, known := setLetters[f]; !known {
					return "", false, "the option " + sign + string(f) + ", which airlock does not follow"
				}
				letters = append(letters, f)
			}
		}
		if len(letters) > 0 {
			lines = append(lines, "set "+sign+string(letters))
		}
	}
	if len(lines) == 0 {
		return "", true, ""
	}
	return strings.Join(lines, "\n") + "\n", true, ""
}

// shellOptions reads a set or shopt run of this shell for the options it
// turns on or off: followed ones change the values, unknown ones make the
// run opaque where they matter.
func (w *walker) shellOptions(c cmd) {
	name := c.args[0]
	if why := w.applyOptions(c, name == "shopt"); why != "" {
		w.opaque(c.frame, c.source, name+" "+why+": how the text after it is read is not followed")
	}
}

// applyOptions applies the options of a set (shopt false) or shopt run
// and returns why one makes the text unknown ("" when none does).
func (w *walker) applyOptions(c cmd, shopt bool) string {
	v := c.vals
	onOff := 0 // shopt: 1 for -s, -1 for -u, 0 for a query
	setO := false
	for i := 1; i < len(c.args); i++ {
		a := c.args[i]
		if c.dyn[i] {
			return "turns on an option only known at run time"
		}
		switch {
		case a == "--" || a == "-":
			if shopt {
				continue
			}
			return "" // the positional parameters follow
		case shopt && len(a) > 1 && a[0] == '-':
			for _, f := range a[1:] {
				switch f {
				case 's':
					onOff = 1
				case 'u':
					onOff = -1
				case 'o':
					setO = true
				}
			}
		case shopt:
			if onOff == 0 {
				continue
			}
			if setO {
				if why := w.option(v, a, onOff > 0, setEffects); why != "" {
					return why
				}
			} else if why := w.option(v, a, onOff > 0, shoptEffects); why != "" {
				return why
			}
		case (a[0] == '-' || a[0] == '+') && len(a) > 1:
			on := a[0] == '-'
			for j := 1; j < len(a); j++ {
				if a[j] == 'o' {
					if i+1 >= len(c.args) {
						break // set -o alone lists the options
					}
					if c.dyn[i+1] {
						return "turns on an option only known at run time"
					}
					i++
					if why := w.option(v, c.args[i], on, setEffects); why != "" {
						return why
					}
					continue
				}
				long, ok := setLetters[a[j]]
				if !ok {
					return "turns on the option " + clip(a[:1]+string(a[j])) + ", which airlock does not follow"
				}
				if why := w.option(v, long, on, setEffects); why != "" {
					return why
				}
			}
		default:
			return "" // set WORD…: the positional parameters
		}
	}
	return ""
}

// option applies one option turned on or off and returns why it makes
// the text unknown ("" when it does not).
func (w *walker) option(v *values, name string, on bool, table map[string]optEffect) string {
	text := w.top
	onOff := "on"
	if !on {
		onOff = "off"
	}
	why := "turns " + onOff + " the option " + clip(name)
	switch name {
	case "cdable_vars":
		if v != nil {
			v.cdable = on
		}
		return ""
	case "physical":
		if v != nil {
			v.physical = on
		}
		return ""
	case "nullglob":
		// A glob that matches nothing is no word at all: the words after
		// it move (nullGlobShift).
		if v != nil {
			v.nullglob = on
		}
		return ""
	case "braceexpand":
		if !on && strings.Contains(text, "{") {
			return why + ", which leaves braces in words"
		}
		return ""
	case "interactive-comments", "interactive_comments":
		if !on && strings.Contains(text, "#") {
			return why + ", which makes # part of a word"
		}
		return ""
	case "extquote":
		if !on {
			return why
		}
		return ""
	}
	e, known := table[name]
	switch {
	case !known:
		return why + ", which airlock does not follow"
	case e == optUnknown && on:
		return why + ", which airlock does not follow"
	}
	return ""
}

// optKey names the options a body's reading depends on (callKey).
func (v *values) optKey() string {
	return fmt.Sprintf("%t %t", v.physical, v.nullglob)
}

// inheritShell gives a function's body the state of the shell that calls
// it which is not a variable: its options and what the text did to the
// shell's own variables.
func (v *values) inheritShell(o *values) {
	v.touched |= o.touched
	v.cdable = o.cdable
	v.physical = o.physical
	v.nullglob = o.nullglob
}

// mergeOpts turns on in v the options followed that o has on.
func (v *values) mergeOpts(o *values) {
	v.cdable = v.cdable || o.cdable
	v.physical = v.physical || o.physical
	v.nullglob = v.nullglob || o.nullglob
}

// nullGlobShift makes a command opaque when nullglob may be on and an
// unquoted glob word has words after it: matching nothing, it is dropped
// and the words after it move (cp -t zz* DIR FILE copies FILE into DIR).
func (s *stmtWalker) nullGlobShift(call *syntax.CallExpr, c cmd) bool {
	if s.f.vals == nil || !s.f.vals.nullglob {
		return false
	}
	for i, w := range call.Args {
		if i < len(call.Args)-1 && unquotedGlob(w.Parts) {
			s.w.opaque(s.f, c.source, "with nullglob on, the glob "+clip(s.source(w))+" is dropped when it matches nothing and the words after it move")
			return true
		}
	}
	return false
}

// optionsMatter reports whether the set and shopt text optionText made
// turns on or off an option that changes how a script is read: a script
// file the shell runs is read on its own (package classify), without
// them.
func optionsMatter(text string) bool {
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		var names []string
		table := setEffects
		switch {
		case f[0] == "shopt" && len(f) == 3:
			names, table = []string{f[2]}, shoptEffects
		case len(f) == 3:
			names = []string{f[2]}
		default:
			for i := 1; i < len(f[1]); i++ {
				names = append(names, setLetters[f[1][i]])
			}
		}
		for _, n := range names {
			switch n {
			case "xtrace", "histexpand", "allexport":
				continue // PS4 is walked as the shell starts; a script has no history
			}
			if e, ok := table[n]; !ok || e != optSame || n == "braceexpand" || n == "interactive-comments" {
				return true
			}
		}
	}
	return false
}

// envOptions makes a run whose environment sets BASHOPTS or SHELLOPTS
// opaque when an option there changes how a bash script it may be (or
// start) is read; a shell run reads them itself (shellText).
func (w *walker) envOptions(c cmd) {
	if bashBuiltin(c.args[0]) {
		return
	}
	if _, ok := envValue(c.env, "BASHOPTS"); !ok {
		if _, ok := envValue(c.env, "SHELLOPTS"); !ok {
			return
		}
	}
	text, ok, why := optionText(cmd{frame: frame{env: c.env}}, 0, 0)
	if !ok || optionsMatter(text) {
		if why == "" {
			why = "an option there changes how a bash script is read"
		}
		w.opaque(c.frame, c.source, clip(c.args[0])+" runs with BASHOPTS or SHELLOPTS in its environment ("+why+"), which airlock does not follow")
	}
}

// dotDot reports a path with a ".." part.
func dotDot(p string) bool {
	for _, part := range strings.Split(p, "/") {
		if part == ".." {
			return true
		}
	}
	return false
}
