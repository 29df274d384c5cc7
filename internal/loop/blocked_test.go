package loop

import (
	"context"
	"strings"
	"testing"
	"time"
)

// A story whose agent exited 0 is done only when it ran at least one of
// the tool calls it tried; having tried some and run none, it is blocked,
// and its StoryEnd says why. Failures stay failures.
func TestAllRefusedIsBlockedNotDone(t *testing.T) {
	counts := map[string][2]int{"none": {0, 0}, "some": {3, 1}, "refused": {2, 0}, "fail": {2, 0}}
	rec := &memory{}
	r := runner(t, rec, nil)
	r.Calls = func(story string, since time.Time) (int, int) {
		if since.IsZero() {
			t.Errorf("story %s: counted since the zero time, not its start", story)
		}
		c := counts[story]
		return c[0], c[1]
	}
	r.Agent = []string{"sh", "-c", `test "$AIRLOCK_STORY" != fail`}
	sum, err := r.Run(context.Background(), []Story{{ID: "none"}, {ID: "some"}, {ID: "refused"}, {ID: "fail"}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Outcome{"none": Done, "some": Done, "refused": Blocked, "fail": Failed}
	for _, res := range sum.Results {
		if res.Outcome != want[res.Story.ID] {
			t.Errorf("story %s: %s, want %s", res.Story.ID, res.Outcome, want[res.Story.ID])
		}
		if c := counts[res.Story.ID]; res.Tried != c[0] || res.Ran != c[1] {
			t.Errorf("story %s: tried %d ran %d, want %v", res.Story.ID, res.Tried, res.Ran, c)
		}
	}
	found := false
	for _, ev := range rec.named(EventStoryEnd) {
		if ev.Story == "refused" {
			found = true
			if !strings.HasPrefix(ev.Note, "blocked: all 2 tool call(s) it tried were refused") {
				t.Errorf("StoryEnd note %q", ev.Note)
			}
		}
	}
	if !found {
		t.Error("no StoryEnd for the blocked story")
	}
}
