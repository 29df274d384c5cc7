package proxy

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/mcp/guard"
	"github.com/airlock-dev/airlock/internal/mcp/mcpconfig"
	"github.com/airlock-dev/airlock/internal/policy"
	display "github.com/airlock-dev/airlock/internal/render"
)

// The elicitation a human answers shows the agent's text with its
// escapes visible, never their effect.
func TestQuestionRendersTheAgentsText(t *testing.T) {
	p := &Proxy{name: "chat"}
	o := &guard.Outcome{Text: "hi\x1b[2K\r\u202eevil", Recipients: []mcpconfig.Contact{{Name: "Ana", Address: "+1 555"}},
		Verdict: policy.Verdict{Message: "a sink needs a human"}}
	o.Detail.Args = json.RawMessage(`{"to":"Ana"}`)
	for _, q := range []string{p.question("send\x1b]0;x\a", o), p.question("send", &guard.Outcome{Detail: guard.Detail{Args: json.RawMessage("{\"a\":\"\u200b\"}")}})} {
		for _, l := range strings.Split(q, "\n") {
			if i := display.Unclean(l); i >= 0 {
				t.Fatalf("raw control at %d: %q", i, l)
			}
		}
	}
	q := p.question("send\x1b]0;x\a", o)
	for _, want := range []string{`chat/send\x1b]0;x\x07`, `hi\x1b[2K\r\u202eevil`, "To: Ana (+1 555)"} {
		if !strings.Contains(q, want) {
			t.Errorf("lacks %q:\n%s", want, q)
		}
	}
}
