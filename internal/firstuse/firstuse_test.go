package firstuse

import (
	"sync"
	"testing"
)

func TestTable(t *testing.T) {
	builds := 0
	l := Table[map[string]bool]{Build: func() map[string]bool {
		builds++
		return map[string]bool{"a": true}
	}}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !l.Get()["a"] {
				t.Error("get: table without its entry")
			}
		}()
	}
	wg.Wait()
	if builds != 1 {
		t.Errorf("built %d times, want once", builds)
	}
	// A build that panics panics on every get, as sync.OnceValue's does:
	// no caller is handed an empty table.
	bad := Table[map[string]bool]{Build: func() map[string]bool { panic("broken table") }}
	for i := range 2 {
		func() {
			defer func() {
				if p := recover(); p != "broken table" {
					t.Errorf("get %d: recovered %v, want the build's panic", i, p)
				}
			}()
			bad.Get()
		}()
	}
}
