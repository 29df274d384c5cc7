package policy

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"strings"
)

// One reader of the archives an extraction names, for the two checks
// that look inside them: where members land (selfarchive.go) and which
// links they make (selfmadelinks.go).

const (
	// maxArchiveBytes bounds the archive file read.
	maxArchiveBytes = 64 << 20
	// maxArchiveExpand bounds how much a compressed tar may expand to
	// while its headers are read.
	maxArchiveExpand = 8 * maxArchiveBytes
	// maxArchiveMembers bounds the members listed.
	maxArchiveMembers = 20000
	// maxZipLinkTarget bounds a zip symlink's target (its content).
	maxZipLinkTarget = 4096
)

// archiveMember is one member of an archive: its name as stored, and for
// a link, its kind and target ("" for a hard link, which the extraction
// resolves).
type archiveMember struct {
	name     string
	dir      bool
	symlink  bool
	hardlink bool
	target   string
}

// listArchive lists a tar (plain, gzip, bzip2) or zip archive; false when
// it is another format or cannot be read whole within the limits.
func listArchive(data []byte) ([]archiveMember, bool) {
	switch {
	case bytes.HasPrefix(data, []byte("PK\x03\x04")) || bytes.HasPrefix(data, []byte("PK\x05\x06")):
		return zipMembers(data)
	case bytes.HasPrefix(data, []byte{0x1f, 0x8b}):
		r, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, false
		}
		return tarMembers(io.LimitReader(r, maxArchiveExpand))
	case bytes.HasPrefix(data, []byte("BZh")):
		return tarMembers(io.LimitReader(bzip2.NewReader(bytes.NewReader(data)), maxArchiveExpand))
	case len(data) > 262 && string(data[257:262]) == "ustar":
		return tarMembers(bytes.NewReader(data))
	}
	return nil, false
}

func tarMembers(r io.Reader) ([]archiveMember, bool) {
	tr := tar.NewReader(r)
	var out []archiveMember
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return out, true
		}
		if err != nil || len(out) >= maxArchiveMembers {
			return nil, false
		}
		m := archiveMember{name: h.Name, dir: h.Typeflag == tar.TypeDir}
		switch h.Typeflag {
		case tar.TypeSymlink:
			m.symlink, m.target = true, h.Linkname
		case tar.TypeLink:
			m.hardlink = true
		}
		if m.dir && !strings.HasSuffix(m.name, "/") {
			m.name += "/"
		}
		out = append(out, m)
	}
}

func zipMembers(data []byte) ([]archiveMember, bool) {
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil || len(z.File) > maxArchiveMembers {
		return nil, false
	}
	out := make([]archiveMember, 0, len(z.File))
	for _, f := range z.File {
		m := archiveMember{name: f.Name, dir: strings.HasSuffix(f.Name, "/")}
		if f.Mode()&fs.ModeSymlink != 0 {
			if f.UncompressedSize64 > maxZipLinkTarget {
				return nil, false
			}
			rc, err := f.Open()
			if err != nil {
				return nil, false
			}
			t, err := io.ReadAll(io.LimitReader(rc, maxZipLinkTarget+1))
			rc.Close()
			if err != nil {
				return nil, false
			}
			m.symlink, m.target = true, string(t)
		}
		out = append(out, m)
	}
	return out, true
}
