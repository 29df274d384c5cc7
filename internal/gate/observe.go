package gate

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
	"github.com/airlock-dev/airlock/internal/policy"
)

// Observe records what an event shows: the user's instruction
// (UserPromptSubmit) and, for a tool that ran (PostToolUse), the files it
// read and the searches it made. load returns the policy in effect; it is
// called only when the event holds something to record and no kill switch
// is set, so events that show nothing cost no file read. It returns
// warnings for standard error.
//
// A record that cannot be kept is dropped with a warning: it can only make
// a later first edit ask for facts the ledger missed, never block a retry.
func (g *Gate) Observe(ev *Event, load func() (*policy.Policy, error)) (warning string) {
	var reads []Read
	var searches []Search
	var prompt string
	switch ev.Name {
	case "UserPromptSubmit":
		prompt = ev.Prompt
		if strings.TrimSpace(prompt) == "" {
			return ""
		}
	case "PostToolUse":
		reads, searches = observed(ev)
		if len(reads) == 0 && len(searches) == 0 {
			return ""
		}
	default:
		return ""
	}
	if offByEnv(g.getenv) != "" {
		return ""
	}
	p, err := load()
	if err != nil {
		// PreToolUse reports a broken policy, and refuses every call.
		return ""
	}
	c := resolve(p, g.getenv)
	if c == nil {
		return ""
	}
	now := g.now().Unix()
	var warns []string
	err = g.store(c).update(g.key(ev), func(st *State) bool {
		warns, _ = g.newWarnings(c, st)
		if prompt != "" {
			st.Prompt, st.PromptAt = clipBytes(prompt, maxPrompt), now
		}
		for _, r := range reads {
			r.At, r.Agent = now, ev.Agent
			st.addRead(r)
		}
		for _, s := range searches {
			s.At, s.Agent = now, ev.Agent
			st.addSearch(s)
		}
		return true
	})
	if err != nil {
		warns = append(warns, "airlock: warning: "+err.Error()+"; the fact-forcing gate could not record this "+ev.Name+", so a later first edit may ask for facts it missed. Set "+EnvStateDir+" (or gate.state_dir in the policy) to a writable directory.")
	}
	return strings.Join(warns, "\n")
}

// observed extracts the reads and searches of a tool call that ran.
func observed(ev *Event) ([]Read, []Search) {
	var in struct {
		FilePath     string `json:"file_path"`
		NotebookPath string `json:"notebook_path"`
		Path         string `json:"path"`
		Pattern      string `json:"pattern"`
		Command      string `json:"command"`
	}
	if err := json.Unmarshal(ev.Input, &in); err != nil {
		return nil, nil
	}
	cwd := filepath.Clean(ev.Cwd)
	switch ev.Tool {
	case "Read":
		if in.FilePath != "" {
			return []Read{{Path: absUnder(in.FilePath, cwd)}}, nil
		}
	case "NotebookRead":
		if in.NotebookPath != "" {
			return []Read{{Path: absUnder(in.NotebookPath, cwd)}}, nil
		}
	case "Grep", "Glob":
		if in.Pattern == "" {
			return nil, nil
		}
		where := cwd
		if in.Path != "" {
			where = absUnder(in.Path, cwd)
		}
		return nil, []Search{{Tool: ev.Tool, Pattern: clipBytes(in.Pattern, 500), Paths: []string{where}, Content: ev.Tool == "Grep"}}
	case "Bash":
		if in.Command == "" {
			return nil, nil
		}
		r := classify.Command(in.Command)
		f := readShell(&r, cwd)
		if !f.readOnly {
			return nil, nil
		}
		reads := make([]Read, len(f.reads))
		for i, p := range f.reads {
			reads[i] = Read{Path: p}
		}
		for i := range f.searches {
			f.searches[i].Pattern = clipBytes(f.searches[i].Pattern, 500)
		}
		return reads, f.searches
	}
	return nil, nil
}

// addRead records a read, moving an earlier read of the same file to the
// end with the new time, so that rereading keeps the ledger small.
func (st *State) addRead(r Read) {
	for i := range st.Reads {
		if st.Reads[i].Path == r.Path {
			st.Reads = append(st.Reads[:i], st.Reads[i+1:]...)
			break
		}
	}
	st.Reads = append(st.Reads, r)
}

// addSearch records a search, replacing an identical earlier one.
func (st *State) addSearch(s Search) {
	for i := range st.Searches {
		o := &st.Searches[i]
		if o.Tool == s.Tool && o.Pattern == s.Pattern && o.Content == s.Content && strings.Join(o.Paths, "\x00") == strings.Join(s.Paths, "\x00") {
			st.Searches = append(st.Searches[:i], st.Searches[i+1:]...)
			break
		}
	}
	st.Searches = append(st.Searches, s)
}
