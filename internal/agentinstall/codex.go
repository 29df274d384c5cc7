package agentinstall

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/airlock-dev/airlock/internal/jsonedit"
)

// OpenAI Codex CLI reads Claude-shaped hooks from hooks.json in its home
// ($CODEX_HOME, else ~/.codex) and runs one only when config.toml there
// trusts it (codextrust.go). A crash, a timeout, an unreadable answer and
// "ask" all run the tool call (OBSERVED, 0.171.0). Timeout in seconds.
var codex = sync.OnceValue(func() *Agent {
	a := &Agent{
		Name:   "codex",
		Title:  "OpenAI Codex CLI",
		Scopes: []Scope{User},
		NoScope: map[Scope]string{Project: "Codex reads a project's .codex/ only when the project is trusted, and " +
			"trusts its hooks from the user's config.toml; the user's hooks.json (airlock install codex --user) " +
			"is read in every project"},
		Timeout: hookTimeout,
		Events:  []string{"PreToolUse"},
	}
	h := claudeShape("codex", func(cmd string) *jsonedit.Object {
		return object(kv{"type", "command"}, kv{"command", cmd}, kv{"timeout", num(int64(hookTimeout.Seconds()))})
	})
	a.install = func(env Env, scope Scope, r reader) (*Plan, error) {
		hooksFile, configFile := codexFiles(env)
		p := &Plan{Agent: a.Name, Scope: scope}
		old, existed, err := r.read(hooksFile)
		if err != nil {
			return nil, err
		}
		hooks, err := h.install(old, existed, env.runs())
		if err != nil {
			return nil, &FileError{Path: hooksFile, Err: err}
		}
		p.add(hooksFile, old, existed, hooks, 0o644)
		if err := planCodexTrust(p, hooksFile, hooks, configFile, r); err != nil {
			return nil, err
		}
		if len(p.Files) > 0 {
			p.Notes = append(p.Notes, fmt.Sprintf("wrote Codex's trust for the hook to %s: without it Codex skips the hook silently", configFile))
		}
		return p, nil
	}
	a.uninstall = func(env Env, scope Scope, r reader) (*Plan, error) {
		hooksFile, configFile := codexFiles(env)
		p := &Plan{Agent: a.Name, Scope: scope}
		if err := uninstallJSON(p, h, hooksFile, r); err != nil {
			return nil, err
		}
		if len(p.Files) == 1 {
			config, _, _ := r.read(configFile)
			for _, m := range codexMoved(hooksFile, p.Files[0].Old, p.Files[0].New, string(config)) {
				p.Notes = append(p.Notes, "Codex keys hooks by position: your hook "+m+" moved with airlock's removed, and Codex skips it until you trust it again (codex, /hooks)")
			}
		}
		return p, planCodexTrust(p, hooksFile, nil, configFile, r)
	}
	a.inspect = func(env Env, scope Scope, r reader) Status {
		st := Status{Agent: a.Name, Scope: scope}
		hooksFile, configFile := codexFiles(env)
		inspectJSON(&st, a, h, hooksFile, env, r)
		st.Files = append(st.Files, configFile)
		if !st.Installed {
			return st
		}
		data, _, _ := r.read(hooksFile)
		want, err := codexTrustFor(hooksFile, data)
		if err != nil {
			return st
		}
		config, _, err := r.read(configFile)
		if err != nil {
			st.problem("check the file's permissions", "%s: %v", configFile, err)
			return st
		}
		st.Trusted = "yes"
		for _, t := range want {
			hash, enabled, found := codexTrusted(string(config), t.key)
			switch {
			case !found || hash == "":
				st.Trusted = "no"
				st.problem("airlock install codex", "Codex does not trust the hook %s: it skips it silently and runs every command", t.key)
			case hash != t.hash:
				st.Trusted = "no"
				st.problem("airlock install codex", "Codex's trust for %s is for another version of the hook (%s, the hook is %s): it skips it silently", t.key, hash, t.hash)
			case !enabled:
				st.Trusted = "no"
				st.problem("delete \"enabled = false\" under [hooks.state.\""+t.key+"\"] in "+configFile, "the hook %s is turned off in Codex's config", t.key)
			}
		}
		return st
	}
	return a
})

func dirOf(path string) string { return filepath.Dir(path) }

// codexFiles are the hook file and the config file in Codex's home.
func codexFiles(env Env) (hooks, config string) {
	home := env.getenv("CODEX_HOME")
	if home == "" {
		home = filepath.Join(env.Home, ".codex")
	} else if abs, err := filepath.Abs(home); err == nil {
		home = abs
	}
	return filepath.Join(home, "hooks.json"), filepath.Join(home, "config.toml")
}

// planCodexTrust makes config.toml trust exactly airlock's hooks in the
// hook file's new content (none when it is removed).
func planCodexTrust(p *Plan, hooksFile string, hooks []byte, configFile string, r reader) error {
	var want []codexTrust
	if hooks != nil {
		var err error
		if want, err = codexTrustFor(hooksFile, hooks); err != nil {
			return &FileError{Path: hooksFile, Err: err}
		}
	}
	old, existed, err := r.read(configFile)
	if err != nil {
		return err
	}
	out, err := withCodexTrust(configFile, string(old), want)
	if err != nil {
		return err
	}
	if out == "" {
		// Nothing but airlock's trust was there: the file goes as it came.
		p.add(configFile, old, existed, nil, 0)
		return nil
	}
	p.add(configFile, old, existed, []byte(out), 0o600)
	return nil
}

// codexMoved lists the user's hooks whose trust key changes between two
// versions of hooks.json while config.toml trusts the old key: removing
// a group moves the ones after it.
func codexMoved(hooksFile string, before, after []byte, config string) []string {
	keys := func(data []byte) map[string]string {
		out := map[string]string{}
		root, err := jsonedit.Parse(data)
		if err != nil {
			return out
		}
		hv, _ := root.Get("hooks")
		hooks, _ := hv.(*jsonedit.Object)
		if hooks == nil {
			return out
		}
		for _, ev := range hooks.Keys() {
			gv, _ := hooks.Get(ev)
			groups, _ := gv.([]any)
			seen := map[string]int{}
			for gi, g := range groups {
				o, _ := g.(*jsonedit.Object)
				if o == nil {
					continue
				}
				lv, _ := o.Get("hooks")
				list, _ := lv.([]any)
				for hi, hd := range list {
					ho, _ := hd.(*jsonedit.Object)
					if ho == nil {
						continue
					}
					cv, _ := ho.Get("command")
					cmd, _ := cv.(string)
					if isOurs(cmd, "codex") {
						continue
					}
					id := fmt.Sprintf("%s %q #%d", ev, cmd, seen[ev+cmd])
					seen[ev+cmd]++
					out[id] = CodexHookKey(hooksFile, ev, gi, hi)
				}
			}
		}
		return out
	}
	old, now := keys(before), keys(after)
	var moved []string
	for id, k := range old {
		if n, ok := now[id]; ok && n != k && strings.Contains(config, k) {
			moved = append(moved, id)
		}
	}
	sort.Strings(moved)
	return moved
}
