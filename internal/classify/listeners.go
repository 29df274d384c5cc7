package classify

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file reads what local listeners serve (FINDINGS-7 G11): a web
// server started on a directory serves every file below it to whoever
// connects, the agent's own curl included, so the directory is read
// recursively (self-protection refuses serving one that is, or holds,
// airlock's state or secrets; the default directory is the one the server
// runs in); nc -l and socat's listening addresses serve the data on
// their input or a file to the network.

// servedDir returns the directory a run serves over HTTP, when it is a
// static file server.
func servedDir(inv *shell.Invocation) (string, bool) {
	args := inv.Args
	name := inv.Name()
	value := func(i int, a string, names ...string) (string, bool) {
		for _, n := range names {
			if a == n && i+1 < len(args) {
				return args[i+1], true
			}
			if strings.HasPrefix(a, n+"=") {
				return a[len(n)+1:], true
			}
			if len(n) == 2 && strings.HasPrefix(a, n) && len(a) > 2 && !strings.HasPrefix(n, "--") {
				return a[2:], true
			}
		}
		return "", false
	}
	switch {
	case strings.HasPrefix(name, "python"):
		for i := 1; i+1 < len(args); i++ {
			if args[i] == "-m" && (args[i+1] == "http.server" || args[i+1] == "SimpleHTTPServer") {
				for j := i + 2; j < len(args); j++ {
					if v, ok := value(j, args[j], "--directory", "-d"); ok {
						return v, true
					}
				}
				return ".", true
			}
		}
	case name == "php":
		serve := false
		for i, a := range args[1:] {
			if a == "-S" || strings.HasPrefix(a, "-S") && len(a) > 2 {
				serve = true
			}
			if v, ok := value(i+1, a, "-t"); ok && serve {
				return v, true
			}
		}
		if serve {
			return ".", true
		}
	case name == "ruby":
		for i, a := range args {
			if a == "-ehttpd" || a == "httpd" && i > 0 && args[i-1] == "-e" {
				for j := i + 1; j < len(args); j++ {
					if !strings.HasPrefix(args[j], "-") && !(j > 0 && (args[j-1] == "-p" || args[j-1] == "--port" || args[j-1] == "-b" || args[j-1] == "--bind-address")) {
						return args[j], true
					}
				}
				return ".", true
			}
		}
	case name == "httpd" || name == "busybox-httpd":
		for i, a := range args[1:] {
			if v, ok := value(i+1, a, "-h"); ok {
				return v, true
			}
		}
		if hasAny(args[1:], "-p", "-f") {
			return ".", true
		}
	case name == "http-server" || name == "serve" || name == "live-server" || name == "miniserve" || name == "darkhttpd" || name == "servez" || name == "lite-server":
		for i := 1; i < len(args); i++ {
			a := args[i]
			if strings.HasPrefix(a, "-") {
				if !strings.Contains(a, "=") && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") && isNumberWord(args[i+1]) {
					i++ // -p 8000
				}
				continue
			}
			return a, true
		}
		return ".", true
	case name == "npx" || name == "pnpx" || name == "bunx":
		for i := 1; i < len(args); i++ {
			if strings.HasPrefix(args[i], "-") {
				continue
			}
			sub := *inv
			sub.Args = args[i:]
			sub.Dynamic = nil
			if len(inv.Dynamic) > i {
				sub.Dynamic = inv.Dynamic[i:]
			}
			return servedDir(&sub)
		}
	case name == "caddy":
		if len(args) > 1 && args[1] == "file-server" {
			for i, a := range args[2:] {
				if v, ok := value(i+2, a, "--root", "-r"); ok {
					return v, true
				}
			}
			return ".", true
		}
	case name == "twistd":
		for i, a := range args[1:] {
			if v, ok := value(i+1, a, "--path"); ok {
				return v, true
			}
		}
	}
	return "", false
}

// servedOperands is the directory a server serves, as a recursive read.
func servedOperands(inv *shell.Invocation) []Operand {
	dir, ok := servedDir(inv)
	if !ok {
		return nil
	}
	return []Operand{{Word: dir, Role: RoleRead, Arg: -1, Recursive: true, Dynamic: strings.ContainsAny(dir, "$`")}}
}

// listenerServes rates nc -l and socat's listening addresses that serve
// the data on their input, or a file, to whoever connects (optcmds.go's
// table).
func listenerServes(c *Classifier, inv *shell.Invocation, _ argv.Parsed) Effect {
	args := inv.Args[1:]
	_, fed, _ := c.inputText(inv)
	switch inv.Name() {
	case "nc", "ncat", "netcat", "nc.openbsd", "nc.traditional":
		listens := false
		for _, a := range args {
			if a == "--listen" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "l") {
				listens = true
			}
		}
		if listens && fed {
			return external("listen.serve", inv.Name()+" listens and sends the data on its input to whoever connects")
		}
	case "socat":
		// -u sends from the first address to the second only, -U the
		// other way: a listener that only receives serves nothing.
		listen, serve, addr := -1, -1, 0
		oneWay := ""
		for _, a := range args {
			u := strings.ToUpper(a)
			if a == "-u" || a == "-U" {
				oneWay = a
			}
			if strings.HasPrefix(u, "-") && u != "-" {
				continue
			}
			addr++
			head, _, _ := strings.Cut(u, ":")
			head, _, _ = strings.Cut(head, ",")
			switch {
			case strings.HasSuffix(head, "-LISTEN") && head != "UNIX-LISTEN" && head != "ABSTRACT-LISTEN":
				listen = addr
			case head == "FILE" || head == "OPEN" || head == "GOPEN" || head == "READ" || head == "EXEC" || head == "SYSTEM":
				serve = addr
			case (u == "-" || head == "STDIN" || head == "STDIO" || head == "FD" || head == "PIPE") && fed:
				serve = addr
			}
		}
		serves := listen > 0 && serve > 0
		switch oneWay {
		case "-u":
			serves = serves && serve < listen
		case "-U":
			serves = serves && serve > listen
		}
		if serves {
			return external("listen.serve", "socat listens and sends a file, a program's output or its input to whoever connects")
		}
	}
	return nothing
}
