package classify

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// BenchmarkCorpus classifies every command of testdata/corpus.tsv and
// reports the median and 99th percentile time per command.
//
//	go test -run XXX -bench Corpus ./internal/classify
func BenchmarkCorpus(b *testing.B) { benchCorpus(b, "corpus.tsv") }

// BenchmarkOpenWorldCorpus is BenchmarkCorpus over
// testdata/corpus-openworld.tsv (issue 13).
func BenchmarkOpenWorldCorpus(b *testing.B) { benchCorpus(b, "corpus-openworld.tsv") }

func benchCorpus(b *testing.B, file string) {
	cases := readCorpus(b, filepath.Join("..", "..", "testdata", file))
	Command("warm up") // build the program index outside the timings
	times := make([]time.Duration, 0, b.N*len(cases))
	b.ResetTimer()
	for range b.N {
		for _, c := range cases {
			start := time.Now()
			Command(c.command)
			times = append(times, time.Since(start))
		}
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "median-ns/cmd")
	b.ReportMetric(float64(times[len(times)*99/100].Nanoseconds()), "p99-ns/cmd")
	b.ReportMetric(float64(times[len(times)-1].Nanoseconds()), "max-ns/cmd")
}

// adversarial inputs: each must answer (opaque, or classified) in
// milliseconds.
var adversarial = map[string]string{
	"nested-substitutions-5000": strings.Repeat("$(", 5000) + "git push" + strings.Repeat(")", 5000),
	"nested-backticks-2000":     strings.Repeat("`", 2000),
	"padding-64KiB":             "git push" + strings.Repeat(" ", 64<<10) + "origin main",
	"padding-64KiB-quoted":      "echo '" + strings.Repeat("a", 64<<10) + "' && git push",
	"oversize-1MiB":             strings.Repeat("a", 1<<20),
	"many-commands-1500":        strings.Repeat("git status; ", 1500),
	"nested-eval-40":            strings.Repeat("eval ", 40) + "git push",
	"nested-bash-c-10":          nestedBashC(10),
	"brace-bomb":                "echo " + strings.Repeat("{a,b}", 40),
	"long-pipeline-2000":        strings.Repeat("cat | ", 2000) + "sh",
	"deep-if-200":               strings.Repeat("if true; then ", 200) + "git push" + strings.Repeat("; fi", 200),
}

func nestedBashC(n int) string {
	s := "git push"
	for range n {
		s = `bash -c "` + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`) + `"`
	}
	return s
}

// BenchmarkAdversarial times each adversarial input.
//
//	go test -run XXX -bench Adversarial ./internal/classify
func BenchmarkAdversarial(b *testing.B) {
	for name, src := range adversarial {
		b.Run(name, func(b *testing.B) {
			for range b.N {
				Command(src)
			}
		})
	}
}

// TestAdversarialHeld: every adversarial input that carries a push is
// held, whatever limit it hits.
func TestAdversarialHeld(t *testing.T) {
	for name, src := range adversarial {
		r := Command(src)
		if strings.Contains(src, "git push") && !held(r.Effect) {
			t.Errorf("%s: got %s, want held", name, r.Label())
		}
	}
}
