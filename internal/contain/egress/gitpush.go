package egress

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
)

// A held git push over HTTP is answered in git's own protocol, so that
// git shows the agent why: "remote: airlock held this push …" and
// "! [remote rejected] main -> main (held by airlock: queue ID)". A 403
// reaches git only as "error: RPC failed; HTTP 403", with no queue id
// and no reason. The answer carries no data from anywhere: it is made
// here from the refs the push named.

// maxPushRefs bounds the ref updates read from a push's request.
const maxPushRefs = 256

// pushCommands reads the ref updates and capabilities at the start of a
// git-receive-pack request body: pkt-lines "OLD NEW REF\0CAPS" then "OLD
// NEW REF", up to a flush packet. ok is false when the body is not that.
func pushCommands(body []byte) (refs []string, caps []string, ok bool) {
	for len(body) >= 4 && len(refs) < maxPushRefs {
		var n int
		if _, err := fmt.Sscanf(string(body[:4]), "%04x", &n); err != nil {
			return nil, nil, false
		}
		if n == 0 {
			return refs, caps, len(refs) > 0
		}
		if n < 4 || n > len(body) {
			return nil, nil, false
		}
		line := strings.TrimSuffix(string(body[4:n]), "\n")
		body = body[n:]
		if i := strings.IndexByte(line, 0); i >= 0 {
			caps = strings.Fields(line[i+1:])
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) != 3 || !strings.HasPrefix(f[2], "refs/") || strings.ContainsAny(f[2], " \x00") {
			return nil, nil, false
		}
		refs = append(refs, f[2])
	}
	return nil, nil, false
}

// pkt frames one git pkt-line.
func pkt(b *bytes.Buffer, s string) {
	fmt.Fprintf(b, "%04x%s", len(s)+4, s)
}

// heldPush answers a held push in git's protocol when the request asks
// for a status report; it reports false (answer otherwise) when not.
func heldPush(w http.ResponseWriter, r *http.Request, body []byte, id, why string) bool {
	if r.Header.Get("Content-Type") != "application/x-git-receive-pack-request" || id == "" {
		return false
	}
	refs, caps, ok := pushCommands(body)
	// report-status-v2 reports a rejected ref the same way ("ng REF
	// REASON"); its extra option lines are only for refs it accepted.
	if !ok || !hasCap(caps, "report-status") && !hasCap(caps, "report-status-v2") {
		return false
	}
	reason := "held by airlock: queue " + id
	var report bytes.Buffer
	pkt(&report, "unpack ok\n")
	for _, ref := range refs {
		pkt(&report, "ng "+ref+" "+reason+"\n")
	}
	report.WriteString("0000")
	msg := []string{
		"airlock held this push for review by a human; nothing left this machine (queue item " + id + ").",
		"Why: " + oneLine(why),
		"What to do: go on with local work; do not retry it in another form or through another program.",
		"A human reviews it outside the sandbox with `airlock queue show " + id + "`; once approved, the identical push goes through once.",
	}
	var out bytes.Buffer
	if hasCap(caps, "side-band-64k") || hasCap(caps, "side-band") {
		for _, m := range msg {
			pkt(&out, "\x02"+m+"\n")
		}
		// The report goes on band 1, in pieces small enough for side-band.
		rep := report.Bytes()
		for len(rep) > 0 {
			k := min(len(rep), 900)
			pkt(&out, "\x01"+string(rep[:k]))
			rep = rep[k:]
		}
		out.WriteString("0000")
	} else {
		out.Write(report.Bytes())
	}
	w.Header().Set("Content-Type", "application/x-git-receive-pack-result")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Airlock-Queue", id)
	w.WriteHeader(http.StatusOK)
	w.Write(out.Bytes())
	return true
}

func hasCap(caps []string, c string) bool {
	for _, x := range caps {
		if x == c {
			return true
		}
	}
	return false
}

func oneLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	if len(s) > 600 {
		s = s[:600] + "…"
	}
	return s
}
