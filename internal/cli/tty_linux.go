//go:build linux

package cli

import "syscall"

// tcgets is the ioctl that reads a terminal's attributes: only a
// terminal answers it (a file, a pipe, /dev/null and /dev/zero fail with
// ENOTTY).
const tcgets = syscall.TCGETS
