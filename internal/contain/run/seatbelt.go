package run

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/airlock-dev/airlock/internal/hookd"
	"github.com/airlock-dev/airlock/internal/policy"
)

// Seatbelt is a macOS sandbox-exec profile for the same containment as
// the Linux runner, as far as Seatbelt can express it. macOS has no
// network namespace: the profile denies every network operation but the
// outbound connection to airlock's proxy on the loopback port, so the
// agent's own loopback servers are not reachable from inside either (on
// Linux they are). The file is built for every system so that its text
// is tested everywhere; it can only run on macOS.
type Seatbelt struct {
	// ProxyPort is airlock's proxy on localhost.
	ProxyPort int
	// HookSocket is the hook service's unix socket ("" for none).
	HookSocket string
	// Writable are the directories writes are allowed in: the project,
	// the temporary directories, the caches.
	Writable []string
	// DenyWrite are airlock's files and every agent's settings, refused
	// even inside a writable directory.
	DenyWrite []string
	// DenyWriteRegex are regular expressions of paths refused like
	// DenyWrite: the code-file table's patterns under the project
	// (PatternRegex).
	DenyWriteRegex []string
	// DenyRead are airlock's state and secrets.
	DenyRead []string
}

// quote makes a Seatbelt (Scheme) string literal of a path. A path with a
// control character is refused rather than escaped: no file airlock
// protects or offers needs one, and a newline in a profile is where an
// injection would start.
func quote(p string) (string, error) {
	for _, r := range p {
		if r < 0x20 || r == 0x7f {
			return "", fmt.Errorf("path %q holds a control character: not put in a sandbox profile", p)
		}
	}
	if !strings.HasPrefix(p, "/") {
		return "", fmt.Errorf("path %q is not absolute", p)
	}
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(p) + `"`, nil
}

// Profile is the profile's text. Later rules win in Seatbelt, so the
// denials of protected paths come after the writable directories.
func (s Seatbelt) Profile() (string, error) {
	if s.ProxyPort <= 0 || s.ProxyPort > 65535 {
		return "", fmt.Errorf("proxy port %d is not a port", s.ProxyPort)
	}
	var b strings.Builder
	b.WriteString("(version 1)\n(allow default)\n")
	b.WriteString(";; Network: only airlock's proxy on the loopback port.\n")
	b.WriteString("(deny network*)\n")
	b.WriteString("(allow network-outbound (remote ip \"localhost:" + strconv.Itoa(s.ProxyPort) + "\"))\n")
	if s.HookSocket != "" {
		q, err := quote(s.HookSocket)
		if err != nil {
			return "", err
		}
		b.WriteString("(allow network-outbound (remote unix-socket (path-literal " + q + ")))\n")
	}
	list := func(paths []string, sub bool) (string, error) {
		var parts []string
		for _, p := range paths {
			q, err := quote(p)
			if err != nil {
				return "", err
			}
			if sub {
				parts = append(parts, "(subpath "+q+")")
			} else {
				parts = append(parts, "(literal "+q+")", "(subpath "+q+")")
			}
		}
		return strings.Join(parts, " "), nil
	}
	w, err := list(s.Writable, true)
	if err != nil {
		return "", err
	}
	b.WriteString(";; Writes: only the project, the temporary directories and the caches.\n")
	if w == "" {
		b.WriteString("(deny file-write*)\n")
	} else {
		b.WriteString("(deny file-write* (require-not (require-any " + w + ")))\n")
	}
	dw, err := list(s.DenyWrite, false)
	if err != nil {
		return "", err
	}
	if dw != "" {
		b.WriteString(";; airlock's files and every agent's settings: never written.\n")
		b.WriteString("(deny file-write* " + dw + ")\n")
	}
	var rx []string
	for _, r := range s.DenyWriteRegex {
		if strings.ContainsAny(r, "\"\n\r\x00") || strings.IndexFunc(r, func(c rune) bool { return c < 0x20 || c == 0x7f }) >= 0 {
			return "", fmt.Errorf("pattern %q holds a quote or a control character: not put in a sandbox profile", r)
		}
		rx = append(rx, "(regex #\""+r+"\")")
	}
	if len(rx) > 0 {
		b.WriteString(";; The project's code files named by a pattern: never written.\n")
		b.WriteString("(deny file-write* " + strings.Join(rx, " ") + ")\n")
	}
	dr, err := list(s.DenyRead, false)
	if err != nil {
		return "", err
	}
	if dr != "" {
		b.WriteString(";; airlock's state and secrets: not even read.\n")
		b.WriteString("(deny file-read* " + dr + ")\n")
	}
	return b.String(), nil
}

// PatternRegex is a regular expression (POSIX extended, as Seatbelt
// reads them; Go's regexp reads it the same) of the paths a table
// pattern names under project, and everything below them: * is a run
// of characters but /, a leading ** one or more directories (not the
// project's own .git), another ** any number.
func PatternRegex(project, pattern string) string {
	var b strings.Builder
	b.WriteString("^" + regexp.QuoteMeta(project) + "/")
	names := strings.Split(pattern, "/")
	for i, n := range names {
		last := i == len(names)-1
		switch {
		case n == "**" && i == 0:
			b.WriteString(".+/")
			continue
		case n == "**":
			b.WriteString("(.+/)?")
			continue
		}
		parts := strings.Split(n, "*")
		for j, part := range parts {
			if j > 0 {
				b.WriteString("[^/]*")
			}
			b.WriteString(regexp.QuoteMeta(part))
		}
		if !last {
			b.WriteString("/")
		}
	}
	b.WriteString("(/.*)?$")
	return b.String()
}

// SeatbeltFor fills a profile from the same lists as the Linux plan:
// the project and caches writable, self-protection's paths denied.
func SeatbeltFor(cfg Config, proxyPort int) Seatbelt {
	getenv := cfg.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	paths := policy.PathsFrom(getenv)
	project := ProjectRoot(cfg.Cwd)
	s := Seatbelt{ProxyPort: proxyPort, Writable: []string{project, "/private/tmp", "/private/var/folders"}}
	if sock := hookd.SocketPath(getenv); sock != "" {
		s.HookSocket = sock
	}
	if paths.Home != "" {
		for _, w := range DefaultWritable {
			s.Writable = append(s.Writable, filepath.Join(paths.Home, w))
		}
		for _, c := range agentCode {
			s.DenyWrite = append(s.DenyWrite, filepath.Join(paths.Home, c))
		}
	}
	for _, p := range policy.ProtectedPaths(paths, project, policy.Options{Getenv: getenv, Cwd: cfg.Cwd, Executable: cfg.Executable}) {
		s.DenyWrite = append(s.DenyWrite, p.Path)
		if p.State || p.Secret {
			s.DenyRead = append(s.DenyRead, p.Path)
		}
	}
	// The project's files the Linux plan fences (FINDINGS-9 C3); no step
	// follows the command here, so .git/modules is fenced whole.
	if project != "" {
		for _, f := range FencedProjectFiles() {
			s.DenyWrite = append(s.DenyWrite, filepath.Join(project, f))
		}
		for _, c := range CodeFiles {
			if c.Handling != Watch && hasWild(c.Pattern) {
				s.DenyWriteRegex = append(s.DenyWriteRegex, PatternRegex(project, c.Pattern))
			}
		}
	}
	return s
}
