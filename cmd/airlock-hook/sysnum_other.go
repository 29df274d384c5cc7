//go:build linux && !amd64 && !arm64

package main

// sysMemfdCreate is unknown here: a fallback that must put standard input
// back blocks the call instead (see restoreStdin).
const sysMemfdCreate = 0
