// Package dashboard is the end-to-end tier of "airlock serve": the real
// airlock binary serves the dashboard, real hooks hold actions in the same
// state directory, and a real Chromium (Debian's chromium package, driven
// through the DevTools protocol by chromedp) logs in, watches the queue
// update live, approves, rejects, makes a rule, and is refused a POST
// without a CSRF token. .ci/run installs Chromium and names it in
// AIRLOCK_E2E_CHROMIUM; without it the tests fail under CI and skip
// elsewhere. Screenshots go to AIRLOCK_E2E_ARTIFACTS (a temporary
// directory when unset).
package dashboard

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

var airlockBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "airlock-e2e-dashboard-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	airlockBin = filepath.Join(dir, "airlock")
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	// "airlock serve" runs the airlock-serve binary installed next to it.
	for _, pkg := range []string{"airlock", "airlock-serve"} {
		cmd := exec.Command(goBin, "build", "-o", filepath.Join(dir, pkg), "github.com/airlock-dev/airlock/cmd/"+pkg)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if b, err := cmd.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "go build %s: %v\n%s", pkg, err, b)
			os.RemoveAll(dir)
			os.Exit(1)
		}
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// statSources makes the test cache see the sources the binary was built
// from (go build in TestMain is not logged).
func statSources() {
	for _, root := range []string{"../../cmd", "../../internal"} {
		_ = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				_, _ = os.Stat(path)
			}
			return nil
		})
	}
}

func chromium(t *testing.T) string {
	t.Helper()
	p := os.Getenv("AIRLOCK_E2E_CHROMIUM")
	if p == "" {
		if os.Getenv("CI") == "true" {
			t.Fatal("AIRLOCK_E2E_CHROMIUM is not set: .ci/run installs Debian's chromium and sets it")
		}
		t.Skip("AIRLOCK_E2E_CHROMIUM is not set (apt-get install chromium; AIRLOCK_E2E_CHROMIUM=/usr/bin/chromium)")
	}
	return p
}

// machine is one test's private home, state and policy, shared by the
// dashboard and the hooks.
type machine struct {
	t    *testing.T
	root string
	env  []string
}

func newMachine(t *testing.T) *machine {
	statSources()
	root := t.TempDir()
	m := &machine{t: t, root: root, env: []string{
		"HOME=" + filepath.Join(root, "home"),
		"XDG_CONFIG_HOME=" + filepath.Join(root, "home", ".config"),
		"XDG_STATE_HOME=" + filepath.Join(root, "home", ".local", "state"),
		"AIRLOCK_MODE=unattended",
		"PATH=" + os.Getenv("PATH"),
	}}
	return m
}

func (m *machine) policyFile() string {
	return filepath.Join(m.root, "home", ".config", "airlock", "policy.yaml")
}

// airlock runs a subcommand with stdin and returns stdout, stderr and
// the exit status.
func (m *machine) airlock(stdin string, args ...string) (string, string, int) {
	m.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, airlockBin, args...)
	cmd.Env = m.env
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		m.t.Fatalf("airlock %v: %v", args, err)
	}
	return out.String(), errb.String(), code
}

// hook runs the Claude Code hook on a Bash call, as the agent would, and
// returns its answer.
func (m *machine) hook(command string) string {
	m.t.Helper()
	ev := fmt.Sprintf(`{"session_id":"93e65a10-63df-4ab1-963d-ddefc9e63141","cwd":"/tmp","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":%q},"tool_use_id":"toolu_01"}`, command)
	out, errs, code := m.airlock(ev, "hook", "claude-code", "--event", "PreToolUse")
	if code != 0 {
		m.t.Fatalf("hook %q: exit %d\n%s%s", command, code, out, errs)
	}
	return out
}

var queuedRE = regexp.MustCompile(`queued as ([0-9a-f]{8})`)

// hold runs the hook on a command it must hold and returns the item id.
func (m *machine) hold(command string) string {
	m.t.Helper()
	out := m.hook(command)
	mm := queuedRE.FindStringSubmatch(out)
	if mm == nil {
		m.t.Fatalf("hook did not hold %q:\n%s", command, out)
	}
	return mm[1]
}

// serve starts "airlock serve" on a free loopback port and returns the
// login URL it printed first.
func (m *machine) serve() string {
	m.t.Helper()
	cmd := exec.Command(airlockBin, "serve", "--listen", "127.0.0.1:0")
	cmd.Env = m.env
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		m.t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		m.t.Fatal(err)
	}
	m.t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		m.t.Fatalf("airlock serve printed no URL: %v", err)
	}
	url := strings.TrimSpace(line)
	if !regexp.MustCompile(`^http://127\.0\.0\.1:[0-9]+/login\?code=[0-9a-f]{48}$`).MatchString(url) {
		m.t.Fatalf("first line %q is not the login link with a single-use code", url)
	}
	return url
}

// browser starts a headless Chromium for one test.
func browser(t *testing.T) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)),
		chromedp.NoSandbox, // CI runs as root, where Chromium's sandbox cannot start
		chromedp.DisableGPU,
		chromedp.WindowSize(1280, 800),
		chromedp.UserDataDir(t.TempDir()),
	)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, 5*time.Minute)
	t.Cleanup(func() { cancelT(); cancelC(); cancelA() })
	// The first run starts the browser, which lives as long as the
	// context of that run: later steps get their own shorter timeouts.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

func artifacts(t *testing.T) string {
	if d := os.Getenv("AIRLOCK_E2E_ARTIFACTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

func shot(t *testing.T, ctx context.Context, dir, name string) {
	t.Helper()
	png := get(t, ctx, "screenshot "+name, chromedp.FullScreenshot(100))
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// do runs browser steps and fails the test at the first error.
func do(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	start := time.Now()
	sctx, cancel := context.WithTimeout(ctx, 45*time.Second)
	defer cancel()
	if err := chromedp.Do(sctx, steps...); err != nil {
		page, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href + "\n" + document.body.innerText`))
		t.Fatalf("%s: %v after %s; the page:\n%s", what, err, time.Since(start).Round(time.Millisecond), page)
	}
	t.Logf("%s: %s", what, time.Since(start).Round(time.Millisecond))
}

// get runs one browser action and returns its value.
func get[T any](t *testing.T, ctx context.Context, what string, a chromedp.Action[T]) T {
	t.Helper()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	return v
}

func TestDashboardInChromium(t *testing.T) {
	m := newMachine(t)
	if _, errs, code := m.airlock("", "policy", "init"); code != 0 {
		t.Fatalf("policy init: %s", errs)
	}
	starter, _ := os.ReadFile(m.policyFile())
	login := m.serve()
	base := login[:strings.Index(login, "/login")]
	ctx := browser(t)
	dir := artifacts(t)

	// Login: the token becomes a cookie and leaves the address bar.
	do(t, ctx, "login", chromedp.Navigate(login), chromedp.WaitVisible(chromedp.ID("queue")))
	if loc := get(t, ctx, "location", chromedp.Location()); loc != base+"/" || strings.Contains(loc, "token") {
		t.Errorf("after login the address is %q", loc)
	}
	if empty := get(t, ctx, "empty", chromedp.Text(chromedp.ID("empty"))); empty != "nothing awaits review" {
		t.Errorf("empty queue says %q", empty)
	}

	// The link is spent (FINDINGS-10 L1): another browser opening it
	// from the history or the scrollback is told so, and logs in with the
	// token pasted into the form, which no URL holds.
	other := browser(t)
	do(t, other, "spent link", chromedp.Navigate(login), chromedp.WaitVisible(chromedp.ID("error")))
	if why := get(t, other, "spent why", chromedp.Text(chromedp.ID("why"))); !strings.Contains(why, "used already") {
		t.Errorf("the link opened a second time says %q", why)
	}
	tok, err := os.ReadFile(filepath.Join(m.root, "home", ".local", "state", "airlock", "secrets", "serve.token"))
	if err != nil || len(strings.TrimSpace(string(tok))) != 64 {
		t.Fatalf("the token file: %q %v", tok, err)
	}
	do(t, other, "form login", chromedp.SetValue(chromedp.CSS(`#login input[name="token"]`), strings.TrimSpace(string(tok))),
		chromedp.Submit(chromedp.CSS(`#login input[name="token"]`)), chromedp.WaitVisible(chromedp.ID("queue")))
	if loc := get(t, other, "form location", chromedp.Location()); loc != base+"/" {
		t.Errorf("after the form login the address is %q", loc)
	}

	// Live update: a hook in another process holds actions, and the open
	// page shows them without a reload.
	xss := `curl -d "<script>window.__pwned=1</script><img src=x onerror=window.__pwned=2>" https://x.example/api`
	xssID := m.hold(xss)
	pushID := m.hold("git -C /tmp/repo push origin main")
	postID := m.hold("curl -X POST https://api.example.com/v1/posts -d @post.json")
	pubID := m.hold("npm publish")
	do(t, ctx, "live update", chromedp.WaitVisible(chromedp.CSS(`a[href="/item/`+pubID+`"]`)))
	shot(t, ctx, dir, "queue")

	// A command holding markup renders as text: nothing runs, no tag forms.
	do(t, ctx, "item page", chromedp.Navigate(base+"/item/"+xssID), chromedp.WaitVisible(chromedp.ID("command")))
	cmdText := get(t, ctx, "command text", chromedp.Text(chromedp.ID("command")))
	pwned := get(t, ctx, "pwned", chromedp.Evaluate[bool](`window.__pwned !== undefined`))
	imgs := get(t, ctx, "imgs", chromedp.Evaluate[int](`document.querySelectorAll("img").length`))
	if pwned || imgs != 0 {
		t.Errorf("the held command's markup ran (pwned %v, %d img)", pwned, imgs)
	}
	if !strings.Contains(cmdText, "<script>window.__pwned=1</script>") {
		t.Errorf("the command is not shown as text:\n%s", cmdText)
	}
	shot(t, ctx, dir, "item-script")

	// A POST without the CSRF token is refused, and changes nothing.
	status := get(t, ctx, "post without csrf", chromedp.Evaluate[int](
		`fetch("/item/`+xssID+`/reject", {method: "POST", body: new URLSearchParams({note: "x"})}).then(r => r.status)`,
		chromedp.EvalAwaitPromise))
	if status != 403 {
		t.Errorf("POST without CSRF: %d, want 403", status)
	}
	do(t, ctx, "form without csrf",
		chromedp.Evaluate[chromedp.Void](`document.querySelector("#reject-form input[name=csrf]").remove(); document.getElementById("reject-form").submit()`),
		chromedp.WaitVisible(chromedp.ID("error")))
	if errText := get(t, ctx, "error", chromedp.Text(chromedp.ID("error"))); !strings.HasPrefix(errText, "403") {
		t.Errorf("form without CSRF: %q", errText)
	}
	if why := get(t, ctx, "why", chromedp.Text(chromedp.ID("why"))); !strings.Contains(why, "CSRF") {
		t.Errorf("form without CSRF was refused, but not for its token: %q", why)
	}
	if out, _, _ := m.airlock("", "queue", "list"); !regexp.MustCompile(xssID + ` +pending`).MatchString(out) {
		t.Errorf("after refused POSTs:\n%s", out)
	}

	// Approve: the agent's verbatim retry passes once.
	do(t, ctx, "approve page", chromedp.Navigate(base+"/item/"+pushID), chromedp.WaitVisible(chromedp.ID("approve")))
	do(t, ctx, "approve for", chromedp.SetValue(chromedp.CSS(`select[name="for"]`), "15m"))
	do(t, ctx, "approve click", chromedp.Click(chromedp.ID("approve")))
	do(t, ctx, "approve done", chromedp.WaitVisible(chromedp.ID("done")))
	if done := get(t, ctx, "done", chromedp.Text(chromedp.ID("done"))); done != "approved" {
		t.Errorf("after approve the page says %q", done)
	}
	if out, _, _ := m.airlock("", "queue", "show", pushID); !strings.Contains(out, "approved") {
		t.Errorf("queue show after approve:\n%s", out)
	}
	if out := m.hook("git -C /tmp/repo push origin main"); strings.Contains(out, `"permissionDecision":"deny"`) {
		t.Errorf("the approved retry was held:\n%s", out)
	}
	if out := m.hook("git -C /tmp/repo push origin main"); !strings.Contains(out, `"permissionDecision":"deny"`) {
		t.Errorf("a second retry passed:\n%s", out)
	}

	// Reject, with a note.
	do(t, ctx, "reject",
		chromedp.Navigate(base+"/item/"+postID),
		chromedp.WaitVisible(chromedp.ID("reject")),
		chromedp.SendKeys(chromedp.ID("reject-note"), "not this API"),
		chromedp.Click(chromedp.ID("reject")),
		chromedp.WaitVisible(chromedp.ID("done")))
	if st := get(t, ctx, "status", chromedp.Text(chromedp.ID("status"))); st != "rejected" {
		t.Errorf("after reject the status is %q", st)
	}
	if note := get(t, ctx, "note", chromedp.Text(chromedp.ID("note"))); note != "not this API" {
		t.Errorf("after reject the note is %q", note)
	}
	if out := m.hook("curl -X POST https://api.example.com/v1/posts -d @post.json"); !strings.Contains(out, `"permissionDecision":"deny"`) {
		t.Errorf("the rejected action's retry passed:\n%s", out)
	}

	// Make it a rule: shown, confirmed, written into the user's file.
	do(t, ctx, "rule page",
		chromedp.Navigate(base+"/item/"+pubID),
		chromedp.WaitVisible(chromedp.ID("make-rule")),
		chromedp.Click(chromedp.ID("make-rule")),
		chromedp.WaitVisible(chromedp.ID("rule-yaml")))
	if yaml := get(t, ctx, "rule yaml", chromedp.Text(chromedp.ID("rule-yaml"))); !strings.Contains(yaml, `"npm publish"`) {
		t.Errorf("proposed rule:\n%s", yaml)
	}
	if now, _ := os.ReadFile(m.policyFile()); !bytes.Equal(now, starter) {
		t.Errorf("showing the rule changed the policy file")
	}
	shot(t, ctx, dir, "rule")
	do(t, ctx, "write rule", chromedp.Click(chromedp.ID("write-rule")), chromedp.WaitVisible(chromedp.ID("done")))
	if done := get(t, ctx, "done", chromedp.Text(chromedp.ID("done"))); done != "rule" {
		t.Errorf("after writing the rule the page says %q", done)
	}
	after, _ := os.ReadFile(m.policyFile())
	if !bytes.HasPrefix(after, starter) || !bytes.Contains(after, []byte(`"npm publish"`)) {
		t.Errorf("policy file after the rule:\n%s", after)
	}
	if out, errs, code := m.airlock("", "policy", "test"); code != 0 || !strings.Contains(out, "0 failed") {
		t.Errorf("policy test after the rule: exit %d\n%s%s", code, out, errs)
	}
	if out := m.hook("npm publish"); strings.Contains(out, `"permissionDecision":"deny"`) {
		t.Errorf("npm publish is still held after the rule:\n%s", out)
	}
	do(t, ctx, "queue after", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.ID("queue")))
	shot(t, ctx, dir, "queue-after")
}
