// Package teamnotify points the phone channel (internal/notify) at the
// team server instead of one machine: it sends every machine's newly held
// items to the team's ntfy topic, with the same messages, redaction,
// buttons and signed replies as "airlock notify", and settles a press on
// the phone in the team queue as a reviewer, through the server's own
// reviewer API. The server signs the decision as it signs any reviewer's,
// and the machine applies it at its next "airlock team sync".
//
// It is a reviewer client, not a second server: it holds a reviewer's
// token (one made for the phone, "airlock team add-reviewer alice-phone"),
// never the database or the server's signing key, so what it can do is
// what that reviewer can do, "airlock team revoke" ends it at once, and
// exactly once is the server's settle-once rule (a second decision on an
// item is 409, reported and ignored).
package teamnotify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/airlock-dev/airlock/internal/journal"
	"github.com/airlock-dev/airlock/internal/notify"
	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/strictyaml"
	"github.com/airlock-dev/airlock/internal/team/teamclient"
	"github.com/airlock-dev/airlock/internal/team/teamview"
	"github.com/airlock-dev/airlock/internal/team/wire"
	yaml "go.yaml.in/yaml/v3"
)

// Name names the team watcher's files in the state directory: its state
// in team-notify/, its reply key and topics in secrets/team-notify.json,
// apart from the machine's own watcher.
const Name = "team-notify"

// Limits of the team watcher's exchanges with the server.
const (
	requestTimeout = 30 * time.Second
	maxAnswer      = 32 << 20
	// pageSize and maxPages bound one look at the queue: 10,000 pending
	// items; older ones are sent when newer ones are settled.
	pageSize = 500
	maxPages = 20
	// maxConfig bounds the configuration file.
	maxConfig = 1 << 20
)

// A reply's look-up and settlement are tried again when the server did
// not answer or answered 502, 503 or 504 (a restart, a proxy in between):
// the watcher has spent the reply's nonce before it settles, so a press
// lost to a blip could not be pressed again. attempts bounds the tries,
// retryWait is the first wait (doubling). A retry of a settlement that
// did commit gets 409, which the watcher reports as settled.
var (
	attempts  = 3
	retryWait = time.Second
)

// ErrSettled is wrapped when the server says another decision settled
// the item first (409).
var ErrSettled = errors.New("the team item is already settled")

// Queue is the team queue, as one reviewer sees it through the server's
// API. It implements notify.Queue.
type Queue struct{ api *teamclient.Client }

// New is the team queue of the server at serverURL (its base URL), read
// and settled with a reviewer's token. hc nil is a client with
// requestTimeout.
func New(serverURL, token string, hc *http.Client) *Queue {
	if hc == nil {
		hc = &http.Client{Timeout: requestTimeout}
	}
	return &Queue{api: teamclient.New(strings.TrimRight(serverURL, "/"), token, hc, maxAnswer)}
}

var _ notify.Queue = (*Queue)(nil)

// ServerError is an error answer of the server.
type ServerError = teamclient.ServerError

// transient reports an error worth one more try.
func transient(err error) bool {
	var se *ServerError
	if errors.As(err, &se) {
		return se.Status == http.StatusBadGateway || se.Status == http.StatusServiceUnavailable || se.Status == http.StatusGatewayTimeout
	}
	return err != nil && !errors.Is(err, context.Canceled)
}

// retry is do, tried again on a transient error.
func (q *Queue) retry(ctx context.Context, method, path string, in, out any) error {
	wait := retryWait
	var err error
	for i := 0; i < attempts; i++ {
		if err = q.do(ctx, method, path, in, out); !transient(err) {
			return err
		}
		if i+1 < attempts {
			select {
			case <-ctx.Done():
				return err
			case <-time.After(wait):
			}
			wait *= 2
		}
	}
	return err
}

func (q *Queue) do(ctx context.Context, method, path string, in, out any) error {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	return q.api.Do(ctx, method, path, in, out)
}

// item is a team item as the watcher shows it: the journal's item, by the
// team's key (MACHINE:ID), so that the message names the machine and a
// reply names the machine's item and no other.
func item(ti wire.TeamItem) *journal.Item {
	it := teamview.Item(ti)
	it.ID = ti.Key
	return it
}

// Open lists the pending items of every machine, newest first.
func (q *Queue) Open(ctx context.Context, _ time.Time) ([]*journal.Item, error) {
	var out []*journal.Item
	for page := 0; page < maxPages; page++ {
		v := url.Values{"status": {"pending"}, "limit": {strconv.Itoa(pageSize)}, "offset": {strconv.Itoa(page * pageSize)}}
		var list wire.QueueList
		if err := q.do(ctx, http.MethodGet, "/queue?"+v.Encode(), nil, &list); err != nil {
			return nil, err
		}
		for _, ti := range list.Items {
			out = append(out, item(ti))
		}
		if len(list.Items) < pageSize {
			break
		}
	}
	return out, nil
}

// keyPath is an item's path in the API, or ErrNotFound for a key no item
// can have.
func keyPath(key string) (string, error) {
	if _, _, err := wire.SplitKey(key); err != nil {
		return "", fmt.Errorf("%w: %v", journal.ErrNotFound, err)
	}
	return "/queue/" + url.PathEscape(key), nil
}

// Item is one team item by its key.
func (q *Queue) Item(ctx context.Context, key string, _ time.Time) (*journal.Item, error) {
	p, err := keyPath(key)
	if err != nil {
		return nil, err
	}
	var ti wire.TeamItem
	if err := q.retry(ctx, http.MethodGet, p, nil, &ti); err != nil {
		return nil, settleError(key, err)
	}
	return item(ti), nil
}

// Settle approves (for ttl) or rejects the item as this reviewer, with
// note. The server signs the decision; a second decision is ErrSettled.
func (q *Queue) Settle(ctx context.Context, key, decision, note string, ttl time.Duration) (string, error) {
	p, err := keyPath(key)
	if err != nil {
		return "", err
	}
	verdict, v := wire.Approve, wire.Verdict{Note: note, TTLSeconds: int64(ttl / time.Second)}
	if decision == notify.DecisionReject {
		verdict, v.TTLSeconds = wire.Reject, 0
	}
	var ti wire.TeamItem
	if err := q.retry(ctx, http.MethodPost, p+"/"+verdict, v, &ti); err != nil {
		return "", settleError(key, err)
	}
	if ti.Decision == nil {
		return "", fmt.Errorf("team server: settled %s without a decision in its answer", key)
	}
	return ti.Decision.Reviewer, nil
}

// settleError names an unknown item (journal.ErrNotFound) and one
// already settled (ErrSettled).
func settleError(key string, err error) error {
	var se *ServerError
	if errors.As(err, &se) {
		switch se.Status {
		case http.StatusNotFound:
			return fmt.Errorf("%w: %s is not in the team queue", journal.ErrNotFound, key)
		case http.StatusConflict:
			return fmt.Errorf("%w: %s", ErrSettled, se.Body.Error)
		}
	}
	return err
}

// Refused keeps no record of its own: the team watcher has no journal,
// and its report of the refusal (printed, or a JSON line) is the log.
func (q *Queue) Refused(string, map[string]string) error { return nil }

// CLI is the reviewer's command, which a notification names.
func (q *Queue) CLI() string { return "airlock team queue" }

// LoadConfig reads the team watcher's configuration: a YAML file with a
// "notify:" section exactly as the user's policy file carries one
// (docs/NOTIFY.md), read by the same decoder, and nothing else.
func LoadConfig(path string) (*notify.Config, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxConfig+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxConfig {
		return nil, fmt.Errorf("%s is over %d bytes", path, maxConfig)
	}
	root, err := strictyaml.Parse(path, data)
	if err != nil {
		return nil, err
	}
	if root == nil {
		return nil, &strictyaml.FileError{File: path, Line: 1, Err: errors.New("the file is empty: it needs a notify: section")}
	}
	var sec *policy.Section
	err = strictyaml.Fields(root, "the team watcher's file", map[string]func(v *yaml.Node) error{
		"notify": func(v *yaml.Node) error { sec = &policy.Section{File: path, Node: v}; return nil },
	})
	if err != nil {
		return nil, strictyaml.InFile(path, err)
	}
	if sec == nil {
		return nil, &strictyaml.FileError{File: path, Line: root.Line, Err: errors.New("no notify: section")}
	}
	return notify.Decode(sec)
}
