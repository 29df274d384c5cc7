package strictyaml

import (
	"errors"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// decodeText decodes a mapping with keys a (a single value) and b (true or
// false), the way a section's decoder does, and names the file.
func decodeText(t *testing.T, text string) error {
	t.Helper()
	n, err := Parse("p.yaml", []byte(text))
	if err != nil {
		return err
	}
	err = Fields(n, "the file", map[string]func(*yaml.Node) error{
		"a": func(v *yaml.Node) error { _, err := Scalar(v, "a"); return err },
		"b": func(v *yaml.Node) error { _, err := Bool(v, "b"); return err },
	})
	if err != nil {
		return InFile("p.yaml", err)
	}
	return nil
}

func TestFieldsNamesFileAndLine(t *testing.T) {
	tests := []struct {
		name, text string
		line       int
		kind       error
		says       string
	}{
		{"unknown key", "a: 1\nc: 2\n", 2, ErrUnknownKey, `p.yaml:2: unknown key: "c" in the file (want a, b)`},
		{"key twice", "a: 1\na: 2\n", 2, ErrBadValue, `"a" given twice`},
		{"not a single value", "a: [1]\n", 1, ErrBadValue, "a must be a single value"},
		{"not a boolean", "b: yes\n", 1, ErrBadValue, `b must be true or false, not "yes"`},
		{"not a mapping", "- a\n", 1, ErrBadValue, "the file must be a mapping"},
		{"syntax", "a: 1\n b: [\n", 2, ErrBadValue, "not valid YAML"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := decodeText(t, tt.text)
			var fe *FileError
			if !errors.As(err, &fe) || fe.File != "p.yaml" || fe.Line != tt.line || !errors.Is(err, tt.kind) || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("got %v, want p.yaml:%d, %v, %q", err, tt.line, tt.kind, tt.says)
			}
		})
	}
}

// TestEveryMistake: one decoding names every mistake of a file, in line
// order, so that one check shows all there is to fix.
func TestEveryMistake(t *testing.T) {
	err := decodeText(t, "b: maybe\nx: 1\na: {}\n")
	fes := FileErrors(err)
	if len(fes) != 3 {
		t.Fatalf("got %d mistakes (%v), want 3", len(fes), err)
	}
	for i, fe := range fes {
		if fe.Line != i+1 {
			t.Errorf("mistake %d is at line %d, want %d: %v", i, fe.Line, i+1, fe)
		}
	}
}

func TestEmptyFile(t *testing.T) {
	if n, err := Parse("p.yaml", nil); n != nil || err != nil {
		t.Errorf("Parse(empty) = %v, %v; want nil, nil", n, err)
	}
}

func TestStringList(t *testing.T) {
	for _, tt := range []struct {
		text string
		want []string
		ok   bool
	}{
		{"x", []string{"x"}, true},
		{"[x, y]", []string{"x", "y"}, true},
		{"[]", nil, false},
		{`""`, nil, false},
		{"[x, [y]]", nil, false},
		{"{x: y}", nil, false},
	} {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte(tt.text), &n); err != nil {
			t.Fatal(err)
		}
		got, err := StringList(n.Content[0], "list")
		if (err == nil) != tt.ok || strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("StringList(%s) = %v, %v", tt.text, got, err)
		}
	}
}
