package scan

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
	"github.com/airlock-dev/airlock/internal/policy"
)

// maxCommand bounds the text classified for one candidate: a command is a
// line, and a longer run of text is not one.
const maxCommand = 4096

// textScanner reads plain text. Most lines hold no anchor and cost one
// pass of the matcher over their block; a line that holds one is read
// closely, and so are the lines after a finding while its output is
// looked for. The JSON scanners hand it their unreadable lines one by one.
type textScanner struct {
	s      *Scanner
	a      *anchors
	res    *Result
	format Format // Text, or the JSON format whose unreadable lines it scans
	// inFence: inside a markdown code block; fenceLead: that block was
	// introduced as a suggestion ("To publish, run:"); fenceCode: it is
	// program code in a language other than shell ("```go"); prevLead:
	// the last non-blank line was a suggestion's introduction.
	inFence, fenceLead, fenceCode, prevLead bool
	pending                                 []pending
	hits                                    []hit
	spans                                   []int
	words                                   []string
	seen                                    []seen // ranges of the current line read whole
	// lastFamily and lastOrphan hold the line of the latest finding per
	// family and per implied command, so that one push's output does not
	// make several findings.
	lastFamily map[string]int
	lastOrphan map[string]int
	// n counts the lines ended (by a newline) so far; tail: what was read
	// after the last of them does not end with a newline yet (a piece of
	// an over-long line, or the input's end); lastLead: the last non-blank
	// line of the previous block introduced a suggestion.
	n              int
	tail, lastLead bool
}

// pending is a finding whose status waits for the lines after it.
type pending struct {
	idx      int
	families []string
	until    int
}

type span struct{ from, to int }

// seen is a range of the current line already classified.
type seen struct {
	span
	outcome outcome
}

func (s *Scanner) newText(res *Result, f Format) *textScanner {
	return &textScanner{s: s, a: getAnchors(), res: res, format: f, lastFamily: map[string]int{}, lastOrphan: map[string]int{}}
}

// scanText scans a whole plain-text input, block by block: the matcher
// runs over each block in one pass, and only the lines it stops at (and
// the lines after a finding, while its output is looked for) are read
// one by one.
func (s *Scanner) scanText(br *blockReader, res *Result) error {
	t := s.newText(res, Text)
	warned := -1
	for {
		b, piece, err := br.next()
		if err != nil {
			t.flush()
			res.Lines = t.n
			if t.tail {
				res.Lines++
			}
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if piece {
			if warned != t.n {
				warned = t.n
				res.Warnings = append(res.Warnings, Warning{Source: res.Source, Line: t.n + 1,
					Message: fmt.Sprintf("line longer than %d bytes: scanned in pieces, a command split across two pieces may be missed", s.MaxLine)})
			}
			t.line(t.n+1, b)
			t.tail = true
			continue
		}
		t.block(b)
	}
}

// block reads a block of whole lines (the last block of an input, or one
// before a piece of an over-long line, may end without a newline). The
// line at the block's start is line t.n+1: t.n counts the lines ended so
// far.
func (t *textScanner) block(b []byte) {
	eof := b[len(b)-1] != '\n'
	pos := 0
	for pos < len(b) {
		if len(t.pending) == 0 {
			i := t.a.m.index(b[pos:], eof)
			if i < 0 {
				t.n += bytes.Count(b[pos:], nl)
				break
			}
			// Jump to the start of the line that holds the hit.
			hit := pos + i
			ls := bytes.LastIndexByte(b[pos:hit], '\n') + 1 + pos
			t.n += bytes.Count(b[pos:ls], nl)
			t.prevLead = t.leadBefore(b, ls)
			pos = ls
		}
		end := bytes.IndexByte(b[pos:], '\n')
		if end < 0 {
			t.line(t.n+1, b[pos:])
			break
		}
		t.line(t.n+1, b[pos:pos+end])
		t.n++
		pos += end + 1
	}
	t.tail = eof
	t.keepLast(b)
}

var nl = []byte{'\n'}

// leadBefore reports whether the last non-blank line before offset ls of
// b introduces a suggestion; before the block, the previous block's last
// non-blank line counts.
func (t *textScanner) leadBefore(b []byte, ls int) bool {
	end := ls - 1 // the newline ending the previous line
	for end > 0 {
		start := bytes.LastIndexByte(b[:end], '\n') + 1
		if l := b[start:end]; len(bytes.TrimSpace(l)) > 0 {
			return isLeadIn(l)
		}
		end = start - 1
	}
	return t.lastLead
}

// keepLast remembers whether the block's last non-blank line introduces a
// suggestion, for the first hit of the next block.
func (t *textScanner) keepLast(b []byte) {
	end := len(b)
	for end > 0 {
		if b[end-1] == '\n' {
			end--
		}
		start := bytes.LastIndexByte(b[:end], '\n') + 1
		if l := b[start:end]; len(bytes.TrimSpace(l)) > 0 {
			t.lastLead = isLeadIn(l)
			return
		}
		end = start
	}
}

// line reads one line.
func (t *textScanner) line(n int, b []byte) {
	evidence := false
	if len(t.pending) > 0 {
		evidence = t.settle(n, b)
	}
	if isFence(b) {
		if !t.inFence {
			t.fenceLead = t.prevLead
			t.fenceCode = programCode(b)
		}
		t.inFence = !t.inFence
		return
	}
	if t.hits = t.a.m.find(b, t.hits[:0]); len(t.hits) > 0 {
		t.candidates(n, b, evidence)
	}
	if len(bytes.TrimSpace(b)) > 0 {
		t.prevLead = isLeadIn(b)
	}
}

// flush settles what still waits at the end of the input.
func (t *textScanner) flush() { t.pending = t.pending[:0] }

// settle checks line n against the findings waiting for output, and
// reports whether it was output of one of them.
func (t *textScanner) settle(n int, b []byte) bool {
	sh := shapeOf(b)
	used := false
	keep := t.pending[:0]
	for _, p := range t.pending {
		if n > p.until || sh.prompt || sh.trace {
			continue // a new command starts, or the window closed
		}
		hit := false
		for _, fam := range p.families {
			if shows(fam, b) {
				hit = true
				break
			}
		}
		if !hit {
			keep = append(keep, p)
			continue
		}
		f := &t.res.Findings[p.idx]
		f.Status = Executed
		f.Evidence = &Evidence{Line: n, Kind: "output", Text: clip(string(bytes.TrimSpace(b)))}
		used = true
	}
	t.pending = keep
	return used
}

// anchor is one program name found where it counts.
type anchor struct {
	from, to int
	family   string
}

// candidates reads a line that holds at least one anchor.
func (t *textScanner) candidates(n int, line []byte, wasEvidence bool) {
	sh := shapeOf(line)
	var anchors []anchor
	for _, h := range t.hits {
		if int(h.word) >= t.a.markers {
			continue // a fence not at the start of the line
		}
		if int(h.word) >= t.a.programs {
			if !wasEvidence {
				t.orphan(n, line, outputMarkers[int(h.word)-t.a.programs].command)
			}
			continue
		}
		word := t.a.m.words[h.word]
		from, to := h.end-len(word), h.end
		if !wordEnd(line, to) {
			continue
		}
		if from > 0 && line[from-1] == '/' {
			// A path: /usr/bin/git. The program starts with the path.
			for from > 0 && !isSpaceOrQuote(line[from-1]) {
				from--
			}
		} else if from > 0 && !wordStart(line[from-1]) {
			continue
		}
		// Commands are typed in lower case; "Git" and "Mail" in a sentence
		// are words. Another spelling counts only where a command starts
		// ("Rscript"), and for an everyday word only on a command line.
		exact := bytes.Equal(line[h.end-len(word):h.end], []byte(word))
		cmd := commandPosition(line, from, sh.start) && !(t.inFence && t.fenceCode)
		commandLine := sh.prompt || sh.trace || t.inFence && !t.fenceCode || sh.indented
		switch {
		case !exact && !(cmd && (commandLine || from > sh.start)):
			continue // a capital at the start of a sentence
		case proseWords(word) && !cmd:
			continue
		}
		anchors = append(anchors, anchor{from: from, to: to, family: t.a.family[word]})
	}
	if len(anchors) == 0 {
		return
	}
	t.seen = t.seen[:0]
	shellCode := t.inFence && !t.fenceCode || !t.inFence && sh.indented
	// The whole line, when it reads as a command line.
	if sh.prompt || sh.trace || shellCode || !(t.inFence && t.fenceCode) && t.firstWordIsCommand(line[sh.start:]) {
		t.try(n, line, sh, sh.start, len(line), anchors, true, false)
	}
	// Code spans: `git push`.
	t.spans = t.spans[:0]
	for i, c := range line {
		if c == '`' {
			t.spans = append(t.spans, i)
		}
	}
	for i := 0; i+1 < len(t.spans); i += 2 {
		from, to := t.spans[i]+1, t.spans[i+1]
		for _, a := range anchors {
			if a.from >= from && a.to <= to && !t.covered(a) {
				t.try(n, line, sh, from, to, anchors, false, false)
				break
			}
		}
	}
	// From each anchor not read yet: to the end of its sentence, and when
	// that is not shell text, to the first character that ends a command
	// in prose.
	for _, a := range anchors {
		if t.covered(a) {
			continue
		}
		end := sentenceEnd(line, a.to)
		if t.try(n, line, sh, a.from, end, anchors, false, true) == unclear {
			if cut := proseEnd(line[:end], a.to); cut < end {
				t.try(n, line, sh, a.from, cut, anchors, false, true)
			}
		}
	}
}

// outcome is what classifying a range said.
type outcome int8

const (
	// unclear: not held, and not shell text the classifier could read
	// whole (prose, a cut quote): a shorter range may still be a command.
	unclear outcome = iota
	// clear: read whole and neither external nor destructive.
	clear
	// held: reported (or inside a range that was).
	held
)

// covered reports whether an anchor lies in a range already read whole:
// "git commit -m 'then git push'" is a commit, and the push in its message
// is not looked at again.
func (t *textScanner) covered(a anchor) bool {
	for _, r := range t.seen {
		if a.from >= r.from && a.to <= r.to {
			return true
		}
	}
	return false
}

// try classifies line[from:to] and records a finding when it is held and
// not inside a range already reported. whole says the range is the line's
// command text after any prompt; prose, that it runs to the end of a
// sentence, whose final full stop or colon is tried without and then with
// ("run rm -rf ." ends with an argument).
func (t *textScanner) try(n int, line []byte, sh shape, from, to int, anchors []anchor, whole, prose bool) outcome {
	if prose {
		f, tr := trimRange(line, from, to, true)
		_, untrimmed := trimRange(line, from, to, false)
		// Only a full stop that stands alone may be an argument.
		if o := t.try(n, line, sh, f, tr, anchors, whole, false); o != unclear || tr == untrimmed || tr == f || line[tr-1] != ' ' {
			return o
		}
	}
	from, to = trimRange(line, from, to, false)
	if to-from > maxCommand {
		to = from + maxCommand
		if i := bytes.LastIndexByte(line[from:to], ' '); i > 0 {
			to = from + i
		}
	}
	if from >= to {
		return unclear
	}
	for _, r := range t.seen {
		if from >= r.from && to <= r.to {
			return r.outcome
		}
	}
	text := string(line[from:to])
	if t.a.quick.local(text, &t.words) {
		t.seen = append(t.seen, seen{span{from, to}, clear})
		return clear
	}
	v := t.s.decide(text)
	if !heldText(&v.Effect) {
		if !v.Effect.Opaque {
			t.seen = append(t.seen, seen{span{from, to}, clear})
			return clear
		}
		return unclear
	}
	t.seen = append(t.seen, seen{span{from, to}, held})
	var families []string
	for _, a := range anchors {
		if a.from >= from && a.to <= to {
			families = append(families, a.family)
		}
	}
	if len(families) == 0 {
		families = []string{"shell"} // not reached: every range tried holds an anchor
	}
	f := Finding{
		Source: t.res.Source, Line: n, Format: t.format, Status: Mentioned,
		Pattern: "text." + families[0],
		Action:  policy.Action{Kind: policy.Shell, Command: text},
		Verdict: *v,
	}
	lead := t.prevLead
	if t.inFence {
		lead = t.fenceLead
	}
	switch {
	case whole && sh.trace:
		f.Status, f.Evidence = Executed, &Evidence{Line: n, Kind: "trace", Text: clip(string(line))}
	case whole && sh.prompt && !lead:
		f.Status, f.Evidence = Executed, &Evidence{Line: n, Kind: "prompt", Text: clip(string(line))}
	}
	t.res.Findings = append(t.res.Findings, f)
	if f.Status == Mentioned {
		t.pending = append(t.pending, pending{idx: len(t.res.Findings) - 1, families: families, until: n + window})
	}
	for _, fam := range families {
		t.lastFamily[fam] = n
	}
	return held
}

// orphan reports a program's output seen without a command that explains
// it: a release script's log, a command run through a wrapper the text
// does not show.
func (t *textScanner) orphan(n int, line []byte, command string) {
	fam := strings.Fields(command)[0]
	if last, ok := t.lastFamily[t.a.family[fam]]; ok && n-last <= window {
		return
	}
	if last, ok := t.lastOrphan[command]; ok && n-last <= window {
		t.lastOrphan[command] = n
		return
	}
	t.lastOrphan[command] = n
	t.res.Findings = append(t.res.Findings, Finding{
		Source: t.res.Source, Line: n, Format: t.format, Status: Executed,
		Pattern:  "output." + strings.ReplaceAll(command, " ", "-"),
		Action:   policy.Action{Kind: policy.Shell, Command: command},
		Verdict:  *t.s.decide(command),
		Evidence: &Evidence{Line: n, Kind: "output", Text: clip(string(bytes.TrimSpace(line)))},
	})
}

// firstWordIsCommand reports whether text starts with a program the
// scanner knows or a wrapper that runs one.
func (t *textScanner) firstWordIsCommand(text []byte) bool {
	end := bytes.IndexAny(text, " \t")
	if end < 0 {
		end = len(text)
	}
	w := string(text[:end])
	if _, ok := t.a.family[path.Base(w)]; ok {
		return true
	}
	return isWrapper(w)
}

// keywords are shell words after which a command starts. Wrappers, the
// programs that run the command after them, are classify's one table
// (classify.IsWrapper), so the scanner and the classifier agree on them.
func keywords(name string) bool {
	switch name {
	case "then", "do", "else", "if", "while", "until", "!":
		return true
	}
	return false
}

// isWrapper reports whether a word of text runs the command after it.
func isWrapper(w string) bool {
	return keywords(w) || classify.IsWrapper(w)
}

// introducers are words that, in prose, come before a command: "then run
// rm -rf . to clean up".
func introducers(name string) bool {
	switch name {
	case "run", "ran", "running", "execute", "executed", "executing", "type", "typed", "invoke", "invoked",
		"call", "called", "try", "tried", "via", "with", "using":
		return true
	}
	return false
}

// commandPosition reports whether a program name at from starts a
// command: at the line's command start, after a shell operator, an
// opening quote or backtick, a wrapper word ("sudo", "nice -n 19",
// "timeout 10", "FOO=1"), whose options, numbers and assignments are
// passed over, or a verb that introduces a command in prose ("run").
func commandPosition(line []byte, from, start int) bool {
	i := from
	for {
		for i > start && (line[i-1] == ' ' || line[i-1] == '\t') {
			i--
		}
		if i <= start {
			return true
		}
		if opensCommand(line[i-1]) {
			return true
		}
		j := i
		for j > start && line[j-1] != ' ' && line[j-1] != '\t' && !opensCommand(line[j-1]) {
			j--
		}
		w := line[j:i]
		switch {
		case isWrapper(string(w)), introducers(string(w)):
			return true
		case w[0] == '-', isNumber(w), bytes.IndexByte(w, '=') > 0:
			i = j // an option, a count or an assignment: look further back
		default:
			return false
		}
	}
}

// opensCommand reports whether a command can start right after c.
func opensCommand(c byte) bool {
	switch c {
	case '`', '(', ';', '|', '&', '{', '\'', '"', '$':
		return true
	}
	return false
}

func isNumber(w []byte) bool {
	for _, c := range w {
		if (c < '0' || c > '9') && c != '.' && c != 's' && c != 'm' {
			return false
		}
	}
	return len(w) > 0
}

// wordEnd reports whether a program name ending at i ends a word there.
func wordEnd(line []byte, i int) bool {
	if i >= len(line) {
		return true
	}
	switch line[i] {
	case ' ', '\t', '\r', '`', '\'', '"', ';', '|', '&', ')', '<', '>', '}':
		return true
	}
	return false
}

// wordStart reports whether a program name may start after byte c.
func wordStart(c byte) bool {
	switch c {
	case ' ', '\t', '`', '\'', '"', '(', ';', '|', '&', '{', '$', '=', '[':
		return true
	}
	return false
}

func isSpaceOrQuote(c byte) bool {
	return c == ' ' || c == '\t' || c == '`' || c == '\'' || c == '"' || c == '(' || c == '='
}

// maxProse bounds the text read after a program name in prose: a command
// written into a sentence is short, and shell-parsing a whole paragraph
// for each name in it is what would make the scanner slow.
const maxProse = 400

// sentenceEnd is where the sentence holding a program name ends: at a
// full stop, question or exclamation mark followed by a space and a
// capital letter (so that "rm -rf . to clean" stays whole), at a
// semicolon and a space, or at the end of the line, and at most maxProse
// bytes on.
func sentenceEnd(line []byte, from int) int {
	end := len(line)
	if end-from > maxProse {
		end = from + maxProse
		if i := bytes.LastIndexByte(line[from:end], ' '); i > 0 {
			end = from + i
		}
	}
	for i := from; i+2 < end; i++ {
		switch line[i] {
		case '.', '!', '?':
			if line[i+1] == ' ' && line[i+2] >= 'A' && line[i+2] <= 'Z' {
				return i
			}
		case ';':
			// A clause ends; a command after it has a program name of its
			// own to be found by.
			if line[i+1] == ' ' {
				return i
			}
		}
	}
	return end
}

// programCode reports whether a fence line opens a block of program code
// in a language other than shell: its lines are not commands.
func programCode(fence []byte) bool {
	lang := bytes.TrimLeft(bytes.TrimLeft(fence, " \t"), "`~")
	if i := bytes.IndexAny(lang, " \t{,"); i >= 0 {
		lang = lang[:i]
	}
	return codeLanguages(string(bytes.ToLower(lang)))
}

// codeLanguages are fence languages whose lines are program code. Shell,
// console, text, YAML, Dockerfile and Makefile blocks hold commands.
func codeLanguages(name string) bool {
	switch name {
	case "go", "golang", "python", "py", "js", "javascript", "ts", "typescript", "jsx", "tsx", "rust",
		"rs", "java", "kotlin", "c", "cpp", "c++", "h", "cs", "csharp", "ruby", "rb", "json", "jsonc", "toml",
		"html", "css", "diff", "patch", "markdown", "md", "xml", "proto", "graphql", "swift", "php", "scala",
		"lua", "elixir", "haskell", "zig", "dart", "hcl", "sql", "svelte", "vue":
		return true
	}
	return false
}

// proseEnd is where a command quoted in prose most likely ends: at a
// backtick, a closing parenthesis, a comma, a quote, or a full stop or
// colon followed by a space.
func proseEnd(line []byte, from int) int {
	for i := from; i < len(line); i++ {
		switch line[i] {
		case '`', ')', ',', '"', '\'', ']':
			return i
		case '.', ':':
			if i+1 == len(line) || line[i+1] == ' ' {
				return i
			}
		}
	}
	return len(line)
}

// trimRange trims spaces from a range, and with punct, a sentence's final
// full stop or colon.
func trimRange(line []byte, from, to int, punct bool) (int, int) {
	for from < to && (line[from] == ' ' || line[from] == '\t') {
		from++
	}
	for to > from {
		c := line[to-1]
		if c != ' ' && c != '\t' && c != '\r' && !(punct && (c == '.' || c == ':')) {
			break
		}
		to--
	}
	return from, to
}
