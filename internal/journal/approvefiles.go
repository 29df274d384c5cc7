package journal

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/airlock-dev/airlock/internal/render"
)

// An approval binds what the command runs, not only its text. The held
// entry keeps the files its decision read and what it found in each
// (Entry.Files: a script's digest, a Makefile's, the git configuration
// that names the remote, a file that was absent); a retry of the same
// text is the approved action only when every one of them reads the same
// now. A script rewritten after the approval, replaced by a link, a file
// it sources or includes that changed or appeared, a remote's URL edited:
// each makes the retry another action, held again for a human.

// filesChanged says how now differs from held ("" when it does not): a
// file that changed, appeared or went, as a phrase for a reason
// ("deploy.sh has changed since"). A file read both times that reads
// differently is named first, then one read only now, then one no longer
// read (a rewrite makes the decision look at other files, and the one
// rewritten is what the human wants named); a directory comes after a
// file of the same standing. dir is the command's directory, which
// shortens the names.
func filesChanged(dir string, held, now []FileState) string {
	was := make(map[string]string, len(held))
	for _, f := range held {
		was[f.Path] = f.State
	}
	is := make(map[string]string, len(now))
	for _, f := range now {
		is[f.Path] = f.State
	}
	var first, how string
	best := 99
	note := func(p, state string, standing int, h string) {
		if strings.HasPrefix(state, "dir") {
			standing++
		}
		if standing < best || standing == best && p < first {
			first, how, best = p, h, standing
		}
	}
	for p, s := range was {
		t, ok := is[p]
		switch {
		case !ok:
			// The retry's decision did not look at it: what the command
			// runs is no longer what was read.
			note(p, s, 4, "is no longer read by it")
		case s == t:
		case t == "absent":
			note(p, s, 0, "has been removed since")
		case s == "absent":
			note(p, t, 0, "did not exist then and does now")
		case strings.HasPrefix(t, "link:") != strings.HasPrefix(s, "link:"):
			note(p, t, 0, "has been replaced by a "+kindOf(t)+" since")
		default:
			note(p, t, 0, "has changed since")
		}
	}
	for p, t := range is {
		if _, ok := was[p]; !ok {
			note(p, t, 2, "is read by it now and was not then")
		}
	}
	if first == "" {
		return ""
	}
	return render.Line(shortPath(dir, first), 200) + " " + how + " (the approval binds the files the command runs, as they were when the human approved it)"
}

// FilesChanged is filesChanged for a held item and the files as they
// read now (queue run checks them before it runs the command).
func FilesChanged(held *Entry, now []FileState) string {
	return filesChanged(held.Cwd, held.Files, now)
}

// shortPath is p relative to dir when it is inside it.
func shortPath(dir, p string) string {
	if r, err := filepath.Rel(dir, p); err == nil && dir != "" && r != ".." && !strings.HasPrefix(r, "../") {
		return r
	}
	return p
}

func kindOf(state string) string {
	if strings.HasPrefix(state, "link:") {
		return "symbolic link"
	}
	return "file"
}

// ShownFiles is a held command's files as `queue show` lists them: each
// file read, its path (relative to the command's directory when inside
// it) and the start of its digest; then how many paths were looked at and
// found absent or a directory, which the approval binds too.
func ShownFiles(e *Entry) []string {
	var out []string
	absent, dirs := 0, 0
	for _, f := range e.Files {
		switch {
		case f.State == "absent":
			absent++
			continue
		case strings.HasPrefix(f.State, "dir"):
			dirs++
			continue
		}
		st := f.State
		if i := strings.Index(st, "sha256:"); i >= 0 && len(st) >= i+7+12 {
			st = st[:i+7+12] // the digest's start tells versions apart
		}
		out = append(out, render.Line(shortPath(e.Cwd, f.Path), 200)+"  "+render.Line(st, 120))
	}
	if absent+dirs > 0 {
		out = append(out, fmt.Sprintf("(and %d path(s) found absent, %d directory(ies): they must stay so)", absent, dirs))
	}
	return out
}
