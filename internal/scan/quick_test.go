package scan

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/classify"
	"github.com/airlock-dev/airlock/internal/scan/corpus"
	"github.com/airlock-dev/airlock/internal/shell"
)

// quickTexts gathers shell text from everywhere the project keeps some:
// the spec examples, the labelled corpus, the peer corpora, the scanner's
// fixtures and a generated corpus; and every suffix of each that starts
// at a word, as the scanner classifies text from a program name on.
func quickTexts(t testing.TB) []string {
	var texts []string
	for _, s := range classify.Specs() {
		for _, ex := range s.Examples {
			texts = append(texts, ex.Command)
		}
	}
	for _, file := range []string{
		filepath.Join("..", "..", "testdata", "corpus.tsv"),
		filepath.Join("..", "..", "..", "shared", "corpora", "dcg.tsv"),
		filepath.Join("..", "..", "..", "shared", "corpora", "safety-net.tsv"),
	} {
		data, err := os.ReadFile(file)
		if os.IsNotExist(err) && strings.Contains(file, "shared") {
			t.Logf("%s: not present, skipped", file)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if f := strings.Split(line, "\t"); len(f) >= 2 && !strings.HasPrefix(line, "#") {
				texts = append(texts, strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\\`, `\`).Replace(f[1]))
			}
		}
	}
	var gen bytes.Buffer
	if err := corpus.Text(&gen, 1<<20, 7); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "text", "*"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		gen.Write(data)
	}
	sc := bufio.NewScanner(&gen)
	for sc.Scan() {
		texts = append(texts, strings.TrimPrefix(sc.Text(), "$ "))
	}
	var out []string
	for _, text := range texts {
		out = append(out, text)
		for i := 1; i < len(text); i++ {
			if text[i-1] == ' ' && text[i] != ' ' {
				out = append(out, text[i:])
			}
		}
	}
	return out
}

// TestQuickAgreesWithClassify holds the quick path to the classifier: any
// text quick passes over as local must classify as local, not
// destructive, not opaque, the full way.
func TestQuickAgreesWithClassify(t *testing.T) {
	q := getAnchors().quick
	if q.specs["git"] == nil || q.specs["curl"] == nil {
		t.Fatal("quick path lost git or curl")
	}
	for _, wrapper := range []string{"ssh", "find"} {
		if q.specs[wrapper] != nil {
			t.Errorf("quick path takes %s, which package shell unwraps", wrapper)
		}
	}
	var eligible, total int
	for _, text := range quickTexts(t) {
		total++
		// The words must be the shell's, wherever the shell runs the
		// text as one plain program run.
		if words, ok := simpleWords(text, nil); ok && len(words) > 0 && q.specs[normName(words[0])] != nil {
			invs := shell.Parse(text)
			if len(invs) == 1 && invs[0].Opaque == "" && len(invs[0].Via) == 0 && len(invs[0].Env) == 0 {
				words[0] = normName(words[0])
				if !slices.Equal(words, invs[0].Args) {
					t.Errorf("%q: words %q, the shell's %q", text, words, invs[0].Args)
				}
			}
		}
		if !q.local(text, new([]string)) {
			continue
		}
		eligible++
		if e := classify.Command(text).Effect; e.Tier != classify.Local || e.Destructive || e.Opaque {
			t.Errorf("quick passes over %q, which classifies as %s %v", text, e.Label(), e.Reasons)
		}
	}
	t.Logf("%d texts, %d passed over by the quick path", total, eligible)
	if eligible == 0 {
		t.Error("the quick path passed over nothing")
	}
}

// FuzzQuick is the same agreement on arbitrary text:
//
//	go test -run XXX -fuzz FuzzQuick -fuzztime 10s ./internal/scan
func FuzzQuick(f *testing.F) {
	for _, s := range []string{"git commit -m 'x'", "kubectl get pods -n a", "curl -s http://localhost:8080", "npm test", "rm -f a", "git push"} {
		f.Add(s)
	}
	q := getAnchors().quick
	f.Fuzz(func(t *testing.T, text string) {
		if !q.local(text, new([]string)) {
			return
		}
		if e := classify.Command(text).Effect; e.Tier != classify.Local || e.Destructive || e.Opaque {
			t.Errorf("quick passes over %q, which classifies as %s %v", text, e.Label(), e.Reasons)
		}
	})
}
