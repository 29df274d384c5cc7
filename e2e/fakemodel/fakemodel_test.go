package fakemodel

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

func post(t *testing.T, url, body string) string {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST %s: %s: %s", url, resp.Status, b)
	}
	return string(b)
}

// Each dialect: the first turn calls the offered shell tool with the
// first command, in that tool's argument shape; a turn whose conversation
// holds a tool result gets the next command, and the result is recorded
// under the command it answers; after the script, the text "done".
func TestDialects(t *testing.T) {
	script := []string{"echo one", "git push"}
	for _, tc := range []struct {
		name, path string
		first      string // request with tools, no results
		second     string // the same, with one result
		third      string // with two results
		wantCall   []string
	}{
		{"responses", "/v1/responses",
			`{"tools":[{"type":"function","name":"update_plan"},{"type":"function","name":"exec_command"}],"input":[{"type":"message","role":"user","content":"go"}]}`,
			`{"tools":[{"type":"function","name":"exec_command"}],"input":[{"type":"function_call_output","call_id":"call_0","output":"one"}]}`,
			`{"tools":[{"type":"function","name":"exec_command"}],"input":[{"type":"function_call_output","output":"one"},{"type":"function_call_output","output":"held as Q1"}]}`,
			[]string{`"name":"exec_command"`, `\"cmd\":\"echo one\"`}},
		{"chat", "/v1/chat/completions",
			`{"stream":true,"tools":[{"type":"function","function":{"name":"read"}},{"type":"function","function":{"name":"bash"}}],"messages":[{"role":"user","content":"go"}]}`,
			`{"stream":true,"tools":[{"type":"function","function":{"name":"bash"}}],"messages":[{"role":"tool","content":"one"}]}`,
			`{"stream":true,"tools":[{"type":"function","function":{"name":"bash"}}],"messages":[{"role":"tool","content":"one"},{"role":"tool","content":[{"type":"text","text":"held as Q1"}]}]}`,
			[]string{`"name":"bash"`, `\"command\":\"echo one\"`, "data: [DONE]"}},
		{"gemini", "/v1beta/models/fake-model:streamGenerateContent",
			`{"tools":[{"functionDeclarations":[{"name":"read_file"},{"name":"run_shell_command"}]}],"contents":[{"role":"user","parts":[{"text":"go"}]}]}`,
			`{"tools":[{"functionDeclarations":[{"name":"run_shell_command"}]}],"contents":[{"parts":[{"functionResponse":{"name":"run_shell_command","response":{"output":"one"}}}]}]}`,
			`{"tools":[{"functionDeclarations":[{"name":"run_shell_command"}]}],"contents":[{"parts":[{"functionResponse":{"response":{"output":"one"}}}]},{"parts":[{"functionResponse":{"response":{"error":"held as Q1"}}}]}]}`,
			[]string{`"functionCall":{"args":{"command":"echo one"`, `"name":"run_shell_command"`}},
		{"augment", "/chat-stream",
			`{"tool_definitions":[{"name":"view"},{"name":"launch-process"}],"nodes":[{"id":1,"type":0,"text_node":{"content":"go"}}],"chat_history":[]}`,
			`{"tool_definitions":[{"name":"launch-process"}],"nodes":[{"id":1,"type":1,"tool_result_node":{"tool_use_id":"toolu_call_0","content":"one"}}],"chat_history":[{"request_nodes":[{"id":1,"type":0}]}]}`,
			`{"tool_definitions":[{"name":"launch-process"}],"nodes":[{"id":1,"type":1,"tool_result_node":{"content":"held as Q1"}}],"chat_history":[{"request_nodes":[]},{"request_nodes":[{"id":1,"type":1,"tool_result_node":{"content":"one"}}]}]}`,
			[]string{`"tool_name":"launch-process"`, `\"command\":\"echo one\"`, `"type":5`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(t, script)
			got := post(t, s.URL()+tc.path, tc.first)
			for _, w := range tc.wantCall {
				if !strings.Contains(got, w) {
					t.Errorf("first turn lacks %s:\n%s", w, got)
				}
			}
			if got := post(t, s.URL()+tc.path, tc.second); !strings.Contains(got, "git push") {
				t.Errorf("second turn does not call the second command:\n%s", got)
			}
			got = post(t, s.URL()+tc.path, tc.third)
			if !strings.Contains(got, "done") || strings.Contains(got, "git push") {
				t.Errorf("after the script, want the text done:\n%s", got)
			}
			if r, ok := s.ResultFor("git push"); !ok || !strings.Contains(r.Text, "held as Q1") {
				t.Errorf("the result of the second command was not recorded: %+v", s.Results())
			}
			if len(s.Requests()) != 3 || !s.SawText("go") {
				t.Errorf("requests not recorded: %d", len(s.Requests()))
			}
		})
	}
}

// A conversation follows the script whose key its request contains.
func TestByPrompt(t *testing.T) {
	s := NewByPrompt(t, map[string][]string{"[one]": {"echo one"}, "[two]": {"echo two"}})
	body := func(key string) string {
		b, _ := json.Marshal(map[string]any{"stream": false,
			"tools":    []any{map[string]any{"type": "function", "function": map[string]any{"name": "bash"}}},
			"messages": []any{map[string]any{"role": "user", "content": "story " + key}}})
		return string(b)
	}
	if got := post(t, s.URL()+"/v1/chat/completions", body("[two]")); !strings.Contains(got, "echo two") {
		t.Errorf("[two] got %s", got)
	}
	if got := post(t, s.URL()+"/v1/chat/completions", body("[none]")); !strings.Contains(got, `"content":"done"`) {
		t.Errorf("a conversation no key matches should get done: %s", got)
	}
}
