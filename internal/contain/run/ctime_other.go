//go:build !linux

package run

import (
	"io/fs"
	"time"
)

// changeTime is the modification time where the status change time is
// not read (airlock run's review runs on Linux).
func changeTime(fi fs.FileInfo) time.Time { return fi.ModTime() }
