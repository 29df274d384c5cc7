package interp

import (
	"strings"
)

// ---------------------------------------------------------------- Ruby

// cmdLiterals runs the text of every command literal (backticks, %x, qx).
func (s *interpScan) cmdLiterals() {
	for _, l := range s.code.lits {
		if l.cmd {
			s.spawnText(l.val)
		}
	}
}

func (s *interpScan) ruby() {
	code := s.code
	s.cmdLiterals()
	for _, c := range code.calls("system", "exec", "spawn") {
		if c.recv != "" && c.recv != "Kernel" && c.recv != "Process" {
			continue
		}
		if !c.called {
			s.spawnCall(c)
			continue
		}
		s.spawnWords(c, c.args)
	}
	for _, c := range code.calls("popen") {
		if c.recv == "IO" {
			s.spawnWords(c, c.args)
		}
	}
	for _, c := range code.calls("capture2", "capture2e", "capture3", "popen2", "popen2e", "popen3", "pipeline", "pipeline_r", "pipeline_w", "pipeline_rw", "pipeline_start", "spawn") {
		if c.recv == "Open3" || c.recv == "PTY" {
			s.spawnWords(c, c.args)
		}
	}
	for _, c := range code.calls("eval", "instance_eval", "class_eval", "module_eval", "instance_exec") {
		if c.called && len(c.args) > 0 {
			s.evalCode(c)
		}
	}
	for _, c := range code.calls("send", "public_send", "__send__", "method") {
		if !c.called || len(c.args) == 0 {
			continue
		}
		first := strings.TrimSpace(c.args[0].text)
		name := strings.TrimPrefix(first, ":")
		if l := c.args[0].lit; l != nil {
			name = l.val
		} else if !strings.HasPrefix(first, ":") {
			s.hide("interp.send", s.who+" code calls a method whose name is computed at run time ("+Clip(first)+")")
			continue
		}
		switch name {
		case "system", "exec", "spawn", "`", "eval", "popen", "instance_eval", "class_eval", "send", "public_send":
			s.hide("interp.send", s.who+" code calls "+name+" indirectly, so what it runs cannot be known")
		}
	}
	// Network.
	for _, c := range code.calls("post", "put", "patch", "delete", "post_form") {
		if c.called && (interpHTTPClient(c.recv) || strings.HasPrefix(c.recv, "Net::HTTP") || c.recv == "HTTP" || c.recv == ")" && c.name != "delete") {
			s.write("interp.net.write", s.who+" code sends an HTTP "+strings.ToUpper(strings.TrimSuffix(c.name, "_form"))+" request to "+Host(s.target(c, "a server")))
		}
	}
	for _, c := range code.calls("Post", "Put", "Patch", "Delete") {
		if c.recv == "Net::HTTP" {
			s.write("interp.net.write", s.who+" code sends an HTTP "+strings.ToUpper(c.name)+" request")
		}
	}
	for _, c := range code.calls("get", "get_response", "get_print", "open", "head") {
		if c.called && (interpHTTPClient(c.recv) || c.recv == "Net::HTTP" || c.recv == "URI" || c.recv == "HTTP") {
			s.read(c)
		}
	}
	if strings.Contains(code.src, "open-uri") {
		for _, c := range code.calls("open") {
			if l, ok := c.literal(0); ok && c.recv == "" && strings.Contains(l.val, "://") {
				s.read(c)
			}
		}
	}
	for _, sock := range []string{"TCPSocket", "UDPSocket", "Socket", "SSLSocket"} {
		if s.mentions(sock) > 0 {
			s.hide("interp.socket", s.who+" code opens a network socket ("+sock+")")
			break
		}
	}
	if strings.Contains(code.masked, "Net::SMTP") || strings.Contains(code.src, "mail") && len(code.calls("deliver", "deliver!")) > 0 {
		s.write("interp.mail", s.who+" code sends mail")
	}
	if strings.Contains(code.masked, "Net::SSH") || strings.Contains(code.masked, "Net::SCP") || strings.Contains(code.masked, "Net::SFTP") {
		s.write("interp.remote", s.who+" code connects to a remote host over SSH")
	}
	for _, c := range code.calls("putbinaryfile", "puttextfile") {
		s.write("interp.ftp", s.who+" code uploads a file over FTP ("+c.name+")")
	}
	// Deletion.
	for _, c := range code.calls("rm_rf", "rm_r", "rm_f", "rm", "remove_dir", "remove_entry", "remove_entry_secure", "rmtree", "remove", "remove_file", "safe_unlink") {
		if c.recv == "FileUtils" || c.recv == "FU" || c.name == "rmtree" && c.recv != "" || c.recv == "" && strings.HasPrefix(c.name, "rm_") && strings.Contains(code.masked, "include FileUtils") {
			s.destroy(c)
		}
	}
	for _, c := range code.calls("delete", "unlink") {
		if c.recv == "File" || c.recv == "Dir" && c.name == "unlink" {
			s.destroy(c)
		}
	}
}
