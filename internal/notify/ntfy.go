package notify

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/airlock-dev/airlock/internal/render"
)

// This file speaks ntfy's documented HTTP API: the JSON publish (POST to
// the server's root with the topic in the body), and the JSON stream of a
// topic (GET /<topic>/json, one JSON object a line; since= resumes after
// a message id, poll=1 returns what is cached and closes).

// ntfyAction is one button of a notification (ntfy's "http" action: the
// app sends the request itself when the button is pressed).
type ntfyAction struct {
	Action  string            `json:"action"`
	Label   string            `json:"label"`
	URL     string            `json:"url"`
	Method  string            `json:"method,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	Body    string            `json:"body,omitempty"`
	Clear   bool              `json:"clear,omitempty"`
}

// ntfyPublish is the JSON publish body.
type ntfyPublish struct {
	Topic    string       `json:"topic"`
	Title    string       `json:"title,omitempty"`
	Message  string       `json:"message"`
	Priority int          `json:"priority,omitempty"`
	Tags     []string     `json:"tags,omitempty"`
	Actions  []ntfyAction `json:"actions,omitempty"`
}

// ntfyMessage is one line of a topic's JSON stream.
type ntfyMessage struct {
	ID      string `json:"id"`
	Time    int64  `json:"time"`
	Event   string `json:"event"`
	Topic   string `json:"topic"`
	Message string `json:"message"`
	// skipped, when set, says this stands for a line of the stream
	// that was dropped (too long, not JSON): it is journaled as a
	// refused reply and nothing else is done with it. sum is its digest.
	skipped error
	sum     string
}

// maxStreamLine bounds one line of the stream (ntfy's own message limit
// is 4096 bytes; the rest of the line is metadata).
const maxStreamLine = 64 << 10

// ntfyClient talks to one ntfy server.
type ntfyClient struct {
	server string
	token  string
	http   *http.Client
}

func (c *ntfyClient) request(ctx context.Context, method, u string, body io.Reader) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, u, body)
	if err != nil {
		return nil, err
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	return req, nil
}

// publish sends one notification.
func (c *ntfyClient) publish(ctx context.Context, p *ntfyPublish) error {
	body, err := json.Marshal(p)
	if err != nil {
		return err
	}
	req, err := c.request(ctx, http.MethodPost, c.server+"/", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("ntfy publish: %w", err)
	}
	defer resp.Body.Close()
	return statusError("ntfy publish", resp)
}

// statusError turns a non-2xx answer into an error quoting the start of
// its body, rendered (a server's text is not trusted either).
func statusError(what string, resp *http.Response) error {
	if resp.StatusCode/100 == 2 {
		io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
		return nil
	}
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
	return fmt.Errorf("%s: %s: %s", what, resp.Status, render.Line(string(b), 200))
}

// topicURL is the URL of a topic's endpoint.
func (c *ntfyClient) topicURL(topic string) string { return c.server + "/" + url.PathEscape(topic) }

// subscribe reads the JSON stream of topic from after since ("" for
// everything cached), calling fn for each message. With poll it returns
// once the cached messages are read; otherwise it runs until the stream
// ends or ctx is done. A line over maxStreamLine or not JSON is passed
// to skip, with its message id when one can be read, and the stream goes
// on.
func (c *ntfyClient) subscribe(ctx context.Context, topic, since string, poll bool, fn func(m *ntfyMessage) error, skip func(id, sum string, why error)) error {
	q := url.Values{}
	if since == "" {
		since = "all"
	}
	q.Set("since", since)
	if poll {
		q.Set("poll", "1")
	}
	req, err := c.request(ctx, http.MethodGet, c.topicURL(topic)+"/json?"+q.Encode(), nil)
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("ntfy subscribe: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return statusError("ntfy subscribe", resp)
	}
	lines := &lineReader{r: bufio.NewReaderSize(resp.Body, 4096), max: maxStreamLine}
	for {
		line, err := lines.next()
		if err != nil {
			if err == io.EOF || ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("ntfy subscribe: %w", err)
		}
		if line.skipped != nil {
			// One bad line must not stop the watcher: it is reported
			// (and journaled by the caller) and the stream goes on.
			// Returning an error here would resubscribe from the same
			// place and meet the same line again, for good.
			if skip != nil {
				skip(line.id, line.sum, line.skipped)
			}
			continue
		}
		if len(line.data) == 0 {
			continue
		}
		m := &ntfyMessage{}
		if err := json.Unmarshal(line.data, m); err != nil {
			if skip != nil {
				skip(streamID(line.data), lineSum(line.data), fmt.Errorf("a line of the stream is not JSON: %w", err))
			}
			continue
		}
		if m.Event != "message" {
			continue // open, keepalive, poll_request
		}
		if err := fn(m); err != nil {
			return err
		}
	}
}

// streamLine is one line of a JSON stream, or the note that one was
// skipped (with the message id read from its start, when it has one).
type streamLine struct {
	data    []byte
	skipped error
	id      string
	sum     string // a digest of the line's first max bytes, when skipped
}

// lineReader reads newline-ended lines of at most max bytes. A longer
// line is read to its end and dropped, not returned: bufio.Scanner stops
// the whole stream at the first such line instead.
type lineReader struct {
	r   *bufio.Reader
	max int
}

func (l *lineReader) next() (streamLine, error) {
	var buf []byte
	total := 0
	for {
		part, err := l.r.ReadSlice('\n')
		total += len(part)
		if len(buf) < l.max {
			room := l.max - len(buf)
			buf = append(buf, part[:min(room, len(part))]...)
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF && total > 0:
			// A last line without its newline: the stream was cut.
		case err != nil:
			return streamLine{}, err
		}
		if total > l.max {
			return streamLine{skipped: fmt.Errorf("a line of the stream is %d bytes, over the limit of %d", total, l.max), id: streamID(buf), sum: lineSum(buf)}, nil
		}
		return streamLine{data: bytes.TrimSpace(buf)}, nil
	}
}

// lineSum is a short digest of a skipped line, to journal it once.
func lineSum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:12])
}

// streamID reads the "id" field from the start of a stream line that
// could not be decoded whole, so the reader can resume after it.
func streamID(b []byte) string {
	const key = `"id":"`
	i := bytes.Index(b, []byte(key))
	if i < 0 {
		return ""
	}
	rest := b[i+len(key):]
	j := bytes.IndexByte(rest, '"')
	if j <= 0 || j > 64 {
		return ""
	}
	id := string(rest[:j])
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return ""
		}
	}
	return id
}

// anonymousRead reports whether a topic can be read without a token: if
// so, whoever knows its name (the agent, which can read the policy file)
// can read the buttons' signed replies and press them itself.
func (c *ntfyClient) anonymousRead(ctx context.Context, topic string) (bool, error) {
	anon := &ntfyClient{server: c.server, http: c.http}
	req, err := anon.request(ctx, http.MethodGet, anon.topicURL(topic)+"/json?poll=1&since=all", nil)
	if err != nil {
		return false, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return false, fmt.Errorf("ntfy: checking who can read topic: %w", err)
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	switch {
	case resp.StatusCode/100 == 2:
		return true, nil
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return false, nil
	}
	return false, fmt.Errorf("ntfy: checking who can read the topic: %s", resp.Status)
}
