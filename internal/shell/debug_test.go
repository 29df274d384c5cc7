package shell

import (
	"fmt"
	"os"
	"testing"
)

func TestDebugPrint(t *testing.T) {
	src := os.Getenv("SHDBG")
	if src == "" {
		t.Skip()
	}
	for _, inv := range Parse(src) {
		fmt.Printf("%q dyn=%v via=%v remote=%q opaque=%q redir=%v stdin=%q\n", inv.Args, inv.Dynamic, inv.Via, inv.Remote, inv.Opaque, inv.Redirects, inv.Stdin)
	}
}
