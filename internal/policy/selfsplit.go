package policy

import "github.com/airlock-dev/airlock/internal/classify"

// outputPrefix checks the names split and csplit write: every name that
// starts with their prefix, in the prefix's directory. A protected file
// there whose name starts with the prefix may be one of the chunks
// (split -a1 f bin/airlock-hoo writes bin/airlock-hook as its 11th), so
// the prefix is checked as the glob PREFIX*.
func (c *call) outputPrefix(inv *classify.Invocation, op classify.OutputPrefix) *refusal {
	name := inv.Name()
	if op.Suffix != "" {
		return &refusal{RuleProtectedPath, name + " with the suffix " + clipText(op.Suffix) + " writes its chunks outside the prefix's directory; airlock cannot show they are not its own files." + instead}
	}
	word := op.Word
	if op.Index >= 0 && inv.IsDynamic(op.Index) {
		known, ok := c.g.known(word)
		if !ok {
			return c.dynamicWord(name+" (output prefix)", word, known)
		}
		word = known
	}
	for _, d := range c.cwds {
		if h, ok := c.pathHit(word+"*", d, false, true); ok {
			return c.pathRefusal(name+" (writing files named "+word+"…)", h)
		}
	}
	return nil
}
