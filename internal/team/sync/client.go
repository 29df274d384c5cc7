package sync

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/airlock-dev/airlock/internal/team/wire"
)

// Limits of one exchange with the server.
const (
	// requestTimeout bounds one request: a server that stops answering
	// ends the round (the next one retries), it does not hang sync.
	requestTimeout = 30 * time.Second
	// maxAnswer bounds an answer read into memory.
	maxAnswer = 16 << 20
)

// client speaks wire to one team server with one machine token.
type client struct {
	base  string // server URL + wire.PathPrefix
	token string
	http  *http.Client
}

func newClient(server, token string, hc *http.Client) *client {
	if hc == nil {
		hc = &http.Client{Timeout: requestTimeout}
	}
	return &client{base: server + wire.PathPrefix, token: token, http: hc}
}

// ServerError is an error answer of the server.
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

// do sends one request and decodes the answer into out.
func (c *client) do(ctx context.Context, method, path string, in, out any) error {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
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
		return fmt.Errorf("team server: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer+1))
	if err != nil {
		return fmt.Errorf("team server: reading the answer: %w", err)
	}
	if len(data) > maxAnswer {
		return fmt.Errorf("team server: an answer larger than %d bytes", maxAnswer)
	}
	if resp.StatusCode/100 != 2 {
		se := &ServerError{Status: resp.StatusCode}
		_ = json.Unmarshal(data, &se.Body)
		if len(se.Body.Error) > 500 {
			se.Body.Error = se.Body.Error[:500]
		}
		if len(se.Body.Hint) > 500 {
			se.Body.Hint = se.Body.Hint[:500]
		}
		return se
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("team server: %s %s: the answer is not what the protocol says: %w", method, path, err)
	}
	return nil
}

func (c *client) hello(ctx context.Context) (*wire.Hello, error) {
	var h wire.Hello
	if err := c.do(ctx, http.MethodGet, "/hello", nil, &h); err != nil {
		return nil, err
	}
	return &h, nil
}

func (c *client) push(ctx context.Context, p *wire.Push) (*wire.PushResult, error) {
	var r wire.PushResult
	if err := c.do(ctx, http.MethodPost, "/push", p, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

func (c *client) decisions(ctx context.Context, after int64, limit int) (*wire.Decisions, error) {
	q := url.Values{"after": {strconv.FormatInt(after, 10)}, "limit": {strconv.Itoa(limit)}}
	var d wire.Decisions
	if err := c.do(ctx, http.MethodGet, "/decisions?"+q.Encode(), nil, &d); err != nil {
		return nil, err
	}
	return &d, nil
}

// unauthorized reports whether the server refused the token (revoked,
// or never issued).
func unauthorized(err error) bool {
	var se *ServerError
	return errors.As(err, &se) && (se.Status == http.StatusUnauthorized || se.Status == http.StatusForbidden)
}
