package interp

import (
	"reflect"
	"testing"
)

// TestAwk checks what the awk reader reports: literal system() text
// unescaped (with the literal kept for messages), calls built at run time
// apart, pipes in both directions, and pipes to a command in a variable.
func TestAwk(t *testing.T) {
	for _, c := range []struct {
		prog string
		want AwkProgram
	}{
		{`BEGIN { system("git push origin main") }`, AwkProgram{System: []AwkCall{{"git push origin main", "git push origin main"}}}},
		{`BEGIN { system("echo \"a b\"") }`, AwkProgram{System: []AwkCall{{`echo "a b"`, `echo \"a b\"`}}}},
		{`{ cmd = $0; system(cmd) }`, AwkProgram{SystemDynamic: true}},
		{`BEGIN { system("ls"); system(x) }`, AwkProgram{System: []AwkCall{{"ls", "ls"}}, SystemDynamic: true}},
		{`{ print | "sh" }`, AwkProgram{Pipes: []string{"sh"}}},
		{`BEGIN { "git rev-parse HEAD" | getline h }`, AwkProgram{Pipes: []string{"git rev-parse HEAD"}}},
		{`{ print |& cmd }`, AwkProgram{PipeDynamic: true}},
		{`/rm -rf/ {print}`, AwkProgram{}},
		{`{print $1}`, AwkProgram{}},
	} {
		if got := Awk(c.prog); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Awk(%q) = %+v, want %+v", c.prog, got, c.want)
		}
	}
}
