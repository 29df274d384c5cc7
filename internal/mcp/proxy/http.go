package proxy

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"

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

// Handler is the streamable HTTP endpoint of the proxy. Requests with an
// Origin header must come from the proxy's own origin (a loopback host on
// the listening port) or one of allowOrigins: a web page elsewhere, or one
// reaching the port through DNS rebinding, gets 403. Requests without
// Origin (non-browser clients) pass; the SDK also refuses a non-loopback
// Host on a loopback connection.
func (p *Proxy) Handler(port string, allowOrigins []string) http.Handler {
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return p.server }, nil)
	allowed := map[string]bool{}
	for _, o := range allowOrigins {
		allowed[strings.TrimRight(strings.ToLower(o), "/")] = true
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if origin := r.Header.Get("Origin"); origin != "" && !originOK(origin, port, allowed) {
			http.Error(w, "Forbidden: airlock's MCP proxy does not accept requests from origin "+origin, http.StatusForbidden)
			return
		}
		h.ServeHTTP(w, r)
	})
}

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
