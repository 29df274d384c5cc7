package journal

import (
	"fmt"
	"os"
	"path/filepath"
)

// QueueStamp names the state of the queue's postings in the index: their
// file's size and modification time. It changes when an action is held
// or found, or a human or a retry acts on one, and not with the allowed
// calls in between, so a view of the queue (the dashboard's table) can
// be kept while it stays the same and no approval in it expires. It
// costs one stat. "" when there is no queue yet or it cannot be read:
// the caller then reads the queue.
func (j *Journal) QueueStamp() string {
	st, err := os.Stat(filepath.Join(j.dir, indexDir, keyQueue))
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%d-%d", st.Size(), st.ModTime().UnixNano())
}
