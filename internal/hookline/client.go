package hookline

import (
	"fmt"
	"os"
	"path/filepath"
)

// ClientError says why the client beside airlock will not be used, so
// that the installer writes the in-process line and says why.
type ClientError struct {
	// Path is where the client was looked for.
	Path string
	// Why is what is wrong with it.
	Why string
}

func (e *ClientError) Error() string { return e.Path + ": " + e.Why }

// Client returns the hook client that sits beside the airlock binary at
// exe, when a hook line may run it: a regular file (not a symlink, which
// could be pointed elsewhere later), executable, owned by the owner of
// airlock or by root, and writable by nobody else (not group- or
// world-writable). The client runs as the fallback the airlock binary
// beside it (cmd/airlock-hook), so trusting it is trusting that
// directory, as the in-process line already does.
func Client(exe string) (string, error) {
	path := filepath.Join(filepath.Dir(exe), ClientName)
	fi, err := os.Lstat(path)
	if err != nil {
		if os.IsNotExist(err) {
			return "", &ClientError{Path: path, Why: "not installed"}
		}
		return "", &ClientError{Path: path, Why: err.Error()}
	}
	if !fi.Mode().IsRegular() {
		return "", &ClientError{Path: path, Why: "not a regular file (a symlink is refused)"}
	}
	if fi.Mode().Perm()&0o111 == 0 {
		return "", &ClientError{Path: path, Why: "not executable"}
	}
	if fi.Mode().Perm()&0o022 != 0 {
		return "", &ClientError{Path: path, Why: fmt.Sprintf("writable by others than its owner (mode %v)", fi.Mode().Perm())}
	}
	ai, err := os.Stat(exe)
	if err != nil {
		return "", &ClientError{Path: path, Why: "cannot read the airlock binary beside it: " + err.Error()}
	}
	if o, ok := owner(fi); ok {
		if a, _ := owner(ai); o != a && o != 0 {
			return "", &ClientError{Path: path, Why: fmt.Sprintf("owned by user %d, not by airlock's owner (%d) or root", o, a)}
		}
	}
	return path, nil
}
