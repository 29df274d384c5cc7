package policy

import (
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
)

// An archive extracted at the project's root (FINDINGS-4, the limit of
// H2): the project's own protected files (.claude/settings.json and the
// rest of its tails) sit beside ordinary work there, so the root is not
// refused whole, as a directory that holds airlock's files is. Where the
// archive is a file airlock can list (tar, plain or gzip or bzip2, zip
// and jar) within maxArchiveBytes and maxArchiveMembers, its members are
// read: one that lands on a protected tail, inside a protected
// directory, or climbs out with ".." is refused. An archive that cannot
// be listed (read from a pipe, xz or zstd, 7z, rar, cpio, larger than
// the limits, renamed by --transform) keeps the documented limit: it is
// not read, and the extraction is not refused for what it might hold
// (docs/THREAT-MODEL.md); contained, the kernel keeps those files
// read-only.

// archiveHit checks the members of the archive the run being checked
// extracts into dir against the protected tails there. ok false means
// the archive could not be listed.
func (c *call) archiveHit(name, dir, cwd string, tails []target) (*refusal, bool) {
	inv := c.inv
	if inv == nil {
		return nil, false
	}
	archive := ""
	strip := 0
	for i, a := range inv.Args {
		if a == "--transform" || a == "--xform" || strings.HasPrefix(a, "--transform=") || strings.HasPrefix(a, "--xform=") || a == "-s" && inv.Name() == "bsdtar" {
			return nil, false // members renamed as they are written
		}
		if v, ok := strings.CutPrefix(a, "--strip-components="); ok {
			n, err := strconv.Atoi(v)
			if err != nil || inv.IsDynamic(i) {
				return nil, false
			}
			strip = n
		}
		if a == "--strip-components" && i+1 < len(inv.Args) {
			n, err := strconv.Atoi(inv.Args[i+1])
			if err != nil || inv.IsDynamic(i+1) {
				return nil, false
			}
			strip = n
		}
	}
	for _, o := range inv.Operands {
		if o.Role == classify.RoleRead && o.Arg > 0 {
			if o.Dynamic || archive != "" {
				return nil, false
			}
			archive = o.Word
		}
	}
	if archive == "" || archive == "-" {
		return nil, false
	}
	file := filepath.Clean(c.g.rawAbs(archive, cwd))
	info, err := c.g.fs.Lstat(file)
	if err != nil || !info.Mode().IsRegular() || info.Size() > maxArchiveBytes {
		return nil, false
	}
	data, err := c.g.fs.ReadFile(file)
	if err != nil {
		return nil, false
	}
	members, ok := archiveMembers(data)
	if !ok {
		return nil, false
	}
	for _, m := range members {
		m = strings.TrimLeft(m, "/")
		parts := strings.Split(m, "/")
		if len(parts) <= strip {
			continue
		}
		m = strings.Join(parts[strip:], "/")
		clean := path.Clean(m)
		if clean == "." || clean == "" {
			continue
		}
		if clean == ".." || strings.HasPrefix(clean, "../") {
			return &refusal{RuleProtectedPath, name + " extracts " + archive + " in " + dir + ", and its member " + clipText(m) + " climbs out of it (..). Extract into a new directory of its own (mkdir x && tar xf a.tar -C x)." + instead}, true
		}
		p := filepath.Join(dir, filepath.FromSlash(clean))
		for _, t := range tails {
			if p == t.path || within(p, t) || isAncestor(p, t) && !strings.HasSuffix(m, "/") {
				return &refusal{RuleProtectedPath, name + " extracts " + archive + " in " + dir + ", and its member " + clipText(m) + " would replace " + t.path + " (" + t.kind.String() + "). Extract into a new directory of its own (mkdir x && tar xf a.tar -C x), or extract the members you need by name." + instead}, true
			}
		}
	}
	return nil, true
}

// archiveMembers lists the member names of an archive (listArchive).
func archiveMembers(data []byte) ([]string, bool) {
	ms, ok := listArchive(data)
	if !ok {
		return nil, false
	}
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.name
	}
	return out, true
}
