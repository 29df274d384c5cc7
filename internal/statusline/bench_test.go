package statusline

import (
	"fmt"
	"os"
	"testing"
	"time"
)

// BenchmarkChanged is what the hook pays on every recorded decision whose
// session's mode and marks did not change: one read of the state file.
func BenchmarkChanged(b *testing.B) {
	dir := b.TempDir()
	for i := 0; i < 10; i++ {
		Note(dir, fmt.Sprint("s", i), "interactive", "/src", []string{MarkGateOff}, time.Unix(int64(i), 0))
	}
	Update(dir, func(st *State) bool { return st.SetHeld(3, map[string]int{"s1": 2, "s2": 1}) })
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if Changed(dir, "s5", "interactive", "/src", []string{MarkGateOff}) {
			b.Fatal("changed")
		}
	}
}

// BenchmarkReadFile is the floor of BenchmarkChanged: reading the same
// file with os.ReadFile.
func BenchmarkReadFile(b *testing.B) {
	dir := b.TempDir()
	Note(dir, "s", "interactive", "/src", nil, time.Unix(1, 0))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := os.ReadFile(Path(dir)); err != nil {
			b.Fatal(err)
		}
	}
}
