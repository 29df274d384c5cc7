package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/airlock-dev/airlock/internal/argv"
)

// GNU parallel and sem (parallel --semaphore) join their command words
// with blanks into one line that a shell runs (FINDINGS-8 H1): ";", "|",
// ">" and "$(…)" in a word are syntax, not arguments, and only the input
// values put in {} (or appended) are quoted, each as one word. With -q
// (--quote) every word is quoted instead and the words are one program's
// arguments. sem, --bg and --semaphore return before the job ends (its
// Via is "sem" or "parallel", which shell.WaitedFor does not wait for).

// parallelPlaceholders are GNU parallel's replacement strings: the input
// value, and words made from it (its directory, base name, job number,
// a column).
var parallelPlaceholders = []string{"{}", "{.}", "{/}", "{//}", "{/.}", "{#}", "{%}", "{1}", "{2}", "{3}", "{4}", "{5}"}

// parallelInputVar is the variable that stands in nested text for an
// input value known only at run time: written "${…}" in double quotes it
// is one word, as parallel's quoting makes it, and its kept text is
// parallelInputText.
const (
	parallelInputVar  = "__gnu_parallel_value"
	parallelInputText = "{parallel input}"
)

var parallelSpec = argv.Spec{Short: "jPSadEILnNU", Long: []string{"--jobs", "--sshlogin", "--arg-file", "--delimiter", "--colsep", "--delay", "--timeout",
	"--joblog", "--results", "--tmpdir", "--workdir", "--wd", "--max-args", "--max-replace-args", "--env", "--retries", "--halt", "--id",
	"--semaphorename", "--semaphoretimeout", "--st", "--sshloginfile", "--slf", "--replace", "--extensionreplace", "--er", "--basenamereplace",
	"--bnr", "--dirnamereplace", "--dnr", "--basenameextensionreplace", "--bner", "--seqreplace", "--slotreplace", "--tagstring",
	"--block", "--blocksize", "--recstart", "--recend", "--load", "--memfree", "--nice", "--shebang-wrap", "--basefile", "--bf",
	"--transferfile", "--tf", "--return", "--trc", "--cleanup", "--sshdelay", "--termseq", "--header", "--limit", "--progress-bar"}, StopAtOperand: true}

// gnuQuote is GNU parallel's shell_quote_scalar for Bourne shells
// (TestGNUQuoteMatchesParallel checks it against parallel --dry-run).
func gnuQuote(v string) string {
	switch {
	case v == "":
		return "''"
	case !parallelPlain(v):
		v = "'" + strings.ReplaceAll(v, "'", `'"'"'`) + "'"
		v = strings.TrimPrefix(v, "''")
		return strings.TrimSuffix(v, "''")
	}
	return v
}

// parallelPlain reports whether GNU parallel leaves a value unquoted.
func parallelPlain(v string) bool {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_.+/", c) >= 0) {
			return false
		}
	}
	return true
}

// semWrapper handles sem, GNU parallel's semaphore: parallel --semaphore.
func semWrapper(w *walker, c cmd) (cmd, bool) {
	n := c
	n.args = append([]string{"parallel", "--semaphore"}, c.args[1:]...)
	n.dyn = append([]bool{false, false}, c.dyn[1:]...)
	return parallelRun(w, n, "sem")
}

// parallelWrapper handles GNU parallel: a command template run once per
// argument (from ::: lists, or from standard input), or whole commands
// given after ::: or read from standard input.
func parallelWrapper(w *walker, c cmd) (cmd, bool) {
	return parallelRun(w, c, "parallel")
}

func parallelRun(w *walker, c cmd, via string) (cmd, bool) {
	p := parallelSpec.Parse(c.args[1:])
	i := 1 + p.Rest
	end := len(c.args)
	var values []string
	valuesDynamic, fromFile, argFile := false, "", ""
	for j := i; j < len(c.args); j++ {
		if strings.HasPrefix(c.args[j], ":::") {
			if end == len(c.args) {
				end = j
			}
			// :::: FILE… gives the lines of the files, not their names.
			fromFile = map[bool]string{true: "file"}[strings.HasPrefix(c.args[j], "::::")]
			continue
		}
		if end < len(c.args) && fromFile != "" {
			if len(values) == 0 && !c.dyn[j] {
				argFile = c.args[j]
			} else {
				argFile = "" // several files, or a name known at run time
			}
			values = append(values, parallelInputText)
			valuesDynamic = true
			continue
		}
		if end < len(c.args) {
			values = append(values, c.args[j])
			valuesDynamic = valuesDynamic || c.dyn[j]
		}
	}
	if p.Has("-S", "--sshlogin", "--sshloginfile", "--slf", "--onall", "--nonall") {
		w.opaque(c.frame.with(via), c.source, via+" --sshlogin runs commands on remote hosts")
	}
	for _, f := range p.Flags {
		if strings.HasPrefix(f.Name, "--shebang") {
			w.opaque(c.frame.with(via), c.source, via+" --shebang runs a script file's lines")
		}
	}
	// --workdir: the jobs run in that directory (chdir.go).
	c = chdirOption(c, c, p, "--workdir", "--wd")
	if sh, ok := envValue(c.env, "PARALLEL_SHELL"); ok && sh != "" {
		w.opaque(c.frame.with(via), c.source, via+" runs its command lines with the shell PARALLEL_SHELL names ("+clip(sh)+")")
	}
	once, pipe := false, false // the template runs once, with no value of its own
	for _, f := range p.Flags {
		switch {
		case f.Name == "--pipe" || f.Name == "--pipepart" || f.Name == "--spreadstdin":
			pipe = true
			once = end == len(c.args)
		case strings.HasPrefix(f.Name, "--sem"):
			once = end == len(c.args)
		}
	}
	if pipe && once && i < end {
		// --pipe: each job reads a block of parallel's input, so the
		// command is read with that input (parallel --pipe sh < x.sh
		// runs x.sh's lines).
		text := strings.Join(c.args[i:end], " ")
		fields := strings.Fields(text)
		if slices.Contains(c.dyn[i:end], true) || strings.ContainsAny(text, ";&|<>()$`'\"\\*?[]{}~#=") || len(fields) == 0 {
			return w.nested(c, text, true, via)
		}
		n := c.inner(i, via)
		n.args, n.dyn = fields, make([]bool, len(fields))
		// -a FILE (--arg-file): the blocks are FILE's, not standard
		// input's (parallel --pipepart -a cmd.txt sh runs cmd.txt's
		// lines, as sh < cmd.txt does).
		for _, f := range p.Flags {
			if f.Name != "-a" && f.Name != "--arg-file" {
				continue
			}
			if !f.HasValue || c.dyn[1+f.ValueIndex] {
				return w.nested(c, text, true, via)
			}
			n.redirects = append(n.redirects, Redirect{Op: "<", Target: f.Value})
			n.stdin, n.stdinKnown, n.stdinText, n.stdinFile = "", false, "", ""
		}
		w.run(n)
		return c, true
	}
	var feed *Feed
	if fromFile != "" {
		// parallel … :::: FILE: the words are FILE's lines, fed like
		// xargs -a FILE (classify bounds them, or they stay unknown).
		feed = feedOf(c, p, "parallel")
		if len(values) == 1 {
			feed.File = argFile
		}
	}
	if end == len(c.args) && !once {
		// Arguments or commands come from standard input.
		values, valuesDynamic = []string{parallelInputText}, true
		if c.stdinKnown {
			values, valuesDynamic = strings.Split(strings.TrimSpace(c.stdinText), "\n"), false
		} else {
			feed = feedOf(c, p, "parallel")
		}
	}
	if i >= end {
		// No template: every value is a whole command line.
		for _, v := range values {
			w.nested(c, v, valuesDynamic, via)
		}
		return c, true
	}
	template := c.inner(i, via)
	template.args, template.dyn = c.args[i:end], c.dyn[i:end]
	template.stdin, template.stdinKnown, template.stdinText, template.stdinArgs = "", false, "", nil
	template.feed = feed
	placeholders := parallelPlaceholders
	for _, f := range p.Flags {
		switch f.Name {
		case "-I", "--replace":
			if !f.HasValue || c.dyn[1+f.ValueIndex] {
				w.opaque(template.frame, c.source, via+" replaces a string named at run time")
				return c, true
			}
			placeholders = append([]string{f.Value}, placeholders...)
		case "-i":
			// -i is --replace={} (and takes no value of its own here).
		case "-U", "--extensionreplace", "--er", "--basenamereplace", "--bnr", "--dirnamereplace", "--dnr", "--basenameextensionreplace",
			"--bner", "--seqreplace", "--slotreplace", "--plus", "--rpl":
			w.opaque(template.frame, c.source, via+" has replacement strings of its own, so the command it runs is only known at run time")
			return c, true
		}
	}
	for _, a := range template.args {
		if strings.Contains(a, "{=") {
			// {= perl =} is Perl code parallel runs on each value.
			w.opaque(template.frame, c.source, via+" runs Perl code ({= … =}) on each value")
			return c, true
		}
		for _, ph := range placeholders[1:] {
			if ph != "{}" && strings.Contains(a, ph) {
				// The word is made from the input (its directory, its
				// base name, a job number), not the input itself.
				template.feed = nil
			}
		}
	}
	if end == len(c.args) && via == "parallel" {
		moreutilsParallel(w, template)
	}
	// A shell's words (parallel bash -c 'rm -rf {}' ::: build) are read
	// as its arguments too: what GNU parallel runs with -q, and what the
	// text's author meant, so the deletion is graded rather than lost to
	// bash -c rm (GNU's line).
	argsToo := false
	if len(template.args) > 1 && slices.Contains(shellNames, normName(template.args[0])) {
		for _, a := range template.args[1:] {
			for _, ph := range placeholders {
				a = strings.ReplaceAll(a, ph, "")
			}
			argsToo = argsToo || strings.ContainsAny(a, " \t\n;&|<>()$`'\"\\*?[]{}~#")
		}
	}
	if argsToo || p.Has("-q", "--quote") {
		// Each word is quoted: the words are one program's arguments.
		for _, v := range values {
			n, replaced := template, false
			for _, ph := range placeholders {
				for _, a := range n.args {
					if strings.Contains(a, ph) {
						replaced = true
					}
				}
				n = substitute(n, ph, v, valuesDynamic)
			}
			if !replaced && !once {
				n.args = append(append([]string(nil), n.args...), v)
				n.dyn = append(append([]bool(nil), n.dyn...), valuesDynamic)
			}
			w.run(n)
		}
		if !argsToo || p.Has("-q", "--quote") {
			return c, true
		}
	}
	if slices.Contains(template.dyn, true) {
		w.nested(c, strings.Join(template.args, " "), true, via)
		return c, true
	}
	if once {
		values = []string{""}
	}
	for _, v := range values {
		quoted := gnuQuote(v)
		if valuesDynamic {
			quoted = `"${` + parallelInputVar + `}"`
		}
		words, replaced := append([]string(nil), template.args...), false
		for k, a := range words {
			for _, ph := range placeholders {
				if strings.Contains(a, ph) {
					a, replaced = strings.ReplaceAll(a, ph, quoted), true
				}
			}
			words[k] = a
		}
		if !replaced && !once {
			words = append(words, quoted)
		}
		text := strings.Join(words, " ")
		if !valuesDynamic {
			w.text(text, template.frame, c.depth+1)
			continue
		}
		if !inputWordsOnly(text) {
			// A value put inside quotes, an arithmetic or a here-document
			// is read differently there: only known at run time.
			w.nested(c, strings.Join(template.args, " "), true, via)
			continue
		}
		f := template.frame
		f.vals = f.vals.child(&w.exports)
		f.vals.fromEnv(f.env)
		f.vals.set(parallelInputVar, binding{text: parallelInputText, dynamic: true})
		f.same = true
		f.feed, f.feedSource = template.feed, c.source
		defs, ok := importedFuncDefs(f.env)
		if !ok {
			w.nested(c, text, true, via)
			continue
		}
		w.text(defs+text, f, c.depth+1)
	}
	return c, true
}

// inputWordsOnly reports whether every "${parallelInputVar}" in text is
// read as one double-quoted word part, as parallel's quoting of a value
// is where the template puts it outside quotes, and none is in a
// redirection or an arithmetic.
func inputWordsOnly(text string) bool {
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
	if err != nil {
		return false
	}
	found := 0
	syntax.Walk(file, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.DblQuoted:
			if len(n.Parts) == 1 {
				if pe, ok := n.Parts[0].(*syntax.ParamExp); ok && pe.Param != nil && pe.Param.Value == parallelInputVar && pe.Exp == nil && !pe.Length && pe.Index == nil {
					found++
				}
			}
		case *syntax.ArithmExp, *syntax.ArithmCmd, *syntax.LetClause, *syntax.Redirect:
			// A file a redirection names from the input is not bounded
			// by the feed the way an argument is: only known then.
			if strings.Contains(text[n.Pos().Offset():n.End().Offset()], parallelInputVar) {
				found = -1 << 30
			}
		}
		return true
	})
	return found == strings.Count(text, parallelInputVar)
}

// moreutilsParallel walks the other parallel's reading of a template
// with "--": moreutils' parallel runs COMMAND once per argument after
// "--" (parallel gzip -- a b), or each word after a leading "--" as a
// command line (parallel -- 'make a' 'make b'). Which parallel is
// installed is not known, so this reading is walked beside GNU's.
func moreutilsParallel(w *walker, t cmd) {
	k := slices.Index(t.args, "--")
	if k < 0 {
		return
	}
	if k == 0 {
		for j := 1; j < len(t.args); j++ {
			w.nested(t, t.args[j], t.dyn[j], "parallel")
		}
		return
	}
	for j := k + 1; j < len(t.args); j++ {
		n := t
		n.args = append(append([]string(nil), t.args[:k]...), t.args[j])
		n.dyn = append(append([]bool(nil), t.dyn[:k]...), t.dyn[j])
		n = substitute(n, "{}", t.args[j], t.dyn[j])
		w.run(n)
	}
}
