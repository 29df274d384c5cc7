package classify

import (
	"net/url"
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
)

// This file recognises GET requests that write. A plain fetch only reads
// from the network, but many services act on a GET: ntfy publishes on
// GET /<topic>/publish, /send and /trigger with ?message=, webhooks fire
// on /trigger, and APIs take ?_method=POST. A request whose URL has the
// shape of a write is rated as one, whatever its method.

// getWriteSegments are the last path segments that name an action.
func getWriteSegments(name string) bool {
	switch name {
	case "publish", "send", "trigger", "post", "create", "delete", "remove", "update", "write", "push",
		"upload", "notify", "submit", "approve", "reject", "exec", "execute", "run", "kill", "shutdown",
		"reboot", "restart", "destroy", "hook", "webhook", "sendmessage":
		return true
	}
	return false
}

// getWriteParams are query parameters that carry what is sent.
var getWriteParams = []string{"message", "msg", "body", "payload", "_method", "method"}

// writeShapedURL says why a URL written as a GET writes, or "".
func writeShapedURL(raw string) string {
	if !strings.Contains(raw, "://") {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	segs := strings.Split(strings.Trim(u.Path, "/"), "/")
	if last := strings.ToLower(segs[len(segs)-1]); getWriteSegments(last) {
		return "its path ends in /" + last
	}
	q := u.Query()
	for _, k := range getWriteParams {
		for qk := range q {
			if strings.EqualFold(qk, k) {
				return "it carries " + qk + "="
			}
		}
	}
	return ""
}

// getWrites rates the URLs of a program run that are write-shaped GETs.
func getWrites(inv *shell.Invocation) Effect {
	var e Effect
	for _, a := range inv.Args[1:] {
		if why := writeShapedURL(a); why != "" {
			e.Add(external("http.get-write", inv.Name()+" requests "+clip(a)+", which acts on the server as a write: "+why))
		}
	}
	return e
}
