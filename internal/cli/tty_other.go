//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package cli

import "os"

// isTTY reports false where airlock has no terminal check: "queue run"
// then refuses, as it must when it cannot tell (it fails closed).
func isTTY(*os.File) bool { return false }
