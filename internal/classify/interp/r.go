package interp

import (
	"strings"
)

// ---------------------------------------------------------------- R

func (s *interpScan) rlang() {
	code := s.code
	for _, c := range code.calls("system", "shell", "pipe") {
		if c.recv == "" || c.recv == "base" {
			s.spawnCall(c)
		}
	}
	for _, c := range code.calls("system2") {
		if !c.called || len(c.args) == 0 {
			s.spawnCall(c)
			continue
		}
		prog, ok := c.literal(0)
		if !ok || prog.interp {
			s.spawnCall(c)
			continue
		}
		// system2 pastes its arguments after the command and runs the
		// line with the shell.
		text := prog.val
		for _, a := range c.args[1:] {
			v := a
			if k, _, ok := strings.Cut(a.text, "="); ok && isLetters(strings.TrimSpace(k)) {
				if strings.TrimSpace(k) != "args" {
					continue
				}
				p := a.start + strings.Index(a.text, "=") + 1
				for p < a.end && s.code.masked[p] == ' ' {
					p++
				}
				v = s.code.argAt(p, a.end)
			}
			switch {
			case v.lit != nil:
				text += " " + v.lit.val
			case v.isList:
				text += " " + strings.Join(v.list, " ")
			default:
				text += " " + interpPlaceholder
			}
		}
		s.spawnText(text)
	}
	for _, c := range code.calls("run") {
		if c.recv == "processx" && c.called {
			s.spawnWords(c, c.args)
		}
	}
	for _, c := range code.calls("unlink", "file_delete", "dir_delete") {
		if c.called && (c.recv == "" || c.recv == "base" || c.recv == "fs") {
			s.destroy(c)
		}
	}
	for _, c := range code.calls("remove") {
		if c.recv == "file" && c.called {
			s.destroy(c)
		}
	}
	for _, c := range code.calls("POST", "PUT", "PATCH", "DELETE", "req_body_json", "req_body_raw", "req_body_form", "req_body_file", "req_body_multipart", "curl_upload") {
		if c.called {
			s.write("interp.net.write", s.who+" code sends an HTTP request with a body or write method ("+c.name+")")
		}
	}
	for _, c := range code.calls("VERB", "req_method") {
		if l, ok := c.literal(0); ok {
			s.httpMethod(l, c)
		} else if c.name == "req_method" && len(c.args) > 1 {
			if l, ok := c.literal(1); ok {
				s.httpMethod(l, c)
			}
		}
	}
	for _, c := range code.calls("GET", "req_perform", "curl_fetch_memory", "curl_download", "readLines", "read.csv", "fromJSON", "url") {
		if c.called && (c.name != "readLines" && c.name != "url" || s.litURL(c)) {
			s.read(c)
		}
	}
	for _, c := range code.calls("file") {
		if c.recv == "download" && c.called {
			s.read(c)
		}
	}
	for _, c := range code.calls("packages", "install_github", "install_cran", "install_url", "install_git", "pkg_install", "install") {
		if c.called && (c.recv == "install" || c.recv == "remotes" || c.recv == "devtools" || c.recv == "pak" || c.recv == "BiocManager") {
			s.add(Finding{Kind: Install, Rule: "interp.install", Message: s.who + " code installs packages from the network"})
		}
	}
	for _, c := range code.calls("source") {
		if s.litURL(c) {
			s.hide("interp.remote-code", s.who+" code runs R code fetched from "+s.target(c, "the network"))
		}
	}
	for _, c := range code.calls("socketConnection", "make.socket", "socketAccept") {
		if c.called {
			s.hide("interp.socket", s.who+" code opens a network socket")
		}
	}
	for _, c := range code.calls("parse") {
		if c.called && strings.Contains(c.argText(), "text") {
			s.hide("interp.eval", s.who+" code parses code from text at run time")
		}
	}
	for _, mod := range []string{"sendmailR", "blastula", "mailR", "gmailr", "emayili"} {
		if strings.Contains(code.masked, mod) || strings.Contains(code.src, "'"+mod+"'") {
			s.write("interp.mail", s.who+" code sends mail ("+mod+")")
			break
		}
	}
}

// litURL reports whether a call's first argument is a literal URL.
func (s *interpScan) litURL(c interpCall) bool {
	l, ok := c.literal(0)
	return ok && strings.Contains(l.val, "://")
}
