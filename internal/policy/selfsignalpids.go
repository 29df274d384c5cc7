package policy

import (
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
)

// This file is the phase of self-protection for signals whose PIDs are
// found when the command runs (FINDINGS-5 L13): pgrep -f hookd | xargs
// kill, kill $(pidof airlock), ps aux | grep airlock | awk '{print $2}' |
// xargs kill, a loop over /proc. Where the PIDs come from decides:
//   - the shell's own children ($!, $$, %1) are never airlock's;
//   - pgrep and pidof select by a pattern or a name, which is read against
//     the command lines airlock's processes run with, and against the
//     processes of airlock's running now (/proc);
//   - lsof -t -i :PORT and fuser PORT/tcp select a port's owner: airlock's
//     only when one of its running processes listens on that port;
//   - any other source (ps, a /proc loop, a PID file, a filter airlock
//     does not read) may print any PID: the signal is refused while one
//     of airlock's processes runs, and when the command's filters name
//     airlock (grep airlock);
//   - a PID word with no source in the command (kill "$pid") stays best
//     effort, as a literal PID does (see the file comment of selfsignal.go).

// ownPIDWord reports whether a run-time PID word is the shell's own: its
// last background child, itself, or a job.
func ownPIDWord(w string) bool {
	w = strings.Trim(w, `"'`)
	switch w {
	case "$!", "${!}", "$$", "${$}", "$BASHPID", "${BASHPID}":
		return true
	}
	return false
}

// pidSource says how a run of the command prints PIDs: by a pattern
// (pgrep, pidof), a port's owner (lsof, fuser), any PID (ps, /proc), or
// not at all ("").
func pidSource(inv *classify.Invocation) (kind string) {
	switch inv.Name() {
	case "pgrep", "pidof", "pidwait":
		return "pattern"
	case "lsof", "fuser":
		return "port"
	case "jobs":
		return "" // this shell's own jobs
	case "ps", "pstree", "top", "htop", "pgrep.sh", "ss", "netstat", "pstack":
		return "any"
	}
	if len(pidFiles(inv)) > 0 {
		return "file"
	}
	for _, a := range inv.Args[1:] {
		if strings.Contains(a, "/proc/") || strings.HasSuffix(a, ".pid") {
			return "any"
		}
	}
	return ""
}

// dynamicPID decides a signal to a PID word known only at run time.
func (c *call) dynamicPID(inv *classify.Invocation, w string) *refusal {
	if ownPIDWord(w) {
		return nil
	}
	name := inv.Name()
	held := func(what string) *refusal {
		return &refusal{RuleAirlockCommand, name + " signals " + clipText(w) + ", PIDs found when the command runs, " + what + ": it could stop airlock's own processes (its hook service, dashboard or notifier), which keep the human in the loop. Name the process you mean by a pattern that leaves airlock's alone (pkill -f 'node server.js'), or ask the human."}
	}
	var runs []*classify.Invocation
	// kill -- -$(pgrep …) signals the process group of what it prints.
	if argv, ok := classify.SubstProducer(strings.TrimPrefix(w, "-")); ok {
		runs = append(runs, &classify.Invocation{})
		runs[0].Args = argv
	} else if c.result != nil {
		for i := range c.result.Invocations {
			if r := &c.result.Invocations[i]; r.Name() != name || r.Source != inv.Source {
				runs = append(runs, r)
			}
		}
	}
	if inv.Feed != nil && inv.Feed.File != "" {
		// xargs kill < FILE, xargs -a FILE kill: the PIDs the file holds.
		pids, ok := c.readPIDFile(inv.Feed.File)
		for _, pid := range pids {
			if c.g.pidIsAirlock(pid) {
				return held("read from " + clipText(inv.Feed.File) + ", which holds " + pid + ", airlock's")
			}
		}
		if !ok {
			return held("read from " + clipText(inv.Feed.File) + ", which cannot be read now or is airlock's own")
		}
		return nil
	}
	if strings.Contains(w, "/proc/") {
		if c.g.airlockRunning() {
			return held("from a walk of /proc while airlock's processes run")
		}
		return nil
	}
	anySource := false
	for _, r := range runs {
		kind := pidSource(r)
		if kind == "" {
			if filter := grepPattern(r); filter != "" && c.g.patternHitsAirlock(filter) {
				return held("filtered by " + clipText(r.Source) + ", which matches airlock's processes")
			}
			continue
		}
		switch kind {
		case "file":
			for _, f := range pidFiles(r) {
				pids, ok := c.readPIDFile(f)
				if !ok {
					if c.ownFile(f) {
						return held("read from " + clipText(f) + ", one of airlock's own files")
					}
					anySource = true
					continue
				}
				for _, pid := range pids {
					if c.g.pidIsAirlock(pid) {
						return held("read from " + clipText(f) + ", which holds " + pid + ", airlock's")
					}
				}
			}
		case "pattern":
			if pat, ok := c.g.selectsAirlock(r); ok {
				return held("selected by " + pat + ", which matches airlock's processes")
			}
		case "port":
			if port, bounded := portOwnerQuery(r); !bounded {
				anySource = true
			} else if c.g.airlockListensOn(port) {
				return held("the owner of port " + strconv.Itoa(port) + ", which is airlock's")
			}
		default:
			anySource = true
		}
	}
	if anySource && c.g.airlockRunning() && !c.filteredAway(runs) {
		return held("from a source that may print any PID while airlock's processes run")
	}
	return nil
}

// filteredAway reports whether the PIDs a source prints are selected by a
// grep whose pattern matches none of airlock's processes (ps -ef | grep
// celery | grep -v grep | awk '{print $2}' | xargs kill), with nothing
// else between that could make up a number: only grep, a field chosen by
// awk or cut, and sort, uniq, head, tail.
func (c *call) filteredAway(runs []*classify.Invocation) bool {
	selected := false
	for _, r := range runs {
		if pidSource(r) != "" {
			continue
		}
		switch r.Name() {
		case "grep", "egrep", "fgrep":
			if slices.Contains(r.Args[1:], "-v") || slices.ContainsFunc(r.Args[1:], func(a string) bool {
				return strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "v")
			}) {
				continue // an inverted grep selects nothing
			}
			pats, ok := grepPatterns(r)
			if !ok {
				return false
			}
			for _, pat := range pats {
				if c.g.patternHitsAirlock(pat) || c.g.liveLineMatches(pat) {
					return false
				}
			}
			selected = true
		case "awk", "gawk", "mawk", "nawk":
			if len(r.Args) != 2 || !awkPrintsField(r.Args[1]) {
				return false
			}
		case "cut", "sort", "uniq", "head", "tail", "xargs":
		default:
			return false
		}
	}
	return selected
}

// grepPatterns returns every pattern a grep run selects lines by (each
// -e, or its first operand), as regular expressions; false when one is
// known only at run time or read from a file (-f).
func grepPatterns(r *classify.Invocation) ([]string, bool) {
	fixed := r.Name() == "fgrep"
	var pats []string
	operand := ""
	for i := 1; i < len(r.Args); i++ {
		a := r.Args[i]
		if r.IsDynamic(i) {
			return nil, false
		}
		switch {
		case a == "-e" || a == "--regexp":
			if i+1 >= len(r.Args) || r.IsDynamic(i+1) {
				return nil, false
			}
			pats = append(pats, r.Args[i+1])
			i++
		case strings.HasPrefix(a, "--regexp="):
			pats = append(pats, strings.TrimPrefix(a, "--regexp="))
		case a == "-f" || strings.HasPrefix(a, "--file"):
			return nil, false
		case a == "-F" || a == "--fixed-strings":
			fixed = true
		case strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--"):
			if strings.ContainsAny(a[1:], "ef") {
				return nil, false // -ie PAT, -fFILE: not read here
			}
			if strings.Contains(a, "F") {
				fixed = true
			}
		case strings.HasPrefix(a, "-"):
		case operand == "":
			operand = a
		}
	}
	if len(pats) == 0 {
		if operand == "" {
			return nil, false
		}
		pats = []string{operand}
	}
	if fixed {
		for i, p := range pats {
			pats[i] = regexp.QuoteMeta(p)
		}
	}
	return pats, true
}

// liveLineMatches reports whether a grep pattern matches the command line
// of one of airlock's processes running now (airlock mcp run -- node
// server.js is airlock's, and grep node selects it); a pattern that does
// not compile matches.
func (g *guard) liveLineMatches(pat string) bool {
	re, err := regexp.Compile("(?i)" + pat)
	if err != nil {
		return true
	}
	for _, l := range g.liveAirlock() {
		if re.MatchString(l) {
			return true
		}
	}
	return false
}

// awkPrintsField reports an awk program that prints one field of each
// line: {print $2}, { print $1 }.
func awkPrintsField(prog string) bool {
	p := strings.Join(strings.Fields(prog), "")
	if !strings.HasPrefix(p, "{print$") || !strings.HasSuffix(p, "}") {
		return false
	}
	n := strings.TrimSuffix(strings.TrimPrefix(p, "{print$"), "}")
	return n != "" && strings.Trim(n, "0123456789") == ""
}

// grepPattern returns the pattern of a grep filter in the command, or "".
func grepPattern(r *classify.Invocation) string {
	switch r.Name() {
	case "grep", "egrep", "fgrep", "rg":
	default:
		return ""
	}
	for i := 1; i < len(r.Args); i++ {
		a := r.Args[i]
		if a == "-e" && i+1 < len(r.Args) {
			return r.Args[i+1]
		}
		if !strings.HasPrefix(a, "-") {
			if r.Name() == "fgrep" {
				return regexp.QuoteMeta(a)
			}
			return a
		}
	}
	return ""
}

// selectsAirlock reports whether a pgrep or pidof run selects one of
// airlock's processes, as they are named or as they run now.
func (g *guard) selectsAirlock(r *classify.Invocation) (string, bool) {
	full := false
	var pats []string
	for i := 1; i < len(r.Args); i++ {
		a := r.Args[i]
		if r.IsDynamic(i) {
			return clipText(a) + " (known only when it runs)", true
		}
		switch {
		case a == "-f" || a == "--full":
			full = true
		case strings.HasPrefix(a, "-") && signalValueFlags(a):
			i++
		case strings.HasPrefix(a, "-"):
			if len(a) > 1 && a[1] != '-' && strings.Contains(a, "f") {
				full = true
			}
		default:
			pats = append(pats, a)
		}
	}
	if len(pats) == 0 {
		return r.Name() + " with no pattern", true
	}
	for _, p := range pats {
		if r.Name() != "pgrep" && r.Name() != "pidwait" {
			if g.airlockProgram(filepath.Base(p)) {
				return p, true
			}
			continue
		}
		if g.patternHitsAirlock(p) {
			return p, true
		}
		re, err := regexp.Compile(p)
		if err != nil {
			return p, true
		}
		for _, l := range g.liveAirlock() {
			if !full {
				l = filepath.Base(strings.Fields(l + " x")[0])
			}
			if re.MatchString(l) {
				return p, true
			}
		}
	}
	return "", false
}

// portOwnerQuery returns the TCP port an lsof -i :PORT or fuser PORT/tcp
// run asks about; bounded is false for any other query.
func portOwnerQuery(r *classify.Invocation) (int, bool) {
	for i := 1; i < len(r.Args); i++ {
		a := r.Args[i]
		if r.Name() == "lsof" && len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'i') {
			// -i:PORT, -ti:PORT, -ti :PORT, -i tcp:PORT: joined flags
			// before i take no value (-t, -n, -P).
			v := a[strings.IndexByte(a, 'i')+1:]
			if v == "" && i+1 < len(r.Args) {
				v = r.Args[i+1]
			}
			if _, port, ok := strings.Cut(v, ":"); ok {
				if n, err := strconv.Atoi(port); err == nil {
					return n, true
				}
			}
		}
		if r.Name() == "fuser" {
			if port, ok := strings.CutSuffix(a, "/tcp"); ok {
				if n, err := strconv.Atoi(port); err == nil {
					return n, true
				}
			}
		}
	}
	return 0, false
}

// liveAirlock returns the command lines of airlock's processes running
// now, read from /proc (nil without it).
func (g *guard) liveAirlock() []string {
	var out []string
	for _, pid := range g.airlockPIDs() {
		data, err := g.fs.ReadFile("/proc/" + pid + "/cmdline")
		if err == nil {
			out = append(out, strings.TrimSpace(strings.ReplaceAll(string(data), "\x00", " ")))
		}
	}
	return out
}

// maxProcScan bounds the processes listed to find airlock's.
const maxProcScan = 4096

// airlockPIDs lists the processes of airlock's running now. Past the
// bound, "" stands for a process not looked at (so airlockRunning holds).
func (g *guard) airlockPIDs() []string {
	ents, err := g.fs.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []string
	n := 0
	for _, e := range ents {
		pid := e.Name()
		if strings.Trim(pid, "0123456789") != "" {
			continue
		}
		if n++; n > maxProcScan {
			return append(out, "")
		}
		if g.pidIsAirlock(pid) {
			out = append(out, pid)
		}
	}
	return out
}

func (g *guard) airlockRunning() bool { return len(g.airlockPIDs()) > 0 }

// airlockListensOn reports whether one of airlock's running processes
// holds a listening TCP socket on port.
func (g *guard) airlockListensOn(port int) bool {
	pids := g.airlockPIDs()
	if len(pids) == 0 {
		return false
	}
	inodes := map[string]bool{}
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		data, err := g.fs.ReadFile(f)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n")[1:] {
			fs := strings.Fields(line)
			if len(fs) < 10 || fs[3] != "0A" { // 0A: LISTEN
				continue
			}
			_, hexPort, _ := strings.Cut(fs[1], ":")
			if p, err := strconv.ParseInt(hexPort, 16, 32); err == nil && int(p) == port {
				inodes[fs[9]] = true
			}
		}
	}
	if len(inodes) == 0 {
		return false
	}
	for _, pid := range pids {
		if pid == "" {
			return true
		}
		ents, err := g.fs.ReadDir("/proc/" + pid + "/fd")
		if err != nil {
			return true // not readable: it may hold the socket
		}
		for _, e := range ents {
			l, err := g.fs.Readlink("/proc/" + pid + "/fd/" + e.Name())
			if err == nil && strings.HasPrefix(l, "socket:[") && inodes[strings.TrimSuffix(strings.TrimPrefix(l, "socket:["), "]")] {
				return true
			}
		}
	}
	return false
}

// hostPIDContainer checks a container run in the host's PID namespace
// (docker run --pid=host … pkill -f airlock): the command it runs sees
// airlock's processes, so its signals are checked as if run here.
func (c *call) hostPIDContainer(inv *classify.Invocation) *refusal {
	switch inv.Name() {
	case "docker", "podman", "nerdctl":
	default:
		return nil
	}
	host := false
	for i := 1; i < len(inv.Args); i++ {
		a := inv.Args[i]
		if a == "--pid=host" || a == "--pid" && i+1 < len(inv.Args) && inv.Args[i+1] == "host" {
			host = true
		}
	}
	if !host {
		return nil
	}
	for i := 1; i < len(inv.Args); i++ {
		a := inv.Args[i]
		if inv.IsDynamic(i) {
			continue
		}
		var sub classify.Result
		if strings.ContainsAny(a, " \t;|&") {
			sub = classify.Command(a) // sh -c 'pkill -f airlock'
		} else if classify.Reaches(filepath.Base(a)) != classify.ReachNone {
			one := *inv
			one.Args = append([]string{filepath.Base(a)}, inv.Args[i+1:]...)
			one.Dynamic = nil
			if len(inv.Dynamic) > i {
				one.Dynamic = append([]bool{false}, inv.Dynamic[i+1:]...)
			}
			one.Redirects = nil
			sub.Invocations = []classify.Invocation{one}
		} else {
			continue
		}
		for k := range sub.Invocations {
			if ref := c.signals(&sub.Invocations[k]); ref != nil {
				ref.msg = "in a container sharing the host's processes (--pid=host): " + ref.msg
				return ref
			}
		}
	}
	return nil
}

// pidFiles returns the files a run reads PIDs from: cat, head or tail of
// static files, or a file on its standard input (read p < app.pid). A
// file under /proc is no PID file: it is walked (any PID).
func pidFiles(r *classify.Invocation) []string {
	var out []string
	switch r.Name() {
	case "cat", "head", "tail":
		for i, a := range r.Args[1:] {
			if r.IsDynamic(i+1) || strings.HasPrefix(a, "-") {
				continue
			}
			out = append(out, a)
		}
	}
	for _, rd := range r.Redirects {
		if rd.Op == "<" && !rd.Dynamic {
			out = append(out, rd.Target)
		}
	}
	for _, f := range out {
		if strings.Contains(f, "/proc/") {
			return nil
		}
	}
	return out
}

// maxPIDFile bounds the PID file read at decision time.
const maxPIDFile = 4096

// readPIDFile reads the PIDs a file holds now (its words that are
// numbers). false when it cannot be read, is not a small regular file, is
// one of airlock's own files (hookd.pid names airlock's service, running
// or about to be), or is written by another run of the same command (what
// it will hold is not known yet).
func (c *call) readPIDFile(name string) ([]string, bool) {
	cwd := c.cwds[len(c.cwds)-1]
	if c.ownFile(name) {
		return nil, false
	}
	p := c.g.rawAbs(name, cwd)
	if c.result != nil {
		for i := range c.result.Invocations {
			r := &c.result.Invocations[i]
			if classify.Reaches(r.Name()) != classify.ReachNone {
				continue // the signal's own words are PIDs, not files
			}
			for _, o := range r.Operands {
				if o.Role != classify.RoleRead && o.Role != classify.RoleExec && (o.Word == name || o.Dynamic) {
					return nil, false
				}
			}
		}
	}
	fi, err := c.g.fs.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxPIDFile {
		return nil, false
	}
	data, err := c.g.fs.ReadFile(p)
	if err != nil {
		return nil, false
	}
	var pids []string
	for _, w := range strings.Fields(string(data)) {
		if strings.Trim(w, "0123456789") == "" {
			pids = append(pids, w)
		}
	}
	return pids, true
}

// ownFile reports one of airlock's files (its state, hookd.pid
// included, or its secrets).
func (c *call) ownFile(name string) bool {
	cwd := c.cwds[len(c.cwds)-1]
	if _, own := c.pathHit(name, cwd, false, false); own {
		return true
	}
	_, own := c.secretPath(name, cwd)
	return own
}
