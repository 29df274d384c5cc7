package hookd

import (
	"bytes"
	"errors"
	"path/filepath"
	"testing"

	"github.com/airlock-dev/airlock/internal/policy"
)

func TestWireRoundTrip(t *testing.T) {
	// The client process is the kernel's word, never the client's: it
	// does not travel.
	req := &Request{Args: []string{"hook", "claude-code", "--event", "PreToolUse"}, Env: []string{"A=1", "B="}, Cwd: "/tmp", Stdin: []byte(`{"x":1}`),
		Client: Client{PID: 4242, Pinned: func() bool { return true }}}
	got, err := ParseRequest(AppendRequest(nil, req))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Args) != 4 || got.Args[3] != "PreToolUse" || len(got.Env) != 2 || got.Cwd != "/tmp" || string(got.Stdin) != `{"x":1}` {
		t.Fatalf("request changed on the wire: %+v", got)
	}
	if got.Client.PID != 0 || got.Client.Pinned != nil {
		t.Fatalf("the client process came over the wire: %+v", got.Client)
	}
	resp := &Response{Status: 2, Stdout: []byte("out"), Stderr: []byte("err")}
	gotR, err := ParseResponse(AppendResponse(nil, resp))
	if err != nil || gotR.Status != 2 || string(gotR.Stdout) != "out" || string(gotR.Stderr) != "err" {
		t.Fatalf("response changed on the wire: %+v, %v", gotR, err)
	}
}

// TestWireShortAnswer: an answer cut anywhere (a service killed while
// writing) is malformed, never a shorter answer.
func TestWireShortAnswer(t *testing.T) {
	full := AppendResponse(nil, &Response{Status: 0, Stdout: []byte(`{"decision":"allow"}`), Stderr: nil})
	for n := 0; n < len(full); n++ {
		if _, err := ParseResponse(full[:n]); err == nil {
			t.Fatalf("an answer cut at %d of %d bytes was accepted", n, len(full))
		}
	}
	if _, err := ParseResponse(append(bytes.Clone(full), 'x')); err == nil {
		t.Fatal("an answer with bytes after its trailer was accepted")
	}
	bad := bytes.Clone(full)
	bad[len(magic)+3] = 9 // another wire version
	if _, err := ParseResponse(bad); err == nil {
		t.Fatal("an answer of another wire version was accepted")
	}
	kind := AppendResponse(nil, &Response{Kind: 7})
	if _, err := ParseResponse(kind); !errors.Is(err, ErrMalformed) {
		t.Fatalf("an unknown kind of answer: %v, want ErrMalformed", err)
	}
}

// TestStateDirAgrees: the client finds the state directory where the
// rest of airlock does, or it would talk to another directory's service.
func TestStateDirAgrees(t *testing.T) {
	for _, env := range []map[string]string{
		{"HOME": "/home/u"},
		{"HOME": "/home/u", "XDG_STATE_HOME": "/x/state"},
		{"HOME": "/home/u", "XDG_STATE_HOME": "/x/state", "AIRLOCK_HOME": "/a"},
		{"AIRLOCK_HOME": "rel/dir"},
		{},
	} {
		getenv := func(k string) string { return env[k] }
		if got, want := StateDir(getenv), policy.PathsFrom(getenv).StateDir; got != want {
			t.Errorf("%v: StateDir %q, policy.PathsFrom %q", env, got, want)
		}
	}
	if p := SocketPath(func(k string) string { return map[string]string{"AIRLOCK_HOME": "rel"}[k] }); p != "" {
		t.Errorf("a relative state directory gave the socket %q; it must give none", p)
	}
	long := "/" + string(bytes.Repeat([]byte("d"), 120))
	if p := SocketPath(func(k string) string { return map[string]string{"AIRLOCK_HOME": long}[k] }); p != "" {
		t.Errorf("a socket path over 108 bytes was given: %q", p)
	}
	if p := SocketPath(func(k string) string { return map[string]string{"HOME": "/h"}[k] }); p != filepath.Join("/h/.local/state/airlock", SocketName) {
		t.Errorf("SocketPath = %q", p)
	}
}
