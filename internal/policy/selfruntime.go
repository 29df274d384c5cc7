package policy

import (
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/airlock-dev/airlock/internal/classify"
	shellparse "github.com/airlock-dev/airlock/internal/shell"
)

// This file is the phase of self-protection for the SOURCE of a path read
// at run time (FINDINGS-6 F4). A word a reader is given that is known only
// when the command runs ($(…), `…`, what xargs or parallel reads, a
// variable set by read or mapfile) gets its value from programs the same
// command runs. Where that value may be airlock's secrets whatever its
// static parts say, the read is allowed only when every program the value
// can come from is bounded:
//
//   - programs that print paths from the filesystem are bounded by their
//     start paths (find, ls, locate and git ls-files as selfproduced.go
//     bounds them; du, tree, fd, grep -r/-l and rg --files below their
//     operands; git's diff and status below the worktree), and that bound
//     may not reach the secrets;
//   - programs that print the words they are given (echo, printf '%s\n',
//     stat, realpath, readlink, dirname, basename) may not be given a word
//     that names a secret, the secrets directory or a directory between
//     the home directory and it; a format that joins words, escapes (echo
//     -e, printf '%b', \x2f) and echo -n (whose output a next echo
//     continues) build a path from pieces and are not bounded;
//   - programs that pass on lines or fields of their input or of files
//     (cat, grep, cut, head, sort, jq with a plain path filter, …) are
//     bounded by that input: a file on disk is read now (up to
//     maxSourceBytes), a file the command writes by literal text is that
//     text, here-strings are their text; each word of it may not name a
//     secret, and the text may not mention them;
//   - programs that print no path (pgrep, date, nproc, seq, mktemp, git
//     rev-parse, docker ps -q, go list, …) are bounded.
//
// Anything else (a decoder such as base64 -d, rev, xxd -r or tr, an
// interpreter, a file written at run time from data airlock did not read,
// a program airlock does not know) may print any path: the read fails
// closed, naming the program, and asks for the files to be named
// literally. Variables no run of the command sets (the environment, the
// positional parameters, a loop over a literal glob) are let through as
// before. Only reads are judged here: a write of a run-time path already
// fails closed by its static parts (selfdynamic.go).

// maxSourceBytes bounds a file read now for the paths it lists.
const maxSourceBytes = 256 << 10

// maxSourceDepth bounds how deep substitutions within substitutions are
// followed; past it a source is not bounded.
const maxSourceDepth = 4

// runtimeRead checks the source of a run-time word read by the run being
// checked (c.inv): nil when every program its value can come from is
// bounded away from airlock's secrets.
func (c *call) runtimeRead(who, src string, read bool) *refusal {
	if c.g.secrets.path == "" || c.result == nil || c.inv != nil && isPattern(c.inv.Args, src) {
		return nil
	}
	if _, suffix, _ := c.g.literalEnds(src); suffix != "" && !c.secretEndsWith(suffix) {
		// "$(poetry env info --path)/bin/activate": whatever comes
		// before, no file of the secrets ends so.
		return nil
	}
	saved := c.strictSource
	c.strictSource = read
	why := c.wordSource(c.inv, src, 0)
	c.strictSource = saved
	if why == "" {
		return nil
	}
	verb := " reads "
	if !read {
		verb = " is given "
	}
	return &refusal{RuleProtectedPath, who + verb + clipText(src) + ", a path known only when the command runs, and its value comes from " + why +
		": it may be one of airlock's secrets (" + c.g.secrets.path + "), which the agent may not read. Name the files literally, or list them with find or git ls-files below a directory that leaves the secrets alone." + instead}
}

// unbounded returns why, for a source airlock cannot bound: it fails
// closed for a word that is read, and is let through for others.
func (c *call) unbounded(why string) string {
	if !c.strictSource {
		return ""
	}
	return why
}

// wordSource returns why a run-time word's value may be a secret's path,
// or "" when every source of it is bounded.
func (c *call) wordSource(inv *classify.Invocation, src string, depth int) string {
	if depth > maxSourceDepth {
		return c.unbounded("substitutions nested too deep to follow")
	}
	w := strings.TrimSpace(src)
	if inv != nil && isPlaceholder(w) {
		return c.feedSource(inv, depth)
	}
	word, err := parseWord(w)
	if err != nil {
		return c.unbounded("text airlock cannot parse (" + clipText(w) + ")")
	}
	var why string
	syntax.Walk(word, func(n syntax.Node) bool {
		if why != "" {
			return false
		}
		switch n := n.(type) {
		case *syntax.CmdSubst:
			why = c.textSource(printStmts(n.Stmts), depth+1)
			return false
		case *syntax.ProcSubst:
			// <(…) names a pipe, not a path of the producer's choosing;
			// what it prints is checked where it is read as a list
			// (redirectSource).
			return false
		case *syntax.ParamExp:
			if n.Param != nil {
				if _, ok := c.g.vars[n.Param.Value]; !ok || !isSimpleParam(n) {
					why = c.varSource(n.Param.Value, depth)
				}
			}
		}
		return true
	})
	return why
}

func parseWord(src string) (*syntax.Word, error) {
	var word *syntax.Word
	err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Words(strings.NewReader(src), func(w *syntax.Word) bool {
		if word == nil {
			word = w
		}
		return true
	})
	if err == nil && word == nil {
		word = &syntax.Word{}
	}
	if word != nil {
		shellparse.DecodeANSIC(word)
	}
	return word, err
}

func printStmts(stmts []*syntax.Stmt) string {
	var b strings.Builder
	p := syntax.NewPrinter()
	for _, s := range stmts {
		_ = p.Print(&b, s)
		b.WriteString("\n")
	}
	return b.String()
}

// textSource judges every run of a substitution's text as a source.
func (c *call) textSource(text string, depth int) string {
	runs := shellparse.Parse(text)
	if len(runs) == 0 {
		return ""
	}
	for i := range runs {
		if why := c.runSource(&runs[i], depth); why != "" {
			return why
		}
	}
	return ""
}

// feedSource judges what xargs or parallel reads: a list file, a process
// substitution, or the runs piping into it.
func (c *call) feedSource(inv *classify.Invocation, depth int) string {
	if inv.Feed != nil && inv.Feed.File != "" {
		return c.fileSource(inv.Feed.File, "", depth)
	}
	if why, ok := c.redirectSource(&inv.Invocation, depth); ok {
		return why
	}
	if inv.StdinKnown {
		return c.literalSource(inv.StdinText, "the text it is fed")
	}
	return c.pipeSource(inv, depth)
}

// redirectSource judges a run's standard input when a redirection gives
// it: a file, or a process substitution.
func (c *call) redirectSource(inv *shellparse.Invocation, depth int) (string, bool) {
	for _, rd := range inv.Redirects {
		if rd.Op != "<" {
			continue
		}
		if !rd.Dynamic {
			return c.fileSource(rd.Target, "", depth), true
		}
		if w, err := parseWord(rd.Target); err == nil && len(w.Parts) == 1 {
			if ps, ok := w.Parts[0].(*syntax.ProcSubst); ok {
				return c.textSource(printStmts(ps.Stmts), depth+1), true
			}
		}
		// A file named only at run time (f=$(mktemp); … > $f; xargs
		// cat < $f): what the command writes to the same word, when it
		// writes literal text.
		return c.runTimeFile(rd.Target), true
	}
	return "", false
}

// runTimeFile judges the content of a file whose name is known only at
// run time: the literal text the command writes to the same word, else
// not bounded.
func (c *call) runTimeFile(word string) string {
	for _, list := range [][]classify.Invocation{c.result.Invocations, c.result.Followed} {
		for k := range list {
			r := &list[k]
			for _, rd := range r.Redirects {
				if !rd.Writes() || rd.Target != word {
					continue
				}
				text, ok := literalWrite(r)
				if !ok {
					return c.unbounded("the file " + clipText(word) + ", which `" + clipText(r.Source) + "` writes at run time")
				}
				if why := c.literalSource(text, "the file "+clipText(word)+" (written with "+clipText(text)+")"); why != "" {
					return why
				}
			}
			for _, o := range r.Operands {
				if o.Arg > 0 && o.Word == word && o.Role != classify.RoleRead && o.Role != classify.RoleExec {
					return c.unbounded("the file " + clipText(word) + ", which `" + clipText(r.Source) + "` writes at run time")
				}
			}
		}
	}
	// Not written by the command: a file the environment names (its
	// content is what it is now, as for "cat $f").
	return ""
}

// pipeSource judges the runs before inv in the command that may pipe into
// it: the one just before, and those before it while each reads a pipe.
func (c *call) pipeSource(inv *classify.Invocation, depth int) string {
	if left, ok := c.pipeLeft(inv.Source); ok {
		return c.textSource(left, depth+1)
	}
	// The run is among the command's runs or the lines of a script it
	// runs (Followed), each list in order.
	runs := c.result.Invocations
	at := -1
	for _, list := range [][]classify.Invocation{c.result.Invocations, c.result.Followed} {
		for k := range list {
			if &list[k] == inv {
				runs, at = list, k
			}
		}
	}
	if at < 0 {
		for _, list := range [][]classify.Invocation{c.result.Invocations, c.result.Followed} {
			for k := range list {
				if at < 0 && list[k].Source == inv.Source && list[k].Line == inv.Line {
					runs, at = list, k
				}
			}
		}
	}
	for k := at - 1; k >= 0; k-- {
		if why := c.runSource(&runs[k].Invocation, depth); why != "" {
			return why
		}
		if runs[k].Stdin != "pipe" {
			break
		}
	}
	return ""
}

// varSource judges a variable no static value is known for: what a read,
// mapfile or readarray of the command stores in it. A variable no run
// sets comes from outside the text and is let through.
func (c *call) varSource(name string, depth int) string {
	for _, runs := range [][]classify.Invocation{c.result.Invocations, c.result.Followed} {
		if why := c.varSetters(runs, name, depth); why != "" {
			return why
		}
	}
	return ""
}

// varSetters judges the runs of one list that set a variable.
func (c *call) varSetters(runs []classify.Invocation, name string, depth int) string {
	for k := range runs {
		r := &runs[k]
		switch r.Name() {
		case "read", "mapfile", "readarray":
		default:
			continue
		}
		sets := false
		for _, a := range r.Args[1:] {
			if a == name || name == "REPLY" && r.Name() == "read" || name == "MAPFILE" && r.Name() != "read" {
				sets = true
			}
		}
		if !sets {
			continue
		}
		if why, ok := c.redirectSource(&r.Invocation, depth); ok {
			if why != "" {
				return why
			}
			continue
		}
		if r.StdinKnown {
			if why := c.literalSource(r.StdinText, "the text "+r.Name()+" is fed"); why != "" {
				return why
			}
			continue
		}
		if why := c.pipeSource(r, depth); why != "" {
			return why
		}
	}
	return ""
}

// runSource judges one run as a source of words.
func (c *call) runSource(r *shellparse.Invocation, depth int) string {
	if r.Opaque == "" && (len(r.Args) == 0 || len(r.Args) == 1 && r.Args[0] == ":" && !r.Group) {
		// $(< FILE): the file's content.
		why, _ := c.redirectSource(r, depth)
		return why
	}
	if r.Opaque != "" || len(r.Args) == 0 {
		return c.unbounded("a command computed at run time (" + clipText(r.Source) + ")")
	}
	if r.Group {
		// The redirections of a compound command (while read …; done
		// < FILE): what its body reads.
		why, _ := c.redirectSource(r, depth)
		return why
	}
	who := "`" + clipText(r.Source) + "`"
	if r.StdinKnown {
		if why := c.literalSource(r.StdinText, who+"'s input"); why != "" {
			return why
		}
	}
	if why, ok := c.redirectSource(r, depth); ok && why != "" {
		return why
	}
	// Run-time words of the source are sources themselves.
	for i := 1; i < len(r.Args); i++ {
		if r.IsDynamic(i) {
			if _, ok := c.g.known(r.Args[i]); !ok {
				if why := c.wordSource(nil, r.Args[i], depth+1); why != "" {
					return why
				}
			}
		}
	}
	name := r.Name()
	switch kind := sourceKind(r.Args); kind {
	case srcNoPaths:
		return ""
	case srcWords:
		return c.printedWords(r, who)
	case srcTree:
		return c.treeSource(r, who, treeRoots(r.Args))
	case srcProducer:
		bounds, ok := classify.ProducerBound(r.Args, r.Dynamic)
		if !ok {
			if c.anyNameMatches(r.Args) {
				return who + ", whose output airlock cannot bound"
			}
			return ""
		}
		for _, b := range bounds {
			for _, d := range c.cwds {
				if reached, ok := c.boundReachesSecrets(b, d); ok {
					return who + " (which lists " + reached + ")"
				}
			}
		}
		return ""
	case srcContent:
		for _, f := range contentFiles(r.Args) {
			if why := c.fileSource(f, r.Source, depth); why != "" {
				return why
			}
		}
		return ""
	}
	return c.unbounded(who + ", whose output airlock cannot bound (" + name + " may print any path)")
}

type sourceClass int8

const (
	srcUnknown  sourceClass = iota
	srcNoPaths              // prints no path of the filesystem's choosing
	srcWords                // prints the words it is given
	srcTree                 // prints paths below its operands
	srcProducer             // find, ls, locate, git ls-files (classify.ProducerBound)
	srcContent              // prints lines or fields of its input or files
)

// plainJQ is a jq filter that only selects values: a path, perhaps
// iterated (.files[], .a.b, .["x"]).
func plainJQ() *regexp.Regexp {
	plainJQOnce.Do(func() { plainJQRe = regexp.MustCompile(`^\.[A-Za-z0-9_.\[\]"-]*$`) })
	return plainJQRe
}

var (
	plainJQOnce sync.Once
	plainJQRe   *regexp.Regexp
	awkOnce     sync.Once
	awkRe       *regexp.Regexp
)

// awkField matches an awk program that prints one field of the lines it
// selects ({print $2}, NR>1{print $1}, /x/ { print $3 }).
func awkField() *regexp.Regexp {
	awkOnce.Do(func() {
		awkRe = regexp.MustCompile(`^\s*(?:NR\s*[<>=!]+\s*[0-9]+|/[^/]*/|\$[0-9]+\s*[=!~]+\s*"[^"]*")?\s*\{\s*print\s+\$[0-9]+\s*;?\s*\}\s*$`)
	})
	return awkRe
}

// awkProgram returns awk's program text: its first operand after the
// options (-F SEP, -v VAR=VAL), or "" when -f names a file.
func awkProgram(args []string) string {
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-f" || strings.HasPrefix(a, "-f") && len(a) > 2 && a[1] == 'f':
			return ""
		case a == "-F" || a == "-v":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return ""
}

// sourceKind says what a run prints.
func sourceKind(args []string) sourceClass {
	switch args[0] {
	case "pgrep", "pidof", "jobs", "date", "command", "type", "whereis", "hash", "nproc", "uname", "id", "whoami", "hostname", "seq", "mktemp",
		"pwd", "which", "getconf", "arch", "tty", "logname", "expr", "true", "false", "sleep", "sysctl",
		"wc", "sha256sum", "sha1sum", "md5sum", "cksum", "b2sum", "tput", "nvidia-smi", "lsof", "ps":
		return srcNoPaths
	case "echo":
		for _, a := range args[1:] {
			if strings.HasPrefix(a, "-") && strings.Trim(a[1:], "neE") == "" && len(a) > 1 {
				if strings.ContainsAny(a, "ne") {
					return srcUnknown // echo -n joins with the next, -e decodes escapes
				}
				continue
			}
			break
		}
		return srcWords
	case "printf":
		if f := firstOperand(args); f == "%s\n" || f == "%s\\n" || f == "%s\\0" || f == "%s " || f == "%s" && len(args) <= 3 {
			return srcWords
		}
		return srcUnknown // a format that joins words or decodes escapes
	case "stat", "realpath", "readlink", "dirname", "basename", "file", "namei":
		return srcWords
	case ":":
		// $(: VALUE ${x:$n}) is how the shell renders a run-time slice of
		// a value it holds (shell's values.go): a part of VALUE's words.
		return srcWords
	case "du", "tree", "fd", "fdfind", "exa", "eza", "lsd":
		return srcTree
	case "find", "ls", "locate", "mlocate", "plocate":
		return srcProducer
	case "grep", "egrep", "fgrep", "rg", "ag", "ack":
		for _, a := range args[1:] {
			if a == "--files" || a == "--files-with-matches" || a == "--files-without-match" || a == "--recursive" ||
				strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "lLrR") {
				return srcTree
			}
		}
		if args[0] == "rg" || args[0] == "ag" || args[0] == "ack" {
			return srcTree // they search the directory when given none
		}
		return srcContent
	case "cat", "head", "tail", "sort", "uniq", "tac", "cut", "nl", "shuf", "comm", "column", "tee", "fold", "fmt", "paste":
		for _, a := range args[1:] {
			if strings.HasPrefix(a, "--output-delimiter") || args[0] == "paste" && strings.HasPrefix(a, "-") && strings.ContainsAny(a, "ds") {
				return srcUnknown // joins fields into new words
			}
		}
		if args[0] == "shuf" && firstOption(args, "-i") {
			return srcNoPaths
		}
		return srcContent
	case "awk", "gawk", "mawk", "nawk":
		// awk '{print $2}': one field of each line, a piece of its
		// input; anything more (joined fields, sprintf, a string) may
		// build a path.
		if f := awkProgram(args); awkField().MatchString(f) {
			return srcContent
		}
	case "jq", "yq", "gojq":
		if f := firstOperand(args); plainJQ().MatchString(f) {
			return srcContent
		}
	case "git":
		sub, rest, ok := classify.GitSubcommand(args[1:])
		if !ok {
			return srcUnknown
		}
		switch sub {
		case "ls-files":
			return srcProducer
		case "status", "ls-tree":
			return srcTree
		case "diff", "grep", "diff-tree", "diff-index", "diff-files", "show", "log":
			// Names only (--name-only, -l): paths of the worktree; else
			// the files' content, which may hold any text.
			for _, a := range rest {
				switch a {
				case "--name-only", "--name-status", "-l", "-L", "--files-with-matches", "--files-without-match", "--stat", "--numstat":
					if sub != "log" && sub != "show" {
						return srcTree
					}
				}
			}
			return srcUnknown
		case "rev-parse", "describe", "rev-list", "merge-base", "symbolic-ref", "hash-object", "write-tree", "branch", "tag", "remote":
			return srcNoPaths
		}
	case "go":
		if len(args) > 1 && (args[1] == "list" || args[1] == "env" || args[1] == "version") {
			return srcNoPaths
		}
	case "docker", "podman", "nerdctl":
		for _, a := range args[1:] {
			switch a {
			case "ps", "images", "inspect", "ls", "port", "version":
				return srcNoPaths
			}
		}
	case "kubectl":
		if len(args) > 1 && args[1] == "get" {
			return srcNoPaths
		}
	}
	return srcUnknown
}

func firstOperand(args []string) string {
	for _, a := range args[1:] {
		if !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return ""
}

func firstOption(args []string, opt string) bool {
	for _, a := range args[1:] {
		if a == opt || strings.HasPrefix(a, opt) {
			return true
		}
	}
	return false
}

// treeRoots returns the directories a tree-listing run walks: its
// operands that are not options, or ".".
func treeRoots(args []string) []string {
	var roots []string
	rest := args[1:]
	if args[0] == "git" {
		_, rest, _ = classify.GitSubcommand(args[1:])
	}
	for _, a := range rest {
		if !strings.HasPrefix(a, "-") {
			roots = append(roots, a)
		}
	}
	if args[0] == "git" {
		roots = append(roots, ".")
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	return roots
}

// treeSource checks the roots of a run that prints paths below them.
func (c *call) treeSource(r *shellparse.Invocation, who string, roots []string) string {
	for _, root := range roots {
		b := classify.Operand{Word: root, Arg: -1, Recursive: true}
		for _, d := range c.cwds {
			if reached, ok := c.boundReachesSecrets(b, d); ok {
				return who + " (which lists what is below " + root + ", " + reached + " included)"
			}
		}
	}
	return ""
}

// printedWords checks the words a run prints as given: none may name a
// secret, the secrets directory, or a directory between the home
// directory and it (a later filter may add the rest).
func (c *call) printedWords(r *shellparse.Invocation, who string) string {
	if strings.Contains(strings.Join(r.Args[1:], " "), `\`) && r.Name() != "printf" {
		return c.unbounded(who + ", whose escapes airlock does not decode")
	}
	if m := c.g.secretMention(strings.Join(r.Args, " ")); m != "" {
		return who + " (which mentions " + m + ")"
	}
	for _, a := range r.Args[1:] {
		if strings.HasPrefix(a, "-") || strings.HasPrefix(a, "%") {
			continue
		}
		if why := c.pathWordSource(a); why != "" {
			return who + " (given " + why + ")"
		}
	}
	return ""
}

// pathWordSource checks one word that a source prints, as a path from
// each directory the command is in.
func (c *call) pathWordSource(a string) string {
	for _, d := range c.cwds {
		h, ok := c.secretPath(a, d)
		if !ok {
			continue
		}
		if !h.ancestor {
			return a + ", which is " + h.target.path + " or in it"
		}
		p := filepath.Clean(c.g.rawAbs(a, d))
		if c.g.home != "" && !hasGlob(a) && p != filepath.Clean(c.g.home) && within(p, target{path: filepath.Clean(c.g.home), dir: true}) {
			return a + ", a directory that holds " + c.g.secrets.path
		}
	}
	return ""
}

// literalSource checks literal text a source passes on.
func (c *call) literalSource(text, what string) string {
	if m := c.g.secretMention(text); m != "" {
		return what + ", which mentions " + m
	}
	for _, f := range strings.Fields(text) {
		if why := c.pathWordSource(f); why != "" {
			return what + ", which names " + why
		}
	}
	return ""
}

// contentFiles returns the operands of a run that passes on files'
// content: its words that are not options (a pattern or a field list may
// be among them; a name that is no file is nothing to read).
func contentFiles(args []string) []string {
	var out []string
	if prog := awkProgram(args); prog != "" && strings.Contains(args[0], "awk") {
		for i, a := range args {
			if a == prog {
				args = append(append([]string(nil), args[:i]...), args[i+1:]...)
				break
			}
		}
	}
	skip := map[string]bool{"-f": true, "-d": true, "-n": true, "-c": true, "-k": true, "-t": true, "-e": true, "-m": true, "-A": true, "-B": true, "-C": true, "-s": true}
	for i := 1; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") {
			if skip[a] {
				i++
			}
			continue
		}
		out = append(out, a)
	}
	return out
}

// fileSource checks a file whose content becomes words at run time: one
// the command writes is that text when it is literal (and not bounded
// when it is not); one on disk is read now.
func (c *call) fileSource(name, reader string, depth int) string {
	if name == "" || name == "-" || strings.HasPrefix(name, "/dev/") {
		return ""
	}
	cwd := c.cwds[len(c.cwds)-1]
	abs := filepath.Clean(c.g.rawAbs(name, cwd))
	for k := range c.result.Invocations {
		r := &c.result.Invocations[k]
		if r.Source == reader || !writesFile(c, r, abs, cwd) {
			continue // the run reading it is not what writes it first
		}
		text, ok := literalWrite(r)
		if !ok {
			return c.unbounded("the file " + name + ", which `" + clipText(r.Source) + "` writes at run time")
		}
		if why := c.literalSource(text, "the file "+name+" (written with "+clipText(text)+")"); why != "" {
			return why
		}
	}
	if _, ok := c.secretPath(name, cwd); ok {
		return "" // a read of the secret itself: refused as a read
	}
	info, err := c.g.fs.Lstat(abs)
	if err != nil || info.IsDir() {
		return "" // nothing to read: the run fails
	}
	if info.Size() > maxSourceBytes {
		return c.unbounded("the file " + name + ", too large to read now (over 256 KiB)")
	}
	data, err := c.g.fs.ReadFile(abs)
	if err != nil {
		return ""
	}
	return c.literalSource(string(data), "the file "+name)
}

// writesFile reports whether a run of the command writes the file abs.
func writesFile(c *call, r *classify.Invocation, abs, cwd string) bool {
	for _, rd := range r.Redirects {
		if rd.Writes() && !rd.Dynamic && filepath.Clean(c.g.rawAbs(rd.Target, cwd)) == abs {
			return true
		}
		if rd.Writes() && rd.Dynamic {
			return true
		}
	}
	for _, o := range r.Operands {
		if o.Role != classify.RoleRead && o.Role != classify.RoleExec && !o.Dynamic && filepath.Clean(c.g.rawAbs(o.Word, cwd)) == abs {
			return true
		}
	}
	return false
}

// isPattern reports whether word w of a search program is its pattern or
// filter, not a file it reads: the value of -e/--regexp, or the first
// operand when no -e or -f gives one.
func isPattern(args []string, w string) bool {
	switch args[0] {
	case "grep", "egrep", "fgrep", "rg", "ag", "ack", "jq", "yq", "gojq", "zgrep":
	default:
		return false
	}
	given := false
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-e" || a == "--regexp" || a == "-f" || a == "--file":
			given = true
			if i+1 < len(args) && args[i+1] == w && a != "-f" && a != "--file" {
				return true
			}
			i++
		case strings.HasPrefix(a, "--regexp="):
			given = true
			if strings.TrimPrefix(a, "--regexp=") == w {
				return true
			}
		case strings.HasPrefix(a, "-"):
		default:
			return !given && a == w
		}
	}
	return false
}

// pipeLeft returns the text of what pipes into the simple command src in
// the command's text (a | b | xargs cat: "a | b"), when it is found there.
func (c *call) pipeLeft(src string) (string, bool) {
	if c.text == "" || src == "" {
		return "", false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(c.text), "")
	if err != nil {
		return "", false
	}
	left, found := "", false
	slice := func(n syntax.Node) string {
		a, b := int(n.Pos().Offset()), int(n.End().Offset())
		if a < 0 || b > len(c.text) || a > b {
			return ""
		}
		return c.text[a:b]
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		if b, ok := n.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) {
			if strings.Contains(slice(b.Y), src) {
				left, found = slice(b.X), true
			}
		}
		return true
	})
	return left, found
}

// secretEndsWith reports whether some path of airlock's secrets (the
// directory, or an entry up to two levels below it, as they are now) ends
// with suffix; when the directory cannot be listed, any may.
func (c *call) secretEndsWith(suffix string) bool {
	sec := c.g.secrets.path
	s := fold(suffix)
	if strings.HasSuffix(fold(sec), s) || strings.HasSuffix(fold(sec)+"/", s) {
		return true
	}
	ents, err := c.g.fs.ReadDir(sec)
	if err != nil || len(ents) > maxPatternEntries {
		return true
	}
	for _, e := range ents {
		p := sec + "/" + e.Name()
		if strings.HasSuffix(fold(p), s) || strings.HasSuffix(fold(p)+"/", s) {
			return true
		}
		if e.IsDir() {
			sub, err := c.g.fs.ReadDir(p)
			if err != nil || len(sub) > maxPatternEntries {
				return true
			}
			for _, x := range sub {
				if strings.HasSuffix(fold(p+"/"+x.Name()), s) {
					return true
				}
			}
		}
	}
	return false
}

// contentPrinter reports whether a program that classify does not list as
// only reading (it may also write, through an option or an output
// operand) prints the content of the files it is given: a run-time word
// given to it is judged as a read (base64 "$(…)" prints a secret as
// surely as cat does).
func contentPrinter(name string) bool {
	switch name {
	case "base64", "basenc", "xxd", "zcat", "gzcat", "bzcat", "xzcat", "zstdcat", "lz4cat", "uuencode",
		"iconv", "pr", "openssl", "gpg", "age", "sed", "awk", "gawk", "mawk", "sort", "uniq", "less":
		return true
	}
	return false
}
