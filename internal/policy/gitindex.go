package policy

import (
	"bytes"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/binary"
	"strings"
)

// This file reads git's index (the staging area, .git/index): the
// paths git ls-files lists. Formats 2, 3 and 4 are read, with SHA-1 or
// SHA-256 object names; anything else (a split index, a malformed or
// truncated file) is not read, and the caller fails closed.

// maxIndexBytes bounds the index read; a larger one is not read.
const maxIndexBytes = 64 << 20

// indexEntry is one path of the index.
type indexEntry struct {
	path string
	// link: a symbolic link; below: the path stands for everything
	// below it (a sparse directory entry, a submodule).
	link, below bool
}

// parseIndex reads the entries of an index file.
func parseIndex(data []byte) ([]indexEntry, bool) {
	for _, oid := range []int{20, 32} {
		if out, ok := parseIndexOid(data, oid); ok {
			return out, true
		}
	}
	return nil, false
}

func parseIndexOid(data []byte, oid int) ([]indexEntry, bool) {
	if len(data) < 12+oid || string(data[:4]) != "DIRC" || !indexChecksum(data, oid) {
		return nil, false
	}
	version := binary.BigEndian.Uint32(data[4:8])
	if version < 2 || version > 4 {
		return nil, false
	}
	count := int(binary.BigEndian.Uint32(data[8:12]))
	end := len(data) - oid // the trailing checksum
	fixed := 40 + oid + 2  // stat data, object name, flags
	out := make([]indexEntry, 0, min(count, len(data)/fixed))
	off := 12
	prev := ""
	for range count {
		start := off
		if off+fixed > end {
			return nil, false
		}
		mode := binary.BigEndian.Uint32(data[off+24 : off+28])
		flags := binary.BigEndian.Uint16(data[off+40+oid : off+42+oid])
		off += fixed
		if flags&0x4000 != 0 {
			if version < 3 || off+2 > end {
				return nil, false
			}
			off += 2
		}
		nameLen := int(flags & 0x0fff)
		var path string
		if version == 4 {
			strip, n, ok := indexVarint(data[off:end])
			if !ok || strip > len(prev) {
				return nil, false
			}
			off += n
			nul := bytes.IndexByte(data[off:end], 0)
			if nul < 0 {
				return nil, false
			}
			path = prev[:len(prev)-strip] + string(data[off:off+nul])
			off += nul + 1
		} else {
			nul := bytes.IndexByte(data[off:end], 0)
			if nul < 0 || nameLen != 0x0fff && nul != nameLen {
				return nil, false
			}
			path = string(data[off : off+nul])
			// 1 to 8 NULs pad the entry to a multiple of 8 bytes.
			padded := start + (off+nul-start+8)&^7
			if padded > end {
				return nil, false
			}
			for _, b := range data[off+nul : padded] {
				if b != 0 {
					return nil, false
				}
			}
			off = padded
		}
		if path == "" || version == 4 && nameLen != 0x0fff && len(path) != nameLen {
			return nil, false
		}
		prev = path
		kind := mode >> 12
		out = append(out, indexEntry{
			path:  strings.TrimSuffix(path, "/"),
			link:  kind == 0o12,
			below: kind == 0o4 || kind == 0o16 || strings.HasSuffix(path, "/"),
		})
	}
	// Extensions: a split index keeps most entries in another file.
	for off+8 <= end {
		sig := string(data[off : off+4])
		size := int(binary.BigEndian.Uint32(data[off+4 : off+8]))
		if sig == "link" {
			return nil, false
		}
		if size < 0 || off+8+size > end {
			return nil, false
		}
		off += 8 + size
	}
	return out, off == end
}

// indexVarint reads git's offset encoding of a number (index format 4).
func indexVarint(b []byte) (int, int, bool) {
	if len(b) == 0 {
		return 0, 0, false
	}
	c := b[0]
	val := int(c & 0x7f)
	n := 1
	for c&0x80 != 0 {
		if n >= len(b) || n > 8 {
			return 0, 0, false
		}
		c = b[n]
		n++
		val = ((val + 1) << 7) | int(c&0x7f)
	}
	return val, n, true
}

// indexChecksum reports whether the index ends with the hash of what
// precedes it, in the object format of that length (or with zeros, when
// git was told to skip it: index.skipHash).
func indexChecksum(data []byte, oid int) bool {
	body, sum := data[:len(data)-oid], data[len(data)-oid:]
	if bytes.Count(sum, []byte{0}) == oid {
		return true
	}
	switch oid {
	case sha1.Size:
		h := sha1.Sum(body)
		return bytes.Equal(h[:], sum)
	case sha256.Size:
		h := sha256.Sum256(body)
		return bytes.Equal(h[:], sum)
	}
	return false
}
