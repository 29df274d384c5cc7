package policy

import (
	"reflect"
	"strings"
	"sync"
	"testing"
)

// The built-in rules compiled once per process are the rules Load compiled
// afresh on every call, for each home they were asked for.
func TestCompiledBuiltinsMatchAFreshCompile(t *testing.T) {
	for _, home := range []string{"/home/a", "/home/b", "", "/home/a"} {
		got, err := compiledBuiltins(home)
		if err != nil {
			t.Fatal(err)
		}
		defs := builtinRules()
		if len(got) != len(defs) {
			t.Fatalf("home %q: %d rules, want %d", home, len(got), len(defs))
		}
		for i := range defs {
			want, err := compileRule(&defs[i], Builtin, "", home)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got[i], want) {
				t.Errorf("home %q, rule %s: cached %+v, fresh %+v", home, defs[i].id, got[i], want)
			}
		}
	}
}

// A rule a caller changes does not change the next Load's rules, and the
// "~" of the built-in rules follows the home of each Load.
func TestBuiltinsCannotBeChangedThroughALoad(t *testing.T) {
	env := map[string]string{"HOME": "/home/a"}
	o := Options{Getenv: func(k string) string { return env[k] }, Cwd: "/work"}
	ssh := Action{Kind: Read, Tool: "Read", Paths: []string{"/home/a/.ssh/id_ed25519"}, Cwd: "/work"}
	p, err := Load(o)
	if err != nil {
		t.Fatal(err)
	}
	if v := p.Decide(ssh); v.Rule != "builtin.secrets.ssh" {
		t.Fatalf("first load: %s by %s, want builtin.secrets.ssh", v.Decision, v.Rule)
	}
	for _, r := range p.Rules {
		r.Decision, r.ID = Allow, "changed"
		r.m.paths = append(r.m.paths, "/**")
		r.m.notPaths = append(r.m.notPaths, "/home/a/**")
		r.Examples = append(r.Examples, Example{})
	}
	p, err = Load(o)
	if err != nil {
		t.Fatal(err)
	}
	if v := p.Decide(ssh); v.Decision != Deny && v.Decision != Ask || v.Rule != "builtin.secrets.ssh" {
		t.Fatalf("after a caller changed the rules: %s by %s, want builtin.secrets.ssh", v.Decision, v.Rule)
	}
	defs := builtinRules()
	for i, r := range p.Rules[:len(defs)] {
		if want, _ := compileRule(&defs[i], Builtin, "", "/home/a"); !reflect.DeepEqual(r, want) {
			t.Errorf("rule %d changed through an earlier Load: %+v", i, r)
		}
	}
	env["HOME"] = "/home/b"
	p, err = Load(o)
	if err != nil {
		t.Fatal(err)
	}
	if v := p.Decide(ssh); v.Rule == "builtin.secrets.ssh" {
		t.Errorf("home /home/b: /home/a's key fired the ssh rule compiled for /home/a")
	}
	ssh.Paths = []string{"/home/b/.ssh/id_ed25519"}
	if v := p.Decide(ssh); v.Rule != "builtin.secrets.ssh" {
		t.Errorf("home /home/b: %s by %s, want builtin.secrets.ssh", v.Decision, v.Rule)
	}
}

// uncachedHomeTargets is how newGuard built the home's targets before they
// were kept per process.
func uncachedHomeTargets(home, cwd string) []target {
	var ts []target
	add := func(p string, dir bool, kind targetKind) {
		ts = append(ts, target{path: absPath(p, cwd, home), dir: dir, kind: kind})
	}
	eachHomeTarget(home, add)
	markASCII(ts)
	return ts
}

// Every target of the guard knows whether its path is ASCII, those kept
// per home (marked when built) and those built per call alike, for ASCII
// and non-ASCII homes: withinASCII trusts the mark.
func TestGuardTargetsMarkedASCII(t *testing.T) {
	env := map[string]string{"XDG_CONFIG_HOME": "/cfg/ö", "BASH_ENV": "/x/env"}
	for _, home := range []string{"/home/a", "/home/ü", "/home/a", "rel/ü"} {
		g := newGuard(Paths{Home: home, ConfigDir: "/cfg/ö/airlock", StateDir: "/st"}, "/proj/ü", Options{Cwd: "/work/ü", Executable: "/bin/airlock"},
			func(k string) string { return env[k] })
		// The service's own home beside the request's (otherhomes.go).
		g.addOtherHomes([]string{"/home/svc", "/home/ß"})
		for _, tg := range g.targets {
			if tg.ascii != isASCII(tg.path) {
				t.Errorf("home %q: target %q marked ascii=%v", home, tg.path, tg.ascii)
			}
		}
	}
}

// The guard's targets under the home, kept per process, are those it built
// on every call, whichever home came before, and protect the home in effect.
func TestGuardHomeTargetsMatchUncached(t *testing.T) {
	for _, home := range []string{"/home/a", "/", "/home/b", "/home/a"} {
		if got, want := homeGuardTargets(home), uncachedHomeTargets(home, "/work"); !reflect.DeepEqual(got, want) {
			t.Errorf("home %q:\n got %v\nwant %v", home, got, want)
		}
		g := newGuard(Paths{Home: home}, "", Options{Cwd: "/work"}, func(string) string { return "" })
		for _, w := range uncachedHomeTargets(home, "/work") {
			found := false
			for _, t := range g.targets {
				found = found || (t.path == w.path && t.dir == w.dir && t.kind == w.kind && t.proj == w.proj)
			}
			if !found {
				t.Errorf("home %q: newGuard lacks %+v", home, w)
			}
		}
	}
	// A home that is not clean and absolute takes the old path.
	for _, home := range []string{"rel/home", "/home/a/../b/"} {
		g := newGuard(Paths{Home: home}, "", Options{Cwd: "/work"}, func(string) string { return "" })
		for _, w := range uncachedHomeTargets(home, "/work") {
			found := false
			for _, t := range g.targets {
				found = found || (t.path == w.path && t.dir == w.dir && t.kind == w.kind && t.proj == w.proj)
			}
			if !found {
				t.Errorf("home %q: newGuard lacks %+v", home, w)
			}
		}
	}
	env := map[string]string{"HOME": "/home/a"}
	o := Options{Getenv: func(k string) string { return env[k] }, Cwd: "/work"}
	for _, home := range []string{"/home/a", "/home/b"} {
		env["HOME"] = home
		p, err := Load(o)
		if err != nil {
			t.Fatal(err)
		}
		v := p.Decide(Action{Kind: Write, Tool: "Write", Paths: []string{home + "/.claude/settings.json"}, Cwd: "/work"})
		if v.Rule != RuleProtectedPath {
			t.Errorf("home %s: writing its Claude settings was %s by %s, want %s", home, v.Decision, v.Rule, RuleProtectedPath)
		}
	}
}

// A target marked ASCII once (markASCII) compares as one looked at on
// every call, and as lowering both sides did, Kelvin sign and all; and
// newGuard marks only the targets whose paths are ASCII.
func TestMarkedTargetsCompareAsBefore(t *testing.T) {
	paths := []string{"/", "/home/u", "/home/U", "/home/u/.kiro/agents", "/home/u/.\u212airo/agents/x",
		"/home/u/.KIRO", "/home/u/.\u212aIRO", "/home/ü/.claude", "/home/Ü/.claude/x", "/home/u/.claude/settings.json"}
	old := func(p string, t target) (bool, bool) {
		fp, ft := strings.ToLower(p), strings.ToLower(t.path)
		w := fp == ft || (t.dir && strings.HasPrefix(fp, ft+"/"))
		if fp == "/" {
			return w, ft != "/"
		}
		return w, strings.HasPrefix(ft, fp+"/")
	}
	for _, p := range paths {
		for _, tp := range paths {
			for _, dir := range []bool{false, true} {
				ts := []target{{path: tp, dir: dir}}
				markASCII(ts)
				if ts[0].ascii != isASCII(tp) {
					t.Fatalf("markASCII(%q) = %v", tp, ts[0].ascii)
				}
				w, a := old(p, ts[0])
				gw, ga := withinASCII(p, isASCII(p), ts[0]), isAncestorASCII(p, isASCII(p), ts[0])
				if gw != w || ga != a {
					t.Errorf("p=%q t=%q dir=%v: within %v isAncestor %v, want %v %v", p, tp, dir, gw, ga, w, a)
				}
			}
		}
	}
	g := newGuard(Paths{Home: "/home/ü"}, "/work/prøj", Options{Cwd: "/work/prøj", Executable: "/opt/bin/airlock"},
		func(k string) string { return map[string]string{"ZDOTDIR": "/home/Ü/zsh"}[k] })
	for _, tg := range g.targets {
		if tg.ascii != isASCII(tg.path) {
			t.Errorf("target %q marked ascii=%v", tg.path, tg.ascii)
		}
	}
	// Through a decision: the home's agent configuration, spelled with a
	// Kelvin sign, is still protected.
	env := map[string]string{"HOME": "/home/u"}
	p, err := Load(Options{Getenv: func(k string) string { return env[k] }, Cwd: "/work"})
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/home/u/.kiro/agents/a.json", "/home/u/.\u212airo/agents/a.json"} {
		v := p.Decide(Action{Kind: Write, Tool: "Write", Paths: []string{path}, Cwd: "/work"})
		if v.Rule != RuleProtectedPath {
			t.Errorf("writing %q: %s by %s, want %s", path, v.Decision, v.Rule, RuleProtectedPath)
		}
	}
}

// The resident service loads policies for many requests at once, each
// with its own home: every Load gets its own home's rules and targets.
func TestLoadsInParallelKeepTheirHomes(t *testing.T) {
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		home := []string{"/home/a", "/home/b"}[i%2]
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 20; j++ {
				p, err := Load(Options{Getenv: func(k string) string { return map[string]string{"HOME": home}[k] }, Cwd: "/work"})
				if err != nil {
					t.Error(err)
					return
				}
				key := p.Decide(Action{Kind: Read, Tool: "Read", Paths: []string{home + "/.ssh/id_ed25519"}, Cwd: "/work"})
				cfg := p.Decide(Action{Kind: Write, Tool: "Write", Paths: []string{home + "/.claude/settings.json"}, Cwd: "/work"})
				if key.Rule != "builtin.secrets.ssh" || cfg.Rule != RuleProtectedPath {
					t.Errorf("home %s: key %s, settings %s", home, key.Rule, cfg.Rule)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// The PATH's directories kept per process are those built on every call,
// whichever PATH and home came before.
func TestCachedPathDirsMatchUncached(t *testing.T) {
	for _, c := range []struct{ path, home string }{
		{"/usr/bin:/bin", "/home/a"}, {"/usr/bin:/bin", "/home/b"}, {"/opt/x/bin:/usr/bin:.:/usr/bin/", "/home/b"},
		{"", "/home/b"}, {"", ""}, {"/usr/bin:/bin", "/home/a"}, {"/usr/bin:/bin", "/home/a"},
		{"/opt/bïn:/usr/bin", "/home/a"}, {"/usr/bin", "/home/ü"}, {"/usr/bin:/bin", "/home/a"},
	} {
		got, ascii := cachedPathDirs(c.path, c.home)
		want := pathDirsFrom(c.path, c.home)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("PATH %q home %q: %q, want %q", c.path, c.home, got, want)
		}
		if wantASCII := isASCII(strings.Join(want, "")); ascii != wantASCII {
			t.Errorf("PATH %q home %q: all ASCII %v, want %v", c.path, c.home, ascii, wantASCII)
		}
		if cap(got) != len(got) {
			t.Errorf("PATH %q home %q: the shared slice has room to append in place", c.path, c.home)
		}
	}
}

// Another home's targets (the service's own, beside the request's) are
// every target under that home, kept per home as the request's are, and
// two homes in turn each keep theirs.
func TestOtherHomeTargetsMatchUncached(t *testing.T) {
	for _, pair := range [][2]string{{"/home/a", "/home/svc"}, {"/home/b", "/home/svc"}, {"/home/svc", "/home/a"}, {"/home/a", "/home/svc"}} {
		home, other := pair[0], pair[1]
		g := newGuard(Paths{Home: home}, "", Options{Cwd: "/work"}, func(string) string { return "" })
		g.addOtherHomes([]string{other})
		want := append(uncachedHomeTargets(other, "/work"),
			target{path: other + "/.config/airlock", dir: true, kind: kindAirlock, ascii: true},
			target{path: other + "/.local/state/airlock", dir: true, kind: kindAirlock, ascii: true})
		for _, w := range want {
			found := false
			for _, tg := range g.targets {
				found = found || tg == w
			}
			if !found {
				t.Errorf("home %q, other home %q: the guard lacks %+v", home, other, w)
			}
		}
		if len(g.otherSecrets) != 1 || g.otherSecrets[0].path != other+"/.local/state/airlock/secrets" {
			t.Errorf("home %q, other home %q: other secrets %+v", home, other, g.otherSecrets)
		}
	}
}
