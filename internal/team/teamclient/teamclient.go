// Package teamclient is the one HTTP client of the team server's API
// (internal/team/wire): a machine's sync, a reviewer's commands and the
// team's phone watcher each call the server through it, with a bearer
// token, a bound on the answer's size, and the server's error answers as
// a typed error.
package teamclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/airlock-dev/airlock/internal/team/wire"
)

// DefaultTimeout bounds one request when the caller gives no client of
// its own: a server that stops answering ends the call, it does not hang.
const DefaultTimeout = 30 * time.Second

// Client calls one team server with one token.
type Client struct {
	base, token string
	http        *http.Client
	maxAnswer   int64
}

// New is a client of the API at server (its base URL, without
// wire.PathPrefix). hc nil is a client with DefaultTimeout; maxAnswer
// bounds an answer read into memory.
func New(server, token string, hc *http.Client, maxAnswer int64) *Client {
	if hc == nil {
		hc = &http.Client{Timeout: DefaultTimeout}
	}
	return &Client{base: server + wire.PathPrefix, token: token, http: hc, maxAnswer: maxAnswer}
}

// ServerError is an error answer of the server. Its words are the
// server's: whoever prints them renders them (internal/render).
type ServerError struct {
	Status int
	Body   wire.Error
}

func (e *ServerError) Error() string {
	msg := fmt.Sprintf("team server: %d %s", e.Status, http.StatusText(e.Status))
	if e.Body.Error != "" {
		msg += ": " + e.Body.Error
	}
	if e.Body.Hint != "" {
		msg += " (" + e.Body.Hint + ")"
	}
	return msg
}

// TransportError is a request that got no answer (the server down, a
// timeout, a refused connection).
type TransportError struct{ Err error }

func (e *TransportError) Error() string { return "team server: " + e.Err.Error() }
func (e *TransportError) Unwrap() error { return e.Err }

// Do sends one request, with in as its JSON body when not nil, and
// decodes a 2xx answer into out (when not nil). Any other answer is a
// *ServerError, its words cut to 500 characters.
func (c *Client) Do(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Accept", "application/json")
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return &TransportError{err}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, c.maxAnswer+1))
	if err != nil {
		return fmt.Errorf("team server: reading the answer: %w", err)
	}
	if int64(len(data)) > c.maxAnswer {
		return fmt.Errorf("team server: an answer larger than %d bytes", c.maxAnswer)
	}
	if resp.StatusCode/100 != 2 {
		se := &ServerError{Status: resp.StatusCode}
		_ = json.Unmarshal(data, &se.Body)
		se.Body.Error = cut(se.Body.Error, 500)
		se.Body.Hint = cut(se.Body.Hint, 500)
		return se
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("team server: %s %s: the answer is not what the protocol says: %w", method, path, err)
	}
	return nil
}

func cut(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
