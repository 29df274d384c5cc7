//go:build !linux

package hookd

import "errors"

// Errors of Dial and Ask; see client_linux.go.
var (
	ErrNoService = errors.New("hookd: no service")
	ErrUntrusted = errors.New("hookd: the peer is not this airlock build")
	ErrDeclined  = errors.New("hookd: the service declined")
)

// Conn is a connection to a service; outside Linux there is none.
type Conn struct{}

// Dial always fails outside Linux: the client's checks of its peer
// (SO_PASSCRED, /proc/PID/exe) are Linux's, and without them the service
// could not be told from an impostor. The hook decides in process.
func Dial(sock, want string) (*Conn, error) { return nil, ErrNoService }

// Ask is never reached outside Linux.
func (c *Conn) Ask(req *Request) (*Response, error) { return nil, ErrNoService }

// Close does nothing.
func (c *Conn) Close() error { return nil }

// Peer is never reached outside Linux.
func (c *Conn) Peer() (int, error) { return 0, ErrNoService }

// Hand is never reached outside Linux.
func (c *Conn) Hand(fd int) error { return ErrNoService }
