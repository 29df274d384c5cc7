package shell

import (
	"fmt"
	"sort"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A function's body runs in the shell that calls it: with that shell's
// options, with what the text did to the shell's own variables (IFS,
// HOME, CDPATH, OLDPWD, PWD), and with the prefix assignments of the call
// itself (IFS=X f splits the body's unquoted expansions by X; FINDINGS-9
// S2). The body is walked with that environment; a later call with
// another environment walks it again, up to maxBodyWalks environments,
// and past that once more with every such variable unknown.

// maxBodyWalks bounds the environments one function body is walked with.
const maxBodyWalks = 4

// shellOwnVars are the variables of the shell itself whose value changes
// how the body's words are read; a body starts knowing them as its caller
// does.
var shellOwnVars = []string{"HOME", "CDPATH", "OLDPWD", "IFS", "PWD"}

func ownVar(name string) bool {
	for _, n := range shellOwnVars {
		if n == name {
			return true
		}
	}
	return false
}

// allTouched marks every variable of the shell's own as assigned.
const allTouched = touchHome | touchCDPATH | touchOLDPWD | touchIFS | touchPWD | touchDirVar

// callFunction walks a function's body for a call (call is nil for a
// body run without a call of its own, such as command_not_found_handle).
// The body may be called again from elsewhere with other values, so it
// starts knowing no variable but the shell's own and the call's prefix
// assignments, and no directory; afterwards the caller forgets what the
// body may assign.
func (s *stmtWalker) callFunction(body *syntax.Stmt, call *syntax.CallExpr) {
	v := s.f.vals
	fresh := newValues()
	fresh.dir, fresh.fn = DirUnknown, true
	if v != nil {
		fresh.inheritShell(v)
		for name, b := range v.vars {
			if dirVarBit(name) != 0 || ownVar(name) {
				fresh.set(name, b)
			}
		}
	}
	if call != nil {
		for _, a := range call.Assigns {
			if a.Name == nil {
				continue
			}
			val, known := s.value(a.Value)
			if a.Append || a.Array != nil || a.Index != nil {
				known = false
			}
			fresh.set(a.Name.Value, binding{text: val, dynamic: !known})
		}
	}
	s.walkBody(body, fresh)
	if v == nil {
		return
	}
	// Options are the shell's, not the function's: one the body turns
	// on, in any walk of it, is on after the call.
	if o := s.w.bodyOpts[body]; o != nil {
		v.mergeOpts(o)
	}
	n := &assignedSet{}
	s.w.assignedBody(body, n, map[*syntax.Stmt]bool{body: true})
	v.forgetAll(n)
	if call != nil && len(call.Assigns) > 0 {
		// A POSIX shell (sh, bash --posix) keeps a function call's
		// prefix assignments after it returns.
		s.prefixPersists(call.Assigns)
	}
}

// walkBody walks body with the values env, unless it was walked with
// the same environment already or is being walked now (recursion).
func (s *stmtWalker) walkBody(body *syntax.Stmt, env *values) {
	if s.w.inlined == nil {
		s.w.inlined, s.w.active = map[*syntax.Stmt]map[string]bool{}, map[*syntax.Stmt]bool{}
	}
	if s.w.active[body] {
		return
	}
	seen := s.w.inlined[body]
	if seen == nil {
		seen = map[string]bool{}
		s.w.inlined[body] = seen
	}
	key := env.callKey()
	if seen[key] {
		return
	}
	if len(seen) >= maxBodyWalks {
		// Too many environments: once more with the shell's own
		// variables unknown, which covers every later one.
		wide := newValues()
		wide.dir, wide.fn = DirUnknown, true
		wide.inheritShell(env)
		wide.touched = allTouched
		wide.cdable = true
		env, key = wide, "*"
		if seen[key] {
			return
		}
	}
	seen[key] = true
	s.w.active[body] = true
	saved := s.f.vals
	s.f.vals = env
	syntax.Walk(body, s.visit)
	s.f.vals = saved
	delete(s.w.active, body)
	if s.w.bodyOpts == nil {
		s.w.bodyOpts = map[*syntax.Stmt]*values{}
	}
	if s.w.bodyOpts[body] == nil {
		s.w.bodyOpts[body] = newValues()
	}
	s.w.bodyOpts[body].mergeOpts(env)
}

// callKey names the environment a body is walked with.
func (v *values) callKey() string {
	names := make([]string, 0, len(v.vars))
	for k := range v.vars {
		names = append(names, k)
	}
	sort.Strings(names)
	var b strings.Builder
	fmt.Fprintf(&b, "%d %t %s", v.touched, v.cdable, v.optKey())
	for _, k := range names {
		bd := v.vars[k]
		fmt.Fprintf(&b, "\x00%s=%t,%t,%q,%q", k, bd.dynamic, bd.array, bd.text, bd.list)
	}
	return b.String()
}

// specialBuiltin reports the POSIX special builtins: a prefix assignment
// on one of them lasts after it in a POSIX shell (sh -c 'IFS=X :; …').
func specialBuiltin(name string) bool {
	switch name {
	case ":", ".", "break", "continue", "eval", "exec", "exit", "export", "readonly", "return", "set", "shift", "source", "times", "trap", "unset":
		return true
	}
	return false
}

// prefixPersists follows prefix assignments that may last after their
// command: a name keeps its held value only when the assignment gives it
// that same value, and is unknown otherwise (which shell runs the text,
// and in which mode, is not known).
func (s *stmtWalker) prefixPersists(list []*syntax.Assign) {
	v := s.f.vals
	if v == nil {
		return
	}
	for _, a := range list {
		if a.Name == nil {
			continue
		}
		val, known := s.value(a.Value)
		old, held := v.get(a.Name.Value)
		if known && held && !a.Append && a.Array == nil && a.Index == nil && !old.dynamic && !old.array && old.text == val {
			continue
		}
		v.forget(a.Name.Value)
	}
}
