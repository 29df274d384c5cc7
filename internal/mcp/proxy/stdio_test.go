package proxy

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// TestStdioFilter: lines the SDK would end the session on are answered
// with a JSON-RPC error (the request's id when usable) and dropped; the
// rest pass unchanged, one per line.
func TestStdioFilter(t *testing.T) {
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`not json`,
		`{"jsonrpc":"2.0","id":true,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"x","method":7}`,
		`{"id":5,"method":"ping"}`,
		`[{"jsonrpc":"2.0","id":6,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":{"a":1},"result":{}}`,
		``,
		`  {"jsonrpc":"2.0","id":"s","method":"tools/list"}  `,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	}, "\n")
	var out, log bytes.Buffer
	r, _ := StdioTransport(strings.NewReader(in), &out, &log)
	passed, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":"s","method":"tools/list"}` + "\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"
	if string(passed) != want {
		t.Errorf("passed:\n%s\nwant:\n%s", passed, want)
	}
	type answer struct {
		ID    json.RawMessage `json:"id"`
		Error struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var a answer
		if err := json.Unmarshal([]byte(line), &a); err != nil {
			t.Fatalf("answer %q: %v", line, err)
		}
		got = append(got, string(a.ID)+" "+itoa(a.Error.Code))
	}
	wantAnswers := []string{"null -32700", "null -32600", `"x" -32600`, "5 -32600", "null -32600"}
	if strings.Join(got, "|") != strings.Join(wantAnswers, "|") {
		t.Errorf("answers %q, want %q", got, wantAnswers)
	}
	if !strings.Contains(log.String(), "dropped an invalid message") {
		t.Errorf("the invalid response was not logged: %s", log.String())
	}
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
