//go:build linux || darwin || freebsd || netbsd || openbsd

package cli

import (
	"os"
	"syscall"
	"unsafe"
)

// isTTY reports whether f is a terminal: the kernel must return its
// terminal attributes. Being a character device is not enough: /dev/null
// and /dev/zero are character devices too.
func isTTY(f *os.File) bool {
	var t syscall.Termios
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), uintptr(tcgets), uintptr(unsafe.Pointer(&t)))
	return errno == 0
}
