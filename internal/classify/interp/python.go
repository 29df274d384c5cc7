package interp

import (
	"strings"
)

// ---------------------------------------------------------------- Python

// pyOSSpawn are the os functions that run a program from a path and words.
var pyOSSpawn = []string{
	"execl", "execle", "execlp", "execlpe", "execv", "execve", "execvp", "execvpe", "spawnl", "spawnle", "spawnlp",
	"spawnlpe", "spawnv", "spawnve", "spawnvp", "spawnvpe", "posix_spawn", "posix_spawnp", "startfile",
}

// pySubprocess are subprocess's functions; each takes shell text or a list.
var pySubprocess = []string{"run", "call", "check_call", "check_output", "Popen", "getoutput", "getstatusoutput"}

func (s *interpScan) python() {
	code := s.code
	m := code.masked
	// Modules reachable under other names: import subprocess as sp.
	sp := map[string]bool{"subprocess": true}
	for _, c := range code.calls("subprocess") {
		rest := strings.TrimLeft(m[c.at+len("subprocess"):], " ")
		if strings.HasPrefix(rest, "as ") {
			alias := strings.TrimLeft(rest[3:], " ")
			k := 0
			for k < len(alias) && isIdentByte(alias[k]) {
				k++
			}
			sp[alias[:k]] = true
		}
	}
	fromSub := strings.Contains(m, "from subprocess import")
	fromOS := strings.Contains(m, "from os import")
	understoodSub := 0

	// Shell text and program runs.
	for _, c := range s.pyCalls("system", "popen", "popen2", "popen3", "popen4") {
		if c.recv == "os" || c.recv == ")" || c.recv == "" && fromOS {
			s.spawnCall(c)
		}
	}
	for _, c := range s.pyCalls(pySubprocess...) {
		switch {
		case sp[c.recv]:
			understoodSub++
		case c.recv == "" && fromSub:
		case c.recv == "pexpect" && c.name == "run":
		default:
			continue
		}
		s.spawnCall(c)
	}
	for _, c := range s.pyCalls("spawn") {
		if c.recv == "pexpect" || c.recv == "pty" {
			s.spawnCall(c)
		}
	}
	for _, c := range s.pyCalls("create_subprocess_shell") {
		s.spawnCall(c)
	}
	for _, c := range s.pyCalls("create_subprocess_exec") {
		if c.called {
			s.spawnWords(c, c.args)
		} else {
			s.spawnCall(c)
		}
	}
	for _, c := range s.pyCalls(pyOSSpawn...) {
		if c.recv != "os" && !(c.recv == "" && fromOS) {
			continue
		}
		s.pyExec(c)
	}
	// subprocess used in any other way (a stored function, getattr).
	if n := s.mentions("subprocess"); n > 0 {
		imports := 0
		for _, c := range code.calls("subprocess") {
			if s.inImport(c.at) {
				imports++
			}
		}
		if n-imports > understoodSub {
			s.hide("interp.spawn.unread", s.who+" code uses subprocess in a way airlock cannot read")
		}
	}
	// Code built at run time.
	for _, c := range s.pyCalls("eval", "exec") {
		if c.recv == "" || c.recv == "builtins" {
			s.evalCode(c)
		}
	}
	for _, c := range s.pyCalls("compile") {
		if c.recv == "" && c.called {
			s.hide("interp.eval", s.who+" code compiles code at run time")
		}
	}
	for _, c := range s.pyCalls("__import__", "import_module") {
		if _, ok := c.literal(0); c.called && !ok {
			s.hide("interp.import.dynamic", s.who+" code imports a module whose name is computed at run time")
		}
	}
	for _, c := range s.pyCalls("getattr") {
		if len(c.args) > 0 {
			switch strings.TrimSpace(c.args[0].text) {
			case "os", "subprocess", "shutil", "builtins", "__builtins__", "pty", "socket", "requests":
				s.hide("interp.getattr", s.who+" code looks up a function of "+c.args[0].text+" by a computed name")
			}
		}
	}
	if s.mentions("ctypes") > 0 {
		s.hide("interp.native", s.who+" code calls native code through ctypes")
	}
	for _, c := range s.pyCalls("socket", "create_connection", "socketpair", "create_server") {
		if c.recv == "socket" || c.recv == "" && strings.Contains(m, "from socket import") {
			s.hide("interp.socket", s.who+" code opens a network socket")
		}
	}
	// Network.
	for _, c := range s.pyCalls("post", "put", "patch", "delete") {
		if c.called && (interpHTTPClient(c.recv) || c.recv == ")" && (c.name == "post" || c.name == "patch")) {
			s.write("interp.net.write", s.who+" code sends an HTTP "+strings.ToUpper(c.name)+" request to "+Host(s.target(c, "a server")))
		}
	}
	for _, c := range s.pyCalls("get", "head", "options", "stream") {
		if c.called && interpHTTPClient(c.recv) {
			s.read(c)
		}
	}
	for _, c := range s.pyCalls("request", "putrequest") {
		if !c.called || c.recv == "" {
			continue
		}
		if l, ok := c.literal(0); ok && isLetters(l.val) {
			s.httpMethod(l, c)
		} else if interpHTTPClient(c.recv) {
			s.hide("interp.net.dynamic", s.who+" code sends an HTTP request whose method is only known at run time")
		}
	}
	for _, c := range s.pyCalls("Request") {
		if !c.called {
			continue
		}
		if l, ok := s.pyKeyword(c, "method"); ok {
			s.httpMethod(l, c)
		} else if len(c.args) >= 2 && !strings.Contains(c.args[1].text, "headers=") || s.pyHasKeyword(c, "data") {
			s.write("interp.net.write", s.who+" code sends a request body to "+Host(s.target(c, "a server")))
		}
	}
	for _, c := range s.pyCalls("urlopen") {
		switch {
		case !c.called:
		case len(c.args) >= 2 && !strings.HasPrefix(strings.TrimSpace(c.args[1].text), "timeout") || s.pyHasKeyword(c, "data"):
			s.write("interp.net.write", s.who+" code sends a request body to "+Host(s.target(c, "a server")))
		default:
			s.read(c)
		}
	}
	for _, c := range s.pyCalls("urlretrieve", "download") {
		if c.called && (c.recv != "" || c.name == "urlretrieve") {
			s.read(c)
		}
	}
	if s.mentions("smtplib") > 0 || len(s.pyCalls("sendmail", "send_message")) > 0 {
		s.write("interp.mail", s.who+" code sends mail over SMTP")
	}
	for _, c := range s.pyCalls("storbinary", "storlines") {
		s.write("interp.ftp", s.who+" code uploads a file over FTP ("+c.name+")")
	}
	if s.mentions("paramiko") > 0 || s.mentions("fabric") > 0 {
		s.write("interp.remote", s.who+" code connects to a remote host over SSH")
	}
	// Cloud SDKs: boto3, google-cloud-storage and azure-storage upload
	// and delete objects.
	if s.mentions("boto3") > 0 || s.mentions("google.cloud") > 0 || s.mentions("azure.storage") > 0 {
		for _, c := range s.pyCalls("upload_file", "upload_fileobj", "put_object", "copy_object", "upload_from_filename", "upload_from_string", "upload_from_file", "upload_blob", "create_bucket", "put_bucket_policy", "invoke", "send_message", "publish") {
			if c.called {
				s.write("interp.cloud.write", s.who+" code writes to a cloud service ("+c.name+")")
				break
			}
		}
		for _, c := range s.pyCalls("delete_object", "delete_objects", "delete_bucket", "delete_blob", "delete_blobs") {
			if c.called {
				s.add(Finding{Kind: Write, Rule: "interp.cloud.delete", Message: s.who + " code deletes from a cloud service (" + c.name + ")", Destroys: true})
				break
			}
		}
	}
	// Deletion.
	for _, c := range s.pyCalls("rmtree") {
		if c.recv == "shutil" || c.recv == "" || c.recv == ")" {
			s.destroy(c)
		}
	}
	for _, c := range s.pyCalls("remove", "unlink", "rmdir", "removedirs", "truncate") {
		switch {
		case c.recv == "os":
		case c.recv != "" && (c.name == "unlink" || c.name == "rmdir"):
			// pathlib: Path(...).unlink()
		case c.recv == "" && fromOS:
		default:
			continue
		}
		if c.called {
			s.destroy(c)
		}
	}
}

// pyCalls finds calls as code.calls does, leaving out the names listed in
// import statements (from os import system).
func (s *interpScan) pyCalls(names ...string) []interpCall {
	var out []interpCall
	for _, c := range s.code.calls(names...) {
		if !s.inImport(c.at) {
			out = append(out, c)
		}
	}
	return out
}

// pyExec rates os.exec*/os.spawn*: a list argument is the argument vector;
// otherwise the literal arguments after the path are.
func (s *interpScan) pyExec(c interpCall) {
	if !c.called {
		s.spawnCall(c)
		return
	}
	var lits []string
	for _, a := range c.args {
		switch {
		case a.isList:
			s.spawnArgv(a.list)
			return
		case a.lit != nil && !a.lit.interp:
			lits = append(lits, a.lit.val)
		case strings.HasPrefix(a.text, "os.P_"), strings.HasPrefix(a.text, "P_"):
		case len(lits) > 0 && (strings.HasPrefix(a.text, "{") || strings.HasPrefix(a.text, "os.environ")):
		default:
			s.hide("interp.spawn.dynamic", s.who+" code runs "+c.name+"("+Clip(c.argText())+"), a command only known at run time")
			return
		}
	}
	switch {
	case c.name == "startfile" && len(lits) > 0:
		s.spawnArgv(lits[:1])
	case len(lits) >= 2:
		s.spawnArgv(lits[1:])
	default:
		s.spawnArgv(lits)
	}
}

// pyHasKeyword reports whether a call passes the keyword argument name.
func (s *interpScan) pyHasKeyword(c interpCall, name string) bool {
	for _, a := range c.args {
		if k, _, ok := strings.Cut(a.text, "="); ok && strings.TrimSpace(k) == name {
			return true
		}
	}
	return false
}

// pyKeyword returns the literal value of a keyword argument; found is true
// when the keyword is passed, even with a value that is not a literal.
func (s *interpScan) pyKeyword(c interpCall, name string) (*interpLit, bool) {
	for _, a := range c.args {
		k, _, ok := strings.Cut(a.text, "=")
		if !ok || strings.TrimSpace(k) != name {
			continue
		}
		l, found := s.keyLit(a, name)
		if found && l != nil {
			return l, true
		}
		return nil, true
	}
	return nil, false
}
