package policy

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
)

// An operand that stands for the files git ls-files lists (git ls-files
// | xargs prettier --write, $(git ls-files '*.py')) reaches only what
// git's index holds below its start, not everything there: an untracked
// .claude/settings.json or a project's .airlock is not handed over
// (FINDINGS-5 B6). The index is read now (gitindex.go) and each listed
// path is checked by its own name: a protected one, a symbolic link that
// leads to one, or a submodule or sparse directory that holds one is
// refused. An index airlock cannot read leaves the operand checked as
// everything below its start (fail closed).

// trackedHit checks a Tracked operand. handled is false when the index
// could not be read, and the caller checks the operand as it would
// without it.
func (c *call) trackedHit(name string, o classify.Operand, w, d string) (ref *refusal, handled bool) {
	start := filepath.Clean(c.g.rawAbs(w, d))
	real, unknown := c.res.resolve(start)
	if unknown {
		return nil, false
	}
	if h, ok := c.g.lexicalHit(real, false, false, nil, nil); ok {
		return c.pathRefusal(name, h), true // the start is inside a protected path
	}
	root, entries, ok := c.gitIndex(real)
	if !ok {
		return nil, false
	}
	prefix := ""
	if real != root {
		prefix = strings.TrimPrefix(real, root+"/")
	}
	who := name + " (" + o.Role.String() + ", on the files git ls-files lists)"
	for _, e := range entries {
		rel := e.path
		if prefix != "" {
			switch {
			case e.below && strings.HasPrefix(prefix+"/", e.path+"/"):
				return nil, false // the start is inside a submodule or a sparse directory
			case !strings.HasPrefix(e.path, prefix+"/"):
				continue
			}
			rel = strings.TrimPrefix(e.path, prefix+"/")
		}
		if o.Pattern != "" && !patternBelow(o, w, rel) {
			continue
		}
		p := root + "/" + e.path
		if o.Missing && !e.below {
			// git ls-files --deleted lists only what is absent now: a
			// file that is there is not handed over.
			if _, err := c.g.fs.Lstat(p); err == nil {
				continue
			}
		}
		if e.link {
			// A tracked link is followed by what it is handed to.
			if h, ok := c.pathHit(p, d, false, false); ok {
				return c.pathRefusal(who, h), true
			}
			continue
		}
		if h, ok := c.g.lexicalHit(p, e.below, e.below, c.project(), nil); ok {
			return c.pathRefusal(who, h), true
		}
		if h, ok := c.g.secretHit(p); ok && (!h.ancestor || e.below) {
			return c.pathRefusal(who, h), true
		}
	}
	return nil, true
}

// maxGitUp bounds how many directories up the repository is looked for.
const maxGitUp = 64

// gitIndex finds the repository holding dir and reads its index: the
// worktree's root and the paths listed, relative to it. A repository
// with no index lists nothing. ok is false when no repository is found
// or its index cannot be read.
func (c *call) gitIndex(dir string) (root string, entries []indexEntry, ok bool) {
	p := dir
	for range maxGitUp {
		dotgit := filepath.Join(p, ".git")
		info, err := c.g.fs.Lstat(dotgit)
		if err == nil {
			gitdir := dotgit
			if !info.IsDir() {
				data, err := c.g.fs.ReadFile(dotgit)
				g, found := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
				if err != nil || !found {
					return "", nil, false
				}
				gitdir = strings.TrimSpace(g)
				if !filepath.IsAbs(gitdir) {
					gitdir = filepath.Join(p, gitdir)
				}
			}
			index := filepath.Join(gitdir, "index")
			st, err := c.g.fs.Lstat(index)
			if errors.Is(err, fs.ErrNotExist) {
				return p, nil, true
			}
			if err != nil || !st.Mode().IsRegular() || st.Size() > maxIndexBytes {
				return "", nil, false
			}
			data, err := c.g.fs.ReadFile(index)
			if err != nil {
				return "", nil, false
			}
			entries, ok := parseIndex(data)
			return p, entries, ok
		}
		if !errors.Is(err, fs.ErrNotExist) || p == "/" {
			return "", nil, false
		}
		p = filepath.Dir(p)
	}
	return "", nil, false
}
