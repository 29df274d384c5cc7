package argv

import (
	"fmt"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	curl := Spec{Short: "XdHo", Long: []string{"--request", "--data", "--output"}}
	git := Spec{Short: "Cc", Long: []string{"--git-dir"}, StopAtOperand: true}
	abbrev := Spec{Short: "o", Long: []string{"--output", "--other"}, Abbrev: true}
	tests := []struct {
		spec Spec
		args string
		want string // flags as name=value, then "|" operands, then "@" Rest
	}{
		{curl, "-XPOST url", "-X=POST | url @2"},
		{curl, "-X POST url", "-X=POST | url @3"},
		{curl, "-sSfX PUT url", "-s -S -f -X=PUT | url @3"},
		{curl, "--request=PATCH url", "--request=PATCH | url @2"},
		{curl, "--request DELETE url", "--request=DELETE | url @3"},
		{curl, "url -d@f -o out", "-d=@f -o=out | url @4"},
		{curl, "--json {} url", "--json | {} url @3"},
		{curl, "-- -X url", " | -X url @3"},
		{git, "-C x push origin", "-C=x | @2"},
		{git, "-cfoo=bar --git-dir .git status -s", "-c=foo=bar --git-dir=.git | @3"},
		{git, "--bare -- push", "--bare | @2"},
		{git, "-C", "-C | @1"},
		{abbrev, "--outp=F in", "--output=F | in @2"},
		{abbrev, "--outp F in", "--output=F | in @3"},
		{abbrev, "--output F in", "--output=F | in @3"},
		{abbrev, "--o F in", "--o | F in @3"},
		{curl, "--out F url", "--out | F url @3"},
	}
	for _, tt := range tests {
		p := tt.spec.Parse(strings.Fields(tt.args))
		var parts []string
		for _, f := range p.Flags {
			if f.HasValue {
				parts = append(parts, f.Name+"="+f.Value)
			} else {
				parts = append(parts, f.Name)
			}
		}
		got := strings.Join(parts, " ") + " | " + strings.Join(p.Operands, " ") + fmt.Sprintf(" @%d", p.Rest)
		got = strings.ReplaceAll(got, "  ", " ")
		want := strings.ReplaceAll(tt.want, "  ", " ")
		if strings.TrimSpace(got) != strings.TrimSpace(want) {
			t.Errorf("Parse(%q) = %q, want %q", tt.args, got, want)
		}
	}
}

func TestValueIndex(t *testing.T) {
	p := Spec{Short: "c"}.Parse([]string{"-l", "-c", "text", "-cattached"})
	var idx []int
	for _, f := range p.Flags {
		if f.Name == "-c" {
			idx = append(idx, f.ValueIndex)
		}
	}
	if fmt.Sprint(idx) != "[2 3]" {
		t.Errorf("value indexes = %v, want [2 3]", idx)
	}
	if f, ok := p.Last("-c"); !ok || f.Value != "attached" {
		t.Errorf("Last(-c) = %+v", f)
	}
}
