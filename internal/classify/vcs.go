package classify

import (
	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file rates version control systems other than git, and the stacked
// review tools and forge CLIs that push for git, by verb tables (see
// registry.go): their push, commit-to-server and review-upload verbs
// write to a remote like git push does.

// vcsTables are the verb tables of vcs.go: data the compiler lays out in the
// binary, which vcsSpecs makes into specs.
var vcsTables = [...]verbTable{
	{
		programs: []string{"hg", "chg", "sl"},
		opts:     argv.Spec{Short: "Rre", Long: []string{"--repository", "--cwd", "--config", "--rev", "--to", "--dest", "--ssh", "--remotecmd", "--encoding"}},
		verbs: verbList{{"push", vWrite}, {"email", vWrite}, {"phabsend", vWrite}, {"pr", vWrite}, {"ghstack", vWrite}, {"cloud", vWrite},
			{"outgoing", vRead}, {"out", vRead}, {"incoming", vRead}, {"in", vRead}, {"pull", vRead}, {"clone", vRead}},
		def:  vLocal,
		what: "a remote repository",
		refine: func(_ *shell.Invocation, p argv.Parsed, verb string, e verbEffect) verbEffect {
			// sl pr list only reads.
			if verb == "pr" && len(p.Operands) > 1 && resourceReads(p.Operands[1]) {
				return vRead
			}
			return e
		},
		examples: []Example{
			Example{"hg push", "external"},
			Example{"sl push --to main", "external"},
			Example{"hg outgoing", "local+netread"},
			Example{"hg status", "local"},
			Example{"sl pr list", "local+netread"},
		},
	},
	{
		programs: []string{"svn"},
		opts:     argv.Spec{Short: "mrFl", Long: []string{"--message", "--revision", "--file", "--username", "--password", "--depth", "--limit", "--config-dir", "--config-option", "--targets"}},
		verbs: verbList{{"commit", vWrite}, {"ci", vWrite}, {"import", vWrite}, {"lock", vWrite}, {"unlock", vWrite},
			{"update", vRead}, {"up", vRead}, {"checkout", vRead}, {"co", vRead}, {"export", vRead}, {"log", vRead}, {"ls", vRead}, {"list", vRead}, {"cat", vRead}},
		def:  vLocal,
		what: "a Subversion server",
		refine: func(_ *shell.Invocation, p argv.Parsed, verb string, e verbEffect) verbEffect {
			// On URLs, delete, mkdir, copy and move commit at once.
			switch verb {
			case "delete", "del", "remove", "rm", "mkdir", "copy", "cp", "move", "mv", "rename", "ren", "propset", "ps":
				for _, o := range p.Operands[1:] {
					if hasURLScheme(o) {
						if verb == "delete" || verb == "del" || verb == "remove" || verb == "rm" {
							return vDelete
						}
						return vWrite
					}
				}
			}
			return e
		},
		examples: []Example{
			Example{`svn commit -m "release"`, "external"},
			Example{"svn delete https://svn.example.org/repo/branches/old -m x", "external+destructive"},
			Example{"svn delete old.c", "local"},
			Example{"svn status", "local"},
			Example{"svn log -l 5", "local+netread"},
		},
	},
	{
		programs: []string{"fossil"},
		opts:     argv.Spec{Short: "Rm", Long: []string{"--repository", "--message", "--user"}},
		// commit autosyncs (pushes) in fossil's default setting.
		verbs: verbList{{"push", vWrite}, {"sync", vWrite}, {"commit", vWrite}, {"ci", vWrite}, {"pull", vRead}, {"clone", vRead}, {"update", vRead}},
		def:   vLocal,
		what:  "a remote repository",
		examples: []Example{
			Example{"fossil push", "external"},
			Example{"fossil status", "local"},
		},
	},
	{
		programs: []string{"p4"},
		opts:     argv.Spec{Short: "cdpuPCHLQxz", Long: nil},
		verbs:    verbList{{"submit", vWrite}, {"shelve", vWrite}, {"populate", vWrite}, {"obliterate", vDelete}, {"sync", vRead}, {"changes", vRead}, {"describe", vRead}, {"print", vRead}, {"files", vRead}},
		def:      vLocal,
		what:     "a Perforce server",
		examples: []Example{
			Example{`p4 submit -d "release"`, "external"},
			Example{"p4 obliterate -y //depot/old/...", "external+destructive"},
			Example{"p4 opened", "local"},
		},
	},
	// Tools that push git branches and open reviews for them.
	{
		programs: []string{"git-town", "gt", "spr", "ghstack", "git-machete"},
		opts:     argv.Spec{Short: "m", Long: []string{"--message", "--title", "--body"}},
		verbs: verbList{{"ship", vWrite}, {"sync", vWrite}, {"propose", vWrite}, {"new-pull-request", vWrite}, {"submit", vWrite}, {"ss", vWrite},
			{"stack submit", vWrite}, {"downstack submit", vWrite}, {"upstack submit", vWrite}, {"diff", vWrite}, {"land", vWrite}, {"merge", vWrite}, {"github", vWrite},
			{"", vLocal}, {"log", vLocal}, {"ls", vLocal}, {"status", vLocal}, {"checkout", vLocal}, {"create", vLocal}, {"modify", vLocal}, {"config", vLocal}, {"hack", vLocal}},
		def:  vLocal,
		what: "a remote repository and its reviews",
		refine: func(inv *shell.Invocation, _ argv.Parsed, verb string, e verbEffect) verbEffect {
			// ghstack alone submits the stack.
			if verb == "" && inv.Name() == "ghstack" {
				return vWrite
			}
			return e
		},
		examples: []Example{
			Example{"git-town ship", "external"},
			Example{"gt submit --stack", "external"},
			Example{"ghstack", "external"},
			Example{"gt log", "local"},
		},
	},
	{
		programs: []string{"tea"},
		opts:     argv.Spec{Short: "rlot", Long: []string{"--repo", "--login", "--output", "--remote", "--title", "--tag", "--description", "--note", "--head", "--base"}},
		verbs:    verbList{{"", vLocal}, {"login", vLocal}, {"logins", vLocal}, {"logout", vLocal}, {"whoami", vRead}, {"clone", vRead}, {"open", vLocal}, {"notifications", vRead}},
		def:      vWrite,
		what:     "a Gitea server",
		refine: func(inv *shell.Invocation, p argv.Parsed, verb string, e verbEffect) verbEffect {
			// tea GROUP [ACTION]: a group alone lists it.
			if e == vWrite && len(p.Operands) == 1 {
				return vRead
			}
			return resourceVerb(inv, p, verb, e)
		},
		examples: []Example{
			Example{"tea releases create --tag v1.2.0", "external"},
			Example{"tea pulls create --title x", "external"},
			Example{"tea releases delete v1", "external+destructive"},
			Example{"tea pulls", "local+netread"},
			Example{"tea issues list", "local+netread"},
		},
	},
	{
		programs: []string{"repo"},
		opts:     argv.Spec{Short: "bmuj", Long: []string{"--branch", "--manifest-url", "--manifest-name", "--jobs", "--reviewers", "--cc"}},
		verbs:    verbList{{"upload", vWrite}, {"sync", vRead}, {"init", vRead}, {"", vLocal}},
		def:      vLocal,
		what:     "a Gerrit server",
		examples: []Example{
			Example{"repo upload --cbr .", "external"},
			Example{"repo status", "local"},
		},
	},
}

// vcsSpecs returns the verb-table specs of version control systems other than git (specTable lists
// them).
func vcsSpecs() []*Spec { return verbSpecs(vcsTables[:]) }

// hasURLScheme reports whether s starts with a URL scheme (svn://, https://).
func hasURLScheme(s string) bool {
	for i := 0; i < len(s) && i < 16; i++ {
		c := s[i]
		if c == ':' {
			return i > 0 && len(s) > i+2 && s[i+1] == '/' && s[i+2] == '/'
		}
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+') {
			return false
		}
	}
	return false
}
