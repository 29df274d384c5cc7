package interp

import (
	"strings"
)

// ---------------------------------------------------------------- JavaScript

// jsFSRecv reports whether a receiver is Node's fs module (or fs-extra, or
// Deno) under a usual name.
func jsFSRecv(recv string) bool {
	switch recv {
	case "fs", "fsp", "fse", "fsExtra", "fs.promises", "promises", "fsPromises", ")", "Deno", "fs/promises", "fs-extra":
		return true
	}
	return false
}

func (s *interpScan) javascript() {
	code := s.code
	src := code.src
	cp := strings.Contains(src, "child_process")
	if cp {
		for _, c := range code.calls("exec", "execSync") {
			if !c.called && s.jsDeclaration(c.at) {
				continue
			}
			if c.recv == "" || c.recv == ")" || strings.Contains(strings.ToLower(c.recv), "cp") || strings.Contains(c.recv, "child") || strings.Contains(c.recv, "proc") {
				s.spawnCall(c)
			}
		}
		for _, c := range code.calls("spawn", "spawnSync", "execFile", "execFileSync") {
			if !c.called && s.jsDeclaration(c.at) {
				continue
			}
			if !c.called || len(c.args) == 0 {
				s.spawnCall(c)
				continue
			}
			s.spawnWords(c, c.args)
		}
		if s.spawns == 0 && !s.hid {
			s.hide("interp.spawn.unread", s.who+" code loads child_process in a way airlock cannot read")
		}
	}
	// Deno and Bun subprocess APIs.
	for _, c := range code.calls("Command") {
		if c.recv != "Deno" {
			continue
		}
		prog, ok := c.literal(0)
		if !ok || prog.interp {
			s.spawnCall(c)
			continue
		}
		words := []string{prog.val}
		if len(c.args) > 1 {
			list, ok := s.keyList(c.args[1], "args")
			if !ok {
				if _, has := s.keyValue(c.args[1], "args"); has {
					s.hide("interp.spawn.dynamic", s.who+" code runs "+prog.val+" with arguments only known at run time")
					continue
				}
			}
			words = append(words, list...)
		}
		s.spawnArgv(words)
	}
	for _, c := range code.calls("run", "spawn", "spawnSync") {
		if c.recv != "Deno" && c.recv != "Bun" {
			continue
		}
		switch {
		case len(c.args) > 0 && c.args[0].isList:
			s.spawnArgv(c.args[0].list)
		case len(c.args) > 0:
			if list, ok := s.keyList(c.args[0], "cmd"); ok {
				s.spawnArgv(list)
			} else {
				s.spawnCall(c)
			}
		default:
			s.spawnCall(c)
		}
	}
	if strings.Contains(code.masked, "Bun.$") || strings.Contains(src, "from \"zx\"") || strings.Contains(src, "from 'zx'") || strings.Contains(src, "require('zx')") {
		for _, l := range code.lits {
			if l.start > 0 && src[l.start-1] == '$' && src[l.start] == '`' {
				s.spawnText(l.val)
			}
		}
	}
	// JavaScript for Automation (osascript -l JavaScript).
	for _, c := range code.calls("doShellScript") {
		s.spawnCall(c)
	}
	// Code built at run time.
	for _, c := range code.calls("eval") {
		if c.recv == "" || c.recv == "window" || c.recv == "globalThis" {
			s.evalCode(c)
		}
	}
	for _, c := range code.calls("Function") {
		if c.called && (c.recv == "" || c.recv == "globalThis") {
			s.hide("interp.eval", s.who+" code builds a function from text at run time")
		}
	}
	for _, c := range code.calls("runInThisContext", "runInNewContext", "runInContext", "compileFunction", "Script") {
		if c.recv == "vm" {
			s.hide("interp.eval", s.who+" code runs code through vm at run time")
		}
	}
	for _, c := range code.calls("require", "import") {
		if _, ok := c.literal(0); c.called && c.recv == "" && !ok {
			s.hide("interp.import.dynamic", s.who+" code loads a module whose name is computed at run time")
		}
	}
	for _, c := range code.calls("binding", "dlopen") {
		if c.recv == "process" {
			s.hide("interp.native", s.who+" code reaches native bindings ("+c.name+")")
		}
	}
	// Network.
	for _, c := range code.calls("fetch") {
		if !c.called || !(c.recv == "" || c.recv == "window" || c.recv == "globalThis" || c.recv == "self") {
			continue
		}
		s.jsRequestOptions(c, 1, "fetch")
	}
	for _, c := range code.calls("axios", "got", "ky", "request", "needle", "superagent") {
		if c.called && c.recv == "" && len(c.args) > 0 {
			opt := 0
			if c.args[0].lit != nil {
				opt = 1
			}
			s.jsRequestOptions(c, opt, c.name)
		}
	}
	for _, c := range code.calls("post", "put", "patch", "delete") {
		if c.called && (interpHTTPClient(c.recv) || c.recv == ")" && (c.name == "post" || c.name == "patch")) {
			s.write("interp.net.write", s.who+" code sends an HTTP "+strings.ToUpper(c.name)+" request to "+Host(s.target(c, "a server")))
		}
	}
	for _, c := range code.calls("get", "head") {
		if c.called && (interpHTTPClient(c.recv) || c.recv == "https") {
			s.read(c)
		}
	}
	for _, c := range code.calls("request") {
		if c.called && (c.recv == "http" || c.recv == "https" || c.recv == "axios" || c.recv == "got") && len(c.args) > 0 {
			opt := 0
			if c.args[0].lit != nil {
				opt = 1
			}
			s.jsRequestOptions(c, opt, c.recv+".request")
		}
	}
	for _, c := range code.calls("connect", "createConnection", "Socket", "createSocket") {
		if c.recv == "net" || c.recv == "tls" || c.recv == "dgram" || c.recv == "Deno" {
			s.hide("interp.socket", s.who+" code opens a network socket ("+c.recv+"."+c.name+")")
		}
	}
	for _, c := range code.calls("WebSocket", "connectTls", "listenDatagram") {
		if c.called || c.recv == "Deno" {
			s.hide("interp.socket", s.who+" code opens a network socket ("+c.name+")")
		}
	}
	for _, c := range code.calls("sendBeacon") {
		s.write("interp.net.write", s.who+" code sends data with "+c.name)
	}
	if strings.Contains(src, "nodemailer") || len(code.calls("sendMail")) > 0 {
		s.write("interp.mail", s.who+" code sends mail")
	}
	if strings.Contains(code.masked, "XMLHttpRequest") {
		for _, c := range code.calls("open") {
			if l, ok := c.literal(0); ok && c.recv != "" {
				s.httpMethod(l, c)
			}
		}
	}
	// Deletion.
	fsMentioned := strings.Contains(src, "'fs'") || strings.Contains(src, "\"fs\"") || strings.Contains(src, "node:fs") || strings.Contains(src, "fs/promises") || strings.Contains(src, "fs-extra")
	for _, c := range code.calls("rmSync", "unlinkSync", "truncateSync", "removeSync", "emptyDirSync") {
		if c.called && (c.recv == "" || jsFSRecv(c.recv)) {
			s.destroy(c)
		}
	}
	for _, c := range code.calls("rm", "unlink", "truncate", "remove", "emptyDir") {
		if c.called && (jsFSRecv(c.recv) || c.recv == "" && fsMentioned) {
			s.destroy(c)
		}
	}
	for _, c := range code.calls("rmdir", "rmdirSync") {
		if c.called && (jsFSRecv(c.recv) || c.recv == "" && fsMentioned) && strings.Contains(c.argText(), "recursive") {
			s.destroy(c)
		}
	}
	for _, c := range code.calls("rimraf", "rimrafSync", "deleteSync") {
		if c.called {
			s.destroy(c)
		}
	}
	for _, c := range code.calls("sync") {
		if c.recv == "rimraf" && c.called {
			s.destroy(c)
		}
	}
}

// jsDeclaration reports whether offset at lies in a declaration or import
// (const { execSync } = require('child_process')), where a name is bound
// rather than used.
func (s *interpScan) jsDeclaration(at int) bool {
	m := s.code.masked
	start := strings.LastIndexAny(m[:at], "\n;") + 1
	stmt := strings.TrimLeft(m[start:at], " \t")
	for _, kw := range []string{"const ", "let ", "var ", "import "} {
		if strings.HasPrefix(stmt, kw) && !strings.Contains(stmt, "=") {
			return true
		}
	}
	return false
}

// jsRequestOptions rates a fetch-style request whose options object is the
// argument at index opt: a write method or a body sends data; options that
// are not an object literal cannot be read.
func (s *interpScan) jsRequestOptions(c interpCall, opt int, what string) {
	if opt >= len(c.args) {
		s.read(c)
		return
	}
	a := c.args[opt]
	if !strings.HasPrefix(strings.TrimSpace(a.text), "{") {
		s.hide("interp.net.dynamic", s.who+" code calls "+what+" with options only known at run time")
		return
	}
	if _, ok := s.keyValue(a, "body"); ok {
		s.write("interp.net.write", s.who+" code sends a request body with "+what+" to "+Host(s.target(c, "a server")))
		return
	}
	if _, ok := s.keyValue(a, "data"); ok && what != "fetch" {
		s.write("interp.net.write", s.who+" code sends a request body with "+what+" to "+Host(s.target(c, "a server")))
		return
	}
	if _, ok := s.keyValue(a, "json"); ok && what != "fetch" {
		s.write("interp.net.write", s.who+" code sends a request body with "+what+" to "+Host(s.target(c, "a server")))
		return
	}
	if l, ok := s.keyLit(a, "method"); ok {
		s.httpMethod(l, c)
		return
	}
	s.read(c)
}
