package interp

import (
	"strings"
)

// ---------------------------------------------------------------- PHP

func (s *interpScan) php() {
	code := s.code
	s.cmdLiterals()
	for _, c := range code.calls("exec", "shell_exec", "system", "passthru", "popen", "proc_open") {
		if c.recv == "" {
			s.spawnCall(c)
		}
	}
	for _, c := range code.calls("pcntl_exec") {
		if c.called && len(c.args) > 0 {
			s.spawnWords(c, c.args)
		} else {
			s.spawnCall(c)
		}
	}
	for _, c := range code.calls("eval") {
		if c.recv == "" {
			s.evalCode(c)
		}
	}
	for _, c := range code.calls("create_function", "call_user_func", "call_user_func_array", "assert") {
		if !c.called || c.recv != "" {
			continue
		}
		if l, ok := c.literal(0); ok && c.name != "create_function" && c.name != "assert" {
			switch l.val {
			case "exec", "shell_exec", "system", "passthru", "popen", "proc_open", "eval", "unlink", "rmdir":
			default:
				continue
			}
		} else if c.name == "assert" {
			continue
		}
		s.hide("interp.eval", s.who+" code calls a function indirectly ("+c.name+"), so what it runs cannot be known")
	}
	for k := 0; k+1 < len(code.masked); k++ {
		if code.masked[k] == '$' && (k == 0 || !isIdentByte(code.masked[k-1])) {
			j := k + 1
			for j < len(code.masked) && isIdentByte(code.masked[j]) {
				j++
			}
			if j > k+1 && j < len(code.masked) && code.masked[j] == '(' {
				s.hide("interp.eval", s.who+" code calls a function whose name is held in "+code.src[k:j])
				break
			}
		}
	}
	// Network.
	for _, c := range code.calls("curl_setopt", "curl_setopt_array") {
		t := c.argText()
		for _, o := range []string{"CURLOPT_POST", "CURLOPT_POSTFIELDS", "CURLOPT_CUSTOMREQUEST", "CURLOPT_UPLOAD", "CURLOPT_PUT"} {
			if strings.Contains(t, o) {
				s.write("interp.net.write", s.who+" code sends data with curl ("+o+")")
				break
			}
		}
	}
	for _, c := range code.calls("curl_exec", "curl_multi_exec") {
		s.read(c)
	}
	for _, c := range code.calls("file_get_contents", "fopen", "readfile", "file", "copy", "get_headers", "simplexml_load_file") {
		if l, ok := c.literal(0); ok && c.recv == "" && strings.Contains(l.val, "://") {
			s.read(c)
		} else if !ok && c.recv == "" && len(c.args) > 0 && strings.Contains(c.args[0].text, "://") {
			s.read(c) // a URL built at run time
		}
	}
	for _, c := range code.calls("stream_context_create") {
		for _, l := range code.lits {
			if l.start > c.at && l.start < c.end && l.val != "" && !ReadMethod(l.val) && isLetters(l.val) && strings.ToUpper(l.val) == l.val {
				s.write("interp.net.write", s.who+" code sends an HTTP "+l.val+" request")
				break
			}
		}
	}
	for _, c := range code.calls("post", "put", "patch", "delete") {
		if c.called && c.recv != "" && interpHTTPClient(c.recv) {
			s.write("interp.net.write", s.who+" code sends an HTTP "+strings.ToUpper(c.name)+" request to "+Host(s.target(c, "a server")))
		}
	}
	for _, c := range code.calls("request") {
		if l, ok := c.literal(0); ok && c.recv != "" && isLetters(l.val) {
			s.httpMethod(l, c)
		}
	}
	for _, c := range code.calls("mail", "mb_send_mail") {
		if c.recv == "" && c.called {
			s.write("interp.mail", s.who+" code sends mail")
		}
	}
	for _, c := range code.calls("fsockopen", "pfsockopen", "stream_socket_client", "socket_connect", "socket_create") {
		if c.recv == "" {
			s.hide("interp.socket", s.who+" code opens a network socket ("+c.name+")")
		}
	}
	// Deletion.
	for _, c := range code.calls("unlink", "rmdir") {
		if c.recv == "" && c.called {
			s.destroy(c)
		}
	}
	for _, l := range code.lits {
		if l.val == "unlink" || l.val == "rmdir" {
			s.add(Finding{Kind: Delete, Rule: "interp.delete", Message: s.who + " code deletes files (passes " + l.val + " as a callback)"})
			break
		}
	}
	for _, c := range code.calls("remove") {
		if c.called && (strings.Contains(strings.ToLower(c.recv), "filesystem") || c.recv == "$fs") {
			s.destroy(c)
		}
	}
}
