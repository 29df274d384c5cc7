package claudecode

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/airlock-dev/airlock/internal/safefile"
)

// maxSettingsBytes bounds a settings file airlock edits: a project's
// checkout may hold a link to a device or a FIFO in its place.
const maxSettingsBytes = 16 << 20

// ReadSettings reads a settings file; a missing file reads as empty. It
// must be a regular file within maxSettingsBytes.
func ReadSettings(file string) ([]byte, error) {
	data, err := safefile.ReadRegular(file, safefile.ReadOptions{Limit: maxSettingsBytes})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return data, err
}

// WriteSettings replaces a settings file atomically, keeping its
// permissions: Claude Code reading it at the same moment sees the old or
// the new file, never half of one.
func WriteSettings(file string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	return safefile.Replace(file, data, safefile.Options{Perm: 0o644, KeepPerm: true})
}
