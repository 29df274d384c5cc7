package scan

import (
	"strings"
	"testing"
)

// scanString scans text with a fresh scanner.
func scanString(t *testing.T, text string, maxLine int) *Result {
	t.Helper()
	s := Scanner{MaxLine: maxLine}
	res, err := s.Scan(strings.NewReader(text), "t")
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestTextCases are short texts and what the scanner must make of them:
// status and command of each finding, in order ("" for none).
func TestTextCases(t *testing.T) {
	cases := []struct {
		name string
		text string
		want []string // "status: command"
	}{
		{"prose denial is a mention", "I did not run git push: the branch is ready.\n",
			[]string{"mentioned: git push"}},
		{"prose suggestion in a code span", "You can run `git push origin main` when ready.\n",
			[]string{"mentioned: git push origin main"}},
		{"prose with everyday program names", "Mail the report to the team, find the bug, and host it.\nThe ssh agent and the docker image are fine; python tests pass.\n",
			nil},
		{"capitalised program name in prose", "Git push access is granted to the team.\n", nil},
		{"prompt line ran", "$ git push origin main\n", []string{"executed: git push origin main"}},
		{"prompt with user and directory", "dev@box:~/app$ npm publish\n", []string{"executed: npm publish"}},
		{"root prompt", "[root@box app]# rm -rf /var/lib/app\n", []string{"executed: rm -rf /var/lib/app"}},
		{"powershell prompt", "PS C:\\src\\app> git push origin main\n", []string{"executed: git push origin main"}},
		{"markdown heading is not a prompt", "# git push origin main\n", []string{"mentioned: git push origin main"}},
		{"set -x trace ran", "+ curl -X POST https://api.example.com/x -d @a.json\n", []string{"executed: curl -X POST https://api.example.com/x -d @a.json"}},
		{"suggestion block is a mention", "To publish it yourself, run:\n\n```bash\n$ npm publish --access public\n```\n",
			[]string{"mentioned: npm publish --access public"}},
		{"output after a bare command shows it ran", "git push origin main\nTo github.com:example/app.git\n   1a2b3c4..5d6e7f8  main -> main\n",
			[]string{"executed: git push origin main"}},
		{"output window closes at the next prompt", "Try this: git push origin main\n$ git status\nTo github.com:example/app.git\n",
			[]string{"mentioned: git push origin main"}},
		{"curl progress shows it ran", "    curl -sS -X PUT https://api.example.com/x -d @a.json\n  % Total    % Received % Xferd  Average Speed\n",
			[]string{"executed: curl -sS -X PUT https://api.example.com/x -d @a.json"}},
		{"kubectl output", "kubectl apply -f deploy.yaml\ndeployment.apps/web configured\n", []string{"executed: kubectl apply -f deploy.yaml"}},
		{"push inside a commit message is a commit", "$ git commit -m 'then git push'\n", nil},
		{"echoed text is not a command", "$ echo 'remember: npm publish'\n", nil},
		{"local commands", "$ go test ./...\n$ git status\n$ kubectl get pods\n$ curl -s http://localhost:8080/healthz\n", nil},
		{"go code block is not commands", "```go\nfunc run() { service := find(init) }\ncmd := exec.Command(\"git\", \"push\")\n```\n", nil},
		{"wrappers", "$ sudo -u deploy nice -n 5 rsync -a dist/ web:/srv/app/\n", []string{"executed: sudo -u deploy nice -n 5 rsync -a dist/ web:/srv/app/"}},
		{"wrapper in prose", "Then I ran `timeout 30 scp build.tar prod:/tmp/` to copy it.\n", []string{"mentioned: timeout 30 scp build.tar prod:/tmp/"}},
		{"two commands in one sentence", "Run `git push` and then `npm publish`.\n", []string{"mentioned: git push", "mentioned: npm publish"}},
		{"a lone full stop argument", "Then run rm -rf . to clean up.\n", []string{"mentioned: rm -rf . to clean up"}},
		{"disguised push", "$ git -C ../mirror push mirror main\n", []string{"executed: git -C ../mirror push mirror main"}},
		{"nested shell", "$ bash -c 'git push origin main'\n", []string{"executed: bash -c 'git push origin main'"}},
		{"publish output without its command", "building...\nnpm notice Publishing to https://registry.example/ with tag latest\n+ app@1.0.0\n",
			[]string{"executed: npm publish"}},
		{"one push, one finding", "$ git push -u origin feat\nremote: Create a pull request for 'feat' on GitHub by visiting:\n * [new branch]      feat -> feat\n",
			[]string{"executed: git push -u origin feat"}},
		{"CRLF lines", "$ git push origin main\r\nTo github.com:example/app.git\r\n", []string{"executed: git push origin main"}},
		{"no newline at the end", "$ npm publish", []string{"executed: npm publish"}},
		{"path to the program", "$ /usr/bin/git push origin main\n", []string{"executed: /usr/bin/git push origin main"}},
		{"R at a prompt", "$ Rscript -e 'httr::POST(\"https://x.io\")'\n", []string{"executed: Rscript -e 'httr::POST(\"https://x.io\")'"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := scanString(t, c.text, 0)
			var got []string
			for _, f := range res.Findings {
				got = append(got, string(f.Status)+": "+f.Command())
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("findings:\n  got  %q\n  want %q", got, c.want)
			}
		})
	}
}

// TestTextLineNumbers checks numbering across blocks, pieces and the
// output window.
func TestTextLineNumbers(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 50000; i++ {
		b.WriteString("an ordinary line of text about the parser\n")
	}
	b.WriteString("$ git push origin main\n") // line 50001
	b.WriteString(strings.Repeat("y", 3000) + " then npm publish\n")
	b.WriteString("last line without a newline")
	text := b.String()
	for _, maxLine := range []int{0, 1024} {
		res := scanString(t, text, maxLine)
		if len(res.Findings) != 2 || res.Findings[0].Line != 50001 || res.Findings[1].Line != 50002 {
			t.Fatalf("max line %d: findings %+v", maxLine, res.Findings)
		}
		if res.Lines != 50003 {
			t.Errorf("max line %d: %d lines, want 50003", maxLine, res.Lines)
		}
		if res.Bytes != int64(len(text)) {
			t.Errorf("max line %d: %d bytes, want %d", maxLine, res.Bytes, len(text))
		}
		if maxLine > 0 && (len(res.Warnings) != 1 || res.Warnings[0].Line != 50002) {
			t.Errorf("max line %d: warnings %+v, want one for line 50002", maxLine, res.Warnings)
		}
	}
}

// FuzzScan feeds arbitrary input in every format: no panic, every finding
// within the input's lines and with a command.
//
//	go test -run XXX -fuzz FuzzScan -fuzztime 10s ./internal/scan
func FuzzScan(f *testing.F) {
	for _, s := range []string{
		"$ git push origin main\nTo github.com:a/b.git\n",
		"```bash\n$ npm publish\n```\n",
		`{"type":"system","subtype":"init","session_id":"s"}` + "\n" + `{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"git push"}}]},"session_id":"s"}`,
		`{"sessionId":"s","type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","is_error":true}]},"toolDenialKind":"x"}`,
	} {
		f.Add(s, 0)
		f.Add(s, 8)
	}
	f.Fuzz(func(t *testing.T, text string, maxLine int) {
		if maxLine < 0 || maxLine > 1<<16 {
			maxLine = 0
		}
		s := Scanner{MaxLine: maxLine}
		res, err := s.Scan(strings.NewReader(text), "f")
		if err != nil {
			t.Fatal(err)
		}
		for _, fd := range res.Findings {
			if fd.Line < 1 || fd.Line > res.Lines || fd.Command() == "" {
				t.Errorf("finding at line %d of %d, command %q", fd.Line, res.Lines, fd.Command())
			}
		}
	})
}
