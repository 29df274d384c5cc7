package teamcmd

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/policy"
	"github.com/airlock-dev/airlock/internal/team/pgtest"
	"github.com/airlock-dev/airlock/internal/team/wire"
	"github.com/jackc/pgx/v5"
)

// TestVerbsMatchPolicy: self-protection's table of airlock's command
// line knows every team verb with exactly its flags (and whether each
// takes a value), and none of them as a read.
func TestVerbsMatchPolicy(t *testing.T) {
	pv := map[string]policy.AirlockVerb{}
	for _, v := range policy.AirlockVerbs() {
		if strings.HasPrefix(v.Path, "team ") {
			pv[v.Path] = v
		}
	}
	for path, v := range verbs {
		p, ok := pv["team "+path]
		if !ok {
			t.Errorf("policy.AirlockVerbs lacks %q", "team "+path)
			continue
		}
		if p.ReadOnly {
			t.Errorf("team %s is read-only to self-protection; every team verb acts as a human", path)
		}
		fs := flag.NewFlagSet(path, flag.ContinueOnError)
		v.flags(fs)
		got := map[string]bool{}
		fs.VisitAll(func(f *flag.Flag) {
			b, ok := f.Value.(interface{ IsBoolFlag() bool })
			got[f.Name] = !(ok && b.IsBoolFlag())
		})
		for name, takes := range got {
			if want, ok := p.Flags[name]; !ok || want != takes {
				t.Errorf("team %s --%s: policy says (known %v, takes a value %v), the command (takes a value %v)", path, name, ok, want, takes)
			}
		}
		for name := range p.Flags {
			if _, ok := got[name]; !ok {
				t.Errorf("team %s: policy lists --%s, which the command does not define", path, name)
			}
		}
		delete(pv, "team "+path)
	}
	for path := range pv {
		if path != "team join" && path != "team sync" { // the machine's side, internal/team/sync
			t.Errorf("policy.AirlockVerbs has %q, which airlock-team does not define", path)
		}
	}
}

func run(t *testing.T, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	st := Main(Options{Args: args, Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return env[k] }})
	return st, out.String(), errb.String()
}

func TestUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"frob"}, `airlock team has no command "frob"`},
		{[]string{"add-machine", "m"}, "needs the team database"},
		{[]string{"add-machine", "--db", "postgres://x/y"}, "takes NAME"},
		{[]string{"queue", "list", "--server", "http://team.example.com", "--token", "t"}, "plain HTTP to another machine"},
		{[]string{"queue", "approve", "k"}, "needs the team server"},
		{[]string{"queue", "approve", "k", "--for", "200h", "--server", "https://x", "--token", "t"}, "at most 168h"},
		{[]string{"serve", "--db", "postgres://x/y", "--listen", "0.0.0.0:7780"}, "names no single address"},
		{[]string{"serve", "--db", "postgres://x/y", "--listen", "192.0.2.2:7780"}, "in clear"},
		{[]string{"serve", "--db", "postgres://x/y", "--tls-cert", "c"}, "go together"},
		{[]string{"queue", "list", "--no-such-flag"}, "flag provided but not defined"},
		{[]string{"notify", "--server", "https://x", "--token", "t"}, "needs --config FILE"},
		{[]string{"notify", "--config", "n.yaml"}, "needs the team server"},
		{[]string{"notify", "extra", "--config", "n.yaml"}, "got 1 operand"},
	} {
		st, out, errText := run(t, nil, c.args...)
		if st != ExitUsage || out != "" || !strings.Contains(errText, c.want) || !strings.HasPrefix(errText, "airlock: error: ") {
			t.Errorf("%q: %d %q %q, want usage error %q", c.args, st, out, errText, c.want)
		}
	}
	// A server that does not answer is an error (1), not a usage error,
	// with what to check.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String()
	ln.Close()
	if st, _, errText := run(t, nil, "queue", "list", "--server", dead, "--token", "t"); st != ExitError || !strings.Contains(errText, "did not answer") || !strings.Contains(errText, "airlock: hint: check --server") {
		t.Errorf("a dead server: %d %q", st, errText)
	}
	if st, out, _ := run(t, nil, "queue", "show", "--help"); st != 0 || !strings.Contains(out, "--server URL") || !strings.Contains(out, "usage: airlock team queue show KEY") {
		t.Errorf("help: %d %q", st, out)
	}
}

// TestServeAndReview runs the whole command line against a real
// PostgreSQL: add a machine and a reviewer, start the server (first line
// the admin URL), push as the machine, then list, show and approve as
// the reviewer; a second verdict is refused by name.
func TestServeAndReview(t *testing.T) {
	db := pgtest.DB(t)
	st, mtok, errText := run(t, nil, "add-machine", "laptop-a", "--db", db)
	if st != 0 || !strings.HasPrefix(mtok, "altm_") || !strings.Contains(errText, "airlock team join") {
		t.Fatalf("add-machine: %d %q %q", st, mtok, errText)
	}
	env := map[string]string{DBEnv: db}
	st, rtok, _ := run(t, env, "add-reviewer", "alice")
	if st != 0 || !strings.HasPrefix(rtok, "altr_") {
		t.Fatalf("add-reviewer: %d %q", st, rtok)
	}
	if st, _, errText := run(t, env, "add-reviewer", "alice"); st != ExitUsage || !strings.Contains(errText, "already names") {
		t.Fatalf("add-reviewer twice: %d %q", st, errText)
	}
	mtok, rtok = strings.TrimSpace(mtok), strings.TrimSpace(rtok)

	// A free loopback port.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	key := filepath.Join(t.TempDir(), "k", "server.key")
	stop := make(chan struct{})
	ready := make(chan string, 1)
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- Main(Options{Args: []string{"serve", "--db", db, "--listen", addr, "--key", key, "--retention", "30"}, Stdout: &out, Stderr: &errb,
			Getenv: func(string) string { return "" }, Stop: stop, Ready: func(u string) { ready <- u }})
	}()
	var admin string
	select {
	case admin = <-ready:
	case st := <-done:
		t.Fatalf("serve ended: %d %s", st, errb.String())
	}
	defer func() {
		close(stop)
		if st := <-done; st != 0 {
			t.Errorf("serve: %d %s", st, errb.String())
		}
	}()
	first, _, _ := strings.Cut(out.String(), "\n")
	if first != admin || !strings.HasPrefix(first, "http://"+addr+"/login?code=") {
		t.Fatalf("first line %q, admin URL %q", first, admin)
	}
	if !strings.Contains(out.String(), "fingerprint SHA256:") || !strings.Contains(errb.String(), "created in "+key) {
		t.Fatalf("serve's output: %q %q", out.String(), errb.String())
	}
	if st, _ := os.Stat(key); st == nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v", st)
	}

	base := "http://" + addr
	push := wire.Push{Items: []wire.HeldItem{{ID: "q1", HeldHash: "h1", Time: time.Now().Add(-time.Hour), Repo: "acme/web", Kind: "shell",
		Command: "git push origin main\x1b[31m", Effect: "external"}}}
	body, _ := json.Marshal(push)
	req, _ := http.NewRequest("POST", base+wire.PathPrefix+"/push", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+mtok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("push: %v %v", resp, err)
	}
	resp.Body.Close()

	renv := map[string]string{ServerEnv: base, TokenEnv: rtok}
	st, list, errText := run(t, renv, "queue", "list")
	if st != 0 || !strings.Contains(list, "laptop-a:q1") || !strings.Contains(list, "acme/web") || strings.Contains(list, "\x1b") || !strings.Contains(list, `\x1b[31m`) {
		t.Fatalf("list: %d %q %q", st, list, errText)
	}
	if st, list, _ := run(t, renv, "queue", "list", "--machine", "laptop-b"); st != 0 || !strings.Contains(list, "nothing") {
		t.Fatalf("list another machine: %d %q", st, list)
	}
	st, show, _ := run(t, renv, "queue", "show", "laptop-a:q1")
	if st != 0 || !strings.Contains(show, "on machine laptop-a") || strings.Contains(show, "\x1b") {
		t.Fatalf("show: %d %q", st, show)
	}
	st, js, _ := run(t, renv, "queue", "show", "--json", "laptop-a:q1")
	var ti wire.TeamItem
	if st != 0 || json.Unmarshal([]byte(js), &ti) != nil || ti.Item.Command != "git push origin main\x1b[31m" || strings.Contains(js, "\x1b") {
		t.Fatalf("show --json: %d %q", st, js)
	}
	st, ok, errText := run(t, renv, "queue", "approve", "laptop-a:q1", "--for", "15m", "--note", "ship it")
	if st != 0 || !strings.HasPrefix(ok, "approved laptop-a:q1 on machine laptop-a") || !strings.Contains(ok, "by alice") {
		t.Fatalf("approve: %d %q %q", st, ok, errText)
	}
	st, _, errText = run(t, renv, "queue", "reject", "laptop-a:q1")
	if st != ExitUsage || !strings.Contains(errText, "409") || !strings.Contains(errText, "airlock: hint: ") {
		t.Fatalf("reject after approve: %d %q", st, errText)
	}
	// The machine pulls one decision, signed with the key serve printed.
	req, _ = http.NewRequest("GET", base+wire.PathPrefix+"/decisions", nil)
	req.Header.Set("Authorization", "Bearer "+mtok)
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var ds wire.Decisions
	json.Unmarshal(b, &ds)
	if len(ds.Decisions) != 1 || ds.Decisions[0].TTLSeconds != 900 || ds.Decisions[0].Reviewer != "alice" {
		t.Fatalf("decisions: %s", b)
	}
	req, _ = http.NewRequest("GET", base+wire.PathPrefix+"/hello", nil)
	req.Header.Set("Authorization", "Bearer "+mtok)
	resp, _ = http.DefaultClient.Do(req)
	var hello wire.Hello
	json.NewDecoder(resp.Body).Decode(&hello)
	resp.Body.Close()
	pub, err := wire.DecodeKey(hello.ServerKey)
	if err != nil || !strings.Contains(out.String(), "fingerprint "+wire.Fingerprint(pub)) {
		t.Fatalf("hello's key is not the one serve printed: %v", err)
	}
	if err := wire.Verify(pub, ds.Decisions[0], "laptop-a"); err != nil {
		t.Fatal(err)
	}
	// A revoked reviewer is refused by name.
	if st, out, _ := run(t, env, "revoke", "alice"); st != 0 || out != "revoked reviewer alice\n" {
		t.Fatalf("revoke: %d %q", st, out)
	}
	if st, _, errText := run(t, renv, "queue", "list"); st != ExitUsage || !strings.Contains(errText, "revoked") {
		t.Fatalf("list after revoke: %d %q", st, errText)
	}
}

// TestServeRefusesAForeignDatabase: a --db that holds someone else's
// tables is refused, by serve and by the admin commands, and left as it
// was.
func TestServeRefusesAForeignDatabase(t *testing.T) {
	db := pgtest.DB(t)
	ctx := context.Background()
	c, err := pgx.Connect(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, "CREATE TABLE invoices (id int)"); err != nil {
		t.Fatal(err)
	}
	key := filepath.Join(t.TempDir(), "k")
	for _, args := range [][]string{
		{"serve", "--db", db, "--listen", "127.0.0.1:0", "--key", key},
		{"add-machine", "m", "--db", db},
	} {
		st, out, errText := run(t, nil, args...)
		if st != ExitUsage || out != "" || !strings.Contains(errText, "invoices") || !strings.Contains(errText, "hint: give the team server a database of its own") {
			t.Errorf("%s: %d %q %q", args[0], st, out, errText)
		}
	}
	if _, err := os.Stat(key); err == nil {
		t.Error("serve refused the database but left a signing key behind")
	}
	var n int
	if err := c.QueryRow(ctx, "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'").Scan(&n); err != nil || n != 1 {
		t.Fatalf("the foreign database now has %d tables (%v)", n, err)
	}
}
