//go:build !unix

package safefile

import (
	"io"
	"os"
)

// readLimited opens name, refuses anything but a regular file and reads
// at most limit bytes (see ReadRegular); systems without FIFOs in the
// filesystem need no non-blocking open.
func readLimited(name string, limit int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, notRegularErr(name, info.Mode())
	}
	if info.Size() > limit {
		return nil, limitErr(name, info.Size(), limit)
	}
	// The size can change between the stat and the read: the limit is
	// enforced on what is read, too.
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, limitErr(name, -1, limit)
	}
	return data, nil
}
