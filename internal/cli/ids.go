package cli

import (
	"fmt"
	"strconv"
)

// minActionPrefix is the fewest characters of a queue id that approve,
// reject and run accept. Ids are 8 hex digits; a prefix of one or two
// matches whichever item happens to be alone with it today, so a typo or
// a stale id from yesterday's list could settle the wrong item. Four hex
// digits make that a one in 65536 accident. show and the other read-only
// commands take any unique prefix.
const minActionPrefix = 4

// checkIDPrefix refuses an id prefix too short to act on.
func checkIDPrefix(sub, id string) error {
	if len(id) >= minActionPrefix {
		return nil
	}
	return &usageError{
		Msg:   fmt.Sprintf("queue %s needs at least %s of the id, got %q", sub, plural(minActionPrefix, "character"), id),
		Hints: []string{"airlock queue list shows the ids"},
	}
}

// plural spells a count with its noun: "1 item", "2 items", "0 items".
func plural(n int, noun string) string {
	s := strconv.Itoa(n) + " " + noun
	if n != 1 {
		s += "s"
	}
	return s
}

// pluralVerb spells a count with the singular or the plural words that
// follow it: "1 item awaits", "2 items await".
func pluralVerb(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
