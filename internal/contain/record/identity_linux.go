//go:build linux

package record

import (
	"os"
	"syscall"
)

const nofollow = syscall.O_NOFOLLOW

// identity is a file's device, inode and change time.
func identity(st os.FileInfo) (dev, ino uint64, ctime int64, ok bool) {
	s, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, 0, false
	}
	return uint64(s.Dev), uint64(s.Ino), s.Ctim.Nano(), true
}
