//go:build !linux

// Package server is the resident half of the hook decision service; it
// runs on Linux only (see server.go).
package server

import (
	"errors"
	"time"

	"github.com/airlock-dev/airlock/internal/hookd"
)

// Handler decides one request.
type Handler func(*hookd.Request) *hookd.Response

// Server is one service for one state directory.
type Server struct {
	StateDir string
	Idle     time.Duration
	Handle   Handler
	Exe      string
	Log      func(format string, args ...any)
	Go       func(fn func())
}

// ErrRunning is returned by Serve when another service runs.
var ErrRunning = errors.New("hookd: a service already runs for this state directory")

// Shutdown does nothing outside Linux.
func (s *Server) Shutdown() {}

// Serve fails outside Linux: the client could not check its peer.
func (s *Server) Serve() error {
	return errors.New("hookd: the decision service runs on Linux only")
}
