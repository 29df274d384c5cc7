package classify

import (
	"fmt"
	"testing"
)

// TestProducerBound: a word that is a producer's output names the
// producer, and the producer's output is bounded by its start paths,
// operands and patterns, or not at all.
func TestProducerBound(t *testing.T) {
	subst := []struct {
		word string
		want string // the argv, or "" when the word is not one substitution
	}{
		{`$(find . -name '*.pyc')`, `[find . -name *.pyc]`},
		{"`git ls-files '*.md'`", `[git ls-files *.md]`},
		{`"$(find ~/.local -name serve.token)"`, `[find ~/.local -name serve.token]`},
		{`$(find . | head)`, ``},
		{`$(find "$D" -name x)`, ``},
		{`x$(find .)`, ``},
		{`$((1+2))`, ``},
		{`$(cat list.txt)`, `[cat list.txt]`},
	}
	for _, c := range subst {
		argv, ok := SubstProducer(c.word)
		got := ""
		if ok {
			got = fmt.Sprint(argv)
		}
		if got != c.want {
			t.Errorf("SubstProducer(%q) = %q, want %q", c.word, got, c.want)
		}
	}
	bounds := []struct {
		argv []string
		want string // the bounds as word:pattern, or "none"
	}{
		{[]string{"find", ".", "-name", "*.pyc"}, "[.:*.pyc]"},
		{[]string{"find", "-L", "src", "lib", "-iname", "*.PY"}, "[src:*.PY lib:*.PY]"},
		{[]string{"find", "."}, "[.:]"},
		{[]string{"find", ".", "-printf", "%p\n"}, "none"},
		{[]string{"find", ".", "-name", "a", "-o", "-name", "b"}, "[.:a .:b]"},
		{[]string{"find", ".", "-name", "a", "-o", "-type", "f"}, "[.:]"},
		{[]string{"find", ".", "(", "-name", "a", "-o", "-name", "b", ")", "-print"}, "[.:a .:b]"},
		{[]string{"find", ".", "-name", "a", "-print", "-o", "-name", "b"}, "[.:a]"},
		{[]string{"ls", "-d", "~/.local/state/*/*"}, "[~/.local/state/*/*:]"},
		{[]string{"ls"}, "[.:]"},
		{[]string{"locate", "serve.token"}, "[/:/*serve.token*]"},
		{[]string{"locate", "-r", "token$"}, "none"},
		{[]string{"git", "ls-files", "*.md"}, "[.:./*.md]"},
		{[]string{"git", "ls-files", ":/"}, "none"},
		{[]string{"cat", "list.txt"}, "none"},
	}
	for _, c := range bounds {
		ops, ok := ProducerBound(c.argv, nil)
		got := "none"
		if ok {
			var s []string
			for _, o := range ops {
				s = append(s, o.Word+":"+o.Pattern)
			}
			got = fmt.Sprint(s)
		}
		if got != c.want {
			t.Errorf("ProducerBound(%q) = %s, want %s", c.argv, got, c.want)
		}
	}
	if _, ok := ProducerBound([]string{"find", "$D"}, []bool{false, true}); ok {
		t.Error("a start path known only at run time was bounded")
	}
}
