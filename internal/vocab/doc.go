// Package vocab is the words every layer of airlock shares: the kinds of
// action an agent takes, the decisions airlock answers, the modes a human
// watches in, the events an entry point hands over and the stages that
// decide. It is a leaf: it imports nothing of airlock's, so the journal,
// the adapters, the pipeline and the policy can all speak it without
// importing one another.
//
// The policy package keeps aliases of these types (policy.Decision is
// vocab.Decision), so code written against the old names still compiles.
package vocab
