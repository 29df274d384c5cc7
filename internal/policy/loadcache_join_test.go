package policy

import (
	"path/filepath"
	"testing"
)

// TestHomeJoiner: homeJoiner's join is filepath.Join for every table path
// under clean and unclean homes, and for paths Clean would change.
func TestHomeJoiner(t *testing.T) {
	var rels []string
	for _, h := range homeTargets {
		rels = append(rels, h.rel)
	}
	for _, h := range laterHomeTargets {
		rels = append(rels, h.rel)
	}
	userAgentConfigs(func(rel string, _ bool) { rels = append(rels, rel) })
	if len(rels) < 20 {
		t.Fatalf("read %d table paths, want the home tables", len(rels))
	}
	rels = append(rels, "", ".", "..", "a/../b", "a//b", "a/./b", "/abs", "trail/", "../up", ".x/.y", "a/..b", "..a/b", "...")
	for _, home := range []string{"/home/u", "/", "", "/home/u/", "/home//u", "/home/./u", "rel/home", ".", "/home/u/.."} {
		join := homeJoiner(home)
		for _, rel := range rels {
			if got, want := join(rel), filepath.Join(home, rel); got != want {
				t.Errorf("home %q, rel %q: %q, want %q", home, rel, got, want)
			}
		}
	}
}
