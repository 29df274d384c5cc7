package policy

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/airlock-dev/airlock/internal/classify"
)

// procFS is a /proc with the processes a test gives it: 100 is airlock's
// hook service (listening on TCP port 7777 when listen is set), 200 a
// node server.
type procFS struct {
	m      fstest.MapFS
	links  map[string]string
	listen bool
}

func newProcFS(airlock, listen bool) procFS {
	p := procFS{m: fstest.MapFS{}, links: map[string]string{}, listen: listen}
	add := func(pid, exe, cmdline string) {
		p.m["proc/"+pid+"/cmdline"] = &fstest.MapFile{Data: []byte(strings.ReplaceAll(cmdline, " ", "\x00"))}
		p.m["proc/"+pid+"/fd/3"] = &fstest.MapFile{}
		p.links["/proc/"+pid+"/exe"] = exe
		p.links["/proc/"+pid+"/fd/3"] = "socket:[" + pid + "1]"
	}
	add("200", "/usr/bin/node", "node server.js")
	if airlock {
		add("100", "/usr/local/bin/airlock", "/usr/local/bin/airlock hookd")
	}
	tcp := "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n" +
		"   0: 00000000:0BB8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 2001 1\n"
	if listen {
		tcp += "   1: 0100007F:1E61 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1001 1\n"
	}
	p.m["proc/net/tcp"] = &fstest.MapFile{Data: []byte(tcp)}
	return p
}

func (p procFS) rel(name string) string                 { return strings.TrimPrefix(name, "/") }
func (p procFS) Lstat(name string) (fs.FileInfo, error) { return fs.Stat(p.m, p.rel(name)) }
func (p procFS) ReadFile(name string) ([]byte, error)   { return fs.ReadFile(p.m, p.rel(name)) }
func (p procFS) ReadDir(name string) ([]fs.DirEntry, error) {
	return fs.ReadDir(p.m, p.rel(name))
}
func (p procFS) Readlink(name string) (string, error) {
	if l, ok := p.links[name]; ok {
		return l, nil
	}
	return "", errors.New("not a link")
}

// TestSignalsToRunTimePIDs: a signal to PIDs found when the command runs
// is refused when their source may select airlock's processes, as they
// run now (FINDINGS-5 L13), and let through when it cannot.
func TestSignalsToRunTimePIDs(t *testing.T) {
	cases := []struct {
		cmd     string
		airlock bool // airlock's hook service runs
		listen  bool // it listens on port 7777
		refuse  bool
		files   map[string]string // more files, under /w
	}{
		// A PID file is read at decision time: the PIDs it holds now.
		{cmd: `kill $(cat app.pid)`, airlock: true, files: map[string]string{"app.pid": "200\n"}},
		{cmd: `kill $(cat hook.pid)`, airlock: true, refuse: true, files: map[string]string{"hook.pid": "100\n"}},
		{cmd: `read p < hook.pid; kill $p`, airlock: true, refuse: true, files: map[string]string{"hook.pid": "100\n"}},
		{cmd: `xargs kill < hook.pid`, airlock: true, refuse: true, files: map[string]string{"hook.pid": "100\n"}},
		{cmd: `echo 100 > app.pid; kill $(cat app.pid)`, airlock: true, refuse: true, files: map[string]string{"app.pid": "200\n"}},
		{cmd: `kill $(jobs -p)`, airlock: true},
		{cmd: `pkill -P $$`, airlock: true},
		{cmd: `pkill -P 100`, airlock: true, refuse: true},
		{cmd: `ps aux | grep node | awk '{print $2}' | xargs kill`, airlock: true},
		{cmd: `ps aux | grep hookd | awk '{print $2}' | xargs kill`, airlock: true, refuse: true},
		{cmd: `ps aux | awk '{print $2}' | xargs kill`, airlock: true, refuse: true},
		{cmd: `ps aux | grep node | awk '{print $2}' | xargs kill`},
		// A grep whose pattern matches none of airlock's processes bounds
		// what ps prints; one that matches them, an inverted one alone, or
		// a program that can make up a number between, does not.
		{cmd: `ps -ef | grep celery | grep -v grep | awk '{print $2}' | xargs kill`, airlock: true},
		{cmd: `kill $(ps aux | grep '[c]elery' | awk '{ print $2 }')`, airlock: true},
		{cmd: `ps -ef | grep airlock | grep -v grep | awk '{print $2}' | xargs kill`, airlock: true, refuse: true},
		{cmd: `ps -ef | grep -v grep | awk '{print $2}' | xargs kill`, airlock: true, refuse: true},
		{cmd: `ps -ef | grep celery | awk '{print "100"}' | xargs kill`, airlock: true, refuse: true},
		{cmd: `ps -ef | grep celery | sed 's/.*/100/' | xargs kill`, airlock: true, refuse: true},
		{cmd: `ps -ef | grep -e celery -e hookd | awk '{print $2}' | xargs kill`, airlock: true, refuse: true},
		{cmd: `ps -ef | grep -f pats.txt | awk '{print $2}' | xargs kill`, airlock: true, refuse: true},
		{cmd: `ps -ef | grep -i HOOKD | awk '{print $2}' | xargs kill`, airlock: true, refuse: true},
		{cmd: `ps -ef | grep -F 'celery worker' | awk '{print $2}' | xargs kill`, airlock: true},
		{cmd: `kill $(lsof -ti:3000)`, airlock: true, listen: true},
		{cmd: `lsof -ti:7777 | xargs kill`, airlock: true, listen: true, refuse: true},
		{cmd: `for p in /proc/[0-9]*; do kill ${p#/proc/}; done`, airlock: true, refuse: true},
		{cmd: `for p in /proc/[0-9]*; do kill ${p#/proc/}; done`},
		{cmd: `kill $(cat server.pid)`, airlock: true, refuse: true},
		{cmd: `kill $(pgrep node)`, airlock: true},
		{cmd: `kill $(pgrep -f 'hook.')`, airlock: true, refuse: true},
		{cmd: `pgrep hook | xargs kill`, airlock: true, refuse: true},
		{cmd: `kill $(lsof -t -i :7777)`, airlock: true, listen: true, refuse: true},
		{cmd: `kill $(lsof -t -i :3000)`, airlock: true, listen: true},
		{cmd: `fuser -k 7777/tcp; kill $(fuser 7777/tcp)`, airlock: true, listen: true, refuse: true},
		{cmd: `kill $(lsof -t -i :7777)`, airlock: true},
		{cmd: `kill $!`, airlock: true},
		{cmd: `kill "$pid"`, airlock: true},
	}
	for _, c := range cases {
		pfs := newProcFS(c.airlock, c.listen)
		for name, body := range c.files {
			pfs.m["w/"+name] = &fstest.MapFile{Data: []byte(body)}
		}
		g := guard{fs: pfs, vars: map[string]string{}}
		call := g.newCall("/w")
		r := classify.Command(c.cmd)
		call.result = &r
		var ref *refusal
		for i := range r.Invocations {
			if n := r.Invocations[i].Name(); n == "kill" || n == "pkill" {
				if ref = call.signals(&r.Invocations[i]); ref != nil {
					break
				}
			}
		}
		if (ref != nil) != c.refuse {
			t.Errorf("%q (airlock running: %v, listening: %v): refused %v (%v), want %v", c.cmd, c.airlock, c.listen, ref != nil, ref, c.refuse)
		}
	}
}
