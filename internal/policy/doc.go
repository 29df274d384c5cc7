// Package policy turns what a command does into what airlock decides:
// allow, warn, ask, defer or deny, depending on the autonomy mode.
//
// The mode table here is the single place where tiers and flags meet
// decisions; user and project policy files refine it.
package policy
