package scan

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// fakeRecorder keeps events, gives each a queue id, and fails from the
// failAt-th event on when failAt > 0.
type fakeRecorder struct {
	events []*vocab.Event
	failAt int
}

var errDisk = errors.New("disk full")

func (r *fakeRecorder) Record(ev *vocab.Event) (vocab.Receipt, error) {
	if r.failAt > 0 && len(r.events)+1 >= r.failAt {
		return vocab.Receipt{}, errDisk
	}
	r.events = append(r.events, ev)
	return vocab.Receipt{QueueID: "q" + itoa(len(r.events))}, nil
}

func reportOf(t *testing.T, files ...string) *Report {
	t.Helper()
	r := &Report{}
	for _, f := range files {
		r.Results = append(r.Results, scanFile(t, f))
	}
	return r
}

func TestRecord(t *testing.T) {
	r := reportOf(t, "transcript/session.jsonl", "text/print-output.txt")
	rec := &fakeRecorder{}
	now := time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)
	if err := r.Record(rec, "", "7", now); err != nil {
		t.Fatal(err)
	}
	if len(rec.events) != r.Findings() {
		t.Fatalf("%d events for %d findings", len(rec.events), r.Findings())
	}
	ev := rec.events[0] // the transcript's curl -X POST
	if ev.Name != "ScanFinding" || ev.Agent != "scan" || ev.Story != "7" || ev.Session != "s-tr-1" || !ev.Time.Equal(now) {
		t.Errorf("event header: %+v", ev)
	}
	if ev.Action == nil || ev.Action.Kind != policy.Shell || !strings.HasPrefix(ev.Action.Command, "curl -X POST") || ev.Cwd != "/work/app" {
		t.Errorf("event action: %+v cwd %q", ev.Action, ev.Cwd)
	}
	if ev.Verdict == nil || ev.Verdict.Effect != "external" || len(ev.Verdict.Reasons) == 0 {
		t.Errorf("event verdict: %+v", ev.Verdict)
	}
	if f := ev.Finding; f == nil || f.Source != "transcript/session.jsonl" || f.Line != 6 || f.Status != "executed" || f.Pattern != "tool.Bash" {
		t.Errorf("event finding: %+v", ev.Finding)
	}
	if ev.ToolUseID != "toolu_mock_12" || ev.Tool != "Bash" {
		t.Errorf("event tool: %q %q", ev.Tool, ev.ToolUseID)
	}
	// --session overrides the input's session; plain text has none.
	rec2 := &fakeRecorder{}
	if err := reportOf(t, "text/print-output.txt").Record(rec2, "mine", "", now); err != nil {
		t.Fatal(err)
	}
	for _, ev := range rec2.events {
		if ev.Session != "mine" || ev.Finding.Status == "" {
			t.Errorf("text event: session %q finding %+v", ev.Session, ev.Finding)
		}
	}
	if r.QueueIDs[[2]int{0, 0}] != "q1" {
		t.Errorf("queue ids: %v", r.QueueIDs)
	}
}

func TestRecordFailure(t *testing.T) {
	r := reportOf(t, "transcript/session.jsonl")
	err := r.Record(&fakeRecorder{failAt: 2}, "", "", time.Now())
	if !errors.Is(err, errDisk) || !strings.Contains(err.Error(), "transcript/session.jsonl:9") {
		t.Errorf("error %v, want the recorder's, naming the finding", err)
	}
}

func TestWriteJSON(t *testing.T) {
	r := reportOf(t, "stream-json/release.jsonl")
	r.Errors = []InputError{{Source: "gone.txt", Error: "no such file or directory"}}
	var b bytes.Buffer
	if err := r.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Version int `json:"version"`
		Inputs  []struct {
			Source   string `json:"source"`
			Format   string `json:"format"`
			Bytes    int64  `json:"bytes"`
			Lines    int    `json:"lines"`
			Session  string `json:"session"`
			Findings int    `json:"findings"`
		} `json:"inputs"`
		Findings []map[string]any `json:"findings"`
		Warnings []Warning        `json:"warnings"`
		Errors   []InputError     `json:"errors"`
		Counts   map[string]int   `json:"counts"`
		Recorded bool             `json:"recorded"`
	}
	dec := json.NewDecoder(&b)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&out); err != nil {
		t.Fatal(err)
	}
	if out.Version != JSONVersion || len(out.Inputs) != 1 || out.Inputs[0].Format != "stream-json" || out.Inputs[0].Findings != 7 {
		t.Errorf("header: %+v", out)
	}
	if out.Counts["executed"] != 5 || out.Counts["denied"] != 2 || out.Counts["mentioned"] != 0 || out.Counts["no-result"] != 0 {
		t.Errorf("counts: %v", out.Counts)
	}
	f := out.Findings[0]
	for k, want := range map[string]any{"source": "stream-json/release.jsonl", "line": 5.0, "status": "executed", "tier": "external",
		"decision": "ask", "rule": "table.external", "kind": "shell", "tool": "Bash", "tool_use_id": "toolu_02", "session": "s-stream-1",
		"destructive": false, "opaque": false, "network_read": false, "format": "stream-json", "pattern": "tool.Bash"} {
		if f[k] != want {
			t.Errorf("finding %s = %v, want %v", k, f[k], want)
		}
	}
	if len(out.Warnings) != 1 || len(out.Errors) != 1 {
		t.Errorf("warnings %v errors %v", out.Warnings, out.Errors)
	}
}

func TestWriteText(t *testing.T) {
	r := reportOf(t, "text/print-output.txt")
	r.QueueIDs = map[[2]int]string{{0, 0}: "abc123"} // the first finding by line
	var b bytes.Buffer
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"text/print-output.txt (text, 49 lines): 8 findings\n",
		"  text/print-output.txt:18: executed: git push origin fix/tokenizer [external; git.push]\n",
		"  text/print-output.txt:49: executed: npm publish (implied by its output) [external; npm.publish]\n",
		"      output, line 49: npm notice Publishing to",
		"  text/print-output.txt:6: mentioned: git push [external; git.push] queue abc123\n",
		"5 executed, 0 without a result, 0 denied, 3 mentioned in 1 input\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks %q:\n%s", want, out)
		}
	}
	// Executed findings come before mentioned ones.
	if strings.Index(out, "executed:") > strings.Index(out, "mentioned:") {
		t.Errorf("mentions listed before executions:\n%s", out)
	}
}

// TestReaders scans the fixtures through readers that return one byte at
// a time or fail: the findings do not depend on how the input arrives,
// and a read error is returned, wrapped.
func TestReaders(t *testing.T) {
	for _, file := range []string{"text/print-output.txt", "stream-json/release.jsonl", "transcript/session.jsonl"} {
		want := scanFile(t, file)
		data, _ := readFixture(file)
		var s Scanner
		got, err := s.Scan(iotest.OneByteReader(bytes.NewReader(data)), file)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Findings) != len(want.Findings) || got.Lines != want.Lines || got.Bytes != want.Bytes {
			t.Errorf("%s one byte at a time: %d findings %d lines %d bytes, want %d %d %d", file,
				len(got.Findings), got.Lines, got.Bytes, len(want.Findings), want.Lines, want.Bytes)
		}
		s = Scanner{}
		_, err = s.Scan(iotest.TimeoutReader(bytes.NewReader(data)), file)
		if !errors.Is(err, ErrRead) || !errors.Is(err, iotest.ErrTimeout) {
			t.Errorf("%s: error %v, want ErrRead wrapping the reader's", file, err)
		}
	}
}

// TestLongJSONLine: a JSON line over the limit is scanned as text, with a
// warning, and the lines after it are still decoded.
func TestLongJSONLine(t *testing.T) {
	long := `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t0","content":"` + strings.Repeat("x", 3000) + ` $ npm publish now ` + strings.Repeat("y", 3000) + `"}]},"session_id":"s"}`
	in := `{"type":"system","subtype":"init","session_id":"s"}` + "\n" + long + "\n" +
		`{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"git push"}}]},"session_id":"s"}` + "\n"
	res := scanString(t, in, 1024)
	if len(res.Warnings) != 1 || res.Warnings[0].Line != 2 {
		t.Errorf("warnings %+v, want one for line 2", res.Warnings)
	}
	if len(res.Findings) != 2 || res.Findings[0].Line != 2 || res.Findings[1].Line != 3 || res.Findings[1].Status != NoResult {
		for _, f := range res.Findings {
			t.Logf("%d %s %s", f.Line, f.Status, f.Command())
		}
		t.Errorf("want the publish on line 2 (as text) and the push on line 3 without a result")
	}
}
