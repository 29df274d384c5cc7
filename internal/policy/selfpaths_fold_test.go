package policy

import (
	"strings"
	"testing"
)

// The in-place comparison gives what lowering both sides gave, for ASCII
// and non-ASCII paths alike; so does sameFold (laterHit's comparison of a
// path with the PATH's directories).
func TestWithinAndAncestorFoldLikeToLower(t *testing.T) {
	paths := []string{"/", "/home/u", "/home/U", "/HOME/u/.claude", "/home/u/.claude/settings.json",
		"/home/u/.Claude/Settings.JSON", "/home/u/.claudex", "/home/ü/.claude", "/home/Ü/.claude/x", "/home/u/.claude/",
		"/home", "/h", "/home/u/.config/airlock", "/home/u/.local/bin", "/Home/U/.Local/Bin", "/home/u/.local/bın"}
	old := func(p string, t target) (bool, bool) {
		fp, ft := strings.ToLower(p), strings.ToLower(t.path)
		w := fp == ft || (t.dir && strings.HasPrefix(fp, ft+"/"))
		var a bool
		if fp == "/" {
			a = ft != "/"
		} else {
			a = strings.HasPrefix(ft, fp+"/")
		}
		return w, a
	}
	for _, p := range paths {
		for _, tp := range paths {
			if sameFold(p, tp) != (strings.ToLower(p) == strings.ToLower(tp)) {
				t.Errorf("sameFold(%q, %q) = %v", p, tp, sameFold(p, tp))
			}
			for _, dir := range []bool{false, true} {
				tg := target{path: tp, dir: dir}
				w, a := old(p, tg)
				if within(p, tg) != w || isAncestor(p, tg) != a {
					t.Errorf("p=%q t=%q dir=%v: within %v isAncestor %v, want %v %v", p, tp, dir, within(p, tg), isAncestor(p, tg), w, a)
				}
			}
		}
	}
}
