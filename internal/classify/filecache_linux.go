package classify

import (
	"io/fs"
	"syscall"
	"time"
)

// changeTime is the file's status change time (ctime), which no program
// can set: writing the file or setting its modification time (touch -d)
// moves it to now.
func changeTime(fi fs.FileInfo) (time.Time, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return time.Time{}, false
	}
	return time.Unix(st.Ctim.Sec, st.Ctim.Nsec), true
}
