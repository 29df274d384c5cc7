package policy

import (
	"net/url"
	"path/filepath"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
	"github.com/airlock-dev/airlock/internal/vocab"
)

// Kind is what sort of action an agent is about to take (see vocab).
type Kind = vocab.Kind

// The kinds of action (see vocab).
const (
	Shell       = vocab.Shell
	Read        = vocab.Read
	Write       = vocab.Write
	Fetch       = vocab.Fetch
	LocalTool   = vocab.LocalTool
	UnknownTool = vocab.UnknownTool
	Net         = vocab.Net
)

// NetRequest is a Net action's request (see vocab).
type NetRequest = vocab.NetRequest

// Action is one tool call an agent is about to make, normalised by an
// agent adapter (see vocab: the journal and every entry point speak it).
type Action = vocab.Action

// FileState is one file a decision read (vocab.Action.Reads).
type FileState = vocab.FileState

// Edit is one change a file tool makes (see vocab).
type Edit = vocab.Edit

// subject is one thing rules are matched against: a program run of a shell
// command, or a whole non-shell action.
type subject struct {
	tool string
	inv  *classify.Invocation
	// grade is where the run's destruction lands (destroy.go), when it
	// destroys.
	grade   *grade
	effect  classify.Effect
	unknown bool
	paths   []string
	hosts   []string
	// later is set for a write whose only effect is the commands it adds
	// to a task runner's file (a Makefile, package.json scripts): they run
	// when the target is run, which is decided again then.
	later bool
}

// subjects splits an action into what rules see. A shell command yields
// one subject per program run; home is used to expand "~" in paths.
func subjects(a *Action, r *classify.Result, home string) []subject {
	switch a.Kind {
	case Shell:
		out := make([]subject, len(r.Invocations))
		for i := range r.Invocations {
			inv := &r.Invocations[i]
			out[i] = subject{tool: a.Tool, inv: inv, effect: inv.Effect}
		}
		return out
	case Read, Write:
		s := subject{tool: a.Tool}
		for _, p := range a.Paths {
			s.paths = append(s.paths, absPath(p, a.Cwd, home))
			if a.Kind == Write {
				// A file that runs later (a git hook, a Makefile) is rated
				// by the commands the new text holds.
				p := s.paths[len(s.paths)-1]
				fe := classify.File(p, a.Content)
				if real := classify.RealPath(p); len(fe.Reasons) == 0 && real != p {
					// Written through a link (hk -> .git/hooks): the
					// file it lands in is what runs later (FINDINGS-10 G2).
					fe = classify.File(real, a.Content)
					if len(fe.Reasons) > 0 {
						fe.Add(classify.ThroughLink(p, real))
					}
				}
				s.later = s.later || len(fe.Reasons) > 0 && fe.Reasons[0].Rule == "surface.task"
				s.effect.Add(fe)
			}
		}
		return []subject{s}
	case Fetch:
		// A fetch reads, unless the URL itself carries a credential out.
		s := subject{tool: a.Tool, effect: classify.FetchURL(a.URL)}
		if a.Query != "" {
			// A web search sends its query to the search provider.
			s.effect.Add(classify.SearchQuery(a.Query))
		}
		if h := hostOf(a.URL); h != "" {
			s.hosts = []string{h}
		}
		return []subject{s}
	case Net:
		return []subject{netSubject(a)}
	case UnknownTool:
		return []subject{{tool: a.Tool, unknown: true}}
	}
	return []subject{{tool: a.Tool}}
}

// shellPaths are the words of a program run that may name files: its
// static arguments and its redirection targets, made absolute. It is
// computed only when a rule asks for paths.
func shellPaths(inv *classify.Invocation, cwd, home string) []string {
	var out []string
	for i := 1; i < len(inv.Args); i++ {
		if inv.IsDynamic(i) {
			continue
		}
		w := inv.Args[i]
		if isOption(w) {
			if _, v, ok := strings.Cut(w, "="); ok {
				w = v
			} else {
				continue
			}
		}
		out = append(out, absPath(w, cwd, home))
	}
	for _, r := range inv.Redirects {
		if !r.Dynamic {
			out = append(out, absPath(r.Target, cwd, home))
		}
	}
	return out
}

// shellHosts are the hosts of the URLs among a program run's arguments.
func shellHosts(inv *classify.Invocation) []string {
	var out []string
	for i := 1; i < len(inv.Args); i++ {
		if strings.Contains(inv.Args[i], "://") {
			if h := hostOf(inv.Args[i]); h != "" {
				out = append(out, h)
			}
		}
	}
	return out
}

func absPath(p, cwd, home string) string {
	p = expandHome(p, home)
	if !filepath.IsAbs(p) && cwd != "" {
		p = filepath.Join(cwd, p)
	}
	return filepath.Clean(p)
}

// hostOf returns the lower-case host of a URL, or "".
func hostOf(raw string) string {
	// A flag with an attached URL (--url=https://…) still names a host.
	if i := strings.Index(raw, "://"); i > 0 {
		j := i
		for j > 0 && isSchemeChar(raw[j-1]) {
			j--
		}
		raw = raw[j:]
	}
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

func isSchemeChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'
}
