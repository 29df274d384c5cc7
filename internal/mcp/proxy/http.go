package proxy

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ErrNotLoopback is returned by CheckListen for an address that is not on
// the loopback interface.
var ErrNotLoopback = errors.New("not a loopback address")

// CheckListen refuses listen addresses other than loopback ones
// (127.0.0.0/8, ::1, localhost): an MCP proxy reachable from the network
// would let anyone drive the agent's tools.
func CheckListen(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return err
	}
	if isLoopback(host) {
		return nil
	}
	return fmt.Errorf("%w: %s", ErrNotLoopback, addr)
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// Session limits of the streamable HTTP endpoint: each session holds
// memory (3,500 idle sessions were seen holding 92 MB) until its
// client ends it, and a client that never does must not make the proxy
// grow without end.
const (
	// DefaultSessionTTL is how long a session may stay idle (no request
	// from its client) before the proxy closes it.
	DefaultSessionTTL = 30 * time.Minute
	// DefaultMaxSessions is how many sessions the proxy holds at once; a
	// client that asks for one more is refused until one ends or expires.
	DefaultMaxSessions = 64
)

// ErrTooManySessions is the refusal of a new session beyond the bound.
var ErrTooManySessions = errors.New("too many MCP sessions")

// SessionLimits bound the sessions of the HTTP endpoint. Zero values
// take the defaults; a negative TTL never expires sessions.
type SessionLimits struct {
	// IdleTTL closes a session after this long without a request.
	IdleTTL time.Duration
	// Max is the most sessions held at once; one more is refused (503)
	// rather than an idle one evicted, so that no client loses a session
	// it is using to another.
	Max int
}

func (l SessionLimits) withDefaults() SessionLimits {
	if l.IdleTTL == 0 {
		l.IdleTTL = DefaultSessionTTL
	}
	if l.IdleTTL < 0 {
		l.IdleTTL = 0
	}
	if l.Max <= 0 {
		l.Max = DefaultMaxSessions
	}
	return l
}

// Handler is the streamable HTTP endpoint of the proxy. Requests with an
// Origin header must come from the proxy's own origin (a loopback host on
// the listening port) or one of allowOrigins: a web page elsewhere, or one
// reaching the port through DNS rebinding, gets 403. Requests without
// Origin (non-browser clients) pass; the SDK also refuses a non-loopback
// Host on a loopback connection. Sessions are bounded by lim.
func (p *Proxy) Handler(port string, allowOrigins []string, lim SessionLimits) http.Handler {
	lim = lim.withDefaults()
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return p.server }, &sdk.StreamableHTTPOptions{SessionTimeout: lim.IdleTTL})
	allowed := map[string]bool{}
	for _, o := range allowOrigins {
		allowed[strings.TrimRight(strings.ToLower(o), "/")] = true
	}
	var mu sync.Mutex
	pending := 0 // new sessions being set up
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" && !originOK(origin, port, allowed) {
			http.Error(w, "Forbidden: airlock's MCP proxy does not accept requests from origin "+origin, http.StatusForbidden)
			return
		}
		if r.Method != http.MethodPost || r.Header.Get("Mcp-Session-Id") != "" {
			h.ServeHTTP(w, r)
			return
		}
		// A POST without a session id opens a session.
		mu.Lock()
		n := pending
		for ss := range p.server.Sessions() {
			// A session that never initialised is being set up, or torn
			// down by the SDK after a first request that did not
			// initialise it (a server/discover probe).
			if ss.InitializeParams() != nil {
				n++
			}
		}
		if n >= lim.Max {
			mu.Unlock()
			msg := fmt.Sprintf("airlock: %v: the proxy already holds %d (its bound, --max-sessions); sessions idle for %s expire (--session-ttl), or a client can end its own", ErrTooManySessions, n, lim.IdleTTL)
			fmt.Fprintf(p.o.Log, "airlock: mcp %s: refused a new session: %s\n", p.name, msg)
			http.Error(w, msg, http.StatusServiceUnavailable)
			return
		}
		pending++
		mu.Unlock()
		// The slot is released when the response starts: by then an
		// initialised session counts itself, and its client, which
		// may open another session once it has the answer, has not yet
		// got it.
		var once sync.Once
		release := func() {
			once.Do(func() {
				mu.Lock()
				pending--
				mu.Unlock()
			})
		}
		defer release()
		h.ServeHTTP(&startWriter{ResponseWriter: w, start: release}, r)
	})
}

// startWriter calls start before the response's first byte.
type startWriter struct {
	http.ResponseWriter
	start func()
}

func (s *startWriter) WriteHeader(code int) {
	s.start()
	s.ResponseWriter.WriteHeader(code)
}

func (s *startWriter) Write(b []byte) (int, error) {
	s.start()
	return s.ResponseWriter.Write(b)
}

// Flush keeps event streams flowing.
func (s *startWriter) Flush() {
	s.start()
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (s *startWriter) Unwrap() http.ResponseWriter { return s.ResponseWriter }

func originOK(origin, port string, allowed map[string]bool) bool {
	if allowed[strings.TrimRight(strings.ToLower(origin), "/")] {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	p := u.Port()
	if p == "" {
		p = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return isLoopback(u.Hostname()) && p == port
}
