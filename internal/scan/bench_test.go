package scan

import (
	"bytes"
	"sync"
	"testing"

	"github.com/airlock-dev/airlock/internal/scan/corpus"
)

var (
	corpusOnce           sync.Once
	textCorpus, trCorpus []byte
	corpusSize           int64 = 32 << 20
)

func corpora(b testing.TB) ([]byte, []byte) {
	corpusOnce.Do(func() {
		var t, tr bytes.Buffer
		if err := corpus.Text(&t, corpusSize, 1); err != nil {
			b.Fatal(err)
		}
		if err := corpus.Transcript(&tr, corpusSize, 1); err != nil {
			b.Fatal(err)
		}
		textCorpus, trCorpus = t.Bytes(), tr.Bytes()
	})
	return textCorpus, trCorpus
}

// BenchmarkText scans the synthetic plain-text corpus; the bar is 100 MB/s
// on one core.
func BenchmarkText(b *testing.B) {
	text, _ := corpora(b)
	benchScan(b, text, Text)
}

// BenchmarkTranscript scans the synthetic transcript; the bar is 20 MB/s.
func BenchmarkTranscript(b *testing.B) {
	_, tr := corpora(b)
	benchScan(b, tr, Transcript)
}

func benchScan(b *testing.B, data []byte, want Format) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	var findings int
	for i := 0; i < b.N; i++ {
		var s Scanner
		res, err := s.Scan(bytes.NewReader(data), "corpus")
		if err != nil {
			b.Fatal(err)
		}
		if res.Format != want {
			b.Fatalf("format %s, want %s", res.Format, want)
		}
		findings = len(res.Findings)
	}
	b.ReportMetric(float64(findings), "findings")
}

// BenchmarkMatcher is the prefilter alone: one pass of the anchor
// automaton over every line.
func BenchmarkMatcher(b *testing.B) {
	text, _ := corpora(b)
	m := getAnchors().m
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	var hits []hit
	for i := 0; i < b.N; i++ {
		rest := text
		for len(rest) > 0 {
			j := bytes.IndexByte(rest, '\n')
			if j < 0 {
				j = len(rest)
			}
			hits = m.find(rest[:j], hits[:0])
			rest = rest[min(j+1, len(rest)):]
		}
	}
}
