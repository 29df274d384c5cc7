package cli

import (
	"errors"
	"fmt"
	"io"
	"runtime"

	"github.com/airlock-dev/airlock/internal/hookline"
)

// This file decides which form of hook line install writes: the client
// of the resident service (airlock-hook, docs/HOOKD.md) when a
// trustworthy one sits beside this airlock, else "airlock hook" in
// process, saying why.

// hookForm is the program install writes into the hook line, its form,
// and why it is not the client's when it is not.
type hookForm struct {
	// Bin is what the line runs: the client, or airlock itself.
	Bin  string
	Form hookline.Form
	// Why says why the line runs airlock in process; "" for the client.
	Why string
}

// installHint is how to get the fast line, for an install that wrote the
// in-process one for want of a client.
const installHint = "install airlock-hook beside airlock (from a checkout: CGO_ENABLED=0 go install ./cmd/...), then run airlock install again"

// chooseHookForm picks the line's program for the airlock binary at exe.
// noHookd (--no-hookd) asks for the in-process line.
func chooseHookForm(exe string, noHookd bool) hookForm {
	inproc := func(why string) hookForm { return hookForm{Bin: exe, Form: hookline.InProcess, Why: why} }
	switch {
	case noHookd:
		return inproc("--no-hookd")
	case runtime.GOOS != "linux":
		return inproc("the resident service runs on Linux only")
	}
	client, err := hookline.Client(exe)
	if err != nil {
		var ce *hookline.ClientError
		if errors.As(err, &ce) {
			return inproc(fmt.Sprintf("no usable %s beside airlock (%s: %s)", hookline.ClientName, ce.Path, ce.Why))
		}
		return inproc(err.Error())
	}
	return hookForm{Bin: client, Form: hookline.Service}
}

// checkExeName refuses to install from an airlock binary named like the
// client: a hook line's form is read from its program's name, so its
// in-process line would read as the client's and run airlock without the
// hook verb, an error most agents answer by running the tool call.
func checkExeName(exe string) error {
	if hookline.FormOf(exe) != hookline.Service {
		return nil
	}
	return &usageError{Msg: fmt.Sprintf("the airlock binary %s is named like its hook client (%s)", exe, hookline.ClientName),
		Hints: []string{"install airlock under its own name (go install ./cmd/... names it airlock), then run airlock install again"}}
}

// say tells the person which form was written, and, for the in-process
// line, why and what to do about it.
func (f hookForm) say(w io.Writer) {
	if f.Form == hookline.Service {
		fmt.Fprintln(w, "the hook runs through airlock's resident decision service (docs/HOOKD.md; --no-hookd for the in-process line)")
		return
	}
	fmt.Fprintf(w, "note: the hook runs airlock in process, about twice the start-up cost of the service's client: %s\n", f.Why)
	if f.Why != "--no-hookd" {
		fmt.Fprintf(w, "hint: %s\n", installHint)
	}
}
