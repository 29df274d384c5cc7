package sync

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/airlock-dev/airlock/internal/team/teamclient"
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
type client struct{ api *teamclient.Client }

func newClient(server, token string, hc *http.Client) *client {
	if hc == nil {
		hc = &http.Client{Timeout: requestTimeout}
	}
	return &client{api: teamclient.New(server, token, hc, maxAnswer)}
}

// ServerError is an error answer of the server.
type ServerError = teamclient.ServerError

// do sends one request and decodes the answer into out.
func (c *client) do(ctx context.Context, method, path string, in, out any) error {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	return c.api.Do(ctx, method, path, in, out)
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
