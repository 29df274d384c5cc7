// Package ntfytest is a loopback ntfy server for tests: the documented
// JSON publish (POST / with the topic in the body), the plain publish
// (POST or PUT /<topic> with the message as the body) and a topic's JSON
// stream (GET /<topic>/json, with since= and poll=1). The real server
// cannot be installed where airlock is tested, so this one implements
// what airlock uses, from ntfy's documentation, and plays the phone:
// Press sends a notification's button request as the app would.
package ntfytest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Action is a notification's button, as published.
type Action struct {
	Action  string            `json:"action"`
	Label   string            `json:"label"`
	URL     string            `json:"url"`
	Method  string            `json:"method,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	Body    string            `json:"body,omitempty"`
	Clear   bool              `json:"clear,omitempty"`
}

// Message is one published message, as the stream sends it.
type Message struct {
	ID       string   `json:"id"`
	Time     int64    `json:"time"`
	Event    string   `json:"event"`
	Topic    string   `json:"topic"`
	Title    string   `json:"title,omitempty"`
	Message  string   `json:"message"`
	Priority int      `json:"priority,omitempty"`
	Tags     []string `json:"tags,omitempty"`
	Actions  []Action `json:"actions,omitempty"`
	// raw, when set, is written to streams as it is instead of the
	// message's JSON: a line a broken or hostile server could send.
	raw []byte
}

// Server is the fake ntfy server.
type Server struct {
	*httptest.Server
	// Token, when set, is required (Authorization: Bearer) for every
	// request, except reads when AnonymousRead is set.
	Token         string
	AnonymousRead bool

	mu     sync.Mutex
	msgs   []*Message
	seq    int
	notify chan struct{}
}

// New starts a server on 127.0.0.1; it stops with Close.
func New() *Server {
	s := &Server{notify: make(chan struct{})}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Close stops the server, ending every stream.
func (s *Server) Close() {
	s.mu.Lock()
	close(s.notify)
	s.notify = nil
	s.mu.Unlock()
	s.Server.CloseClientConnections()
	s.Server.Close()
}

// Messages returns what was published to topic ("" for every topic).
func (s *Server) Messages(topic string) []*Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Message
	for _, m := range s.msgs {
		if topic == "" || m.Topic == topic {
			out = append(out, m)
		}
	}
	return out
}

// Publish stores a message as a publish would (for tests that write to a
// topic directly: a forged reply, say).
func (s *Server) Publish(topic, message string) *Message {
	return s.add(&Message{Topic: topic, Message: message})
}

// PublishRaw stores a stream line sent exactly as given (a newline is
// added), but for the first "{ID}", which becomes the id the server gives
// it: a line that is too long or not JSON, as a broken or hostile server
// could send.
func (s *Server) PublishRaw(topic string, line []byte) *Message {
	m := s.add(&Message{Topic: topic})
	s.mu.Lock()
	m.raw = bytes.Replace(line, []byte("{ID}"), []byte(m.ID), 1)
	s.mu.Unlock()
	return m
}

func (s *Server) add(m *Message) *Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	m.ID = fmt.Sprintf("m%06d", s.seq)
	m.Time = time.Now().Unix()
	m.Event = "message"
	s.msgs = append(s.msgs, m)
	if s.notify != nil {
		close(s.notify)
		s.notify = make(chan struct{})
	}
	return m
}

// Press sends the request of the button labelled label of the last
// message that has one, as the ntfy app does when the button is pressed.
func (s *Server) Press(label string) error {
	var act *Action
	s.mu.Lock()
	for i := len(s.msgs) - 1; i >= 0 && act == nil; i-- {
		for j := range s.msgs[i].Actions {
			if s.msgs[i].Actions[j].Label == label {
				a := s.msgs[i].Actions[j]
				act = &a
				break
			}
		}
	}
	s.mu.Unlock()
	if act == nil {
		return fmt.Errorf("ntfytest: no button %q", label)
	}
	if act.Action != "http" {
		return fmt.Errorf("ntfytest: button %q is a %s action", label, act.Action)
	}
	method := act.Method
	if method == "" {
		method = http.MethodPost
	}
	req, err := http.NewRequest(method, act.URL, strings.NewReader(act.Body))
	if err != nil {
		return err
	}
	for k, v := range act.Headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("ntfytest: pressing %q: %s", label, resp.Status)
	}
	return nil
}

func (s *Server) authorized(r *http.Request, read bool) bool {
	if s.Token == "" || read && s.AnonymousRead {
		return true
	}
	return r.Header.Get("Authorization") == "Bearer "+s.Token
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	path := strings.Trim(r.URL.Path, "/")
	read := r.Method == http.MethodGet
	if !s.authorized(r, read) {
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"code":40101,"http":401,"error":"unauthorized"}`+"\n")
		return
	}
	switch {
	case path == "" && (r.Method == http.MethodPost || r.Method == http.MethodPut):
		// JSON publish: the topic is in the body.
		m := &Message{}
		dec := json.NewDecoder(io.LimitReader(r.Body, 1<<20))
		if err := dec.Decode(m); err != nil || !validTopic(m.Topic) {
			http.Error(w, `{"code":40024,"http":400,"error":"invalid request: JSON body or topic"}`, http.StatusBadRequest)
			return
		}
		if len(m.Actions) > 3 {
			http.Error(w, `{"code":40018,"http":400,"error":"invalid request: too many actions"}`, http.StatusBadRequest)
			return
		}
		json.NewEncoder(w).Encode(s.add(m))
	case validTopic(path) && (r.Method == http.MethodPost || r.Method == http.MethodPut):
		body, _ := io.ReadAll(io.LimitReader(r.Body, 4096))
		m := &Message{Topic: path, Message: string(body), Title: r.Header.Get("Title")}
		json.NewEncoder(w).Encode(s.add(m))
	case strings.HasSuffix(path, "/json") && validTopic(strings.TrimSuffix(path, "/json")) && read:
		s.stream(w, r, strings.TrimSuffix(path, "/json"))
	default:
		http.Error(w, `{"code":40401,"http":404,"error":"page not found"}`, http.StatusNotFound)
	}
}

// stream writes the topic's cached messages after since, then (without
// poll) new ones as they come, until the client or the server goes.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, topic string) {
	since := r.URL.Query().Get("since")
	poll := r.URL.Query().Get("poll") == "1"
	w.Header().Set("Content-Type", "application/x-ndjson; charset=utf-8")
	flusher, _ := w.(http.Flusher)
	if !poll {
		json.NewEncoder(w).Encode(&Message{ID: "open", Time: time.Now().Unix(), Event: "open", Topic: topic})
	}
	after := -1 // index of the last message already sent
	s.mu.Lock()
	switch {
	case since == "" || since == "all":
	default:
		if t, err := strconv.ParseInt(since, 10, 64); err == nil {
			for i, m := range s.msgs {
				if m.Time < t {
					after = i
				}
			}
		} else {
			for i, m := range s.msgs {
				if m.ID == since {
					after = i
				}
			}
		}
	}
	s.mu.Unlock()
	for {
		s.mu.Lock()
		var out []*Message
		for i := after + 1; i < len(s.msgs); i++ {
			if s.msgs[i].Topic == topic {
				out = append(out, s.msgs[i])
			}
		}
		after = len(s.msgs) - 1
		wait := s.notify
		s.mu.Unlock()
		var buf bytes.Buffer
		for _, m := range out {
			if m.raw != nil {
				buf.Write(m.raw)
				buf.WriteByte('\n')
				continue
			}
			json.NewEncoder(&buf).Encode(m)
		}
		if _, err := w.Write(buf.Bytes()); err != nil {
			return
		}
		if flusher != nil {
			flusher.Flush()
		}
		if poll || wait == nil {
			return
		}
		select {
		case <-wait:
		case <-r.Context().Done():
			return
		}
	}
}

func validTopic(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}
