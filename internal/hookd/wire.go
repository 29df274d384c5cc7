package hookd

import (
	"errors"
	"strconv"
)

// The wire is length-prefixed binary in both directions, one request and
// one response per connection:
//
//	request:  magic, version, argv (count, strings), env (count, strings),
//	          cwd, stdin
//	response: magic, version, kind, status, stdout, stderr, trailer
//
// Every string is a 4-byte big-endian length and its bytes. The magic
// starts with a NUL and holds bytes airlock never prints as text, so no
// other airlock command's output can be mistaken for an answer; the
// trailer makes a truncated answer detectable even when every length
// field happens to be complete.

// Version is the wire's version. A client and a service of different
// builds are also told apart by the binary itself (the client checks the
// service runs the same file); this number guards the format.
const Version = 1

// magic opens every request and response.
const magic = "\x00airlock-hookd\xff"

// trailer closes every response.
const trailer = "\xffend"

// Limits: a hook event is at most 32 MiB (claudecode.MaxInput); the rest
// is room for the environment and arguments. Anything larger is refused
// by the service and decided in process by the client.
const (
	MaxStdin    = 32<<20 + 1
	maxMessage  = MaxStdin + 4<<20
	maxStrings  = 1 << 14
	maxResponse = 64 << 20
)

// Kinds of response.
const (
	// KindAnswer carries the hook's own stdout, stderr and exit status.
	KindAnswer = 0
	// KindDeclined says the service will not decide this invocation (not
	// a hook, another state directory, a stale binary): decide in process.
	KindDeclined = 1
)

// Request is one hook invocation as the hook process received it.
type Request struct {
	// Args are airlock's arguments without the program name, starting
	// with "hook".
	Args []string
	// Env is the environment as os.Environ gives it ("KEY=value").
	Env []string
	// Cwd is the hook process's working directory.
	Cwd string
	// Stdin is everything the hook read from standard input.
	Stdin []byte
	// Client is the process that sent the request, as the kernel names
	// it to the service. It is never read from the wire (ParseRequest
	// leaves it zero), so a client cannot choose it.
	Client Client
}

// Client is a request's client process, from the kernel's facts about
// the connection.
type Client struct {
	// PID is the client's process id (SO_PEERCRED), 0 when unknown.
	PID int
	// Pinned reports whether PID still names the process that connected
	// (through a pidfd of it, SO_PEERPIDFD): something read about PID
	// before Pinned returned true was read about that process. Nil where
	// the kernel gives no pidfd (before Linux 6.5): PID alone may then
	// have been reused by another process.
	Pinned func() bool
	// Contained reports whether the process that wrote the request runs
	// in a sandbox like "airlock run"'s, from the kernel's facts about it
	// (its namespaces, capabilities and view of the state directory; see
	// hookd/server), read when first asked. Nothing in the request can
	// set it. Nil: not contained.
	Contained func() bool
}

// Response is the service's answer.
type Response struct {
	// Kind is KindAnswer or KindDeclined.
	Kind int
	// Status is the hook's exit status.
	Status int
	// Stdout and Stderr are what the hook wrote.
	Stdout, Stderr []byte
	// Reason says why a request was declined (for the service's log and
	// tests; the client does not print it).
	Reason string
}

// ErrMalformed is a message that does not follow the wire format.
var ErrMalformed = errors.New("hookd: malformed message")

func putU32(b []byte, v uint32) []byte {
	return append(b, byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
}

func putBytes(b, s []byte) []byte { return append(putU32(b, uint32(len(s))), s...) }

func putString(b []byte, s string) []byte { return append(putU32(b, uint32(len(s))), s...) }

// AppendRequest encodes r.
func AppendRequest(b []byte, r *Request) []byte {
	b = append(b, magic...)
	b = putU32(b, Version)
	b = putU32(b, uint32(len(r.Args)))
	for _, a := range r.Args {
		b = putString(b, a)
	}
	b = putU32(b, uint32(len(r.Env)))
	for _, kv := range r.Env {
		b = putString(b, kv)
	}
	b = putString(b, r.Cwd)
	return putBytes(b, r.Stdin)
}

// AppendResponse encodes r.
func AppendResponse(b []byte, r *Response) []byte {
	b = append(b, magic...)
	b = putU32(b, Version)
	b = putU32(b, uint32(r.Kind))
	b = putU32(b, uint32(int32(r.Status)))
	b = putBytes(b, r.Stdout)
	b = putBytes(b, r.Stderr)
	b = putString(b, r.Reason)
	return append(b, trailer...)
}

// reader decodes from a byte slice, remembering the first error.
type reader struct {
	b   []byte
	err error
}

func (r *reader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || n > len(r.b) {
		r.err = ErrMalformed
		return nil
	}
	s := r.b[:n:n]
	r.b = r.b[n:]
	return s
}

func (r *reader) u32() uint32 {
	s := r.take(4)
	if s == nil {
		return 0
	}
	return uint32(s[0])<<24 | uint32(s[1])<<16 | uint32(s[2])<<8 | uint32(s[3])
}

func (r *reader) bytes() []byte { return r.take(int(r.u32())) }

func (r *reader) strings() []string {
	n := r.u32()
	if n > maxStrings {
		r.err = ErrMalformed
		return nil
	}
	out := make([]string, 0, n)
	for i := uint32(0); i < n && r.err == nil; i++ {
		out = append(out, string(r.bytes()))
	}
	return out
}

func (r *reader) header() {
	if string(r.take(len(magic))) != magic {
		r.err = ErrMalformed
		return
	}
	if v := r.u32(); r.err == nil && v != Version {
		r.err = errors.New("hookd: wire version " + strconv.Itoa(int(v)) + ", want " + strconv.Itoa(Version))
	}
}

// ParseRequest decodes a whole request.
func ParseRequest(b []byte) (*Request, error) {
	r := &reader{b: b}
	r.header()
	q := &Request{Args: r.strings(), Env: r.strings()}
	q.Cwd = string(r.bytes())
	q.Stdin = r.bytes()
	if r.err == nil && len(r.b) != 0 {
		r.err = ErrMalformed
	}
	if r.err != nil {
		return nil, r.err
	}
	return q, nil
}

// ParseResponse decodes a whole response; a missing trailer or trailing
// bytes are malformed.
func ParseResponse(b []byte) (*Response, error) {
	r := &reader{b: b}
	r.header()
	p := &Response{Kind: int(r.u32()), Status: int(int32(r.u32()))}
	p.Stdout = r.bytes()
	p.Stderr = r.bytes()
	p.Reason = string(r.bytes())
	if r.err == nil && (string(r.take(len(trailer))) != trailer || len(r.b) != 0) {
		r.err = ErrMalformed
	}
	if r.err != nil {
		return nil, r.err
	}
	if p.Kind != KindAnswer && p.Kind != KindDeclined {
		return nil, ErrMalformed
	}
	return p, nil
}

// RequestTooLarge reports whether n bytes are more than any request may
// hold: the server reads until the client shuts its side, and this bounds
// what it buffers.
func RequestTooLarge(n int) bool { return n > maxMessage }

// StopOtherBuild is the one argument of the request a client sends to a
// service of another airlock build that holds the socket: the service
// exits, so the client's own build can start its service. Any process of
// the user could stop the service anyway; the cost is one start-up.
const StopOtherBuild = "\x00stop: a client of another airlock build"

// RelayArg is the one argument of the request "airlock run"'s relay
// sends with a hook client's connection attached (SCM_RIGHTS): the
// service reads the client's request from that connection and answers
// on it, so that what it knows of the client (who wrote the request,
// where that process runs) comes from the kernel, not from the relay.
const RelayArg = "\x00relay: the hook client's connection is attached"
