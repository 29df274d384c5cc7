package classify

import (
	"fmt"
	"testing"
)

// ErrTooLarge is spelt out as a constant (fmt.Errorf at package
// initialisation costs every process fmt's first use); it must still say
// what MaxScriptBytes is.
func TestErrTooLargeNamesTheBound(t *testing.T) {
	if got, want := ErrTooLarge.Error(), fmt.Sprintf("larger than %d KiB", MaxScriptBytes>>10); got != want {
		t.Errorf("ErrTooLarge = %q, want %q", got, want)
	}
}
