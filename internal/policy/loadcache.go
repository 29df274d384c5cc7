package policy

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Work that Load would otherwise repeat on every hook call, kept once per
// process: the resident service (airlock hookd) loads the policy for each
// request, so what depends only on the home directory is built once and
// copied out. Nothing here depends on a file's content: policy files are
// still read on every Load (what they parse to is kept by their content's
// hash, parsecache.go).

// builtinCache holds the built-in rules compiled for one home directory
// ("~" in their path globs expands to it). They are Go values
// (builtinRules), so the compiled rules depend on nothing else.
var builtinCache struct {
	mu    sync.Mutex
	home  string
	ok    bool
	rules []*Rule
}

// compiledBuiltins returns the built-in rules compiled for home, each a
// fresh copy: a caller that changes a Rule it was given (nothing in airlock
// does) cannot change the next Load's. The slices a Rule shares with the
// cached one are never written after compileRule and are cut to their
// length, so an append to one makes a new array.
func compiledBuiltins(home string) ([]*Rule, error) {
	builtinCache.mu.Lock()
	defer builtinCache.mu.Unlock()
	if !builtinCache.ok || builtinCache.home != home {
		var rules []*Rule
		for _, d := range builtinRules() {
			r, err := compileRule(&d, Builtin, "", home)
			if err != nil {
				return nil, fmt.Errorf("built-in rule %s: %w", d.id, err)
			}
			clipRule(r)
			rules = append(rules, r)
		}
		builtinCache.home, builtinCache.ok, builtinCache.rules = home, true, rules
	}
	out := make([]*Rule, len(builtinCache.rules))
	for i, r := range builtinCache.rules {
		c := *r
		out[i] = &c
	}
	return out, nil
}

// clipRule cuts a rule's slices to their length (see compiledBuiltins).
func clipRule(r *Rule) {
	r.Examples = r.Examples[:len(r.Examples):len(r.Examples)]
	for i := range r.Examples {
		p := r.Examples[i].Action.Paths
		r.Examples[i].Action.Paths = p[:len(p):len(p)]
	}
	m := &r.m
	m.commands = m.commands[:len(m.commands):len(m.commands)]
	m.tools = m.tools[:len(m.tools):len(m.tools)]
	m.paths = m.paths[:len(m.paths):len(m.paths)]
	m.notPaths = m.notPaths[:len(m.notPaths):len(m.notPaths)]
	m.hosts = m.hosts[:len(m.hosts):len(m.hosts)]
}

// homeTargetCache holds the guard's targets under an absolute home
// directory (homeTargets, the user-level agent configurations and the
// files that run later, laterHomeTargets), which
// depend on the home alone: newGuard marks targets inside the project
// before it adds these, so none of them carries a per-call flag. It holds
// more than one home: the resident service guards its own home beside the
// request's when the two differ (otherhomes.go), on every such call.
var homeTargetCache struct {
	mu      sync.Mutex
	targets map[string][]target
}

// homeTargetCacheMax bounds the homes kept; past it the cache starts over.
const homeTargetCacheMax = 8

// homeGuardTargets returns the targets under home, built once per home.
// home must be absolute and clean (the caller checks), so that joining
// needs no working directory and absPath would return each path as it is.
// The caller appends the returned targets to its own slice (a copy).
func homeGuardTargets(home string) []target {
	homeTargetCache.mu.Lock()
	defer homeTargetCache.mu.Unlock()
	ts, ok := homeTargetCache.targets[home]
	if !ok {
		eachHomeTarget(home, func(p string, dir bool, kind targetKind) {
			ts = append(ts, target{path: p, dir: dir, kind: kind, ascii: isASCII(p)})
		})
		if homeTargetCache.targets == nil || len(homeTargetCache.targets) >= homeTargetCacheMax {
			homeTargetCache.targets = map[string][]target{}
		}
		homeTargetCache.targets[home] = ts
	}
	return ts
}

// eachHomeTarget calls fn for every protected path under home: the one
// list both the cache and newGuard's uncached path build from, so that
// neither can miss a kind the other has.
func eachHomeTarget(home string, fn func(path string, dir bool, kind targetKind)) {
	join := homeJoiner(home)
	for _, t := range homeTargets {
		fn(join(t.rel), t.dir, t.kind)
	}
	userAgentConfigs(func(rel string, dir bool) { fn(join(rel), dir, kindAgentConfig) })
	for _, t := range laterHomeTargets {
		fn(join(t.rel), t.dir, kindRunsLater)
	}
}

// homeJoiner returns filepath.Join(home, rel) as a function of rel. The
// tables' paths are clean, and so usually is home: the two are then
// joined with a separator, which is what Join returns, without Join's
// cleaning of a hundred paths on every hook call (TestHomeJoiner). home
// must be absolute: Join drops a leading "./".
func homeJoiner(home string) func(rel string) string {
	if filepath.Separator != '/' || len(home) < 2 || home[0] != '/' || filepath.Clean(home) != home {
		return func(rel string) string { return filepath.Join(home, rel) }
	}
	return func(rel string) string {
		if !cleanRel(rel) {
			return filepath.Join(home, rel)
		}
		return home + "/" + rel
	}
}

// cleanRel reports whether rel is a relative slash path that Clean leaves
// as it is: not empty, no leading or trailing slash, no empty, "." or
// ".." element.
func cleanRel(rel string) bool {
	if rel == "" || rel[0] == '/' || rel[len(rel)-1] == '/' {
		return false
	}
	for start := 0; start <= len(rel); {
		end := strings.IndexByte(rel[start:], '/')
		if end < 0 {
			end = len(rel)
		} else {
			end += start
		}
		if e := rel[start:end]; e == "" || e == "." || e == ".." {
			return false
		}
		start = end + 1
	}
	return true
}

// pathDirsCache keeps the directories of the last PATH and home the guard
// was built for (pathDirsFrom, which cleans and de-duplicates every entry
// of PATH): the resident service sees the same PATH and home call after
// call. It depends on the two strings alone.
var pathDirsCache struct {
	mu         sync.Mutex
	ok         bool
	path, home string
	dirs       []string
	ascii      bool
}

// cachedPathDirs is pathDirsFrom(pathEnv, home), computed once for the
// same two strings, and whether every one of them is ASCII (laterHit then
// compares them in place without looking at each again). The slice is
// shared: the guard only reads it, and it is cut to its length, so an
// append makes a new array.
func cachedPathDirs(pathEnv, home string) (dirs []string, ascii bool) {
	pathDirsCache.mu.Lock()
	defer pathDirsCache.mu.Unlock()
	if !pathDirsCache.ok || pathDirsCache.path != pathEnv || pathDirsCache.home != home {
		pathDirsCache.dirs = slices.Clip(pathDirsFrom(pathEnv, home))
		pathDirsCache.ascii = !slices.ContainsFunc(pathDirsCache.dirs, func(d string) bool { return !isASCII(d) })
		pathDirsCache.path, pathDirsCache.home, pathDirsCache.ok = pathEnv, home, true
	}
	return pathDirsCache.dirs, pathDirsCache.ascii
}
