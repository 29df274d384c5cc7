// Command floor is the yardstick for airlock's whole-process timings: a Go
// program that reads the same input as airlock (its arguments and standard
// input) and prints a fixed JSON reply, doing no other work. airlock's time
// over floor's is the cost of deciding.
package main

import (
	"io"
	"os"
)

func main() {
	if fi, err := os.Stdin.Stat(); err == nil && fi.Mode()&os.ModeCharDevice == 0 {
		io.Copy(io.Discard, os.Stdin)
	}
	os.Stdout.WriteString(`{"decision":"allow"}` + "\n")
}
