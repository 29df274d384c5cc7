package policy

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestGateConfigLayers checks the "gate:" section: defaults, the user's
// authority over every key, and an untrusted project file that may turn
// the gate on or make it stricter but never off or looser.
func TestGateConfigLayers(t *testing.T) {
	three, five, zero := 3, 5, 0
	tests := []struct {
		name                 string
		user, project        string
		trust                bool
		want                 GateConfig
		wantDenials          int
		wantWindow           time.Duration
		stateDirUnderFixture string
	}{
		{name: "default is off", want: GateConfig{}, wantDenials: 3, wantWindow: 30 * time.Minute},
		{name: "user enables", user: "gate: {enabled: true}\n", want: GateConfig{Enabled: true}, wantDenials: 3, wantWindow: 30 * time.Minute},
		{
			name: "user sets every key",
			user: "gate:\n  enabled: true\n  routine_bash: false\n  full_denials: 5\n  evidence_window: 10m\n  extra_destructive: ['terraform\\s+state\\s+rm']\n  exempt_globs: ['**/tests/**', '*.md']\n  state_dir: ~/gate-state\n",
			want: GateConfig{Enabled: true, RoutineBashOff: true, FullDenials: &five, EvidenceWindow: 10 * time.Minute,
				ExtraDestructive: []string{`terraform\s+state\s+rm`}, ExemptGlobs: []string{"**/tests/**", "*.md"}},
			wantDenials: 5, wantWindow: 10 * time.Minute, stateDirUnderFixture: "home/gate-state",
		},
		{name: "zero full denials condenses from the first", user: "gate: {enabled: true, full_denials: 0}\n", want: GateConfig{Enabled: true, FullDenials: &zero}, wantDenials: 0, wantWindow: 30 * time.Minute},
		{name: "untrusted project enables", project: "gate: {enabled: true}\n", want: GateConfig{Enabled: true}, wantDenials: 3, wantWindow: 30 * time.Minute},
		{name: "untrusted project cannot disable", user: "gate: {enabled: true}\n", project: "gate: {enabled: false}\n", want: GateConfig{Enabled: true}, wantDenials: 3, wantWindow: 30 * time.Minute},
		{name: "untrusted project cannot turn off routine bash", user: "gate: {enabled: true}\n", project: "gate: {routine_bash: false}\n", want: GateConfig{Enabled: true}, wantDenials: 3, wantWindow: 30 * time.Minute},
		{name: "untrusted project turns routine bash back on", user: "gate: {enabled: true, routine_bash: false}\n", project: "gate: {routine_bash: true}\n", want: GateConfig{Enabled: true}, wantDenials: 3, wantWindow: 30 * time.Minute},
		{name: "untrusted project shortens the window", project: "gate: {evidence_window: 5m}\n", want: GateConfig{EvidenceWindow: 5 * time.Minute}, wantDenials: 3, wantWindow: 5 * time.Minute},
		{name: "untrusted project cannot lengthen the window", project: "gate: {evidence_window: 48h}\n", want: GateConfig{}, wantDenials: 3, wantWindow: 30 * time.Minute},
		{name: "untrusted project cannot lengthen the user's window", user: "gate: {evidence_window: 10m}\n", project: "gate: {evidence_window: 20m}\n", want: GateConfig{EvidenceWindow: 10 * time.Minute}, wantDenials: 3, wantWindow: 10 * time.Minute},
		{name: "untrusted project adds destructive patterns", user: "gate: {extra_destructive: [a]}\n", project: "gate: {extra_destructive: [b]}\n", want: GateConfig{ExtraDestructive: []string{"a", "b"}}, wantDenials: 3, wantWindow: 30 * time.Minute},
		{name: "untrusted project cannot exempt, move state or condense", project: "gate: {exempt_globs: ['**'], state_dir: /tmp/x, full_denials: 0}\n", want: GateConfig{}, wantDenials: 3, wantWindow: 30 * time.Minute},
		{name: "trusted project disables", user: "gate: {enabled: true}\n", project: "gate: {enabled: false, full_denials: 3, exempt_globs: 'docs/**'}\n", trust: true, want: GateConfig{FullDenials: &three, ExemptGlobs: []string{"docs/**"}}, wantDenials: 3, wantWindow: 30 * time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			if tt.user != "" {
				f.userFile(tt.user)
			}
			if tt.project != "" {
				pf := f.projectFile(tt.project)
				if tt.trust {
					f.trust(pf)
				}
			}
			p := f.load()
			got := p.Gate
			want := tt.want
			if tt.stateDirUnderFixture != "" {
				want.StateDir = f.path(tt.stateDirUnderFixture)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Gate = %+v\nwant   %+v", got, want)
			}
			if d := got.Denials(); d != tt.wantDenials {
				t.Errorf("Denials() = %d, want %d", d, tt.wantDenials)
			}
			if w := got.Window(); w != tt.wantWindow {
				t.Errorf("Window() = %v, want %v", w, tt.wantWindow)
			}
		})
	}
}

// TestGateConfigErrors checks that every bad value in "gate:" is an error
// with the file and line, as the rest of the policy format is.
func TestGateConfigErrors(t *testing.T) {
	tests := []struct {
		name, text string
		line       int
		kind       error
		msg        string
	}{
		{"unknown key", "gate:\n  enable: true\n", 2, ErrUnknownKey, `"enable" in gate`},
		{"not a mapping", "gate: true\n", 1, ErrBadValue, "gate must be a mapping"},
		{"enabled not bool", "gate:\n  enabled: yes please\n", 2, ErrBadValue, "gate.enabled must be true or false"},
		{"negative denials", "gate:\n  full_denials: -1\n", 2, ErrBadValue, "gate.full_denials"},
		{"words for denials", "gate:\n  full_denials: three\n", 2, ErrBadValue, "gate.full_denials"},
		{"bad window", "gate:\n  evidence_window: soon\n", 2, ErrBadValue, "gate.evidence_window"},
		{"zero window", "gate:\n  evidence_window: 0s\n", 2, ErrBadValue, "gate.evidence_window"},
		{"bad regexp", "gate:\n  extra_destructive: ['(unclosed']\n", 2, ErrBadValue, "gate.extra_destructive"},
		{"lookahead is not RE2", "gate:\n  extra_destructive: '(?=x)'\n", 2, ErrBadValue, "gate.extra_destructive"},
		{"malformed glob", "gate:\n  exempt_globs: ['src/a**']\n", 2, ErrBadValue, "gate.exempt_globs"},
		{"glob with a class", "gate:\n  exempt_globs: ['*.[ch]']\n", 2, ErrBadValue, "gate.exempt_globs"},
		{"empty state dir", "gate:\n  state_dir: ''\n", 2, ErrBadValue, "gate.state_dir"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			file := f.userFile(tt.text)
			_, err := Load(f.options())
			var fe *FileError
			if !errors.As(err, &fe) {
				t.Fatalf("Load error = %v, want a FileError", err)
			}
			if fe.File != file || fe.Line != tt.line {
				t.Errorf("error at %s:%d, want %s:%d (%v)", fe.File, fe.Line, file, tt.line, err)
			}
			if !errors.Is(err, tt.kind) {
				t.Errorf("error %v does not wrap %v", err, tt.kind)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q does not mention %q", err, tt.msg)
			}
		})
	}
}

// TestCompileGateRegexp checks that extra destructive patterns ignore case.
func TestCompileGateRegexp(t *testing.T) {
	re, err := CompileGateRegexp(`terraform\s+state\s+rm`)
	if err != nil {
		t.Fatal(err)
	}
	for s, want := range map[string]bool{"TERRAFORM state rm x": true, "terraform state list": false} {
		if got := re.MatchString(s); got != want {
			t.Errorf("match %q = %v, want %v", s, got, want)
		}
	}
	if _, err := CompileGateRegexp("("); err == nil {
		t.Error("a malformed pattern compiled")
	}
}

// TestEnableGate checks how airlock install --gate writes the policy: an
// appended section that keeps every other byte, an existing section set,
// nothing done twice, and a broken file refused.
func TestEnableGate(t *testing.T) {
	tests := []struct {
		name, in string
		changed  bool
		want     string // a substring of the result
		keep     string // the original text must survive verbatim
	}{
		{"empty file", "", true, "gate:\n  enabled: true\n", ""},
		{"rules kept byte for byte", "# my rules\nmode: supervised\n\nrules:\n  - id: x\n    match: {command: curl}\n    decision: deny\n", true, "gate:\n  enabled: true\n", "# my rules\nmode: supervised\n\nrules:\n  - id: x\n    match: {command: curl}\n    decision: deny\n"},
		{"no trailing newline", "mode: supervised", true, "mode: supervised\n# The fact-forcing gate", "mode: supervised"},
		{"disabled section", "gate:\n  enabled: false\n  full_denials: 2\n", true, "enabled: true", "full_denials: 2"},
		{"section without enabled", "gate: {routine_bash: false}\n", true, "enabled: true", "routine_bash: false"},
		{"already on", "gate: {enabled: true}\n", false, "gate: {enabled: true}\n", "gate: {enabled: true}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, changed, err := EnableGate("p.yaml", []byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if changed != tt.changed {
				t.Errorf("changed = %v, want %v", changed, tt.changed)
			}
			if !strings.Contains(string(out), tt.want) || !strings.Contains(string(out), tt.keep) {
				t.Errorf("result:\n%s\nwant it to hold %q and %q", out, tt.want, tt.keep)
			}
			doc, err := parseFile("p.yaml", out)
			if err != nil || doc.gate == nil || doc.gate.enabled == nil || !*doc.gate.enabled {
				t.Errorf("result does not enable the gate (%v):\n%s", err, out)
			}
		})
	}
	if _, _, err := EnableGate("p.yaml", []byte("gate: [1]\n")); !errors.Is(err, ErrBadValue) {
		t.Errorf("broken gate section: %v", err)
	}
	if _, _, err := EnableGate("p.yaml", []byte("mdoe: x\n")); !errors.Is(err, ErrUnknownKey) {
		t.Errorf("broken file: %v", err)
	}
}
