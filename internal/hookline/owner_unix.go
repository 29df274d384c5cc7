//go:build unix

package hookline

import (
	"os"
	"syscall"
)

// owner is a file's owner's user id.
func owner(fi os.FileInfo) (uint32, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return st.Uid, true
}
