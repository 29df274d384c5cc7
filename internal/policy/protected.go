package policy

import "path/filepath"

// ProtectedPath is one path self-protection guards, as containment needs
// it: the runner binds each one read-only (or hides it) so that the
// kernel, not the parser, keeps the agent off it.
type ProtectedPath struct {
	// Path is absolute and clean.
	Path string
	// Dir: the path is a directory and everything inside it counts.
	Dir bool
	// Secret: not even reading is allowed (airlock's secrets).
	Secret bool
	// State: airlock's state directory (journal, queue, trust, the hook
	// socket): hidden from a contained agent, not only read-only.
	State bool
	// Kind says what it is, for messages: "airlock", "agent-settings",
	// "startup" or "secret".
	Kind string
}

// ProtectedPaths lists the paths self-protection guards for this
// environment and project: airlock's config, state and binaries, every
// agent's settings, shell start-up files, and the project's own protected
// files (.airlock/, .claude/settings.json, …) under projectRoot. It is
// the same list the guard checks tool calls against, so that the sandbox
// and the hook cannot drift apart.
func ProtectedPaths(paths Paths, projectRoot string, o Options) []ProtectedPath {
	getenv := o.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	g := newGuard(paths, projectRoot, o, getenv)
	kind := func(k targetKind) string {
		switch k {
		case kindHooks:
			return "agent-settings"
		case kindStartup:
			return "startup"
		case kindSecret:
			return "secret"
		case kindRunsLater:
			return "runs-later"
		}
		return "airlock"
	}
	state := ""
	if paths.StateDir != "" {
		state = filepath.Clean(absPath(paths.StateDir, o.Cwd, paths.Home))
	}
	var out []ProtectedPath
	seen := map[string]bool{}
	add := func(t target) {
		p := filepath.Clean(t.path)
		if p == "" || p == "." || seen[p] {
			return
		}
		seen[p] = true
		out = append(out, ProtectedPath{Path: p, Dir: t.dir, Secret: t.kind == kindSecret, State: p == state, Kind: kind(t.kind)})
	}
	for _, t := range g.targets {
		add(t)
	}
	if g.secrets.path != "" {
		add(g.secrets)
	}
	if projectRoot != "" {
		for _, t := range targetsAt(projectRoot) {
			add(t)
		}
	}
	return out
}

// ProjectFiles lists the files and directories, relative to a project's
// root, that self-protection guards in every project: the project's own
// airlock policy and agent settings (refused, projectTails) and the agent
// configuration that runs commands (.mcp.json, .claude/commands, …:
// asked, agentConfigs). A sandbox that cannot know the project ahead of
// time (Claude Code's, installed for every project) names them relative
// to it. Kind is "airlock", "agent-settings", "startup" or
// "agent-config".
func ProjectFiles() []ProtectedPath {
	var out []ProtectedPath
	seen := map[string]bool{}
	add := func(rel string, dir bool, kind string) {
		if !seen[rel] {
			seen[rel] = true
			out = append(out, ProtectedPath{Path: rel, Dir: dir, Kind: kind})
		}
	}
	for _, t := range projectTails {
		kind := "agent-settings"
		switch t.kind {
		case kindAirlock:
			kind = "airlock"
		case kindStartup:
			kind = "startup"
		}
		add(t.rel, t.dir, kind)
	}
	for _, c := range agentConfigs {
		if c.scope == scopeProject {
			add(c.rel, c.dir, "agent-config")
		}
	}
	return out
}
