package policy

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"github.com/airlock-dev/airlock/internal/firstuse"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/airlock-dev/airlock/internal/classify"
)

// This file is the phase of self-protection that knows airlock's secret
// values, not only their files (issue 24). An agent that learnt the
// dashboard's login token or the phone channel's topic some other way
// (a screenshot, a log, a process list) could use it directly:
//
//	curl 'http://127.0.0.1:PORT/login?token=VALUE'
//	curl -d '…signed reply…' https://ntfy.example/airlock-REPLYTOPIC
//
// A tool call whose text carries one of those values is a read of
// airlock's secrets and is refused, with a reason that names the secret
// but never prints it.
//
// Cost. Most tool calls carry no word long enough to hold a secret, and
// pay one pass over their text (candidateWord). Only then are the values
// loaded, once per process: the secrets directory is listed and at most
// maxSecretFiles files of at most maxSecretFileBytes each are read; the
// values (at most maxSecretValues) are then looked for with
// strings.Contains over the text and the program runs' words, each
// clipped to maxSecretScanBytes. A secrets directory that cannot be read
// gives no values: calls are not refused for it (doctor reports it).

// RuleSecretValue fires on a tool call whose text carries one of
// airlock's secret values.
const RuleSecretValue = "self.secret-value"

// Bounds on the secret-value check.
const (
	// minSecretLen is the shortest value looked for: shorter ones (a
	// topic a user named "alerts") would match ordinary words. Every
	// value airlock makes is longer (a 64-hex-digit token, a 35-letter
	// topic).
	minSecretLen       = 16
	maxSecretFiles     = 32
	maxSecretFileBytes = 64 << 10
	maxSecretValues    = 64
	maxSecretScanBytes = 1 << 20
)

// secretValue is one value and where it comes from, for the reason.
type secretValue struct {
	value string // folded (lower case)
	// raw is the value as written, which its encodings are made from
	// (netsecrets.go).
	raw  string
	from string
}

// secretValues loads airlock's secret values on first use.
type secretValues struct {
	dir    string
	notify *Section
	once   sync.Once
	vals   []secretValue
	// problem says why the values could not be read, for doctor.
	problem string
}

func newSecretValues(dir string, notify *Section) *secretValues {
	if dir == "" && notify == nil {
		return nil
	}
	return &secretValues{dir: dir, notify: notify}
}

// load reads the values once.
func (s *secretValues) load() []secretValue {
	s.once.Do(func() {
		var vals []secretValue
		add := func(v, from string) {
			v = strings.TrimSpace(v)
			if len(v) < minSecretLen || len(vals) >= maxSecretValues {
				return
			}
			vals = append(vals, secretValue{value: fold(v), raw: v, from: from})
		}
		if s.dir != "" {
			s.problem = readSecretFiles(s.dir, add)
		}
		if s.notify != nil && s.notify.Node != nil {
			notifyValues(s.notify.Node, "", func(v, key string) { add(v, "the notify section's "+key+" ("+s.notify.File+")") })
		}
		// Longest first: a value inside another is reported by the
		// longer one's name.
		sort.SliceStable(vals, func(i, j int) bool { return len(vals[i].value) > len(vals[j].value) })
		s.vals = vals
	})
	return s.vals
}

// readSecretFiles gives add the values every file in the secrets
// directory holds: a JSON object's string values (notify.json), or the
// file's text and its words (serve.token); a binary key (human.key) in
// the encodings a command could carry it in. It returns a problem, or "".
func readSecretFiles(dir string, add func(v, from string)) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "" // nothing made yet: nothing to protect
		}
		return "airlock cannot list its secrets directory " + dir + " (" + err.Error() + "), so it cannot refuse commands that carry their values"
	}
	var problems []string
	for i, e := range entries {
		if i >= maxSecretFiles {
			problems = append(problems, "more than "+strconv.Itoa(maxSecretFiles)+" files in "+dir+": the rest are not looked for")
			break
		}
		if !e.Type().IsRegular() {
			continue
		}
		path := filepath.Join(dir, e.Name())
		data, err := readBounded(path, maxSecretFileBytes)
		if err != nil {
			problems = append(problems, "cannot read "+path+" ("+err.Error()+")")
			continue
		}
		from := "the secret file " + path
		var obj map[string]any
		if json.Unmarshal(data, &obj) == nil {
			for k, v := range obj {
				if str, ok := v.(string); ok && !publicSecretField(e.Name(), k) {
					add(str, from+" ("+k+")")
				}
			}
			continue
		}
		text := string(data)
		if printableText(text) {
			add(text, from)
			for _, w := range strings.Fields(text) {
				add(w, from)
			}
			continue
		}
		// A binary key: a command could carry it only encoded.
		add(hex.EncodeToString(data), from+" (hex)")
		add(base64.StdEncoding.EncodeToString(data), from+" (base64)")
		add(base64.RawStdEncoding.EncodeToString(data), from+" (base64)")
		add(base64.RawURLEncoding.EncodeToString(data), from+" (base64url)")
	}
	return strings.Join(problems, "; ")
}

// publicFields are the fields of a JSON file in the secrets directory
// that hold no secret, by file: refusing every command that carries them
// would refuse ordinary work. team.json (internal/team/sync.Config) keeps
// the team server's URL, which a human and an agent may name (curl
// https://team.example/healthz), the machine's name, the server's public
// key and its fingerprint, and when the machine joined; its token is the
// secret. A field not listed here is a secret value: a field added later
// is protected until it is named public.
var publicFields = firstuse.Table[map[string][]string]{Build: func() map[string][]string {
	return map[string][]string{
		"team.json": {"server", "machine", "server_key", "fingerprint", "joined"},
	}
}}

// publicSecretField reports whether field key of the secrets file named
// file holds no secret.
func publicSecretField(file, key string) bool {
	for _, k := range publicFields.Get()[file] {
		if k == key {
			return true
		}
	}
	return false
}

// notifyValues walks the policy's notify section for the values that
// let a reader post or read as airlock: topics, tokens, passwords and
// webhook headers.
func notifyValues(n *yaml.Node, key string, add func(v, key string)) {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			notifyValues(n.Content[i+1], n.Content[i].Value, add)
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			notifyValues(c, key, add)
		}
	case yaml.ScalarNode:
		k := strings.ToLower(key)
		if strings.HasSuffix(k, "file") {
			return // token_file names a file under secrets/, read as such
		}
		if strings.Contains(k, "topic") || strings.Contains(k, "token") || strings.Contains(k, "password") ||
			strings.Contains(k, "secret") || strings.Contains(k, "key") || strings.Contains(k, "authorization") {
			add(n.Value, key)
		}
	}
}

// candidateWord reports whether text holds a run of at least
// minSecretLen letters, digits, "-" or "_": the only texts that can carry
// a value airlock makes. Checking this first keeps the files unread for
// most calls.
func candidateWord(text string) bool {
	run := 0
	for i := 0; i < len(text); i++ {
		b := text[i]
		if b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '-' || b == '_' {
			run++
			if run >= minSecretLen {
				return true
			}
			continue
		}
		run = 0
	}
	return false
}

// secretValueIn returns the value among vals that text carries.
func secretValueIn(vals []secretValue, text string) (secretValue, bool) {
	if len(text) > maxSecretScanBytes {
		text = text[:maxSecretScanBytes]
	}
	if !candidateWord(text) {
		return secretValue{}, false
	}
	t := fold(text)
	for _, v := range vals {
		if strings.Contains(t, v.value) {
			return v, true
		}
	}
	return secretValue{}, false
}

// actionTexts are the texts of a tool call that may carry a value: a
// command's text and, for each program run (scripts followed included),
// its words with their quotes removed, its environment, its redirection
// targets and the text it is fed; a fetch's URL; a write's content and
// paths.
func actionTexts(a *Action, r *classify.Result, yield func(where, text string) bool) {
	switch a.Kind {
	case Fetch:
		if yield("the URL", a.URL) {
			yield("the search query", a.Query)
		}
		return
	case Write:
		if !yield("the text written", a.Content) {
			return
		}
		for _, e := range a.Edits {
			if !yield("the text written", e.New) {
				return
			}
		}
	}
	for _, p := range a.Paths {
		if !yield("a path", p) {
			return
		}
	}
	if a.Command == "" {
		return
	}
	if !yield("the command", a.Command) || r == nil {
		return
	}
	runs := append(r.Invocations[:len(r.Invocations):len(r.Invocations)], r.Followed...)
	for i := range runs {
		inv := &runs[i]
		name := inv.Name()
		if !yield(name+"'s arguments", strings.Join(inv.Args, "\x00")) ||
			!yield(name+"'s environment", strings.Join(inv.Env, "\x00")) ||
			inv.StdinKnown && !yield("the text fed to "+name, inv.StdinText) ||
			!yield("a script line", inv.Source) {
			return
		}
		for _, rd := range inv.Redirects {
			if !yield("a redirection of "+name, rd.Target) {
				return
			}
		}
	}
}

// anyCandidate reports whether any text of a tool call holds a word long
// enough to be a value: the words of actionTexts, one by one.
func anyCandidate(a *Action, r *classify.Result) bool {
	if candidateWord(a.URL) || candidateWord(a.Query) || candidateWord(a.Content) || candidateWord(a.Command) {
		return true
	}
	for _, e := range a.Edits {
		if candidateWord(e.New) {
			return true
		}
	}
	for _, p := range a.Paths {
		if candidateWord(p) {
			return true
		}
	}
	if r == nil {
		return false
	}
	for _, runs := range [][]classify.Invocation{r.Invocations, r.Followed} {
		for i := range runs {
			inv := &runs[i]
			if inv.StdinKnown && candidateWord(inv.StdinText) || candidateWord(inv.Source) {
				return true
			}
			for _, w := range inv.Args {
				if candidateWord(w) {
					return true
				}
			}
			for _, w := range inv.Env {
				if candidateWord(w) {
					return true
				}
			}
			for _, rd := range inv.Redirects {
				if candidateWord(rd.Target) {
					return true
				}
			}
		}
	}
	return false
}

// secretValueRefusal refuses a tool call that carries a secret value.
func (g *guard) secretValueRefusal(a *Action, r *classify.Result) *refusal {
	if g.values == nil {
		return nil
	}
	if a.Kind == Net {
		// A request through the egress proxy: every part, every
		// encoding (netsecrets.go).
		return g.netSecretRefusal(a)
	}
	// Cheap first, without allocating: does any text hold a word long
	// enough?
	if !anyCandidate(a, r) {
		return nil
	}
	vals := g.values.load()
	if len(vals) == 0 {
		return nil
	}
	var found secretValue
	var where string
	actionTexts(a, r, func(w, text string) bool {
		v, ok := secretValueIn(vals, text)
		if ok {
			found, where = v, w
		}
		return !ok
	})
	if where == "" {
		return nil
	}
	return &refusal{RuleSecretValue, a.Tool + ": " + where + " carries the value of " + found.from +
		" (not shown); using it is reading " + kindSecret.String() + ", which the agent may not do: with it a held action could be approved without the human." + instead}
}

// SecretValuesProblem reports why airlock cannot read its secret values
// (for doctor), or "" when it can or there are none yet.
func (p *Policy) SecretValuesProblem() string {
	if p == nil || p.guard.values == nil {
		return ""
	}
	p.guard.values.load()
	return p.guard.values.problem
}

func readBounded(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, max))
}

func printableText(s string) bool {
	for i := 0; i < len(s); i++ {
		if b := s[i]; b < 0x20 && b != '\n' && b != '\r' && b != '\t' || b == 0x7f {
			return false
		}
	}
	return true
}
