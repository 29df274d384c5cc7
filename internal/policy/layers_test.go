package policy

import (
	"errors"
	"os"
	"strings"
	"testing"
)

const personalPush = `
rules:
  - id: personal-push
    match:
      command: git push personal
    decision: allow
    message: my own fork
    examples:
      match: ["git -C x push personal main"]
      no_match: ["git push origin main"]
`

const envAllow = `
rules:
  - id: read-env
    match: {tool: Read, path: "**/.env"}
    decision: allow
`

const denyEnvRead = `
rules:
  - id: builtin.looks-built-in
    match: {tool: Read, path: "**/.env"}
    decision: deny
`

const denyCurl = `
rules:
  - id: no-curl
    match: {command: curl}
    decision: deny
    message: use the API client instead
`

// TestLayering checks how the layers combine: strictest wins, the user's
// allow relaxes built-in defaults, a project file only tightens unless
// trusted by hash, and a changed file is untrusted again.
func TestLayering(t *testing.T) {
	type setup struct {
		user, project string
		trust         bool // trust the project file
		change        bool // then change it
		env           map[string]string
	}
	tests := []struct {
		name   string
		setup  setup
		mode   Mode
		action Action
		want   Decision
		rule   string
	}{
		{"no files", setup{}, Interactive, shell("git push personal main"), Ask, "table.external"},
		{"user allow relaxes the table", setup{user: personalPush}, Interactive, shell("git push personal main"), Allow, "personal-push"},
		{"user allow relaxes through -C", setup{user: personalPush}, Unattended, shell("git -C ../r push personal main"), Allow, "personal-push"},
		{"user allow relaxes through bash -c", setup{user: personalPush}, Unattended, shell(`bash -c "git push personal"`), Allow, "personal-push"},
		{"user allow is per program run", setup{user: personalPush}, Interactive, shell("git push personal && git push origin"), Ask, "table.external"},
		{"user allow does not match another remote", setup{user: personalPush}, Interactive, shell("git push origin main"), Ask, "table.external"},
		{"user allow relaxes a built-in rule", setup{user: envAllow}, Interactive, Action{Kind: Read, Tool: "Read", Paths: []string{"/w/.env"}}, Allow, "read-env"},
		{"untrusted project allow does not relax", setup{project: personalPush}, Interactive, shell("git push personal main"), Ask, "table.external"},
		{"untrusted project allow cannot open secrets", setup{project: envAllow}, Interactive, Action{Kind: Read, Tool: "Read", Paths: []string{"/w/.env"}}, Ask, "builtin.secrets.env"},
		{"a user's deny stays a deny in interactive mode, whatever its id", setup{user: denyEnvRead}, Interactive, Action{Kind: Read, Tool: "Read", Paths: []string{"/w/.env"}}, Deny, "builtin.looks-built-in"},
		{"untrusted project allow cannot open secrets, unattended", setup{project: envAllow}, Unattended, Action{Kind: Read, Tool: "Read", Paths: []string{"/w/.env"}}, Deny, "builtin.secrets.env"},
		{"trusted project allow relaxes", setup{project: personalPush, trust: true}, Interactive, shell("git push personal main"), Allow, "personal-push"},
		{"changed project is untrusted again", setup{project: personalPush, trust: true, change: true}, Interactive, shell("git push personal main"), Ask, "table.external"},
		{"project deny tightens", setup{project: denyCurl}, Interactive, shell("curl https://example.com"), Deny, "no-curl"},
		{"user deny tightens", setup{user: denyCurl}, Interactive, shell("sudo curl https://example.com"), Deny, "no-curl"},
		{"deny beats allow in the same file", setup{user: personalPush + strings.TrimPrefix(denyCurl, "\nrules:\n")}, Interactive, shell("git push personal; curl x"), Deny, "no-curl"},
		{"user table loosens", setup{user: "table:\n  interactive:\n    external: warn\n"}, Interactive, shell("git push origin"), Warn, "table.external"},
		{"user table tightens", setup{user: "table:\n  interactive:\n    shared: ask\n"}, Interactive, shell("git commit -m x"), Ask, "table.shared"},
		{"project table tightens", setup{project: "table:\n  interactive:\n    shared: defer\n"}, Interactive, shell("git commit -m x"), Defer, "table.shared"},
		{"project table cannot loosen", setup{project: "table:\n  interactive:\n    external: allow\n"}, Interactive, shell("git push"), Ask, "table.external"},
		{"trusted project table loosens", setup{project: "table:\n  interactive:\n    external: warn\n", trust: true}, Interactive, shell("git push"), Warn, "table.external"},
		{"user allow does not undo a project tightening", setup{user: personalPush, project: "table:\n  interactive:\n    external: deny\n"}, Interactive, shell("git push personal"), Deny, "table.external"},
		{"user relaxes the unknown-tool default", setup{user: "rules:\n  - id: memory\n    match: {tool: \"mcp__memory__*\"}\n    decision: allow\n"}, Unattended, Action{Kind: UnknownTool, Tool: "mcp__memory__read"}, Allow, "memory"},
		{"tool glob does not match other servers", setup{user: "rules:\n  - id: memory\n    match: {tool: \"mcp__memory__*\"}\n    decision: allow\n"}, Unattended, Action{Kind: UnknownTool, Tool: "mcp__slack__post"}, Defer, "table.unknown"},
		{"host rule on WebFetch", setup{user: "rules:\n  - id: no-paste\n    match: {host: \"*.pastebin.com\"}\n    decision: deny\n"}, Interactive, Action{Kind: Fetch, Tool: "WebFetch", URL: "https://pastebin.com/raw/x"}, Deny, "no-paste"},
		{"host rule on curl", setup{user: "rules:\n  - id: no-paste\n    match: {host: \"*.pastebin.com\"}\n    decision: deny\n"}, Interactive, shell("curl -s https://www.pastebin.com/raw/x"), Deny, "no-paste"},
		{"host allow for an HTTP write", setup{user: "rules:\n  - id: local-api\n    match: {command: curl, host: localhost}\n    decision: allow\n"}, Unattended, shell("curl -X POST http://localhost:8080/x -d a=1"), Allow, "local-api"},
		{"tier rule", setup{user: "rules:\n  - id: no-shared\n    match: {tier: shared}\n    decision: ask\n"}, Interactive, shell("git commit -m x"), Ask, "no-shared"},
		{"destructive rule", setup{user: "rules:\n  - id: no-rm\n    match: {destructive: true}\n    decision: deny\n"}, Interactive, shell("rm -rf build"), Deny, "no-rm"},
		{"path rule on shell arguments", setup{user: "rules:\n  - id: prod\n    match: {command: psql, path: \"**/prod/**\"}\n    decision: deny\n"}, Interactive, Action{Kind: Shell, Tool: "Bash", Command: "psql -f prod/migrate.sql", Cwd: "/w"}, Deny, "prod"},
		{"project mode stricter applies", setup{project: "mode: unattended\n"}, -1, shell("git push"), Defer, "table.external"},
		{"project mode looser is ignored", setup{user: "mode: supervised\n", project: "mode: interactive\n"}, -1, shell("git push"), Defer, "table.external"},
		{"user mode", setup{user: "mode: unattended\n"}, -1, shell("git push"), Defer, "table.external"},
		{"AIRLOCK_MODE wins", setup{user: "mode: unattended\n", env: map[string]string{"AIRLOCK_MODE": "interactive"}}, -1, shell("git push"), Ask, "table.external"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			for k, v := range tt.setup.env {
				f.env[k] = v
			}
			if tt.setup.user != "" {
				f.userFile(tt.setup.user)
			}
			if tt.setup.project != "" {
				pf := f.projectFile(tt.setup.project)
				if tt.setup.trust {
					f.trust(pf)
				}
				if tt.setup.change {
					f.projectFile(tt.setup.project + "\n# edited\n")
				}
			}
			p := f.load()
			var v Verdict
			if tt.mode < 0 {
				v = p.Decide(tt.action)
			} else {
				v = p.DecideIn(tt.mode, tt.action)
			}
			if v.Decision != tt.want || v.Rule != tt.rule {
				t.Errorf("got %s by %s (%v), want %s by %s", v.Decision, v.Rule, v.Reasons, tt.want, tt.rule)
			}
		})
	}
}

func TestLayerStatus(t *testing.T) {
	f := newFixture(t)
	f.userFile(personalPush)
	pf := f.projectFile(denyCurl)
	status := func() LayerStatus { return f.load().Layers[2].Status }
	if got := status(); got != Untrusted {
		t.Errorf("fresh project file: %s", got)
	}
	f.trust(pf)
	if got := status(); got != Applied {
		t.Errorf("trusted project file: %s", got)
	}
	f.projectFile(denyCurl + "# more\n")
	if got := status(); got != Changed {
		t.Errorf("changed project file: %s", got)
	}
	p := f.load()
	if p.Layers[1].Status != Applied || p.Layers[1].Rules != 1 || p.Layers[0].Rules != len(builtinRules()) {
		t.Errorf("layers: %+v", p.Layers)
	}
}

func TestExplicitPolicy(t *testing.T) {
	f := newFixture(t)
	f.userFile(personalPush)
	f.projectFile(denyCurl)
	f.env["AIRLOCK_POLICY"] = f.write("only.yaml", "mode: unattended\n")
	p := f.load()
	if p.Mode != Unattended || len(p.Layers) != 2 || p.Layers[1].File != f.env["AIRLOCK_POLICY"] {
		t.Errorf("AIRLOCK_POLICY should replace the other files: mode %s, layers %+v", p.Mode, p.Layers)
	}
	f.env["AIRLOCK_POLICY"] = f.path("missing.yaml")
	if _, err := Load(f.options()); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing AIRLOCK_POLICY file must be an error, got %v", err)
	}
}

func TestProjectFromClaudeProjectDir(t *testing.T) {
	f := newFixture(t)
	f.write("elsewhere/"+ProjectFile, denyCurl)
	o := f.options()
	o.ProjectDir = f.path("elsewhere")
	p, err := Load(o)
	if err != nil {
		t.Fatal(err)
	}
	if v := p.Decide(shell("curl x")); v.Rule != "no-curl" {
		t.Errorf("project dir not used: %s", v.Rule)
	}
}

func TestUserExamples(t *testing.T) {
	f := newFixture(t)
	f.userFile(personalPush + `  - id: wrong
    match: {command: "npm publish"}
    decision: deny
    examples:
      match: ["npm install"]
      no_match: [{tool: Read, path: /x}]
`)
	var bad []string
	for _, r := range f.load().RunExamples() {
		if !r.OK() {
			bad = append(bad, r.Rule.ID)
		}
	}
	if strings.Join(bad, ",") != "wrong" {
		t.Errorf("failing examples: %v", bad)
	}
}
