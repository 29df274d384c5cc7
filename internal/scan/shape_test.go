package scan

import "testing"

func TestShapeOf(t *testing.T) {
	cases := []struct {
		line                    string
		prompt, trace, indented bool
		command                 string // the text from start on
	}{
		{"$ git push", true, false, false, "git push"},
		{"  $ git push", true, false, false, "git push"},
		{"dev@box:~/app$ git push", true, false, false, "git push"},
		{"(venv) dev@box:~/app$ make", true, false, false, "make"},
		{"~/app $ ls", true, false, false, "ls"},
		{"[root@box app]# rm -rf x", true, false, false, "rm -rf x"},
		{"dev@box ~ % ls", true, false, false, "ls"},
		{"50% of tests pass", false, false, false, "50% of tests pass"},
		{"PS C:\\src> git push", true, false, false, "git push"},
		{"❯ git push", true, false, false, "git push"},
		{"➜  app git:(main) ✗ git push", true, false, false, "git push"},
		{"+ npm publish", false, true, false, "npm publish"},
		{"++ curl -X POST x", false, true, false, "curl -X POST x"},
		{"+++ foo", false, true, false, "foo"},
		{"    curl x", false, false, true, "curl x"},
		{"\tcurl x", false, false, true, "curl x"},
		{"# git push", false, false, false, "# git push"},
		{"> git push", false, false, false, "> git push"},
		{"It costs $5 a month", false, false, false, "It costs $5 a month"},
		{"the cost is 5$ now", false, false, false, "the cost is 5$ now"},
		{"  % Total    % Received", false, false, false, "% Total    % Received"},
		{"a + b", false, false, false, "a + b"},
		{"+1 to that", false, false, false, "+1 to that"},
		{"", false, false, false, ""},
	}
	for _, c := range cases {
		sh := shapeOf([]byte(c.line))
		if sh.prompt != c.prompt || sh.trace != c.trace || sh.indented != c.indented || c.line[sh.start:] != c.command {
			t.Errorf("%q: prompt %v trace %v indented %v command %q; want %v %v %v %q",
				c.line, sh.prompt, sh.trace, sh.indented, c.line[sh.start:], c.prompt, c.trace, c.indented, c.command)
		}
	}
}

func TestLeadIn(t *testing.T) {
	for line, want := range map[string]bool{
		"To publish, run:":           true,
		"You can try:":               true,
		"Next steps:":                true,
		"Here is the session log:":   false,
		"I ran:":                     false,
		"To publish, run the script": false,
		"":                           false,
	} {
		if got := isLeadIn([]byte(line)); got != want {
			t.Errorf("isLeadIn(%q) = %v, want %v", line, got, want)
		}
	}
}

func TestMarkers(t *testing.T) {
	cases := []struct {
		family, line string
		want         bool
	}{
		{"git", "To github.com:example/app.git", true},
		{"git", "To https://gitlab.example.com/a/b.git", true},
		{"git", "To publish the package, run the script", false},
		{"git", "   1a2b3c4..5d6e7f8  main -> main", true},
		{"git", " + 1a2b3c4...5d6e7f8 main -> main (forced update)", true},
		{"git", " * [new branch]      feat -> feat", true},
		{"git", " ! [rejected]        main -> main (fetch first)", true},
		{"git", "a -> b", false},
		{"git", "Everything up-to-date", true},
		{"npm", "npm notice Publishing to https://registry.example/ with tag latest", true},
		{"npm", "+ app@1.2.0", true},
		{"npm", "+ app", false},
		{"curl", "  % Total    % Received % Xferd  Average Speed", true},
		{"curl", "HTTP/2 201", true},
		{"curl", "curl: (6) Could not resolve host: x", true},
		{"kubectl", "deployment.apps/web configured", true},
		{"kubectl", "service/api created", true},
		{"kubectl", "the web deployment is configured", false},
		{"scp", "app.tar   100%   12MB  11.9MB/s   00:01", true},
		{"rsync", "sent 1,234 bytes  received 56 bytes  2,580.00 bytes/sec", true},
		{"terraform", "Apply complete! Resources: 1 added, 0 changed, 0 destroyed.", true},
		{"docker", "The push refers to repository [ghcr.io/example/app]", true},
		{"gh", "https://github.com/example/app/pull/12", true},
		{"mail", "nothing to see", false},
	}
	for _, c := range cases {
		if got := shows(c.family, []byte(c.line)); got != c.want {
			t.Errorf("shows(%s, %q) = %v, want %v", c.family, c.line, got, c.want)
		}
	}
}

// TestMatcher checks the automaton against a plain search: every bounded
// word between boundaries, every unbounded word anywhere, any case.
func TestMatcher(t *testing.T) {
	m := newMatcher([]string{"git", "rm", "npm notice", "```"}, []bool{true, true, false, false})
	cases := []struct {
		line string
		want []string // word@end
	}{
		{"git push", []string{"git@3"}},
		{"digit github gitx", nil},
		{"/usr/bin/git push", []string{"git@12"}},
		{"`git`", []string{"git@4"}},
		{"(git)", []string{"git@4"}},
		{"GIT push", []string{"git@3"}},
		{"rm -rf x; rm y", []string{"rm@2", "rm@12"}},
		{"warm", nil},
		{"npm NOTICE x", []string{"npm notice@10"}},
		{"xnpm noticex", []string{"npm notice@11"}},
		{"```go", []string{"```@3"}},
		{"``", nil},
		{"a   b", nil},
	}
	for _, c := range cases {
		var got []string
		for _, h := range m.find([]byte(c.line), nil) {
			got = append(got, m.words[h.word]+"@"+itoa(h.end))
		}
		if len(got) != len(c.want) {
			t.Errorf("%q: %v, want %v", c.line, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%q: %v, want %v", c.line, got, c.want)
			}
		}
		if idx := m.index([]byte(c.line), true); (idx >= 0) != (len(c.want) > 0) {
			t.Errorf("%q: index %d, want a hit: %v", c.line, idx, len(c.want) > 0)
		}
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
