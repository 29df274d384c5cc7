//go:build linux

package run

import (
	"io/fs"
	"syscall"
	"time"
)

// changeTime is the file's status change time (ctime), which the kernel
// sets at every write, chmod, rename or link and no system call sets
// back; without it, the modification time.
func changeTime(fi fs.FileInfo) time.Time {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return time.Unix(st.Ctim.Sec, st.Ctim.Nsec)
	}
	return fi.ModTime()
}
