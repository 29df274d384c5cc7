package scan

import "sync"

// onFirstUse is a table built the first time it is read. A package-level
// map literal, or a sync.OnceValue, costs every process at start-up: Go
// builds the map (or allocates the OnceValue's closure) in package
// initialisation, before anything is asked, and the hook is one process
// per tool call. An onFirstUse with a build function is laid out by the
// compiler and costs nothing until get, which builds the table once and
// is safe for concurrent use (the decision service classifies on many
// goroutines).
type onFirstUse[T any] struct {
	once  sync.Once
	build func() T
	v     T
	// failed is what a build that panicked panicked with: every get
	// panics with it again, as sync.OnceValue's function does, rather
	// than hand out an empty table.
	failed any
}

// get returns the table, building it on the first call.
func (l *onFirstUse[T]) get() T {
	l.once.Do(func() {
		defer func() {
			if p := recover(); p != nil {
				l.failed = p
			}
		}()
		l.v = l.build()
	})
	if l.failed != nil {
		panic(l.failed)
	}
	return l.v
}
