package policy

import (
	"path/filepath"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
	shellparse "github.com/airlock-dev/airlock/internal/shell"
)

// This file grades a move into scratch space (FINDINGS-10 T6). A later
// deletion of a temporary directory is not held (rm -rf /tmp/d is
// scratch), so data moved there from elsewhere would be lost in two
// steps that each pass: mv /srv/data /tmp/d, then rm -rf /tmp/d. The
// move is graded as the deletion of what it moves: inside the project it
// is snapshotted and goes on, outside it (/srv, the home) it is held like
// rm -rf there; a move of scratch into scratch is nothing. Memory-backed
// directories (/dev/shm) lose what they hold at the next boot and count
// as scratch here.

// movedIntoScratch returns the operands a mv moves when its destination
// is scratch space: its sources. ok is false when the destination is
// not scratch (mv a b inside the project, mv /srv/a /srv/b).
func movedIntoScratch(inv *classify.Invocation, ops []int) (sources []int, ok bool) {
	args := inv.Args
	dest := -1
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case (a == "-t" || a == "--target-directory") && i+1 < len(args):
			dest = i + 1
		case strings.HasPrefix(a, "--target-directory="):
			return nil, false // the value is inside the word: read below
		case strings.HasPrefix(a, "-t") && len(a) > 2 && !inv.IsDynamic(i):
			return nil, false
		}
	}
	if dest < 0 {
		if len(ops) < 2 {
			return nil, false
		}
		dest, ops = ops[len(ops)-1], ops[:len(ops)-1]
	} else {
		kept := ops[:0:0]
		for _, o := range ops {
			if o != dest {
				kept = append(kept, o)
			}
		}
		ops = kept
	}
	if len(ops) == 0 || !scratchDest(inv, dest) {
		return nil, false
	}
	// Scratch moved within scratch is nothing.
	var moved []int
	for _, o := range ops {
		if !scratchDest(inv, o) {
			moved = append(moved, o)
		}
	}
	return moved, len(moved) > 0
}

// scratchDest reports a destination word in scratch space: a static
// path under /tmp, /var/tmp, the temporary directory or /dev/shm, a
// name mktemp made ("$(mktemp -d)", "$d"/x after d=$(mktemp -d)), or one
// under $TMPDIR.
func scratchDest(inv *classify.Invocation, i int) bool {
	w := inv.Args[i]
	if inv.IsDynamic(i) {
		if rest, ok := shellparse.MktempWord(w); ok {
			return !strings.Contains(rest, "..")
		}
		// "$TMPDIR/x", "${TMPDIR:-/tmp}/x": what rm -rf there calls
		// temporary.
		u := strings.TrimLeft(w, `"'`)
		for _, v := range []string{"$TMPDIR", "${TMPDIR", "$TMP", "${TMP}", "${TMP:", "$TEMP", "${TEMP", "$XDG_RUNTIME_DIR", "${XDG_RUNTIME_DIR"} {
			if strings.HasPrefix(u, v) && !strings.Contains(u, "..") {
				return true
			}
		}
		return false
	}
	p := filepath.Clean(w)
	return inTempDir(p+"/") || memoryDir(p)
}

// memoryDir reports a path in a memory-backed directory.
func memoryDir(p string) bool {
	for _, d := range []string{"/dev/shm", "/run/shm"} {
		if p == d || strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}
