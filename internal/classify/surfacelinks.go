package classify

import (
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// This file reads the files that run later through the links that lead
// to them (FINDINGS-10 G2): after ln -s .git/hooks hk, a write of
// hk/pre-commit is a write of git's pre-commit hook, and after
// ln -s ~/.config/git gc, one of gc/config is a write of the human's git
// configuration. A write is rated by the name it is written under and,
// when that name is no such file, by the name its links lead to on disk.
// A link made to git's directory, its hooks or its configuration is held
// itself: every later write through it lands there.

// gitPointer is the surface kind of a .git file and of .git/commondir:
// each names the directory git takes its configuration and hooks from.
const gitPointer = "the pointer to git's directory"

// surfaceName is the name under which a write of p is a write of a file
// that runs later: p itself, or the path its links lead to now; "" when
// neither is.
func (c *Classifier) surfaceName(p string) string {
	if kind, _ := surfaceKind(p); kind != "" {
		return p
	}
	if c.FS == nil {
		return ""
	}
	rp, ok := c.FS.(realPather)
	if !ok || !c.linkOnTheWay(p) {
		return ""
	}
	real, ok := rp.RealPath(fsName(p))
	if !ok || real == "" {
		return ""
	}
	if o, isOS := c.FS.(osFS); isOS && real == o.resolve(p) {
		return "" // no link on the way
	}
	if kind, _ := surfaceKind(real); kind != "" {
		return real
	}
	return ""
}

// isDir reports a directory on disk now.
func (c *Classifier) isDir(p string) bool {
	if c.FS == nil {
		return false
	}
	info, err := c.FS.Stat(fsName(p))
	return err == nil && info.IsDir()
}

// RealPath is where p's symbolic links lead now on the real filesystem
// (p absolute), p itself when they lead nowhere else.
func RealPath(p string) string {
	if real, ok := (osFS{dir: "/"}).RealPath(p); ok && real != "" {
		return real
	}
	return p
}

// gitLinkTarget reports a link target that is git's directory, a part of
// it, or the human's git configuration: writes through the link change
// what every later git command runs.
func gitLinkTarget(target string) bool {
	t := path.Clean(strings.ReplaceAll(target, `\`, "/"))
	for _, part := range strings.Split(t, "/") {
		if part == ".git" {
			return true
		}
	}
	return t == "~/.config/git" || strings.HasSuffix(t, "/.config/git") || path.Base(t) == ".gitconfig"
}

// linkToGit holds ln -s TARGET NAME (and cp -s) when TARGET is git's:
// the link is a second name for git's hooks or configuration.
func (c *Classifier) linkToGit(inv *shell.Invocation, target, name string) Effect {
	real := target
	if c.FS != nil {
		if rp, ok := c.FS.(realPather); ok {
			if r, ok := rp.RealPath(fsName(target)); ok && r != "" {
				real = r
			}
		}
	}
	if !gitLinkTarget(target) && !gitLinkTarget(real) {
		return nothing
	}
	return opaque("surface.git-link", inv.Name()+" makes "+clip(name)+" a link to "+clip(target)+", git's own files: a later write through it changes the hooks or configuration every git command runs, which airlock reads only under git's names; write them there")
}

// throughLink holds a write whose name is not the file that runs later
// but leads there through a link (hk/pre-commit is .git/hooks/pre-commit):
// the name hides what the write changes from whoever reads the command.
func throughLink(written, real string) Effect {
	if real == written || path.Clean(written) == path.Clean(real) {
		return nothing
	}
	if kind, _ := surfaceKind(written); kind != "" {
		return nothing // the name says what it is
	}
	return opaque("surface.through-link", "writing "+clip(written)+" writes "+clip(real)+" through a link: it changes a file that runs later under another name; write it under its own name")
}

// ThroughLink is throughLink for the Write and Edit tools.
func ThroughLink(written, real string) Effect { return throughLink(written, real) }

// linkOnTheWay reports whether p, or a directory on the way to it, is a
// symbolic link now: a cheap look (one lstat per component of p as
// written, none above the command's directory for a relative p) before
// the links are followed.
func (c *Classifier) linkOnTheWay(p string) bool {
	o, ok := c.FS.(osFS)
	if !ok {
		return true // another FS: let it say where the name leads
	}
	return o.linkOnTheWay(p)
}

// LinkOnTheWay is linkOnTheWay for name as written by a command run in
// the directory cwd (absolute).
func LinkOnTheWay(cwd, name string) bool { return osFS{dir: cwd}.linkOnTheWay(name) }

func (o osFS) linkOnTheWay(p string) bool {
	p = path.Clean(p)
	stop := "/"
	if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") && p != ".." && !strings.HasPrefix(p, "../") {
		stop = o.resolve(".") // inside the command's directory: only the part written
	}
	abs := o.resolve(p)
	for range 64 {
		if abs == stop || abs == "/" || abs == "." || abs == "" {
			break
		}
		fi, err := os.Lstat(abs)
		if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return true
		}
		abs = path.Dir(abs)
	}
	return false
}
