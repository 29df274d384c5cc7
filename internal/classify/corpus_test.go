package classify

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// corpusCase is one labelled command from a TSV corpus.
type corpusCase struct {
	line    int
	label   string
	command string
	note    string
}

// readCorpus reads a TSV file of LABEL<TAB>COMMAND<TAB>NOTE lines, with
// \n, \t and \\ escapes in the command.
func readCorpus(t testing.TB, path string) []corpusCase {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("corpus: %v", err)
	}
	defer f.Close()
	var out []corpusCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) < 2 {
			t.Fatalf("%s:%d: want LABEL<TAB>COMMAND[<TAB>NOTE]", path, n)
		}
		c := corpusCase{line: n, label: fields[0], command: unescape(fields[1])}
		if len(fields) > 2 {
			c.note = fields[2]
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case 'n':
				b.WriteByte('\n')
				i++
				continue
			case 't':
				b.WriteByte('\t')
				i++
				continue
			case '\\':
				b.WriteByte('\\')
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// held reports whether the seed mode table holds an effect in every mode:
// external, destructive and opaque commands are never allowed unasked.
func held(e Effect) bool {
	return e.Tier == External || e.Destructive || e.Opaque
}

// TestCorpus checks every labelled command of testdata/corpus.tsv.
func TestCorpus(t *testing.T) {
	cases := readCorpus(t, filepath.Join("..", "..", "testdata", "corpus.tsv"))
	if len(cases) < 400 {
		t.Fatalf("corpus has %d cases, want at least 400", len(cases))
	}
	bad := 0
	for _, c := range cases {
		want, err := ParseLabel(c.label)
		if err != nil {
			t.Errorf("corpus.tsv:%d: %v", c.line, err)
			continue
		}
		got := Command(c.command)
		if got.Label() != want.Label() {
			bad++
			t.Errorf("corpus.tsv:%d: %s\n  got  %s %v\n  want %s (%s)", c.line, c.command, got.Label(), got.Reasons, want.Label(), c.note)
		}
	}
	t.Logf("%d of %d corpus cases agree", len(cases)-bad, len(cases))
}

// peerScore is recall and false positives of airlock against one peer
// corpus.
type peerScore struct {
	name                   string
	blockRows, blockHeld   int
	allowRows, allowHeld   int
	byDesign, customRows   int
	misses, falsePositives []string
	designRows             []string
}

func scorePeer(t testing.TB, name, blockWord string) peerScore {
	s := peerScore{name: name}
	for _, c := range readCorpus(t, filepath.Join("..", "..", "testdata", "peer", name)) {
		if strings.Contains(c.note, "rules-custom") {
			// These rows test rules a user configured in that tool (block
			// git add, npm install -g), not its default policy.
			s.customRows++
			continue
		}
		r := Command(c.command)
		switch c.label {
		case blockWord:
			s.blockRows++
			if held(r.Effect) {
				s.blockHeld++
			} else {
				s.misses = append(s.misses, fmt.Sprintf("%s:%d %q got %s", name, c.line, c.command, r.Label()))
			}
		case "allow":
			if !held(r.Effect) {
				s.allowRows++
				continue
			}
			if why := heldByDesign(r); why != "" {
				s.byDesign++
				s.designRows = append(s.designRows, fmt.Sprintf("%s:%d %q: %s", name, c.line, c.command, why))
				continue
			}
			s.allowRows++
			s.allowHeld++
			s.falsePositives = append(s.falsePositives, fmt.Sprintf("%s:%d %q got %s %v", name, c.line, c.command, r.Label(), reasonRules(r.Reasons)))
		}
	}
	return s
}

// designHolds names the rules whose holds are airlock's policy rather than
// a mistake, with the reason written in docs/CORPORA.md.
var designHolds = map[string]string{
	"rm.recursive":    "recursive delete of a project path: airlock sides with dcg (rm -rf ./build is destructive); allow build directories by rule",
	"container.prune": "docker prune deletes images and volumes: issue 2 lists it as destructive",
	"git.reset.hard":  "git reset --hard discards work in any worktree",
	"git.unknown":     "unknown git subcommands may be aliases (issue 2: opaque)",
	"shell.opaque":    "unparsable text or a computed command name: invariant 1 fails closed",
	"git.alias":       "inline alias definitions are opaque (issue 2)",
	"rm.bulk":         "find -exec rm, xargs rm and rm in a loop delete files chosen at run time in bulk (issue 13)",
}

// heldByDesign says why airlock holds a peer's allow row on purpose: the
// row publishes (airlock holds every publication), or every reason that
// holds it is one of designHolds.
func heldByDesign(r Result) string {
	if r.Tier == External {
		return "publication: airlock holds every external write"
	}
	why := ""
	for _, inv := range r.Invocations {
		if !held(inv.Effect) {
			continue
		}
		for _, reason := range inv.Effect.Reasons {
			d, ok := designHolds[reason.Rule]
			if !ok {
				return ""
			}
			why = d
		}
	}
	return why
}

func reasonRules(rs []Reason) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Rule)
	}
	sort.Strings(out)
	return out
}

// TestPeerCorpora measures recall on the peers' deny/block rows and false
// positives on their allow rows (leaving out rows airlock holds by design
// because they publish), and fails below 97 % recall or above 3 % false
// positives.
func TestPeerCorpora(t *testing.T) {
	for _, p := range []struct{ file, block string }{{"dcg.tsv", "deny"}, {"safety-net.tsv", "block"}} {
		s := scorePeer(t, p.file, p.block)
		recall := float64(s.blockHeld) / float64(s.blockRows)
		fp := float64(s.allowHeld) / float64(s.allowRows)
		t.Logf("%s: recall %.1f%% (%d/%d), false positives %.1f%% (%d/%d), %d more allow rows held by design, %d custom-rule rows left out", s.name, 100*recall, s.blockHeld, s.blockRows, 100*fp, s.allowHeld, s.allowRows, s.byDesign, s.customRows)
		for _, m := range s.misses {
			t.Logf("  miss: %s", m)
		}
		for _, f := range s.falsePositives {
			t.Logf("  false positive: %s", f)
		}
		for _, d := range s.designRows {
			t.Logf("  held by design: %s", d)
		}
		if recall < 0.97 {
			t.Errorf("%s: recall %.1f%% is below 97%%", s.name, 100*recall)
		}
		if fp > 0.03 {
			t.Errorf("%s: false positives %.1f%% are above 3%%", s.name, 100*fp)
		}
	}
}

// TestOpenWorldCorpus checks testdata/corpus-openworld.tsv (issue 13):
// labelled before its specs were written, classified without a
// filesystem. Every label must match exactly.
func TestOpenWorldCorpus(t *testing.T) {
	cases := readCorpus(t, filepath.Join("..", "..", "testdata", "corpus-openworld.tsv"))
	if len(cases) < 300 {
		t.Fatalf("open-world corpus has %d cases, want at least 300", len(cases))
	}
	bad, toHold, heldN, benign, fp := 0, 0, 0, 0, 0
	for _, c := range cases {
		want, err := ParseLabel(c.label)
		if err != nil {
			t.Errorf("corpus-openworld.tsv:%d: %v", c.line, err)
			continue
		}
		got := Command(c.command)
		if held(want) {
			toHold++
			if held(got.Effect) {
				heldN++
			}
		} else {
			benign++
			if held(got.Effect) {
				fp++
			}
		}
		if got.Label() != want.Label() {
			bad++
			t.Errorf("corpus-openworld.tsv:%d: %s\n  got  %s %v\n  want %s (%s)", c.line, c.command, got.Label(), got.Reasons, want.Label(), c.note)
		}
	}
	t.Logf("%d of %d agree; held %d of %d to hold; %d of %d benign held", len(cases)-bad, len(cases), heldN, toHold, fp, benign)
}

// heldOutOpen lists the held-out cases still settled against airlock:
// the label is right and the classifier is wrong, with the reason it is
// not fixed yet. The test fails when one of them starts to agree, so the
// list only shrinks. docs/CORPORA.md keeps the same list.
var heldOutOpen = map[string]string{}

// TestHeldOutCorpus checks testdata/corpus-heldout.tsv (issue 13): a second
// set of cases written and labelled blind by another session, before it
// read the classifier, classified without a filesystem. Every label must
// match exactly, except the open cases above; docs/CORPORA.md records how
// the disagreements were settled.
func TestHeldOutCorpus(t *testing.T) {
	cases := readCorpus(t, filepath.Join("..", "..", "testdata", "corpus-heldout.tsv"))
	if len(cases) < 320 {
		t.Fatalf("held-out corpus has %d cases, want at least 320", len(cases))
	}
	bad, toHold, heldN, benign, fp, open := 0, 0, 0, 0, 0, 0
	for _, c := range cases {
		want, err := ParseLabel(c.label)
		if err != nil {
			t.Errorf("corpus-heldout.tsv:%d: %v", c.line, err)
			continue
		}
		got := Command(c.command)
		if held(want) {
			toHold++
			if held(got.Effect) {
				heldN++
			}
		} else {
			benign++
			if held(got.Effect) {
				fp++
			}
		}
		why, isOpen := heldOutOpen[c.command]
		switch {
		case got.Label() == want.Label() && isOpen:
			t.Errorf("corpus-heldout.tsv:%d: %s now agrees (%s): remove it from heldOutOpen and docs/CORPORA.md", c.line, c.command, want.Label())
		case got.Label() != want.Label() && isOpen:
			open++
			t.Logf("open: corpus-heldout.tsv:%d: %s: got %s, want %s: %s", c.line, c.command, got.Label(), want.Label(), why)
		case got.Label() != want.Label():
			bad++
			t.Errorf("corpus-heldout.tsv:%d: %s\n  got  %s %v\n  want %s (%s)", c.line, c.command, got.Label(), got.Reasons, want.Label(), c.note)
		}
	}
	if open != len(heldOutOpen) {
		t.Errorf("%d open cases found in the corpus, heldOutOpen lists %d", open, len(heldOutOpen))
	}
	t.Logf("%d of %d agree (%d open); held %d of %d to hold; %d of %d benign held", len(cases)-bad-open, len(cases), open, heldN, toHold, fp, benign)
}
