package proxy

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// MaxMessage is the longest line (one JSON-RPC message) the stdio
// transport accepts from the client; a longer one is refused and skipped.
const MaxMessage = 16 << 20

// StdioTransport returns the reader and writer to give the SDK's stdio
// transport for the agent's side. The SDK ends the whole session (and
// with it "airlock mcp run") on one message it cannot decode: an id that
// is a boolean or an object, a missing "jsonrpc", a batch, a line that is
// not JSON. Here every line the SDK would refuse is answered with a
// JSON-RPC error instead (-32700 for what is not JSON, -32600 for an
// invalid request, with the request's id when it has a usable one) and
// dropped; responses that are invalid are dropped. The writer serialises
// these answers with the SDK's own lines (it writes a whole message per
// Write).
func StdioTransport(in io.Reader, out io.Writer, log io.Writer) (io.ReadCloser, io.WriteCloser) {
	if log == nil {
		log = io.Discard
	}
	w := &lineWriter{w: out}
	return &lineFilter{r: bufio.NewReaderSize(in, 64<<10), w: w, log: log}, w
}

// lineWriter writes whole messages, one Write at a time.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

// Close leaves the process's standard output open.
func (l *lineWriter) Close() error { return nil }

// lineFilter passes on the lines the SDK can decode.
type lineFilter struct {
	r   *bufio.Reader
	w   *lineWriter
	log io.Writer
	buf []byte
	err error
}

func (f *lineFilter) Read(p []byte) (int, error) {
	for len(f.buf) == 0 {
		if f.err != nil {
			return 0, f.err
		}
		line, err := f.readLine()
		if err != nil {
			f.err = err
		}
		if line != nil {
			f.buf = line
		}
	}
	n := copy(p, f.buf)
	f.buf = f.buf[n:]
	return n, nil
}

// Close ends reading: the process's standard input stays open.
func (f *lineFilter) Close() error { return nil }

// readLine returns the next acceptable line with its newline, nil for a
// line that was refused or blank.
func (f *lineFilter) readLine() ([]byte, error) {
	var line []byte
	for {
		chunk, err := f.r.ReadSlice('\n')
		if len(line)+len(chunk) > MaxMessage {
			// Skip to the end of this line without keeping it.
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = f.r.ReadSlice('\n')
			}
			f.refuse(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("the message is longer than %d bytes", MaxMessage))
			return nil, err
		}
		line = append(line, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && (!errors.Is(err, io.EOF) || len(bytes.TrimSpace(line)) == 0) {
			return nil, err
		}
		out := f.check(line)
		return out, err
	}
}

// check returns line (newline-terminated) when the SDK can decode it.
func (f *lineFilter) check(line []byte) []byte {
	msg := bytes.TrimSpace(line)
	if len(msg) == 0 {
		return nil
	}
	if !json.Valid(msg) {
		f.refuse(nil, jsonrpc.CodeParseError, "the line is not JSON")
		return nil
	}
	var head struct {
		ID     json.RawMessage `json:"id"`
		Method json.RawMessage `json:"method"`
	}
	if msg[0] != '{' || json.Unmarshal(msg, &head) != nil {
		f.refuse(nil, jsonrpc.CodeInvalidRequest, "a message must be one JSON object (batches are not supported)")
		return nil
	}
	if _, err := jsonrpc.DecodeMessage(msg); err != nil {
		if len(head.Method) == 0 {
			// An invalid response: nobody to answer.
			fmt.Fprintf(f.log, "airlock: mcp: dropped an invalid message from the client: %v\n", err)
			return nil
		}
		f.refuse(usableID(head.ID), jsonrpc.CodeInvalidRequest, "invalid JSON-RPC request: "+err.Error())
		return nil
	}
	return append(msg, '\n')
}

// usableID is the request's id when it is a string or a number, the only
// ids an answer can carry; nil otherwise (answered with id null).
func usableID(raw json.RawMessage) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil
	}
	switch v.(type) {
	case string, float64:
		return raw
	}
	return nil
}

// refuse answers a refused line with a JSON-RPC error.
func (f *lineFilter) refuse(id json.RawMessage, code int64, msg string) {
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: code, Message: "airlock: " + msg}})
	fmt.Fprintf(f.log, "airlock: mcp: refused a message from the client: %s\n", msg)
	_, _ = f.w.Write(append(b, '\n'))
}
