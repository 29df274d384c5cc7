package shell

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkParseCorpus parses every command of testdata/corpus.tsv once
// per iteration: the cost value flow adds to the hook's every call.
//
//	go test -run XXX -bench ParseCorpus -benchtime 2000x ./internal/shell
func BenchmarkParseCorpus(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "corpus.tsv"))
	if err != nil {
		b.Fatal(err)
	}
	var cmds []string
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Split(line, "\t"); len(f) >= 2 && !strings.HasPrefix(line, "#") {
			cmds = append(cmds, strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\\`, `\`).Replace(f[1]))
		}
	}
	b.ResetTimer()
	for range b.N {
		for _, c := range cmds {
			Parse(c)
		}
	}
}

// BenchmarkParseAllowed parses a typical allowed command.
func BenchmarkParseAllowed(b *testing.B) {
	for range b.N {
		Parse("cd src && go test ./... 2>&1 | tail -20")
	}
}
