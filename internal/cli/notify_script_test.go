package cli

import (
	"encoding/json"
	"os"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/airlock-dev/airlock/internal/notify/ntfytest"
)

// ntfyServers are the fake ntfy servers of running scripts.
var ntfyServers sync.Map // *testscript.TestScript → *ntfytest.Server

// cmdNtfy drives a loopback fake ntfy server (internal/notify/ntfytest)
// that stops with the script:
//
//	ntfy start          start it and set $NTFY to its URL
//	ntfy config FILE    replace $NTFY in FILE with its URL
//	ntfy press LABEL    press the button LABEL of the last notification, as the phone app does
//	ntfy replay         post the last reply again, as an eavesdropper would
//	ntfy forge ID       post a reply about item ID signed with a wrong key
//	ntfy dump FILE      write every published message to FILE, one JSON a line
func cmdNtfy(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: ntfy start|config FILE|press LABEL|replay|forge ID|dump FILE")
	}
	if args[0] == "start" {
		srv := ntfytest.New()
		ntfyServers.Store(ts, srv)
		ts.Defer(func() {
			ntfyServers.Delete(ts)
			srv.Close()
		})
		ts.Setenv("NTFY", srv.URL)
		return
	}
	v, ok := ntfyServers.Load(ts)
	if !ok {
		ts.Fatalf("ntfy: not started")
	}
	srv := v.(*ntfytest.Server)
	lastReply := func() *ntfytest.Message {
		msgs := srv.Messages("")
		for i := len(msgs) - 1; i >= 0; i-- {
			if strings.HasPrefix(msgs[i].Message, `{"airlock_reply"`) {
				return msgs[i]
			}
		}
		ts.Fatalf("ntfy: no reply was posted")
		return nil
	}
	switch {
	case args[0] == "config" && len(args) == 2:
		data := ts.ReadFile(args[1])
		ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(strings.ReplaceAll(data, "$NTFY", srv.URL)), 0o600))
	case args[0] == "press" && len(args) == 2:
		ts.Check(srv.Press(args[1]))
	case args[0] == "replay" && len(args) == 1:
		m := lastReply()
		srv.Publish(m.Topic, m.Message)
	case args[0] == "forge" && len(args) == 2:
		// The reply topic is the one the buttons post to.
		var topic string
		for _, m := range srv.Messages("") {
			for _, a := range m.Actions {
				topic = a.URL[strings.LastIndex(a.URL, "/")+1:]
			}
		}
		if topic == "" {
			ts.Fatalf("ntfy: no button names a reply topic")
		}
		srv.Publish(topic, `{"airlock_reply":1,"id":"`+args[1]+`","decision":"approve","exp":4102444800,"nonce":"`+strings.Repeat("ab", 16)+`","mac":"`+strings.Repeat("00", 32)+`"}`)
	case args[0] == "dump" && len(args) == 2:
		var b strings.Builder
		for _, m := range srv.Messages("") {
			line, err := json.Marshal(m)
			ts.Check(err)
			b.Write(line)
			b.WriteByte('\n')
		}
		ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(b.String()), 0o600))
	default:
		ts.Fatalf("usage: ntfy start|config FILE|press LABEL|replay|forge ID|dump FILE")
	}
}
