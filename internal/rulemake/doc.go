// Package rulemake turns a human's decision on a held action into a
// policy rule: it proposes the rule (propose.go), shows what else the rule
// would let through on the labelled corpus (corpus.go), and writes it into
// the user's policy file keeping everything else in it (write.go).
//
// Nothing here decides whether a rule may be written: the callers (the
// CLI's "rule add" and "queue approve --always", the dashboard) are human
// verbs that self-protection denies to the agent, and they write only
// after the human confirmed what this package showed.
package rulemake
