package cli

import (
	"testing"

	"github.com/airlock-dev/airlock/internal/statusline"
)

// TestStatusLineFindsTheJournal: the status line finds the journal's
// directory without linking the policy; both must name the same place.
func TestStatusLineFindsTheJournal(t *testing.T) {
	for _, vars := range []map[string]string{
		{"HOME": "/h"},
		{"HOME": "/h", "XDG_STATE_HOME": "/x/state"},
		{"HOME": "/h", "XDG_STATE_HOME": "/x/state", "AIRLOCK_HOME": "/a"},
		{"AIRLOCK_HOME": "/a"},
		{},
	} {
		getenv := func(k string) string { return vars[k] }
		e := &env{getenv: getenv}
		if got, want := statusline.JournalDir(getenv), journalDir(e); got != want {
			t.Errorf("%v: the status line reads %q, the journal is %q", vars, got, want)
		}
	}
}
