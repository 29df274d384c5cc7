package statusline

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"
)

// structRecordBytes is recordBytes as json.Marshal of the Session struct
// writes it: the reference recordBytes must equal.
func structRecordBytes(t *testing.T, id, mode, cwd string, marks []string) (head, tail []byte) {
	t.Helper()
	marks = slices.Clone(marks)
	slices.Sort(marks)
	h, err := json.Marshal(Session{ID: id})
	if err != nil {
		t.Fatal(err)
	}
	tl, err := json.Marshal(Session{Mode: mode, Marks: marks, Cwd: cwd, Time: 1})
	if err != nil {
		t.Fatal(err)
	}
	head = append(h[:len(h)-1], ',')
	tl = bytes.TrimPrefix(tl, []byte(`{"id":"",`))
	return head, bytes.TrimSuffix(tl, []byte(`1}`))
}

// TestRecordBytes: the bytes the hook looks for in the state file are
// exactly those json.Marshal writes for the record, for every field
// empty or not and for text JSON escapes (quotes, HTML characters,
// control bytes, invalid UTF-8, U+2028).
func TestRecordBytes(t *testing.T) {
	texts := []string{"", "s1", `a"b\c`, "<x>&y", "tab\there\n", "\xff\xfe", "é 日本 \u2028", "/home/u/proj"}
	markSets := [][]string{nil, {}, {MarkGateOff}, {MarkLoosened, MarkContained, MarkGateOff}, {"<&>"}}
	n := 0
	for _, id := range texts {
		for _, mode := range []string{"", "unattended", "<m>"} {
			for _, cwd := range texts {
				for _, marks := range markSets {
					head, tail, ok := recordBytes(id, mode, cwd, marks)
					if !ok {
						t.Fatalf("recordBytes(%q, %q, %q, %q) not ok", id, mode, cwd, marks)
					}
					wantHead, wantTail := structRecordBytes(t, id, mode, cwd, marks)
					if !bytes.Equal(head, wantHead) || !bytes.Equal(tail, wantTail) {
						t.Fatalf("recordBytes(%q, %q, %q, %q) = %s | %s, want %s | %s", id, mode, cwd, marks, head, tail, wantHead, wantTail)
					}
					n++
				}
			}
		}
	}
	// The marks are sorted, and the caller's slice is left as it was.
	marks := []string{MarkLoosened, MarkContained}
	_, tail, _ := recordBytes("s", "m", "", marks)
	if !bytes.Contains(tail, []byte(`"marks":["`+MarkContained)) || marks[0] != MarkLoosened {
		t.Fatalf("marks not sorted in %s, or the caller's slice changed: %q", tail, marks)
	}
	t.Logf("%d records compared", n)
}
