package classify

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
)

// split and csplit do not write the path they are given: they write
// files whose names start with it (split f out. writes out.aa, out.ab,
// ...; csplit -f out. f 3 writes out.00, out.01). A prefix is therefore
// every name that starts with it, in its directory.

var (
	splitSpec = argv.Spec{Short: "abClnt", Long: []string{"--suffix-length", "--bytes", "--line-bytes", "--lines",
		"--number", "--additional-suffix", "--filter", "--separator", "--numeric-suffixes", "--hex-suffixes"}, Abbrev: true}
	csplitSpec = argv.Spec{Short: "bfn", Long: []string{"--suffix-format", "--prefix", "--digits"}, Abbrev: true}
)

// OutputPrefix is the start of the names split or csplit writes.
type OutputPrefix struct {
	// Word is the prefix as written ("x" or "xx" when none is given).
	Word string
	// Index is the argument holding it (counting the program name), or
	// -1 for the default prefix.
	Index int
	// Suffix is a suffix or suffix format with a directory separator
	// (csplit -b '/x%d'): the names then leave the prefix's directory.
	Suffix string
}

// OutputPrefixes returns the output name prefix of a split or csplit run,
// and false for other programs.
func OutputPrefixes(args []string) (OutputPrefix, bool) {
	if len(args) == 0 {
		return OutputPrefix{}, false
	}
	var p argv.Parsed
	var out OutputPrefix
	switch args[0] {
	case "split":
		p = splitSpec.Parse(args[1:])
		out = OutputPrefix{Word: "x", Index: -1}
		if len(p.Operands) >= 2 {
			out.Word, out.Index = p.Operands[1], p.OperandIndex[1]+1
		}
		if f, ok := p.Last("--additional-suffix"); ok && strings.Contains(f.Value, "/") {
			out.Suffix = f.Value
		}
	case "csplit":
		p = csplitSpec.Parse(args[1:])
		out = OutputPrefix{Word: "xx", Index: -1}
		if f, ok := p.Last("-f", "--prefix"); ok {
			out.Word, out.Index = f.Value, f.ValueIndex+1
		}
		if f, ok := p.Last("-b", "--suffix-format"); ok && strings.Contains(f.Value, "/") {
			out.Suffix = f.Value
		}
	default:
		return OutputPrefix{}, false
	}
	return out, true
}
