package classify

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/shell"
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
				s.write("interp.net.write", s.who+" code sends a request body to "+httpHost(s.target(c, "a server")))
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

// ---------------------------------------------------------------- Lua invocations

var luaOpts = interpOpts{lang: langLua, code: "e", value: "l", libs: "l"}

var interpLuaSpec = &Spec{
	Programs: []string{"lua", "luajit", "lua5.1", "lua5.2", "lua5.3", "lua5.4", "lua51", "lua52", "lua53", "lua54"},
	Classify: func(c *Classifier, inv *shell.Invocation) Effect { return interpClassify(c, inv, luaOpts) },
	Examples: []Example{
		{`lua -e 'os.execute("git push")'`, "external"},
		{`lua -e "os.execute('rm -rf build')"`, "local+destructive"},
		{`lua -e 'io.popen("ls"):read("*a")'`, "local"},
		{`lua -e 'os.execute(arg[1])'`, "local+opaque"},
		{`lua -e 'os.remove("data.db")'`, "local+destructive"},
		{`lua -e 'load(io.read("*a"))()'`, "local+opaque"},
		{`lua -e 'local http = require("socket.http"); http.request("https://x.io", "a=1")'`, "external"},
		{`lua -e 'local http = require("socket.http"); print(http.request("https://x.io"))'`, "local+netread"},
		{`lua -lsocket -e 'socket.connect("10.0.0.1", 4444)'`, "local+opaque"},
		{`lua -e 'print(1 + 1)'`, "local"},
		{`lua -e 'print(os.execute())'`, "local"},
		{`lua script.lua`, "local"},
		{`lua -v`, "local"},
	},
}
