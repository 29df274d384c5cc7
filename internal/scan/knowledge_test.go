package scan

import (
	"testing"

	"github.com/airlock-dev/airlock/internal/classify"
)

// TestScannerAsksClassifyForWrappers walks classify's own table of
// wrappers: a command after any of them, in text, is at a command's
// position, so a wrapper added to classify is one the scanner looks
// behind without a list of its own to update.
func TestScannerAsksClassifyForWrappers(t *testing.T) {
	ws := classify.Wrappers()
	if len(ws) < 20 {
		t.Fatalf("classify knows %d wrappers, want the whole table", len(ws))
	}
	for _, w := range ws {
		line := []byte(w + " git push origin main")
		if !commandPosition(line, len(w)+1, 0) {
			t.Errorf("%q: git after the wrapper %s is not read as a command", line, w)
		}
		if !isWrapper(w) {
			t.Errorf("%s: a wrapper to classify, not to the scanner", w)
		}
	}
}
