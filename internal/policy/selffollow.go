package policy

import (
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
)

// This file is the phase of self-protection for symbolic links already in
// a tree that a recursive program follows (FINDINGS-5 L6): grep -R, rg
// -L, find -L, zip -r (which follows links unless -y), tar -h, cp -rL,
// rsync -L, diff -r, scp -r, du -L, chmod -R -L. A link in the project to
// airlock's secrets (a cloned repository holds one, an earlier call made
// one) turns a search of the project into a read of the secrets. The tree
// is walked when the program follows links, and only then: up to
// maxFollowEntries entries, links followed into their targets (each real
// directory once); a link whose target is inside airlock's secrets, or
// above them, is refused for a reader, and one that reaches any protected
// path for a program that changes what it follows (chmod -R -L). Past the
// bound the run is refused, naming the limit: the same search without
// following links (grep -r, zip -ry, tar without -h) is not walked. The
// walk costs a directory listing per directory; the allowed path of a
// command that follows no link does not walk at all. What it does not
// cover is in docs/THREAT-MODEL.md: a link made between the check and
// the run, and a tree past the bound (refused, not walked).

// maxFollowEntries bounds the entries a follow-links walk lists (a
// variable so a test can reach it with a small tree).
var maxFollowEntries = 20000

// followsLinks reports whether a run reads (or, with writes, changes)
// the trees it is given following the symbolic links in them.
func followsLinks(inv *classify.Invocation) (follows, writes bool) {
	args := inv.Args
	has := func(short string, long ...string) bool {
		for _, a := range args[1:] {
			if a == "--" {
				return false
			}
			for _, l := range long {
				if a == l || strings.HasPrefix(a, l+"=") {
					return true
				}
			}
			if short != "" && len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], short) {
				return true
			}
		}
		return false
	}
	switch inv.Name() {
	case "grep", "egrep", "fgrep":
		return has("R", "--dereference-recursive"), false
	case "rg":
		return has("L", "--follow"), false
	case "ag":
		return has("f", "--follow"), false
	case "find":
		return has("L", "-follow") || argIs(args, "-L") || argIs(args, "-follow"), false
	case "zip":
		return has("rR", "--recurse-paths") && !has("y", "--symlinks"), false
	case "tar", "gtar", "bsdtar":
		return has("h", "--dereference") || len(args) > 1 && !strings.HasPrefix(args[1], "-") && strings.Contains(args[1], "h"), false
	case "cp":
		return has("L", "--dereference") && has("rRa", "--recursive", "--archive"), false
	case "rsync":
		return has("Lk", "--copy-links", "--copy-dirlinks", "--copy-unsafe-links"), false
	case "diff":
		return has("r", "--recursive") && !has("", "--no-dereference"), false
	case "scp":
		return has("r"), false
	case "du":
		return has("L", "--dereference"), false
	case "chmod", "chown", "chgrp":
		return has("R", "--recursive") && has("L"), true
	}
	return false, false
}

func argIs(args []string, w string) bool {
	for _, a := range args[1:] {
		if a == w {
			return true
		}
	}
	return false
}

// followedLinks checks a run that follows links through the trees it is
// given.
func (c *call) followedLinks(inv *classify.Invocation, cwd string) *refusal {
	follows, writes := followsLinks(inv)
	if !follows {
		return nil
	}
	var starts []string
	for _, o := range inv.Operands {
		if o.Recursive && !o.Dynamic && (o.Role == classify.RoleRead || writes && o.Role != classify.RoleRead) && o.Arg != -1 {
			starts = append(starts, filepath.Clean(c.g.rawAbs(o.Word, cwd)))
		}
	}
	if n := inv.Name(); len(starts) == 0 || (n == "grep" || n == "rg" || n == "ag") && len(starts) <= 1 {
		// A search with no directory operand searches where it runs
		// (and classify may take its pattern for one).
		starts = append(starts, filepath.Clean(cwd))
	}
	name := inv.Name()
	reached, limit := c.walkLinks(starts, writes)
	switch {
	case limit:
		return &refusal{RuleProtectedPath, name + " follows the symbolic links below " + clipText(strings.Join(starts, " ")) + ", and the tree holds more than " + strconv.Itoa(maxFollowEntries) + " entries, past what airlock walks to check that no link leads to its secrets (limit reached). Run it without following links (grep -r, rg without -L, zip -y, tar without -h, cp without -L), or on a smaller tree." + instead}
	case reached != "":
		return &refusal{RuleProtectedPath, name + " follows the symbolic links below " + clipText(strings.Join(starts, " ")) + ", and " + reached + "; the agent may not read airlock's secrets or change its files. Run it without following links (grep -r, rg without -L, zip -y, tar without -h, cp without -L), or remove the link." + instead}
	}
	return nil
}

// walkLinks walks trees (bounded) for a link that leads into airlock's
// secrets or above them (or, with writes, to any protected path).
func (c *call) walkLinks(starts []string, writes bool) (reached string, limit bool) {
	sec := c.g.secrets
	bad := func(link, real string) string {
		if sec.path != "" && (within(real, sec) || isAncestor(real, sec)) {
			return link + " leads to " + real + ", which is or holds airlock's secrets"
		}
		if writes {
			if h, ok := c.g.lexicalHit(real, true, true, nil, nil); ok {
				return link + " leads to " + real + ", which is or holds " + h.target.path
			}
		}
		return ""
	}
	seen := map[string]bool{}
	queue := make([]string, 0, len(starts))
	for _, s := range starts {
		real, unknown := c.res.resolve(s)
		if unknown {
			return s + " is a link known only when the command runs", false
		}
		if why := bad(s, real); why != "" && real != s {
			return why, false
		}
		queue = append(queue, real)
	}
	n := 0
	for len(queue) > 0 {
		dir := queue[0]
		queue = queue[1:]
		if seen[dir] {
			continue
		}
		seen[dir] = true
		ents, err := c.g.fs.ReadDir(dir)
		if err != nil {
			continue // not a directory, or not readable: the program cannot read it either
		}
		for _, e := range ents {
			if n++; n > maxFollowEntries {
				return "", true
			}
			p := dir + "/" + e.Name()
			if dir == "/" {
				p = "/" + e.Name()
			}
			switch {
			case e.Type()&fs.ModeSymlink != 0:
				real, unknown := c.res.resolve(p)
				if unknown {
					return p + " is a link whose target is known only when the command runs", false
				}
				if why := bad(p, real); why != "" {
					return why, false
				}
				if fi, err := c.g.fs.Lstat(real); err == nil && fi.IsDir() {
					queue = append(queue, real)
				}
			case e.IsDir():
				queue = append(queue, p)
			}
		}
	}
	return "", false
}
