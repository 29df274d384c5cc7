package classify

import (
	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/firstuse"
)

// Some programs write a file named by an option (git log --output=F,
// sort -o F, less -o F) or, told to edit in place, the files they are
// given (yq -i). Those files get the same rating as a redirection into
// them: a git hook or an agent's hook settings written this way is
// shared, as `> .git/hooks/pre-commit` is.

// outputOption is how a program names the file an option writes.
type outputOption struct {
	spec argv.Spec
	// names are the options whose value is the file written.
	names []string
}

var outputOptions = firstuse.Table[map[string]outputOption]{Build: func() map[string]outputOption {
	return map[string]outputOption{
		"git":  {argv.Spec{Short: "Cc", Long: []string{"--output", "--git-dir", "--work-tree", "--namespace", "--config-env"}, Abbrev: true}, []string{"--output"}},
		"sort": {argv.Spec{Short: "kStTo", Long: []string{"--output", "--key", "--field-separator", "--buffer-size", "--temporary-directory", "--compress-program", "--files0-from", "--batch-size", "--parallel", "--random-source", "--sort"}, Abbrev: true}, []string{"-o", "--output"}},
		"tree": {argv.Spec{Short: "LPIHo"}, []string{"-o"}},
		"less": {argv.Spec{Short: "bhjkpPtTxyzDoO#", Long: []string{"--log-file", "--LOG-FILE"}, Abbrev: true}, []string{"-o", "-O", "--log-file", "--LOG-FILE"}},
	}
}}

// OptionOutput is a file a run writes because of an option.
type OptionOutput struct {
	// Path is the file as written on the command line.
	Path string
	// Index is the argument holding it (counting the program name).
	Index int
}

// OptionOutputs returns the files a run writes through an option: the
// value of an output option, or every operand of an in-place edit.
func OptionOutputs(args []string) []OptionOutput {
	if len(args) == 0 {
		return nil
	}
	var out []OptionOutput
	if o, ok := outputOptions.Get()[args[0]]; ok {
		p := o.spec.Parse(args[1:])
		for _, f := range p.Flags {
			for _, n := range o.names {
				if f.Name == n && f.HasValue {
					out = append(out, OptionOutput{Path: f.Value, Index: f.ValueIndex + 1})
				}
			}
		}
	}
	if args[0] == "yq" && !ReadsOnlyRun(args) {
		// yq -i EXPR FILE...: the expression is no path, and any operand
		// may be the file edited.
		p := argv.Spec{Short: "oIps"}.Parse(args[1:])
		for k, o := range p.Operands {
			out = append(out, OptionOutput{Path: o, Index: p.OperandIndex[k] + 1})
		}
	}
	return out
}

// sedInPlace reports whether a sed run edits its files in place: -i in
// any cluster of short flags before a value flag (-Ei, -ni.bak), or any
// getopt_long prefix of --in-place (--in-pl, --i=.bak).
func sedInPlace(args []string) bool {
	w := writeOpts{short: "i", value: "efl", long: []string{"--in-place"}}
	return w.writes(args)
}
