package classify

import (
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file rates, by verb tables (see registry.go), the hosted services
// and their CLIs that the held-out corpus found unknown: package indexes
// of smaller ecosystems, deploy tools, database services, cluster
// deployers, object stores, chat and notification senders, and WebSocket
// clients. A tool whose verbs are resource commands ("hcloud server
// delete") is rated by resourceVerb, which fails closed: a second word it
// does not know as a read is a write.

// resourceReads are the second words of a resource command that only read.
func resourceReads(name string) bool {
	switch name {
	case "list", "ls", "get", "show", "describe", "info", "status", "diff", "history", "logs", "log",
		"wait", "manifests", "resources", "inspect", "view", "connection-string", "cs":
		return true
	}
	return false
}

// resourceVerb rates "tool RESOURCE ACTION": a read action reads, delete
// deletes and anything else writes. Verbs the table names keep their rate.
func resourceVerb(_ *shell.Invocation, p argv.Parsed, verb string, e verbEffect) verbEffect {
	if len(p.Operands) < 2 || strings.Contains(verb, " ") {
		return e
	}
	if e != vWrite {
		return e // the table named the verb, or the tool's no-operand rate
	}
	switch a := p.Operands[1]; {
	case resourceReads(a):
		return vRead
	case a == "delete" || a == "rm" || a == "destroy" || a == "purge" || a == "remove":
		return vDelete
	}
	return vWrite
}

// remoteStoreURL reports whether a path names an object store.
func remoteStoreURL(s string) bool {
	for _, pre := range []string{"s3://", "gs://", "az://", "r2://", "b2://"} {
		if strings.HasPrefix(s, pre) {
			return true
		}
	}
	return false
}

// serviceTables are the verb tables of services.go: data the compiler lays out in the
// binary, which serviceSpecs makes into specs.
var serviceTables = [...]verbTable{
	// Package indexes of smaller ecosystems: the upload verbs publish.
	{
		programs: []string{"maturin"},
		opts:     argv.Spec{Short: "mio", Long: []string{"--manifest-path", "--interpreter", "--out", "--target", "--features", "--repository", "--repository-url", "--username", "--password", "--compatibility"}},
		verbs:    verbList{{"publish", vWrite}, {"upload", vWrite}, {"build", vLocal}, {"develop", vLocal}, {"sdist", vLocal}, {"new", vLocal}, {"init", vLocal}, {"", vLocal}},
		def:      vLocal,
		what:     "a package index",
		examples: []Example{
			Example{"maturin publish --skip-existing", "external"},
			Example{"maturin upload target/wheels/*", "external"},
			Example{"maturin build --release", "local"},
		},
	},
	{
		programs: []string{"cabal", "stack"},
		opts:     argv.Spec{Long: []string{"--project-file", "--builddir", "--stack-yaml", "--resolver", "--username", "--password", "--token"}},
		verbs:    verbList{{"upload", vWrite}, {"v2-upload", vWrite}, {"update", vRead}, {"install", vInstall}, {"build", vLocal}, {"test", vLocal}, {"run", vLocal}, {"sdist", vLocal}, {"", vLocal}},
		def:      vLocal,
		what:     "Hackage",
		examples: []Example{
			Example{"cabal upload --publish dist-newstyle/sdist/a-0.1.tar.gz", "external"},
			Example{"stack upload .", "external"},
			Example{"cabal build all", "local"},
			Example{"stack test", "local"},
		},
	},
	{
		programs: []string{"luarocks", "opam", "nimble", "anaconda"},
		opts:     argv.Spec{Short: "ut", Long: []string{"--api-key", "--server", "--tree", "--user", "--token", "--label", "--root", "--switch"}},
		verbs: verbList{{"upload", vWrite}, {"publish", vWrite}, {"install", vInstall}, {"search", vRead}, {"update", vRead},
			{"remove", vDelete}, {"build", vLocal}, {"test", vLocal}, {"make", vLocal}, {"pack", vLocal}, {"list", vLocal}, {"show", vLocal}, {"", vLocal}},
		def:  vLocal,
		what: "a package index",
		refine: func(inv *shell.Invocation, _ argv.Parsed, verb string, e verbEffect) verbEffect {
			// Only anaconda's remove deletes from the index; the others
			// remove a package from this machine.
			if verb == "remove" && inv.Name() != "anaconda" {
				return vLocal
			}
			return e
		},
		examples: []Example{
			Example{"luarocks upload a-1.0-1.rockspec --api-key=k", "external"},
			Example{"opam publish", "external"},
			Example{"nimble publish", "external"},
			Example{"anaconda upload dist/a.tar.bz2", "external"},
			Example{"anaconda remove me/a/1.0", "external+destructive"},
			Example{"nimble build", "local"},
			Example{"luarocks pack a", "local"},
		},
	},
	{
		programs: []string{"lein"},
		opts:     argv.Spec{Short: "o"},
		verbs:    verbList{{"deploy", vWrite}, {"release", vWrite}, {"test", vLocal}, {"run", vLocal}, {"uberjar", vLocal}, {"jar", vLocal}, {"repl", vLocal}, {"deps", vRead}, {"", vLocal}},
		def:      vLocal,
		what:     "a Maven repository",
		examples: []Example{
			Example{"lein deploy clojars", "external"},
			Example{"lein test", "local"},
		},
	},
	// Deploy tools: what they run changes servers elsewhere.
	{
		programs: []string{"deployctl"},
		opts:     argv.Spec{Long: []string{"--project", "--token", "--entrypoint", "--org", "--include", "--exclude", "--import-map"}},
		verbs:    verbList{{"deploy", vWrite}, {"logs", vRead}, {"projects", vRead}, {"deployments", vRead}, {"upgrade", vRead}, {"", vLocal}},
		def:      vWrite,
		what:     "Deno Deploy",
		examples: []Example{
			Example{"deployctl deploy --project=a main.ts", "external"},
			Example{"deployctl logs --project=a", "local+netread"},
		},
	},
	{
		programs: []string{"kamal", "cap"},
		opts:     argv.Spec{Short: "cd", Long: []string{"--config-file", "--destination", "--hosts", "--roles", "--version"}},
		verbs:    verbList{{"", vLocal}, {"init", vLocal}, {"config", vLocal}, {"version", vLocal}, {"-T", vLocal}, {"details", vRead}, {"audit", vRead}},
		def:      vWrite,
		what:     "the servers it deploys to",
		examples: []Example{
			Example{"kamal deploy", "external"},
			Example{"cap production deploy", "external"},
			Example{"kamal config", "local"},
			Example{"cap -T", "local"},
		},
	},
	{
		programs: []string{"surge"},
		opts:     argv.Spec{Short: "pd", Long: []string{"--project", "--domain", "--endpoint"}},
		verbs:    verbList{{"teardown", vDelete}, {"list", vRead}, {"login", vLocal}, {"logout", vLocal}, {"whoami", vRead}, {"", vWrite}},
		def:      vWrite,
		what:     "surge.sh hosting",
		examples: []Example{
			Example{"surge ./dist a.surge.sh", "external"},
			Example{"surge teardown a.surge.sh", "external+destructive"},
			Example{"surge list", "local+netread"},
		},
	},
	{
		programs: []string{"helmfile"},
		opts:     argv.Spec{Short: "eflnc", Long: []string{"--environment", "--file", "--selector", "--namespace", "--kube-context", "--state-values-file", "--state-values-set", "--helm-binary"}},
		verbs: verbList{{"apply", vWrite}, {"sync", vWrite}, {"deploy", vWrite}, {"destroy", vDelete}, {"delete", vDelete},
			{"diff", vRead}, {"status", vRead}, {"list", vLocal}, {"template", vLocal}, {"lint", vLocal}, {"build", vLocal}, {"deps", vRead}, {"repos", vRead}, {"fetch", vRead}, {"write-values", vLocal}, {"", vWrite}},
		def:  vWrite,
		what: "a Kubernetes cluster",
		examples: []Example{
			Example{"helmfile -e prod apply", "external"},
			Example{"helmfile destroy", "external+destructive"},
			Example{"helmfile diff", "local+netread"},
			Example{"helmfile template", "local"},
		},
	},
	{
		programs: []string{"skaffold"},
		opts:     argv.Spec{Short: "pfn", Long: []string{"--profile", "--filename", "--namespace", "--kube-context", "--default-repo", "--tag", "--module"}},
		verbs: verbList{{"run", vWrite}, {"deploy", vWrite}, {"apply", vWrite}, {"dev", vWrite}, {"debug", vWrite}, {"build", vWrite}, {"verify", vWrite},
			{"delete", vDelete}, {"render", vLocal}, {"diagnose", vLocal}, {"fix", vLocal}, {"init", vLocal}, {"schema", vLocal}, {"version", vLocal}, {"config", vLocal}, {"test", vLocal}, {"", vLocal}},
		def:  vWrite,
		what: "a cluster and its image registry",
		examples: []Example{
			Example{"skaffold run -p prod", "external"},
			Example{"skaffold delete", "external+destructive"},
			Example{"skaffold render", "local"},
		},
	},
	{
		programs: []string{"argocd"},
		opts:     argv.Spec{Short: "po", Long: []string{"--server", "--auth-token", "--project", "--revision", "--output", "--grpc-web-root-path"}},
		verbs:    verbList{{"", vLocal}, {"version", vLocal}, {"login", vLocal}, {"logout", vLocal}, {"context", vLocal}, {"completion", vLocal}},
		def:      vWrite,
		what:     "Argo CD",
		refine:   resourceVerb,
		examples: []Example{
			Example{"argocd app sync prod", "external"},
			Example{"argocd app delete prod", "external+destructive"},
			Example{"argocd app diff prod", "local+netread"},
			Example{"argocd app list", "local+netread"},
			Example{"argocd version", "local"},
		},
	},
	{
		programs: []string{"nomad"},
		opts:     argv.Spec{Long: []string{"-address", "-region", "-namespace", "-token", "-var", "-var-file"}},
		verbs: verbList{{"run", vWrite}, {"job run", vWrite}, {"job stop", vWrite}, {"stop", vWrite}, {"exec", vWrite}, {"alloc exec", vWrite},
			{"job plan", vRead}, {"plan", vRead}, {"status", vRead}, {"job status", vRead}, {"node status", vRead}, {"alloc status", vRead},
			{"alloc logs", vRead}, {"logs", vRead}, {"job inspect", vRead}, {"inspect", vRead}, {"job validate", vLocal}, {"validate", vLocal},
			{"fmt", vLocal}, {"version", vLocal}, {"agent", vShared}, {"", vLocal}},
		def:    vWrite,
		what:   "a Nomad cluster",
		refine: resourceVerb,
		examples: []Example{
			Example{"nomad job run deploy.nomad", "external"},
			Example{"nomad namespace delete team", "external+destructive"},
			Example{"nomad job status web", "local+netread"},
			Example{"nomad fmt", "local"},
		},
	},
	{
		programs: []string{"hcloud", "neonctl", "neon", "pscale"},
		opts:     argv.Spec{Short: "o", Long: []string{"--context", "--output", "--project-id", "--org", "--org-id", "--api-key", "--service-token", "--service-token-id"}},
		verbs: verbList{{"", vLocal}, {"version", vLocal}, {"context", vLocal}, {"auth", vLocal}, {"completion", vLocal}, {"me", vRead},
			{"shell", vWrite}, {"connect", vWrite}},
		def:    vWrite,
		what:   "a cloud service",
		refine: resourceVerb,
		examples: []Example{
			Example{"hcloud server delete web-1", "external+destructive"},
			Example{"hcloud server create --name a --type cx22 --image debian-12", "external"},
			Example{"hcloud server list", "local+netread"},
			Example{"neonctl branches delete preview", "external+destructive"},
			Example{"neonctl branches list", "local+netread"},
			Example{"pscale deploy-request deploy app 12", "external"},
			Example{"pscale branch list app", "local+netread"},
			Example{"hcloud version", "local"},
		},
	},
	{
		programs: []string{"supabase"},
		opts:     argv.Spec{Long: []string{"--project-ref", "--db-url", "--workdir", "--password", "--output"}},
		verbs: verbList{{"db push", vWrite}, {"db reset", vSharedDelete}, {"db pull", vRead}, {"db diff", vLocal}, {"db lint", vLocal}, {"db start", vShared},
			{"functions deploy", vWrite}, {"functions delete", vDelete}, {"secrets set", vWrite}, {"secrets unset", vDelete}, {"projects delete", vDelete},
			{"projects list", vRead}, {"storage rm", vDelete}, {"storage cp", vWrite}, {"storage ls", vRead}, {"migration new", vLocal}, {"migration list", vRead},
			{"init", vLocal}, {"start", vShared}, {"stop", vShared}, {"status", vLocal}, {"login", vLocal}, {"link", vLocal}, {"gen", vLocal}, {"test", vLocal}, {"", vLocal}},
		def:  vWrite,
		what: "a Supabase project",
		refine: func(inv *shell.Invocation, _ argv.Parsed, verb string, e verbEffect) verbEffect {
			// db reset is the local development database unless --linked
			// or --db-url points it at a project.
			if verb == "db reset" && (hasAny(inv.Args, "--linked") || hasPrefixArg(inv.Args, "--db-url")) {
				return vDelete
			}
			return e
		},
		examples: []Example{
			Example{"supabase db push", "external"},
			Example{"supabase db reset --linked", "external+destructive"},
			Example{"supabase db reset", "shared+destructive"},
			Example{"supabase functions deploy hello", "external"},
			Example{"supabase init", "local"},
		},
	},
	{
		programs: []string{"turso"},
		opts:     argv.Spec{Long: []string{"--group", "--location", "--from-file", "--from-db", "--instance"}},
		verbs: verbList{{"db destroy", vDelete}, {"db create", vWrite}, {"db list", vRead}, {"db show", vRead}, {"db tokens", vRead},
			{"group destroy", vDelete}, {"auth", vLocal}, {"dev", vLocal}, {"", vLocal}},
		def:  vWrite,
		what: "a Turso database",
		refine: func(inv *shell.Invocation, p argv.Parsed, verb string, e verbEffect) verbEffect {
			// db shell DB [SQL]: the statement says what it does; without
			// one the shell reads statements nobody sees here.
			if verb != "db shell" && !(len(p.Operands) >= 2 && p.Operands[0]+" "+p.Operands[1] == "db shell") {
				return e
			}
			if len(p.Operands) < 4 {
				return vWrite
			}
			var a sqlAnalysis
			sqlText(nil, &a, strings.Join(p.Operands[3:], " "), sqlDialect{})
			switch {
			case a.worst.level >= 2:
				return vDelete
			case a.worst.level == 1:
				return vWrite
			}
			return vRead
		},
		examples: []Example{
			Example{`turso db shell prod "DELETE FROM sessions"`, "external+destructive"},
			Example{`turso db shell prod "INSERT INTO t VALUES (1)"`, "external"},
			Example{`turso db shell prod "SELECT 1"`, "local+netread"},
			Example{"turso db list", "local+netread"},
		},
	},
	// Object stores.
	{
		programs: []string{"s5cmd"},
		opts:     argv.Spec{Long: []string{"--endpoint-url", "--profile", "--credentials-file", "--numworkers", "--retry-count", "--log", "--storage-class", "--cache-control", "--expires", "--acl", "--content-type", "--concurrency", "--part-size"}},
		verbs:    verbList{{"rm", vDelete}, {"rb", vDelete}, {"ls", vRead}, {"cat", vRead}, {"du", vRead}, {"head", vRead}, {"mb", vWrite}, {"run", vWrite}, {"version", vLocal}, {"", vLocal}},
		def:      vWrite,
		what:     "an object store",
		refine: func(inv *shell.Invocation, p argv.Parsed, verb string, e verbEffect) verbEffect {
			// cp, mv and sync write to the store only when the
			// destination is in it; sync --delete also deletes there.
			if verb != "cp" && verb != "mv" && verb != "sync" && verb != "pipe" || len(p.Operands) < 2 {
				return e
			}
			if !remoteStoreURL(p.Operands[len(p.Operands)-1]) {
				return vRead
			}
			if verb == "sync" && hasAny(inv.Args, "--delete") {
				return vDelete
			}
			return vWrite
		},
		examples: []Example{
			Example{"s5cmd cp 'logs/*.gz' s3://b/", "external"},
			Example{"s5cmd rm 's3://b/*'", "external+destructive"},
			Example{"s5cmd sync --delete dist/ s3://b/", "external+destructive"},
			Example{"s5cmd cp 's3://b/*' ./in/", "local+netread"},
			Example{"s5cmd ls s3://b", "local+netread"},
		},
	},
	// Chat and notification senders: running them sends a message.
	{
		programs: []string{"telegram-send", "slackcat", "apprise", "matrix-commander", "discord.sh"},
		opts:     argv.Spec{Short: "cbtm", Long: []string{"--channel", "--body", "--title", "--config", "--message", "--room", "--webhook-url", "--text", "--filename", "--format"}},
		verbs:    verbList{{"", vWrite}},
		def:      vWrite,
		what:     "a chat service",
		examples: []Example{
			Example{`telegram-send "done"`, "external"},
			Example{"slackcat --channel general .env", "external"},
			Example{"telegram-send --version", "local"},
		},
	},
	{
		programs: []string{"signal-cli"},
		opts:     argv.Spec{Short: "auc", Long: []string{"--account", "--config", "--username", "--output", "--message", "--recipient"}},
		verbs:    verbList{{"receive", vRead}, {"listContacts", vLocal}, {"listGroups", vLocal}, {"listIdentities", vLocal}, {"link", vLocal}, {"register", vWrite}, {"", vLocal}},
		def:      vWrite,
		what:     "Signal",
		examples: []Example{
			Example{"signal-cli -u +15550100 send -m hi +15550199", "external"},
			Example{"signal-cli -u +15550100 receive", "local+netread"},
		},
	},
	{
		programs: []string{"ntfy"},
		opts:     argv.Spec{Short: "tcpu", Long: []string{"--title", "--config", "--priority", "--tags", "--user", "--token", "--attach", "--file", "--delay", "--email", "--click"}},
		verbs:    verbList{{"publish", vWrite}, {"pub", vWrite}, {"send", vWrite}, {"trigger", vWrite}, {"subscribe", vRead}, {"sub", vRead}, {"serve", vShared}, {"", vLocal}},
		def:      vLocal,
		what:     "a notification server",
		examples: []Example{
			Example{`ntfy publish builds "green"`, "external"},
			Example{"ntfy subscribe builds", "local+netread"},
		},
	},
	// WebSocket clients send what they read to the server.
	{
		programs: []string{"websocat", "wscat"},
		opts:     argv.Spec{Short: "cHxlsPw", Long: []string{"--connect", "--header", "--execute", "--listen", "--subprotocol", "--protocol", "--origin", "--auth", "--wait", "--ping-interval", "--max-messages"}},
		verbs:    verbList{{"", vLocal}},
		def:      vWrite,
		what:     "a WebSocket server",
		refine: func(inv *shell.Invocation, _ argv.Parsed, verb string, e verbEffect) verbEffect {
			if hasAny(inv.Args, "-c", "--connect") || hasPrefixArg(inv.Args, "--connect=") {
				return vWrite
			}
			return e
		},
		examples: []Example{
			Example{"websocat wss://x.example/ws < .env", "external"},
			Example{"wscat -c wss://x.example -x hi", "external"},
			Example{"wscat --version", "local"},
		},
	},
	// aria2 downloads.
	{
		programs: []string{"aria2c"},
		opts:     argv.Spec{Short: "xsdojiUl", Long: []string{"--dir", "--out", "--split", "--max-connection-per-server", "--input-file", "--user-agent", "--header", "--log", "--checksum"}},
		verbs:    verbList{{"", vLocal}},
		def:      vRead,
		what:     "the internet",
		refine: func(inv *shell.Invocation, p argv.Parsed, _ string, e verbEffect) verbEffect {
			// A torrent or magnet link is seeded to other peers after the
			// download (seed ratio 1.0 by default): that uploads.
			if hasAny(inv.Args, "--seed-time=0") {
				return e
			}
			for _, o := range p.Operands {
				if strings.HasSuffix(o, ".torrent") || strings.HasPrefix(o, "magnet:") {
					return vWrite
				}
			}
			return e
		},
		examples: []Example{
			Example{"aria2c -x4 https://example.com/a.iso", "local+netread"},
			Example{"aria2c ubuntu.iso.torrent", "external"},
			Example{"aria2c --seed-time=0 ubuntu.iso.torrent", "local+netread"},
			Example{"aria2c --version", "local"},
		},
	},
}

// serviceSpecs returns the verb-table specs of hosted services (specTable lists
// them).
func serviceSpecs() []*Spec { return verbSpecs(serviceTables[:]) }

// curlieSpec rates curlie, which takes curl's options and httpie's
// METHOD URL key=value words in one command line: it is rated both ways
// and the reading that reaches further wins, so neither grammar hides a
// write.
var curlieSpec = &Spec{
	Programs: []string{"curlie"},
	Classify: func(c *Classifier, inv *shell.Invocation) Effect {
		a, b := classifyCurl(c, inv), classifyHTTPie(c, inv)
		if reach(b) > reach(a) {
			return b
		}
		return a
	},
	Examples: []Example{
		{`curlie -X POST https://api.example.com/run -d '{"a":1}'`, "external"},
		{"curlie PUT https://api.example.com/keys/1 value=x", "external"},
		{"curlie https://api.github.com/zen", "local+netread"},
	},
}

// reach orders effects by how far they go, for picking between readings.
func reach(e Effect) int {
	r := int(e.Tier) * 8
	if e.Destructive {
		r += 4
	}
	if e.Opaque {
		r += 2
	}
	if e.NetworkRead {
		r++
	}
	return r
}
