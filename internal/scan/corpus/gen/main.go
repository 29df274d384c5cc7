// Command gen writes a benchmark corpus for bench/scan-vs-grep.sh, or
// prints one extended regular expression per scanned family, for the grep
// loop the scanner is compared with.
//
//	go run ./internal/scan/corpus/gen -kind text -size 200 -o corpus.txt
//	go run ./internal/scan/corpus/gen -kind transcript -size 200 -o corpus.jsonl
//	go run ./internal/scan/corpus/gen -families
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/airlock-dev/airlock/internal/scan"
	"github.com/airlock-dev/airlock/internal/scan/corpus"
)

func main() {
	kind := flag.String("kind", "text", "corpus `kind`: text or transcript")
	size := flag.Int64("size", 100, "size in `MiB`")
	seed := flag.Int64("seed", 1, "random seed")
	out := flag.String("o", "", "output `file`")
	families := flag.Bool("families", false, "print one grep -E pattern per scanned family and exit")
	flag.Parse()
	if *families {
		for _, f := range scan.Families() {
			fmt.Printf("(^|[^[:alnum:]_.-])(%s)([[:space:]]|$)\n", strings.ReplaceAll(strings.Join(f.Programs, "|"), ".", "\\."))
		}
		return
	}
	if *out == "" {
		fmt.Fprintln(os.Stderr, "gen: -o FILE is required")
		os.Exit(2)
	}
	f, err := os.Create(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	write := corpus.Text
	if *kind == "transcript" {
		write = corpus.Transcript
	}
	if err := write(f, *size<<20, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	if err := f.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
