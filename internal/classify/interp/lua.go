package interp

import (
	"strings"
)

// ---------------------------------------------------------------- Lua

func (s *interpScan) lua() {
	code := s.code
	for _, c := range code.calls("execute", "popen") {
		if (c.recv == "os" && c.name == "execute" || c.recv == "io" && c.name == "popen") && !(c.called && len(c.args) == 0) {
			s.spawnCall(c)
		}
	}
	for _, c := range code.calls("remove") {
		if c.recv == "os" && c.called {
			s.destroy(c)
		}
	}
	for _, c := range code.calls("load", "loadstring") {
		if c.recv == "" {
			s.evalCode(c)
		}
	}
	src := code.src
	if strings.Contains(src, "socket.http") || strings.Contains(src, "ssl.https") {
		for _, c := range code.calls("request") {
			if !c.called {
				continue
			}
			if len(c.args) >= 2 {
				s.write("interp.net.write", s.who+" code sends a request body to "+Host(s.target(c, "a server")))
				continue
			}
			if len(c.args) == 1 && strings.HasPrefix(c.args[0].text, "{") {
				if l, ok := s.keyLit(c.args[0], "method"); ok {
					s.httpMethod(l, c)
					continue
				}
				if _, ok := s.keyValue(c.args[0], "source"); ok {
					s.write("interp.net.write", s.who+" code sends a request body")
					continue
				}
			}
			s.read(c)
		}
	} else if strings.Contains(src, "socket") {
		s.hide("interp.socket", s.who+" code uses luasocket to open a network socket")
	}
}
