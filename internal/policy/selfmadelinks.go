package policy

import (
	"bufio"
	"path/filepath"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
)

// This file is the phase of self-protection for symbolic links a command
// makes before it uses them (FINDINGS-5 L5): tar xf evil.tar && cat
// s9/serve.token, where s9 is a member linking to airlock's secrets;
// git apply of a diff that creates a link. The links an archive or a
// patch makes are read at decision
// time where that is possible within limits (a tar, gzip'd or bzip2'd,
// or a zip archive; a patch file's "new file mode 120000"): each becomes a
// link of the command's own, resolved like one ln makes. Where it is not
// (an archive in another format or past the limits, an archive or a
// patch from a pipe), every path
// below the directory written in may be a link whose target is known only
// when it runs: a later read or write through one is refused by the
// resolver (fail closed), and a path outside is checked as before. The
// trees a git checkout, merge, local pull or clone writes are read from
// the repository (selfgitlinks.go), and Python's archive modules are read
// like tar (selfpyextract.go).

// madeLinks records the links a run makes that later runs of the command
// may go through.
func (c *call) madeLinks(inv *classify.Invocation, cwd string) {
	name := inv.Name()
	if name == "git" {
		sub, rest, ok := classify.GitSubcommand(inv.Args[1:])
		if !ok {
			return
		}
		if sub == "apply" || sub == "am" {
			c.patchLinks(inv, cwd, patchFiles(rest))
			return
		}
		// A tree checked out, merged or cloned: read from the
		// repository (selfgitlinks.go).
		c.gitLinks(inv, sub, rest, cwd)
		return
	}
	if name == "patch" || name == "gpatch" {
		var files []string
		for i := 1; i < len(inv.Args); i++ {
			a := inv.Args[i]
			switch {
			case (a == "-i" || a == "--input") && i+1 < len(inv.Args):
				files = append(files, inv.Args[i+1])
				i++
			case strings.HasPrefix(a, "--input="):
				files = append(files, strings.TrimPrefix(a, "--input="))
			}
		}
		for _, rd := range inv.Redirects {
			if rd.Op == "<" {
				if rd.Dynamic {
					files = append(files, "")
				} else {
					files = append(files, rd.Target)
				}
			}
		}
		c.patchLinks(inv, cwd, files)
		return
	}
	if pythonProgram(name) {
		for _, x := range c.pythonExtractions(inv, cwd) {
			c.extractLinks(x[0], x[1], cwd)
		}
		return
	}
	if c.otherExtractions(inv, cwd) {
		return
	}
	var dirs []classify.Operand
	var archive string
	for _, o := range inv.Operands {
		switch {
		case o.Unlisted && o.Role != classify.RoleRead:
			dirs = append(dirs, o)
		case o.Role == classify.RoleRead && o.Arg > 0 && archive == "":
			if o.Dynamic {
				archive = "\x00"
			} else {
				archive = o.Word
			}
		}
	}
	if len(dirs) == 0 {
		return
	}
	for _, d := range dirs {
		dir := filepath.Clean(c.g.rawAbs(d.Word, cwd))
		if d.Dynamic || archive == "" || archive == "\x00" || inv.Stdin != "" {
			c.res.taintBecause(dir, name+" extracts an archive airlock cannot read now (from a pipe, or named only when it runs)")
			continue
		}
		links, ok := c.archiveLinks(filepath.Clean(c.g.rawAbs(archive, cwd)))
		if !ok {
			c.res.taintBecause(dir, archiveLimit(archive))
			continue
		}
		for name, target := range links {
			c.res.addLink(filepath.Join(dir, name), target)
		}
	}
}

// archiveLimit says why an archive's links could not be read.
func archiveLimit(archive string) string {
	return "the archive " + clipText(archive) + " cannot be listed now (absent, not a tar, gzip or bzip2 tar, or zip archive, or past 64 MiB or 20,000 members)"
}

// gitDir is the directory a git run works in (git -C DIR).
func (c *call) gitDir(inv *classify.Invocation, cwd string) string {
	dir := cwd
	for i := 1; i+1 < len(inv.Args); i++ {
		if inv.Args[i] == "-C" {
			dir = c.g.rawAbs(inv.Args[i+1], dir)
			i++
		} else if !strings.HasPrefix(inv.Args[i], "-") {
			break
		}
	}
	if c.g.project != "" && strings.HasPrefix(filepath.Clean(dir)+"/", filepath.Clean(c.g.project)+"/") {
		return c.g.project // the work tree's top
	}
	return dir
}

// patchFiles are the patch files named after git apply or git am.
func patchFiles(rest []string) []string {
	var out []string
	for _, a := range rest {
		if !strings.HasPrefix(a, "-") {
			out = append(out, a)
		}
	}
	return out
}

// patchLinks records the links the patches of a run create; a patch
// that cannot be read taints the directory it applies in.
func (c *call) patchLinks(inv *classify.Invocation, cwd string, files []string) {
	base := cwd
	if inv.Name() == "git" {
		base = c.gitDir(inv, cwd)
	}
	if len(files) == 0 {
		if inv.StdinKnown {
			for p, t := range patchSymlinks(inv.StdinText) {
				c.res.addLink(filepath.Join(base, p), t)
			}
			return
		}
		c.res.taintBecause(filepath.Clean(base), "the patch comes from a pipe airlock cannot read now")
		return
	}
	for _, f := range files {
		if f == "" || f == "-" || strings.ContainsAny(f, "$`") {
			c.res.taintBecause(filepath.Clean(base), "the patch is named only when the command runs, or comes from a pipe")
			continue
		}
		data, err := c.g.fs.ReadFile(filepath.Clean(c.g.rawAbs(f, cwd)))
		if err != nil || len(data) > maxArchiveBytes {
			c.res.taintBecause(filepath.Clean(base), "the patch "+f+" cannot be read now (absent, or over 64 MiB)")
			continue
		}
		for p, t := range patchSymlinks(string(data)) {
			c.res.addLink(filepath.Join(base, p), t)
		}
	}
}

// patchSymlinks returns the links a patch creates or turns a file into
// (mode 120000), path → target ("" when the patch does not say).
func patchSymlinks(text string) map[string]string {
	out := map[string]string{}
	cur, link := "", false
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		l := sc.Text()
		switch {
		case strings.HasPrefix(l, "diff --git "):
			cur, link = "", false
			if i := strings.LastIndex(l, " b/"); i > 0 {
				cur = l[i+3:]
			}
		case strings.HasPrefix(l, "+++ b/"):
			cur = strings.TrimPrefix(l, "+++ b/")
		case strings.HasSuffix(l, " mode 120000") && (strings.HasPrefix(l, "new file mode") || strings.HasPrefix(l, "new mode")):
			link = true
			if cur != "" {
				out[cur] = ""
			}
		case link && cur != "" && strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++"):
			if out[cur] == "" {
				out[cur] = strings.TrimPrefix(l, "+")
			}
		}
	}
	return out
}

// archiveLinks lists the symbolic and hard links of a tar (plain, gzip
// or bzip2) or zip archive, member name → target; ok is false when it
// cannot be read within the limits.
func (c *call) archiveLinks(path string) (map[string]string, bool) {
	fi, err := c.g.fs.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxArchiveBytes {
		return nil, false
	}
	data, err := c.g.fs.ReadFile(path)
	if err != nil {
		return nil, false
	}
	ms, ok := listArchive(data)
	if !ok {
		return nil, false
	}
	out := map[string]string{}
	for _, m := range ms {
		if m.symlink || m.hardlink {
			out[filepath.Clean(m.name)] = m.target // "" for a hard link: the extraction decides
		}
	}
	return out, true
}
