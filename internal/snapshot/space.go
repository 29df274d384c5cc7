package snapshot

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// incomingPrefix names the quarantine directories under a store's
// objects/ where a snapshot being taken writes its objects.
const incomingPrefix = "incoming-"

// checkSpace refuses a snapshot of size bytes that would leave less than
// the reserve free on the store's filesystem. The bytes stored are at
// most the bytes taken: objects are written uncompressed, and git's
// headers are a few bytes each.
func (s *Store) checkSpace(store string, size int64) error {
	reserve := s.Reserve
	switch {
	case reserve < 0:
		return nil
	case reserve == 0:
		reserve = DefaultReserve
	}
	free, ok := freeBytes(store)
	if !ok {
		return nil // this system cannot say; the quarantine still cleans up
	}
	if free-size < reserve {
		return fmt.Errorf("%w: %s free on the store's disk, the snapshot needs %s and the store keeps %s in reserve (airlock snapshots prune --now frees old snapshots)",
			ErrNoSpace, mib(free), mib(size), mib(reserve))
	}
	return nil
}

func mib(n int64) string {
	if n < 0 {
		n = 0
	}
	return fmt.Sprintf("%d MiB", n>>20)
}

// migrate moves the loose objects of a quarantine directory into the
// store's objects directory. An object the store has already is the same
// bytes (its name is its hash) and is left where it is.
func migrate(quarantine, objects string) error {
	entries, err := os.ReadDir(quarantine)
	if err != nil {
		return err
	}
	for _, d := range entries {
		if !d.IsDir() || len(d.Name()) != 2 {
			continue // git writes loose objects only, under xx/
		}
		src := filepath.Join(quarantine, d.Name())
		dst := filepath.Join(objects, d.Name())
		if err := os.MkdirAll(dst, 0o755); err != nil {
			return err
		}
		objs, err := os.ReadDir(src)
		if err != nil {
			return err
		}
		for _, o := range objs {
			to := filepath.Join(dst, o.Name())
			if _, err := os.Lstat(to); err == nil {
				continue
			}
			if err := os.Rename(filepath.Join(src, o.Name()), to); err != nil && !errors.Is(err, fs.ErrExist) {
				return err
			}
		}
	}
	return nil
}

// dropIncoming removes the quarantine directories a killed snapshot left
// behind: those older than twice the longest a snapshot may take, or,
// with now, those older than a few seconds (a snapshot being taken at
// this moment keeps its own).
func (s *Store) dropIncoming(now bool) {
	age := 2 * DefaultTimeout
	if s.Timeout > DefaultTimeout {
		age = 2 * s.Timeout
	}
	if now {
		age = 5 * time.Second
	}
	stores, _ := filepath.Glob(filepath.Join(s.StateDir, "snapshots", "*", "objects", incomingPrefix+"*"))
	for _, dir := range stores {
		info, err := os.Lstat(dir)
		if err != nil || !info.IsDir() || !strings.HasPrefix(filepath.Base(dir), incomingPrefix) {
			continue
		}
		if s.now().Sub(info.ModTime()) > age {
			_ = os.RemoveAll(dir)
		}
	}
}
