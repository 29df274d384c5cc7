// Package corpus writes synthetic agent output for the scanner's
// benchmarks: plain text in the shape of "claude --print" output and
// terminal logs, and Claude Code transcripts. The mix is deterministic for
// a seed, and is meant to look like real sessions to the scanner: mostly
// prose, code and local commands with their output, program names in
// prose ("the git history"), and now and then an outward command with the
// output it prints.
package corpus

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"strings"
)

var words = strings.Fields(`the a parser token buffer request handler config value result error test
package module function method interface struct field index cache queue worker session user file
directory path line byte string slice map channel context deadline timeout retry backoff limit
we now then when because so that it this which returns reads writes checks builds runs calls
fixed added removed renamed moved updated changed improved simplified documented measured
faster slower smaller larger safer simpler clearer before after during instead also only still
history branch commit image container service endpoint server client release version changelog
benchmark profile allocation latency throughput memory goroutine mutex lock race condition`)

// proseMentions are phrases with program names inside ordinary prose.
var proseMentions = []string{
	"the git history is linear", "the docker image is smaller", "the npm package exports it",
	"a curl request to the local server", "the kubectl context", "the ssh agent socket",
	"the git log shows it", "the helm chart values", "the terraform plan is empty",
	"the aws region is set", "the rsync of the fixtures", "python tests pass",
}

// localCommands are commands with no outward effect, and output for them.
var localCommands = []struct {
	cmd string
	out []string
}{
	{"go test ./...", []string{"ok  \texample.com/app/internal/%s\t0.%03ds", "ok  \texample.com/app/cmd/%s\t0.%03ds"}},
	{"go vet ./...", nil},
	{"go build ./cmd/%s", nil},
	{"ls -la internal/%s", []string{"-rw-r--r-- 1 dev dev  %d Nov 30 07:18 %s.go", "drwxr-xr-x 2 dev dev 4096 Nov 30 07:18 testdata"}},
	{"cat go.mod", []string{"module example.com/app", "go 1.26", "require example.com/%s v1.%d.0"}},
	{"git status", []string{"On branch main", "Changes not staged for commit:", "\tmodified:   internal/%s/%s.go"}},
	{"git diff --stat", []string{" internal/%s/%s.go | %d ++++---", " 1 file changed, %d insertions(+)"}},
	{"git log --oneline -5", []string{"%07x fix %s handling", "%07x add %s test"}},
	{"git add internal/%s", nil},
	{"git commit -m 'fix %s in %s'", []string{"[main %07x] fix %s", " 1 file changed, %d insertions(+), 2 deletions(-)"}},
	{"make build", []string{"go build -o bin/%s ./cmd/%s"}},
	{"npm test", []string{"> app@1.0.0 test", "> vitest run", " ✓ src/%s.test.ts (%d tests)"}},
	{"npm run lint", []string{"> eslint src", "✔ no problems in %s"}},
	{"docker build -t app:%s .", []string{"#%d [internal] load build definition", "#%d DONE 0.%ds"}},
	{"kubectl get pods -n %s", []string{"NAME   READY   STATUS    RESTARTS   AGE", "%s-7d9f   1/1     Running   0          %dm"}},
	{"python3 -m pytest -q tests/test_%s.py", []string{"%d passed in 0.%02ds"}},
	{"grep -rn %s internal/", []string{"internal/%s/%s.go:%d:\treturn %s"}},
	{"curl -s http://localhost:8080/healthz", []string{`{"status":"ok","%s":%d}`}},
}

// outward are commands that reach outside, with the output they print.
var outward = []struct {
	cmd string
	out []string
}{
	{"git push origin feature/%s", []string{"Enumerating objects: %d, done.", "To github.com:example/app.git", " * [new branch]      feature/%s -> feature/%s"}},
	{"curl -X POST https://api.example.com/v1/%s -d @payload.json", []string{"  %% Total    %% Received %% Xferd  Average Speed   Time", `{"id":%d}`}},
	{"npm publish", []string{"npm notice Publishing to https://registry.example/ with tag latest", "+ app-%s@1.%d.0"}},
	{"kubectl apply -f deploy/%s.yaml", []string{"deployment.apps/%s configured", "service/%s unchanged"}},
	{"docker push ghcr.io/example/%s:%d", []string{"The push refers to repository [ghcr.io/example/app]", "latest: digest: sha256:%064x size: 1234"}},
}

// gen writes one kind of corpus.
type gen struct {
	r *rand.Rand
	w *bufio.Writer
	n int64
}

func (g *gen) word() string { return words[g.r.Intn(len(words))] }

// fill replaces each verb of format with a plausible value.
func (g *gen) fill(format string) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		if format[i] != '%' || i+1 >= len(format) {
			b.WriteByte(format[i])
			continue
		}
		j := i + 1
		for j < len(format) && (format[j] >= '0' && format[j] <= '9') {
			j++
		}
		if j >= len(format) {
			b.WriteString(format[i:])
			break
		}
		switch format[j] {
		case 's':
			b.WriteString(g.word())
		case 'd':
			fmt.Fprintf(&b, format[i:j+1], g.r.Intn(5000))
		case 'x':
			fmt.Fprintf(&b, format[i:j+1], g.r.Uint64()&(1<<28-1))
		case '%':
			b.WriteByte('%')
		default:
			b.WriteString(format[i : j+1])
		}
		i = j
	}
	return b.String()
}

func (g *gen) line(s string) {
	n, _ := g.w.WriteString(s)
	g.w.WriteByte('\n')
	g.n += int64(n + 1)
}

func (g *gen) sentence() string {
	n := 6 + g.r.Intn(14)
	ws := make([]string, n)
	for i := range ws {
		ws[i] = g.word()
	}
	if g.r.Intn(8) == 0 {
		ws[g.r.Intn(n)] = proseMentions[g.r.Intn(len(proseMentions))]
	}
	s := strings.Join(ws, " ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

func (g *gen) paragraph() string {
	var s []string
	for i := 0; i < 2+g.r.Intn(5); i++ {
		s = append(s, g.sentence())
	}
	return strings.Join(s, " ")
}

func (g *gen) code() []string {
	name := g.word()
	method := g.word()
	out := []string{fmt.Sprintf("func (s *%sState) %s%s(ctx context.Context, in []byte) (int, error) {", name, strings.ToUpper(method[:1]), method[1:])}
	for i := 0; i < 4+g.r.Intn(20); i++ {
		switch g.r.Intn(4) {
		case 0:
			out = append(out, fmt.Sprintf("\tif err := s.%s(in[%d:]); err != nil {", g.word(), g.r.Intn(64)))
			out = append(out, fmt.Sprintf("\t\treturn 0, fmt.Errorf(\"%s: %%w\", err)", g.word()))
			out = append(out, "\t}")
		case 1:
			out = append(out, fmt.Sprintf("\t%s := s.%s.Load() + %d", g.word(), g.word(), g.r.Intn(100)))
		case 2:
			out = append(out, fmt.Sprintf("\t// %s", g.sentence()))
		default:
			out = append(out, fmt.Sprintf("\tfor i := range %s {", g.word()), fmt.Sprintf("\t\ts.%s[i] = %d", g.word(), g.r.Intn(9)), "\t}")
		}
	}
	return append(out, "\treturn len(in), nil", "}")
}

// session is a run of commands at a prompt with their output; one in
// outwardEvery sessions holds an outward command.
func (g *gen) session() []string {
	var out []string
	for i := 0; i < 2+g.r.Intn(5); i++ {
		c := localCommands[g.r.Intn(len(localCommands))]
		out = append(out, "$ "+g.fill(c.cmd))
		for j := 0; j < g.r.Intn(12); j++ {
			if len(c.out) > 0 {
				out = append(out, g.fill(c.out[g.r.Intn(len(c.out))]))
			}
		}
	}
	if g.r.Intn(outwardEvery) == 0 {
		c := outward[g.r.Intn(len(outward))]
		out = append(out, "$ "+g.fill(c.cmd))
		for _, o := range c.out {
			out = append(out, g.fill(o))
		}
	}
	return out
}

// outwardEvery: one console session in this many ends with an outward
// command.
const outwardEvery = 25

// Text writes about size bytes of plain text.
func Text(w io.Writer, size int64, seed int64) error {
	g := &gen{r: rand.New(rand.NewSource(seed)), w: bufio.NewWriterSize(w, 1<<20)}
	for g.n < size {
		switch k := g.r.Intn(100); {
		case k < 40:
			g.line(g.paragraph())
			g.line("")
		case k < 50:
			for i := 0; i < 2+g.r.Intn(4); i++ {
				g.line("- " + g.sentence())
			}
			g.line("")
		case k < 70:
			g.line("```go")
			for _, l := range g.code() {
				g.line(l)
			}
			g.line("```")
		default:
			g.line("```console")
			for _, l := range g.session() {
				g.line(l)
			}
			g.line("```")
		}
	}
	return g.w.Flush()
}

// transcript line shapes, encoded with encoding/json so that every line
// is valid.
type tLine struct {
	ParentUUID  *string         `json:"parentUuid"`
	IsSidechain bool            `json:"isSidechain"`
	Type        string          `json:"type"`
	Message     *tMessage       `json:"message,omitempty"`
	UUID        string          `json:"uuid"`
	Timestamp   string          `json:"timestamp"`
	ToolUseRes  json.RawMessage `json:"toolUseResult,omitempty"`
	UserType    string          `json:"userType"`
	Cwd         string          `json:"cwd"`
	SessionID   string          `json:"sessionId"`
	Version     string          `json:"version"`
	GitBranch   string          `json:"gitBranch"`
}

type tMessage struct {
	ID      string `json:"id,omitempty"`
	Role    string `json:"role"`
	Model   string `json:"model,omitempty"`
	Content any    `json:"content"`
}

type tBlock struct {
	Type      string `json:"type"`
	Text      string `json:"text,omitempty"`
	ID        string `json:"id,omitempty"`
	Name      string `json:"name,omitempty"`
	Input     any    `json:"input,omitempty"`
	ToolUseID string `json:"tool_use_id,omitempty"`
	Content   string `json:"content,omitempty"`
	IsError   *bool  `json:"is_error,omitempty"`
}

// Transcript writes about size bytes of a Claude Code transcript: prompts,
// replies, tool calls (mostly reads, edits and local commands) and their
// results, whose content (a file read, a command's output) makes up most
// of the bytes, as in real transcripts.
func Transcript(w io.Writer, size int64, seed int64) error {
	g := &gen{r: rand.New(rand.NewSource(seed)), w: bufio.NewWriterSize(w, 1<<20)}
	seq := 0
	prev := ""
	no := false
	emit := func(typ string, m *tMessage, res json.RawMessage) error {
		seq++
		id := fmt.Sprintf("%08x-0000-4000-8000-%012x", seed, seq)
		l := tLine{IsSidechain: false, Type: typ, Message: m, UUID: id, ToolUseRes: res,
			Timestamp: fmt.Sprintf("2026-11-30T07:%02d:%02d.000Z", seq/60%60, seq%60), UserType: "external",
			Cwd: "/work/app", SessionID: "bench-session", Version: "2.1.332", GitBranch: "main"}
		if prev != "" {
			p := prev
			l.ParentUUID = &p
		}
		prev = id
		b, err := json.Marshal(l)
		if err != nil {
			return err
		}
		g.line(string(b))
		return nil
	}
	tool := 0
	call := func(name string, input any, result string) error {
		tool++
		id := fmt.Sprintf("toolu_bench_%06d", tool)
		if err := emit("assistant", &tMessage{ID: fmt.Sprintf("msg_%06d", tool), Role: "assistant", Model: "claude-x",
			Content: []tBlock{{Type: "tool_use", ID: id, Name: name, Input: input}}}, nil); err != nil {
			return err
		}
		res, _ := json.Marshal(map[string]any{"stdout": result, "stderr": "", "interrupted": false})
		return emit("user", &tMessage{Role: "user", Content: []tBlock{{Type: "tool_result", ToolUseID: id, Content: result, IsError: &no}}}, res)
	}
	for g.n < size {
		var err error
		switch k := g.r.Intn(100); {
		case k < 5:
			err = emit("user", &tMessage{Role: "user", Content: g.sentence()}, nil)
		case k < 25:
			err = emit("assistant", &tMessage{ID: "msg_t", Role: "assistant", Model: "claude-x",
				Content: []tBlock{{Type: "text", Text: g.paragraph() + "\n\n" + g.paragraph()}}}, nil)
		case k < 55:
			// A file read: the bulk of a transcript.
			var b strings.Builder
			for i := 0; i < 3+g.r.Intn(12); i++ {
				for _, l := range g.code() {
					b.WriteString(l)
					b.WriteByte('\n')
				}
			}
			err = call("Read", map[string]string{"file_path": "/work/app/internal/" + g.word() + ".go"}, b.String())
		case k < 70:
			code := strings.Join(g.code(), "\n")
			err = call("Edit", map[string]string{"file_path": "/work/app/internal/" + g.word() + ".go", "old_string": code[:len(code)/2], "new_string": code}, "The file has been updated.")
		default:
			c := localCommands[g.r.Intn(len(localCommands))]
			if g.r.Intn(outwardEvery) == 0 {
				c = outward[g.r.Intn(len(outward))]
			}
			var out []string
			for j := 0; j < len(c.out)+g.r.Intn(20); j++ {
				if len(c.out) > 0 {
					out = append(out, g.fill(c.out[j%len(c.out)]))
				}
			}
			err = call("Bash", map[string]string{"command": g.fill(c.cmd), "description": g.sentence()}, strings.Join(out, "\n"))
		}
		if err != nil {
			return err
		}
	}
	return g.w.Flush()
}
