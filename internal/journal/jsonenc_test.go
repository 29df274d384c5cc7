package journal

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/vocab"
)

// jsonLine is the line encoding/json writes for v, as marshalLine's
// encoder did before the hand-written encoder.
func jsonLine(t testing.TB, v any) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// oddStrings are strings whose encoding has every escape encoding/json
// makes.
var oddStrings = []string{"", "plain", `q"uote`, `back\slash`, "ctl\x00\x01\x1f\x7f", "\b\f\n\r\t",
	"<html>&amp;", "bad\xffutf8\xc3", "sep\u2028par\u2029", "ünï©ødé 🙂", "\xed\xa0\x80 surrogate",
	strings.Repeat("x", 300)}

func TestAppendEntryMatchesJSON(t *testing.T) {
	exp := time.Date(2026, 12, 2, 13, 4, 5, 600, time.UTC)
	base := Entry{Seq: 42, Time: time.Date(2026, 12, 2, 12, 0, 0, 123456789, time.UTC), Event: "PreToolUse",
		Agent: "claude-code", Session: "s1", Cwd: "/tmp", Tool: "Bash", ToolUseID: "toolu_01",
		Kind: "shell", Command: "go test ./... && git status", Decision: "allow", Rule: "default",
		Message: "ok", Mode: "interactive", Effect: "local", Prev: strings.Repeat("ab", 32)}
	entries := []Entry{
		{},
		{Seq: 1, Time: time.Unix(0, 0).UTC(), Event: "SessionStart"},
		base,
	}
	full := base
	full.Story, full.Paths, full.URL, full.Contained = "st", []string{"/a", `b"c`}, "https://x.example/", true
	full.Reasons = []Reason{{Rule: "r1", Message: "m1"}, {Rule: "r\n2", Message: ""}}
	full.ID, full.Ref, full.Expires, full.Prompt, full.Note = "q-1", "q-0", &exp, "do it", "n"
	full.MAC, full.HeldHash, full.InputDigest = "mac", "hh", "dd"
	entries = append(entries, full)
	local := base
	local.Time = time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("x", 5*3600+30*60+7))
	entries = append(entries, local)
	empty := base
	empty.Paths, empty.Reasons = []string{}, []Reason{}
	entries = append(entries, empty)
	for _, s := range oddStrings {
		e := full
		e.Event, e.Command, e.Paths, e.Reasons, e.Note, e.Prev = s, s, []string{s, s}, []Reason{{s, s}}, s, s
		entries = append(entries, e)
	}
	r := rand.New(rand.NewSource(1))
	for range 500 {
		e := full
		pick := func() string { return oddStrings[r.Intn(len(oddStrings))] }
		for _, p := range []*string{&e.Event, &e.Agent, &e.Session, &e.Story, &e.Cwd, &e.Tool, &e.ToolUseID, &e.Kind,
			&e.Command, &e.URL, &e.Decision, &e.Rule, &e.Message, &e.Mode, &e.Effect, &e.ID, &e.Ref, &e.Prompt,
			&e.Note, &e.MAC, &e.HeldHash, &e.InputDigest, &e.Prev} {
			*p = pick()
		}
		e.Seq, e.Contained = r.Int63n(1<<40)-5, r.Intn(2) == 0
		if r.Intn(2) == 0 {
			e.Expires = nil
		}
		if r.Intn(3) == 0 {
			e.Paths = nil
		}
		if r.Intn(3) == 0 {
			e.Reasons = nil
		}
		entries = append(entries, e)
	}
	for i := range entries {
		e := &entries[i]
		got, ok := appendEntry(nil, e)
		if !ok {
			t.Fatalf("entry %d: left to encoding/json", i)
		}
		if want := jsonLine(t, e); !bytes.Equal(got, want) {
			t.Fatalf("entry %d:\n got %s\nwant %s", i, got, want)
		}
		line, err := marshalLine(e)
		if err != nil {
			t.Fatal(err)
		}
		if want := jsonLine(t, e); len(want) <= MaxLine && !bytes.Equal(line, want) {
			t.Fatalf("entry %d: marshalLine\n got %s\nwant %s", i, line, want)
		}
	}
}

// TestAppendEntryLeavesTheRest: the parts the hand-written encoder does
// not write send the entry through encoding/json, with the same line.
func TestAppendEntryLeavesTheRest(t *testing.T) {
	base := Entry{Seq: 3, Time: time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC), Event: "PreToolUse", Prev: "p"}
	far := base
	far.Time = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	cases := map[string]Entry{"finding": base, "team": base, "detail": base, "input": base, "year": far}
	f := cases["finding"]
	f.Finding = &vocab.Finding{}
	cases["finding"] = f
	tm := cases["team"]
	tm.Team = &TeamAct{}
	cases["team"] = tm
	d := cases["detail"]
	d.Detail = json.RawMessage(`{ "a" : 1 }`)
	cases["detail"] = d
	in := cases["input"]
	in.Input = json.RawMessage(`{"x":"y"}`)
	cases["input"] = in
	for name, e := range cases {
		if _, ok := appendEntry(nil, &e); ok {
			t.Errorf("%s: written by hand, want encoding/json", name)
		}
		line, err := marshalLine(&e)
		if name == "year" {
			if err == nil {
				t.Errorf("year 10000: no error, line %s", line)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if want := jsonLine(t, &e); !bytes.Equal(line, want) {
			t.Errorf("%s:\n got %s\nwant %s", name, line, want)
		}
	}
}

func TestFieldMatchesJSON(t *testing.T) {
	for _, s := range oddStrings {
		want := append([]byte(`"session":`), jsonLine(t, s)...)
		if got := field("session", s); !bytes.Equal(got, want) {
			t.Errorf("field(%q) = %s, want %s", s, got, want)
		}
	}
}

func FuzzAppendJSONString(f *testing.F) {
	for _, s := range oddStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := appendJSONString(nil, s), jsonLine(t, s); !bytes.Equal(got, want) {
			t.Fatalf("%q:\n got %s\nwant %s", s, got, want)
		}
	})
}

func TestHeadMatchesJSON(t *testing.T) {
	hx := strings.Repeat("0123456789abcdef", 4)
	heads := []head{
		{},
		{Seq: 1, Hash: hx, Count: 1, Segment: 1, End: 369, Sum: hx[:16]},
		{Seq: 531, Hash: hx, Count: 600, Segment: 3, End: 1 << 40, Queue: 48, QSum: hx[:16], Sum: hx[:16]},
		{Seq: -5, Hash: "", Count: -1, Segment: -2, End: -3, Queue: -4, Sum: ""},
		{Seq: 9, Hash: "<not&hex>", Sum: "ABC"}, // encoding/json's own (HTML escaping)
	}
	for i, h := range heads {
		got, err := marshalHead(&h)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(&h)
		if !bytes.Equal(got, want) {
			t.Fatalf("head %d: marshalHead\n got %s\nwant %s", i, got, want)
		}
		rec := append(bytes.Clone(got), bytes.Repeat([]byte(" "), headSize-1-len(got))...)
		rec = append(rec, '\n')
		for _, in := range [][]byte{got, rec} {
			var a, b head
			erra, errb := unmarshalHead(in, &a), json.Unmarshal(in, &b)
			if (erra == nil) != (errb == nil) || a != b {
				t.Fatalf("head %d: unmarshalHead(%s) = %+v, %v; json: %+v, %v", i, in, a, erra, b, errb)
			}
		}
	}
}

// TestUnmarshalHeadOddRecords: a record not in marshalHead's layout is
// read as encoding/json reads it, error or not.
func TestUnmarshalHeadOddRecords(t *testing.T) {
	for _, in := range []string{
		`{"seq":1,"hash":"ab","count":2,"segment":3,"end":4,"sum":"cd"}` + "   \n",
		`{"seq":01,"hash":"ab","count":2,"segment":3,"end":4,"sum":"cd"}`,
		`{"seq":1.5,"hash":"ab","count":2,"segment":3,"end":4,"sum":"cd"}`,
		`{"seq":1e3,"hash":"ab","count":2,"segment":3,"end":4,"sum":"cd"}`,
		`{"seq":-0,"hash":"ab","count":2,"segment":3,"end":4,"sum":"cd"}`,
		`{"seq":99999999999999999999,"hash":"ab","count":2,"segment":3,"end":4,"sum":"cd"}`,
		`{"seq":1,"hash":"a\u0062","count":2,"segment":3,"end":4,"sum":"cd"}`,
		`{"seq":1,"hash":"ab","count":2,"segment":3,"end":4,"queue":7,"qsum":"ef","sum":"cd"}`,
		`{"seq":1,"hash":"ab","count":2,"segment":3,"end":4,"qsum":"ef","sum":"cd"}`,
		`{"seq":1,"hash":"ab","count":2,"segment":3,"end":4,"queue":7,"sum":"cd"}`,
		`{"seq":1,"hash":"ab","count":2,"segment":3,"end":4,"sum":"cd","x":1}`,
		`{"hash":"ab","seq":1,"count":2,"segment":3,"end":4,"sum":"cd"}`,
		`{"seq":1,"hash":"ab","count":2,"segment":3,"end":4,"sum":"cd"}` + "\t\r\n",
		`{"seq":1,"hash":"ab","count":2,"segment":3,"end":4,"sum":"cd"}` + " x",
		`{"seq":1,"hash":"ab","count":2,"segment":3,"end":4,"sum":"cd"`,
		`{"seq":1,"hash":"ab","count":2,"segment":99999999999,"end":4,"sum":"cd"}`,
		`{ "seq":1,"hash":"ab","count":2,"segment":3,"end":4,"sum":"cd"}`,
		``, `null`, `{}`, "\x00\x00",
	} {
		var a, b head
		erra, errb := unmarshalHead([]byte(in), &a), json.Unmarshal([]byte(in), &b)
		if (erra == nil) != (errb == nil) || a != b {
			t.Errorf("unmarshalHead(%q) = %+v, %v; json: %+v, %v", in, a, erra, b, errb)
		}
	}
}
