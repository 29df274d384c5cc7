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
var getWriteSegments = onFirstUse[map[string]bool]{build: func() map[string]bool {
	return map[string]bool{
		"publish": true, "send": true, "trigger": true, "post": true, "create": true, "delete": true,
		"remove": true, "update": true, "write": true, "push": true, "upload": true, "notify": true,
		"submit": true, "approve": true, "reject": true, "exec": true, "execute": true, "run": true,
		"kill": true, "shutdown": true, "reboot": true, "restart": true, "destroy": true, "hook": true,
		"webhook": true, "sendmessage": true,
	}
}}

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
	if last := strings.ToLower(segs[len(segs)-1]); getWriteSegments.get()[last] {
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
