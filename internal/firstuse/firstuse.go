// Package firstuse holds tables built the first time they are read.
//
// A package-level map literal, or a sync.OnceValue, costs every process
// at start-up: Go builds the map (or allocates the OnceValue's closure) in
// package initialisation, before anything is asked, and the hook is one
// process per tool call. A Table with a Build function is laid out by the
// compiler and costs nothing until Get, which builds the table once and
// is safe for concurrent use (the decision service classifies on many
// goroutines).
package firstuse

import "sync"

// Table is a value built by Build on the first Get.
type Table[T any] struct {
	once  sync.Once
	Build func() T
	v     T
	// failed is what a build that panicked panicked with: every Get
	// panics with it again, as sync.OnceValue's function does, rather
	// than hand out an empty table.
	failed any
}

// Get returns the table, building it on the first call.
func (l *Table[T]) Get() T {
	l.once.Do(func() {
		defer func() {
			if p := recover(); p != nil {
				l.failed = p
			}
		}()
		l.v = l.Build()
	})
	if l.failed != nil {
		panic(l.failed)
	}
	return l.v
}
