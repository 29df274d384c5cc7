package interp

import (
	"strings"
)

// ---------------------------------------------------------------- Perl

func (s *interpScan) perl() {
	code := s.code
	s.cmdLiterals()
	for _, c := range code.calls("system", "exec") {
		if c.recv != "" && c.recv != "CORE" {
			continue
		}
		if !c.called {
			s.spawnCall(c)
			continue
		}
		s.spawnWords(c, c.args)
	}
	for _, c := range code.calls("readpipe") {
		s.spawnCall(c)
	}
	for _, c := range code.calls("open") {
		if !c.called || c.recv != "" || len(c.args) < 2 {
			continue
		}
		mode := c.args[1]
		switch {
		case mode.lit != nil && (mode.lit.val == "-|" || mode.lit.val == "|-"):
			s.spawnWords(c, c.args[2:])
		case mode.lit != nil && len(c.args) == 2 && (strings.HasPrefix(strings.TrimSpace(mode.lit.val), "|") || strings.HasSuffix(strings.TrimSpace(mode.lit.val), "|")):
			s.spawnText(strings.Trim(strings.TrimSpace(mode.lit.val), "|"))
		}
	}
	for _, c := range code.calls("open2", "open3") {
		if c.called && len(c.args) > 2 {
			s.spawnWords(c, c.args[2:])
		}
	}
	for _, mod := range []string{"IPC::Run", "IPC::Cmd", "IPC::System::Simple", "Capture::Tiny", "Proc::Background"} {
		if strings.Contains(code.masked, mod) || strings.Contains(code.src, "-M"+mod) {
			s.hide("interp.spawn.unread", s.who+" code runs programs through "+mod+" in a way airlock cannot read")
		}
	}
	for _, c := range code.calls("eval") {
		if c.recv == "" && c.called {
			s.evalCode(c)
		}
	}
	// Network.
	for _, c := range code.calls("post", "put", "patch", "delete", "post_form") {
		if c.called && c.recv != "" && interpHTTPClient(c.recv) {
			s.write("interp.net.write", s.who+" code sends an HTTP "+strings.ToUpper(strings.TrimSuffix(c.name, "_form"))+" request to "+Host(s.target(c, "a server")))
		}
	}
	for _, c := range code.calls("POST", "PUT", "PATCH", "DELETE") {
		if c.recv == "" || c.recv == "HTTP::Request::Common" {
			s.write("interp.net.write", s.who+" code builds an HTTP "+c.name+" request")
		}
	}
	for _, c := range code.calls("new") {
		if c.recv == "HTTP::Request" && len(c.args) > 0 {
			m := strings.Trim(strings.TrimSpace(strings.SplitN(c.args[0].text, "=>", 2)[0]), `'"`)
			if c.args[0].lit != nil {
				m = c.args[0].lit.val
			}
			s.httpMethod(&interpLit{val: m}, c)
		}
	}
	for _, c := range code.calls("request") {
		if c.called && c.recv != "" && interpHTTPClient(c.recv) {
			if l, ok := c.literal(0); ok {
				s.httpMethod(l, c)
			}
		}
	}
	for _, c := range code.calls("get", "getstore", "getprint", "mirror", "head") {
		if c.called && (c.recv == "" && strings.Contains(code.src, "LWP::Simple") || c.recv != "" && interpHTTPClient(c.recv)) {
			s.read(c)
		}
	}
	if strings.Contains(code.masked, "IO::Socket") || len(code.calls("socket")) > 0 {
		s.hide("interp.socket", s.who+" code opens a network socket")
	}
	for _, mod := range []string{"Net::SMTP", "Mail::Sendmail", "MIME::Lite", "Email::Sender", "Email::Send", "Mail::Mailer"} {
		if strings.Contains(code.masked, mod) {
			s.write("interp.mail", s.who+" code sends mail ("+mod+")")
			break
		}
	}
	for _, mod := range []string{"Net::SSH", "Net::OpenSSH", "Net::SFTP", "Net::SCP"} {
		if strings.Contains(code.masked, mod) {
			s.write("interp.remote", s.who+" code connects to a remote host over SSH ("+mod+")")
			break
		}
	}
	// Deletion.
	for _, c := range code.calls("unlink", "rmtree", "remove_tree") {
		if c.recv == "" || c.recv == "File::Path" || c.recv == "CORE" {
			s.destroy(c)
		}
	}
}
