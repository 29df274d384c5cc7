//go:build !linux

package proxied

import "errors"

var errUnsupported = errors.New("proxied: the process tree is read on Linux only")

func ancestors(int, int) ([]Process, error)    { return nil, errUnsupported }
func selfAndClient() (Process, Process, error) { return Process{}, Process{}, errUnsupported }
func hold(string, []byte) (func(), error)      { return nil, errUnsupported }
func readLive(string) (Registration, bool)     { return Registration{}, false }
