package cli

import (
	"fmt"
	"strings"

	"github.com/airlock-dev/airlock/internal/policy"
)

func init() {
	addCommand(&command{name: "demo", summary: "show airlock guarding a scripted agent session (nothing runs)", run: runDemo})
}

const demoHelp = `
Replay a scripted, unattended agent session through airlock's decision
engine on its built-in defaults and show what would go through and what
would be held. Nothing is executed and nothing is written.`

// demoSession is a scripted agent session: ordinary local work, then the
// publications and destruction an unattended agent must not do alone, each
// in several disguises.
var demoSession = []struct{ story, command string }{
	{"1 fix the parser", "go test ./..."},
	{"1 fix the parser", "sed -i 's/old/new/' internal/parse.go && gofmt -l ."},
	{"1 fix the parser", "git add -A && git commit -m 'fix parser; next: git push'"},
	{"1 fix the parser", "git push origin main"},
	{"1 fix the parser", "git -C . push origin main"},
	{"1 fix the parser", `bash -c "git push --force origin main"`},
	{"2 open a PR", "gh pr view 12"},
	{"2 open a PR", "gh pr create --title 'Fix parser' --body 'Done'"},
	{"2 open a PR", "curl -XPOST https://api.example.com/issues -d @report.json"},
	{"2 open a PR", "curl -s https://api.example.com/status"},
	{"3 release", "npm publish --dry-run"},
	{"3 release", "npm publish"},
	{"3 release", "sudo env -S 'npm publish' --tag next"},
	{"4 clean up", "rm -rf ./build"},
	{"4 clean up", "find . -name '*.tmp' -exec rm -rf {} +"},
	{"4 clean up", "echo 'rm -rf ~/src' | sh"},
	{"4 clean up", "$(which git) push"},
}

func runDemo(e *env) int {
	fs := newFlags(e, "demo", "airlock demo", demoHelp)
	if st, ok := parseFlags(e, fs, e.args); !ok {
		return st
	}
	fmt.Fprintln(e.stdout, "airlock demo: an unattended agent session, checked call by call (nothing is executed)")
	fmt.Fprintln(e.stdout)
	counts := map[policy.Decision]int{}
	story := ""
	builtin := policy.Defaults() // the demo shows the embedded defaults, not the user's files
	for _, s := range demoSession {
		if s.story != story {
			story = s.story
			fmt.Fprintf(e.stdout, "Story %s\n", story)
		}
		out := checkWith(builtin, s.command, "", "", policy.Unattended)
		counts[out.Decision]++
		why := ""
		if len(out.Reasons) > 0 {
			why = "  — " + out.Reasons[0].Message
		}
		fmt.Fprintf(e.stdout, "  %-6s %s%s\n", strings.ToUpper(out.Decision.String()), s.command, why)
	}
	fmt.Fprintf(e.stdout, "\n%d calls: %d allowed, %d warned, %d held for review (deferred), %d denied, %d asked\n",
		len(demoSession), counts[policy.Allow], counts[policy.Warn], counts[policy.Defer], counts[policy.Deny], counts[policy.Ask])
	return ExitOK
}
