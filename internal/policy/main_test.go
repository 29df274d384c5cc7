package policy

import (
	"os"
	"testing"
)

// TestMain hides the machine's /proc from the package's decisions
// (hideProc): what runs beside the tests must not change their results.
func TestMain(m *testing.M) {
	hideProc = true
	os.Exit(m.Run())
}
