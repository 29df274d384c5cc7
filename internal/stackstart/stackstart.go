// Package stackstart grows the main goroutine's stack at the start of the
// airlock binary's initialisation, once, to the depth an allowed hook call
// reaches, so the stack is never copied while it is deep; Grow does the
// same for a goroutine that decides (internal/agent/hookrun's).
//
// A goroutine's stack starts at 2 KiB and doubles each time a call needs
// more: each doubling copies the stack and walks every frame on it,
// looking up each function's stack maps in the binary's pclntab. The hook
// runs in a process that lives a few milliseconds, where nearly every one
// of those pages is read for the first time, so each walk deep in package
// initialisation (regexp compilation) or in the decision (the shell
// parser, the classifier) costs page faults as well as the copy. An
// allowed call's main goroutine reaches 32 KiB: four copies (2 → 4 → 8 →
// 16 → 32 KiB), counted with a uprobe on runtime.copystack. Grown here,
// it is one copy of a stack two frames deep. The frame that grows it is
// reserved, never written: no page of it is touched until a later call
// uses it, so a command that stays shallow pays for no more memory.
//
// Go initialises packages in import-path order among those whose imports
// are initialised (the language spec, since Go 1.21): a package that
// imports nothing is initialised before every package of the module and
// every dependency that imports anything. It must stay so:
// cmd/airlock's TestStackStartFirst reads the initialisation order.
package stackstart

// depth is the frame grown into: 32 KiB less what the stack already
// holds when init runs and the runtime's guard.
const depth = 28 << 10

// keep is never true and at never set: they keep grow's frame from being
// optimised away without the frame ever being written.
var (
	keep bool
	at   int
)

func init() { grow() }

// Grow grows the calling goroutine's stack as init grows the main one's,
// for a goroutine that runs a decision: it starts at 2 KiB too (the
// other agents' hooks decide on a goroutine of their own, under a
// deadline, internal/agent/hookrun).
func Grow() { grow() }

//go:noinline
func grow() byte {
	if keep {
		var frame [depth]byte
		frame[at] = 1
		return frame[at/2]
	}
	return 0
}
