package main

import (
	"errors"
	"syscall"
	"unsafe"
)

// memfd creates an anonymous memory file (memfd_create), which the
// syscall package does not wrap.
func memfd(name string) (int, error) {
	if sysMemfdCreate == 0 {
		return -1, errors.New("memfd_create is not known on this architecture")
	}
	p, err := syscall.BytePtrFromString(name)
	if err != nil {
		return -1, err
	}
	r, _, errno := syscall.Syscall(sysMemfdCreate, uintptr(unsafe.Pointer(p)), 0, 0)
	if errno != 0 {
		return -1, errno
	}
	return int(r), nil
}
