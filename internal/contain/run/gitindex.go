package run

import (
	"encoding/binary"
	"io"
	"os"
	"path/filepath"
	"sync"
)

// trackedAtPlan opens the project's git index when the plan is made and
// reads it while the command runs, off the start's path: the set of
// paths git tracked before the run, which the review asks for after it.
// The index git rewrites inside is a new file (git writes index.lock and
// renames it), so the one opened here stays the one from before. A
// project without an index tracks nothing.
func trackedAtPlan(project string) func() map[string]bool {
	f, err := os.Open(filepath.Join(project, ".git", "index"))
	if err != nil {
		return func() map[string]bool { return map[string]bool{} }
	}
	ch := make(chan map[string]bool, 1)
	go func() {
		defer f.Close()
		if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
			ch <- map[string]bool{}
			return
		}
		ch <- indexPaths(f)
	}()
	return sync.OnceValue(func() map[string]bool { return <-ch })
}

// maxIndex bounds the index read (a repository of a million files has an
// index of about 100 MB; past the bound every file counts as untracked,
// which only names more files).
const maxIndex = 256 << 20

// indexPaths reads the paths of git's index file r (versions 2, 3 and
// 4, SHA-1 names) without running git, whose configuration the run may
// have changed. Anything else, or more than maxIndex bytes, gives an
// empty set: every executable is then named, which costs lines, not
// safety.
func indexPaths(r io.Reader) map[string]bool {
	out := map[string]bool{}
	b, err := io.ReadAll(io.LimitReader(r, maxIndex+1))
	if err != nil || len(b) > maxIndex || len(b) < 12 || string(b[:4]) != "DIRC" {
		return out
	}
	ver := binary.BigEndian.Uint32(b[4:])
	n := binary.BigEndian.Uint32(b[8:])
	if ver < 2 || ver > 4 {
		return out
	}
	const hashLen = 20
	pos := 12
	var prev []byte
	for i := uint32(0); i < n; i++ {
		start := pos
		if pos+40+hashLen+2 > len(b) {
			return map[string]bool{}
		}
		pos += 40 + hashLen
		flags := binary.BigEndian.Uint16(b[pos:])
		pos += 2
		if ver >= 3 && flags&0x4000 != 0 {
			pos += 2
		}
		var name []byte
		if ver == 4 {
			// The name is the previous one with N bytes dropped from its
			// end (N a varint) and a NUL-ended suffix added.
			strip, used := varint(b[pos:])
			if used == 0 || strip > len(prev) {
				return map[string]bool{}
			}
			pos += used
			end := indexNUL(b, pos)
			if end < 0 {
				return map[string]bool{}
			}
			name = append(append([]byte(nil), prev[:len(prev)-strip]...), b[pos:end]...)
			pos = end + 1
		} else {
			end := indexNUL(b, pos)
			if end < 0 {
				return map[string]bool{}
			}
			name = b[pos:end]
			// Entries are padded with 1 to 8 NULs to a multiple of 8.
			pos = start + ((end-start)+8)&^7
		}
		prev = name
		out[string(name)] = true
	}
	return out
}

func indexNUL(b []byte, from int) int {
	for i := from; i < len(b); i++ {
		if b[i] == 0 {
			return i
		}
	}
	return -1
}

// varint is git's offset encoding (each further byte adds one before
// shifting), as index version 4 writes the length to strip.
func varint(b []byte) (int, int) {
	if len(b) == 0 {
		return 0, 0
	}
	v := int(b[0] & 0x7f)
	i := 1
	for b[i-1]&0x80 != 0 {
		if i >= len(b) || v > 1<<24 {
			return 0, 0
		}
		v = ((v + 1) << 7) | int(b[i]&0x7f)
		i++
	}
	return v, i
}
