package rulemake

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"

	airlock "github.com/airlock-dev/airlock"
	"github.com/airlock-dev/airlock/internal/policy"
)

// Case is one labelled command of the corpus.
type Case struct {
	// File and Line locate it in the corpus.
	File string `json:"file"`
	Line int    `json:"line"`
	// Label is its labelled effect ("external+destructive").
	Label   string `json:"label"`
	Command string `json:"command"`
	Note    string `json:"note,omitempty"`
}

// Change is a corpus command whose decision a proposed rule changes.
type Change struct {
	Case
	Before policy.Decision `json:"before"`
	After  policy.Decision `json:"after"`
}

// Corpus reads the labelled corpus carried in the binary.
func Corpus() ([]Case, error) {
	var out []Case
	for _, name := range airlock.CorpusFiles {
		data, err := airlock.Corpus.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("rulemake: corpus: %w", err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for n := 1; sc.Scan(); n++ {
			line := sc.Text()
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			f := strings.Split(line, "\t")
			if len(f) < 2 {
				return nil, fmt.Errorf("rulemake: corpus %s:%d: want LABEL<TAB>COMMAND[<TAB>NOTE]", name, n)
			}
			c := Case{File: name, Line: n, Label: f[0], Command: unescape(f[1])}
			if len(f) > 2 {
				c.Note = f[2]
			}
			out = append(out, c)
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("rulemake: corpus %s: %w", name, err)
		}
	}
	return out, nil
}

// unescape undoes the corpus's \n, \t and \\ escapes.
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

// Compare decides every case under the policy before and after the rule,
// in mode, with no working directory (nothing on disk is read), and
// returns those whose decision changed: what else the rule would let
// through, or hold.
func Compare(cases []Case, before, after *policy.Policy, mode policy.Mode) []Change {
	var out []Change
	for _, c := range cases {
		a := policy.Action{Kind: policy.Shell, Tool: "Bash", Command: c.Command}
		b := before.DecideIn(mode, a).Decision
		n := after.DecideIn(mode, a).Decision
		if b != n {
			out = append(out, Change{Case: c, Before: b, After: n})
		}
	}
	return out
}

// Loosened are the changes that let through what was held before.
func Loosened(changes []Change) []Change {
	var out []Change
	for _, c := range changes {
		if c.Before.Holds() && !c.After.Holds() {
			out = append(out, c)
		}
	}
	return out
}
