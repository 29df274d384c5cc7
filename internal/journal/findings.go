package journal

import (
	"crypto/sha256"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// FindingKey is what makes two scanner findings the same: where it was
// seen (source, line), what became of the call, the command, the session
// and the story. Scanning a file twice finds the same keys.
func FindingKey(e *Entry) string {
	if e.Finding == nil {
		return ""
	}
	f := e.Finding
	return strings.Join([]string{f.Source, strconv.Itoa(f.Line), f.Status, e.Command, e.Session, e.Story}, "\x00")
}

// findingDigest is the start of a key's hash, as the index lists it: a
// filter, confirmed by reading the lines it matches.
func findingDigest(key string) [4]byte {
	sum := sha256.Sum256([]byte(key))
	return [4]byte(sum[:4])
}

// HasFinding reports whether the journal already holds a scanner finding
// with this FindingKey, held or refused. It reads the index's list of
// findings (48 bytes each) and only the lines whose digest matches; an
// index built before the list is answered by a walk of the journal.
func (j *Journal) HasFinding(key string) (bool, error) {
	found, listed := false, false
	err := j.locked(func(w *writer) error {
		found, listed = false, false
		if _, err := os.Lstat(filepath.Join(w.j.dir, indexDir, keyFindings)); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		listed = true
		ps, err := w.j.postings(keyFindings, w.head.Seq)
		if err != nil {
			return err
		}
		d := findingDigest(key)
		var cand []posting
		for _, p := range ps {
			if p.ID == d {
				cand = append(cand, p)
			}
		}
		r := &lineReader{dir: w.j.dir}
		defer r.close()
		es, err := r.entries(cand)
		if err != nil {
			return err
		}
		for _, e := range es {
			if e.Event == EventScanFinding && FindingKey(e) == key {
				found = true
			}
		}
		return nil
	})
	if err != nil || listed {
		return found, err
	}
	err = j.Each(func(e *Entry) error {
		if e.Event == EventScanFinding && FindingKey(e) == key {
			found = true
		}
		return nil
	})
	return found, err
}

// ApprovedActions counts, by command and directory (ApprovalKey), the
// held items a human approved or ran with a verified MAC. It reads the
// queue's postings and the lines of those items only.
func (j *Journal) ApprovedActions() (map[string]int, error) {
	out := map[string]int{}
	err := j.locked(func(w *writer) error {
		clear(out)
		if err := w.queueWhole(); err != nil {
			return err
		}
		ps, err := w.j.postings(keyQueue, w.head.Seq)
		if err != nil {
			return err
		}
		held := map[[4]byte]posting{}
		acted := map[[4]byte]bool{}
		var order [][4]byte
		for _, p := range ps {
			switch {
			case p.Kind == kindHeld || p.Kind == kindDetected:
				if _, ok := held[p.ID]; !ok {
					held[p.ID] = p
				}
			case (p.Kind == kindApprove || p.Kind == kindRun) && p.Auth:
				if _, ok := held[p.ID]; ok && !acted[p.ID] {
					acted[p.ID] = true
					order = append(order, p.ID)
				}
			}
		}
		r := &lineReader{dir: w.j.dir}
		defer r.close()
		for _, id := range order {
			e, _, err := r.entry(held[id])
			if err != nil {
				return err
			}
			if e.Command != "" && e.Cwd != "" {
				out[ApprovalKey(e.Command, e.Cwd)]++
			}
		}
		return nil
	})
	return out, err
}

// ApprovalKey is what a human's approval of a held shell command covers:
// the command in its directory.
func ApprovalKey(command, cwd string) string { return command + "\x00" + cwd }
