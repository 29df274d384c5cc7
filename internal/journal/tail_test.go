package journal

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestScanTailAcrossChunks: the tail is read in growing chunks, so a last
// line (or the line before it) that straddles one or more chunk borders
// must come back whole, and a torn tail must be told apart.
func TestScanTailAcrossChunks(t *testing.T) {
	sizes := []int{1, 100, firstTailChunk - 2, firstTailChunk - 1, firstTailChunk, firstTailChunk + 1,
		3*firstTailChunk - 1, 3 * firstTailChunk, tailChunk, tailChunk + 1, 3*tailChunk + 7}
	for _, before := range []int{0, 10, firstTailChunk, tailChunk + 3} {
		for _, last := range sizes {
			for _, torn := range []int{0, 1, firstTailChunk + 5} {
				var b bytes.Buffer
				if before > 0 {
					b.Write(bytes.Repeat([]byte("a"), before))
					b.WriteByte('\n')
				}
				want := bytes.Repeat([]byte("b"), last)
				b.Write(want)
				b.WriteByte('\n')
				end := int64(b.Len())
				b.Write(bytes.Repeat([]byte("c"), torn))
				f := writeTemp(t, b.Bytes())
				got, gotEnd, gotTorn, err := scanTail(f)
				f.Close()
				if err != nil {
					t.Fatalf("before %d, last %d, torn %d: %v", before, last, torn, err)
				}
				if !bytes.Equal(got, want) || gotEnd != end || gotTorn != (torn > 0) {
					t.Errorf("before %d, last %d, torn %d: got a line of %d bytes, end %d, torn %v; want %d, %d, %v",
						before, last, torn, len(got), gotEnd, gotTorn, len(want), end, torn > 0)
				}
			}
		}
	}
}

func writeTemp(t *testing.T, data []byte) *os.File {
	t.Helper()
	p := filepath.Join(t.TempDir(), "segment")
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	return f
}
