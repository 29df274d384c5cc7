//go:build darwin || freebsd || netbsd || openbsd

package cli

import "syscall"

// tcgets is the ioctl that reads a terminal's attributes (TIOCGETA on
// the BSDs): only a terminal answers it.
const tcgets = syscall.TIOCGETA
