package classify

import (
	"sync"

	"github.com/airlock-dev/airlock/internal/shell"
)

// Spec is what airlock knows about one family of programs.
type Spec struct {
	// Programs are the normalised program names the spec rates.
	Programs []string
	// Classify rates one invocation of one of the programs. It never sees
	// an opaque invocation. Calls may use c to classify shell text found
	// inside the invocation (an interpreter's system() call).
	Classify func(c *Classifier, inv *shell.Invocation) Effect
	// Examples are commands and the labels they must get (see ParseLabel).
	// Every spec ships positive and negative examples.
	Examples []Example
}

// Example is one command and the label it must classify as.
type Example struct {
	Command string
	Label   string
}

var (
	specsOnce sync.Once
	// specs is built from the table (specs.go) on first use.
	specs []*Spec
)

// specFor returns the spec that rates the named program, or nil. The
// program's place in the table is a switch (specIndex, generated from the
// table), not a map built from it: a map of every program name was built
// by the first classification of every process, and a name no spec claims
// (ls, cd, echo) is answered without building the table at all.
func specFor(name string) *Spec {
	i := specIndex(name)
	if i < 0 {
		return nil
	}
	return Specs()[i]
}

// Specs returns every spec, in the order of the table (specTable), for
// documentation, the prompt's examples, the scanner and tests.
func Specs() []*Spec {
	specsOnce.Do(func() { specs = buildSpecs() })
	return specs
}
