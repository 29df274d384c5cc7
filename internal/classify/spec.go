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
	indexOnce sync.Once
	// specs and index are built from the table (specs.go) on first use.
	specs []*Spec
	index map[string]*Spec
)

// specFor returns the spec that rates the named program, or nil.
func specFor(name string) *Spec {
	indexOnce.Do(func() {
		specs = buildSpecs()
		index = make(map[string]*Spec, 4*len(specs))
		for _, s := range specs {
			for _, p := range s.Programs {
				if _, dup := index[p]; dup {
					panic("classify: two specs claim program " + p)
				}
				index[p] = s
			}
		}
	})
	return index[name]
}

// Specs returns every spec, in the order of the table (specTable), for
// documentation, the prompt's examples, the scanner and tests.
func Specs() []*Spec {
	specFor("")
	return specs
}
