package cli

import (
	"strings"
	"testing"
)

func TestDoctorContainProblems(t *testing.T) {
	if !claudeSandboxOn([]byte(`{"sandbox":{"enabled":true}}`)) || claudeSandboxOn([]byte(`{"sandbox":{"enabled":false}}`)) || claudeSandboxOn([]byte(`{}`)) || claudeSandboxOn([]byte(`not json`)) {
		t.Error("claudeSandboxOn misreads a settings file")
	}
	d := doctorContain{ClaudeSandboxOn: []string{"/h/.claude/settings.json"}}
	d.Missing = []string{"socat"}
	if p := containProblems(d); len(p) != 1 || !strings.Contains(p[0], "/h/.claude/settings.json") || !strings.Contains(p[0], "socat") {
		t.Errorf("problems = %q", p)
	}
	d.ClaudeSandbox = true
	if p := containProblems(d); len(p) != 0 {
		t.Errorf("a sandbox that can run is a problem: %q", p)
	}
}
