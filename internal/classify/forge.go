package classify

import (
	"github.com/airlock-dev/airlock/internal/firstuse"
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file rates the forge CLIs, gh (GitHub) and glab (GitLab). Their
// commands are "TOOL GROUP VERB": a table per tool says what each verb of
// each group does, and `api` is read from its method and fields. It also
// holds helpers the other deploy and publish files share (help detection,
// re-classifying a command a tool runs).

// forgeKind is what one forge subcommand does.
type forgeKind int8

const (
	forgeRead       forgeKind = iota // reads from the forge: local+netread
	forgeWrite                       // changes something on the forge: external
	forgeDelete                      // deletes content on the forge: external+destructive
	forgeShared                      // changes this machine's login, config or checkout: shared
	forgeSharedRead                  // fetches and changes local state: shared+netread
	forgeLocal                       // stays on this machine
	forgeOpaque                      // runs code airlock cannot see
)

// forgeGroup describes one command group (pr, issue, ...).
type forgeGroup struct {
	// noun names what the group acts on, for reasons: "a pull request".
	noun string
	// verbs maps each verb (and its aliases) to its kind.
	verbs map[string]forgeKind
}

// forgeCLI describes one forge tool.
type forgeCLI struct {
	name   string // "gh"
	site   string // "GitHub"
	groups map[string]forgeGroup
	// top rates the commands that are not groups (gh status).
	top map[string]Effect
	// path lists the options that may come before the verb and take a
	// value (-R owner/repo), so their values are not read as the verb.
	path argv.Spec
	// api lists the options of the api command that take a value.
	api argv.Spec
}

// forgeWriteVerbs are verbs that change something remotely, used for verbs
// a group's table does not list.
func forgeWriteVerbs(name string) bool {
	switch name {
	case "create", "new", "edit", "update", "set", "add", "merge", "close", "reopen", "comment", "note",
		"review", "approve", "upload", "run", "rerun", "retry", "cancel", "enable", "disable", "rename",
		"archive", "unarchive", "transfer", "lock", "unlock", "pin", "unpin", "fork", "trigger", "import",
		"link", "unlink", "copy", "mark-template", "revoke", "rotate":
		return true
	}
	return false
}

// forgeVerbPhrase words a reason by verb; anything else "changes".
var forgeVerbPhrase = firstuse.Table[map[string]string]{Build: func() map[string]string {
	return map[string]string{
		"create": "creates", "new": "creates", "merge": "merges", "close": "closes", "comment": "posts a comment on",
		"note": "posts a comment on", "review": "posts a review on", "edit": "edits", "update": "edits",
		"ready": "marks as ready", "reopen": "reopens", "delete": "deletes", "del": "deletes", "rm": "deletes",
		"remove": "deletes", "upload": "uploads assets to", "run": "starts", "rerun": "re-runs",
		"retry": "re-runs", "cancel": "cancels", "enable": "enables", "disable": "disables", "set": "sets",
		"fork": "forks", "rename": "renames", "archive": "archives", "approve": "approves", "transfer": "transfers",
		"add": "adds", "lock": "locks", "unlock": "unlocks", "trigger": "triggers",
		"ssh": "runs a remote shell in", "cp": "copies files into",
	}
}}

// forgeVerbs builds a verb table from lists of verbs per kind.
func forgeVerbs(read, write, del string) map[string]forgeKind {
	m := map[string]forgeKind{}
	for _, v := range strings.Fields(read) {
		m[v] = forgeRead
	}
	for _, v := range strings.Fields(write) {
		m[v] = forgeWrite
	}
	for _, v := range strings.Fields(del) {
		m[v] = forgeDelete
	}
	return m
}

// with adds verbs of another kind to a table.
func forgeWith(m map[string]forgeKind, k forgeKind, verbs string) map[string]forgeKind {
	for _, v := range strings.Fields(verbs) {
		m[v] = k
	}
	return m
}

// ghCLI and glabCLI are built on first use: their tables cost start-up
// time a hook process that never meets gh should not pay.
var ghCLI = firstuse.Table[*forgeCLI]{Build: func() *forgeCLI {
	return &forgeCLI{
		name: "gh", site: "GitHub", top: ghTop(),
		path: argv.Spec{Short: "R", Long: []string{"--repo", "--hostname"}},
		api:  argv.Spec{Short: "XfFHqtp", Long: []string{"--method", "--raw-field", "--field", "--header", "--input", "--jq", "--template", "--cache", "--hostname", "--preview"}},
		groups: map[string]forgeGroup{
			"pr": {"a pull request", forgeWith(forgeVerbs("view list ls status diff checks",
				"create new merge close comment review edit ready reopen lock unlock update-branch revert", ""),
				forgeSharedRead, "checkout co")},
			"issue": {"an issue", forgeVerbs("view list ls status",
				"create new comment close edit reopen lock unlock pin unpin transfer develop", "delete")},
			"release": {"a release", forgeWith(forgeVerbs("view list ls download verify verify-asset",
				"create new upload edit", "delete delete-asset"), forgeRead, "download")},
			"repo": {"a repository", forgeWith(forgeVerbs("view list ls license gitignore",
				"create new edit fork rename archive unarchive sync autolink deploy-key", "delete"),
				forgeShared, "set-default")},
			"workflow": {"a workflow", forgeVerbs("view list ls", "run enable disable", "")},
			"run":      {"a workflow run", forgeVerbs("view list ls watch download", "rerun cancel", "delete")},
			"gist":     {"a gist", forgeVerbs("view list ls clone", "create new edit rename", "delete")},
			"secret":   {"a secret", forgeVerbs("list ls", "set delete remove", "")},
			"variable": {"a variable", forgeVerbs("list ls get", "set delete remove", "")},
			"label":    {"a label", forgeVerbs("list ls", "create edit clone", "delete")},
			"cache":    {"an Actions cache", forgeVerbs("list ls", "delete", "")},
			"ssh-key":  {"an SSH key", forgeVerbs("list ls", "add", "delete")},
			"gpg-key":  {"a GPG key", forgeVerbs("list ls", "add", "delete")},
			"project": {"a project", forgeVerbs("view list ls item-list field-list",
				"create edit close copy link unlink mark-template item-add item-create item-edit item-archive field-create",
				"delete item-delete field-delete")},
			"codespace": {"a codespace", forgeVerbs("view list ls logs",
				"create edit stop rebuild ssh cp code jupyter ports", "delete")},
			"cs":          {"a codespace", forgeVerbs("view list ls logs", "create edit stop rebuild ssh cp code jupyter ports", "delete")},
			"ruleset":     {"a ruleset", forgeVerbs("view list ls check", "", "")},
			"rs":          {"a ruleset", forgeVerbs("view list ls check", "", "")},
			"org":         {"an organisation", forgeVerbs("list ls", "", "")},
			"search":      {"GitHub", forgeVerbs("repos issues prs code commits", "", "")},
			"attestation": {"an attestation", forgeVerbs("verify download trusted-root", "", "")},
			"auth": {"the GitHub login", forgeWith(forgeWith(map[string]forgeKind{}, forgeShared,
				"login logout refresh setup-git switch"), forgeRead, "status token")},
			"config": {"gh configuration", forgeWith(forgeWith(map[string]forgeKind{}, forgeShared,
				"set clear-cache"), forgeLocal, "get list ls")},
			"alias": {"gh aliases", forgeWith(forgeWith(map[string]forgeKind{}, forgeShared,
				"set delete import"), forgeLocal, "list ls")},
			"extension":  ghExtension(),
			"extensions": ghExtension(),
			"ext":        ghExtension(),
		},
	}
}}

var glabCLI = firstuse.Table[*forgeCLI]{Build: func() *forgeCLI {
	return &forgeCLI{
		name: "glab", site: "GitLab", top: glabTop(),
		path: argv.Spec{Short: "R", Long: []string{"--repo", "--group"}},
		api:  argv.Spec{Short: "XfFH", Long: []string{"--method", "--raw-field", "--field", "--header", "--input", "--hostname"}},
		groups: map[string]forgeGroup{
			"mr": {"a merge request", forgeWith(forgeVerbs("view show list ls diff issues approvers",
				"create new merge accept close note comment approve revoke unapprove update reopen rebase subscribe unsubscribe todo",
				"delete del"), forgeSharedRead, "checkout")},
			"issue": {"an issue", forgeVerbs("view show list ls",
				"create new note comment close reopen update subscribe unsubscribe board", "delete del")},
			"incident": {"an incident", forgeVerbs("view list ls", "note close reopen subscribe unsubscribe", "")},
			"release":  {"a release", forgeVerbs("view list ls download", "create new upload", "delete")},
			"repo": {"a project", forgeVerbs("view list ls search contributors clone archive",
				"create new fork mirror transfer update members publish", "delete del")},
			"ci": {"a pipeline", forgeVerbs("view list ls status trace get lint artifact config",
				"run retry cancel trigger run-trig", "delete")},
			"pipeline": {"a pipeline", forgeVerbs("view list ls status trace get lint artifact config",
				"run retry cancel trigger run-trig", "delete")},
			"job":        {"a CI job", forgeVerbs("view list ls artifact trace", "retry cancel play", "")},
			"variable":   {"a CI variable", forgeVerbs("list ls get export", "set new create update delete remove", "")},
			"label":      {"a label", forgeVerbs("list ls", "create new edit", "delete")},
			"snippet":    {"a snippet", forgeVerbs("view list ls", "create new", "delete")},
			"schedule":   {"a pipeline schedule", forgeVerbs("list ls", "create new run update", "delete")},
			"deploy-key": {"a deploy key", forgeVerbs("list ls get", "add", "delete")},
			"ssh-key":    {"an SSH key", forgeVerbs("list ls get", "add", "delete")},
			"gpg-key":    {"a GPG key", forgeVerbs("list ls get", "add", "delete")},
			"token":      {"an access token", forgeVerbs("list ls", "create new revoke rotate", "")},
			"securefile": {"a secure file", forgeVerbs("list ls get download", "create upload", "remove delete")},
			"changelog":  {"a changelog", forgeVerbs("generate", "", "")},
			"user":       {"a user", forgeVerbs("events", "", "")},
			"iteration":  {"an iteration", forgeVerbs("list ls", "", "")},
			"stack": {"a stacked diff", forgeWith(forgeVerbs("list ls", "sync", ""), forgeShared,
				"create save amend prev next first last move switch reorder")},
			"auth": {"the GitLab login", forgeWith(forgeWith(map[string]forgeKind{}, forgeShared,
				"login logout"), forgeRead, "status")},
			"config": {"glab configuration", forgeWith(forgeWith(map[string]forgeKind{}, forgeShared,
				"set edit"), forgeLocal, "get list ls")},
			"alias": {"glab aliases", forgeWith(forgeWith(map[string]forgeKind{}, forgeShared,
				"set delete"), forgeLocal, "list ls")},
		},
	}
}}

// ghExtension is the gh extension group.
func ghExtension() forgeGroup {
	return forgeGroup{"a gh extension", forgeWith(forgeWith(forgeWith(forgeVerbs("list ls search browse", "", ""),
		forgeSharedRead, "install upgrade"), forgeShared, "remove"), forgeOpaque, "exec create")}
}

// ghTop lists gh's commands that are not groups: they need no verb.
func ghTop() map[string]Effect {
	return map[string]Effect{
		"status":     netRead("gh.read", "gh status reads notifications and assignments from GitHub"),
		"browse":     nothing,
		"completion": nothing,
		"version":    nothing,
		"help":       nothing,
		"co":         shared("gh.checkout", "gh co (pr checkout) fetches a pull request and switches the working tree to it").reads(),
		"copilot":    netRead("gh.read", "gh copilot asks GitHub Copilot for a suggestion"),
		"preview":    nothing,
	}
}

// glabTop lists glab's commands that are not groups.
func glabTop() map[string]Effect {
	return map[string]Effect{
		"version":      nothing,
		"help":         nothing,
		"completion":   nothing,
		"check-update": netRead("glab.read", "glab check-update reads the latest release from GitLab"),
		"duo":          netRead("glab.read", "glab duo asks GitLab Duo for a suggestion"),
	}
}

var ghSpec = &Spec{
	Programs: []string{"gh"},
	Classify: func(c *Classifier, inv *shell.Invocation) Effect { return ghCLI.Get().classifyIn(c, inv) },
	Examples: []Example{
		// Pull requests.
		{"gh pr create --title 'Fix' --body 'details'", "external"},
		{"gh pr create --fill --base main", "external"},
		{"gh pr new -f", "external"},
		{"gh pr create --dry-run --fill", "local+netread"},
		{"gh pr merge 12 --squash --delete-branch", "external"},
		{"gh pr merge --auto --rebase", "external"},
		{"gh pr close 12", "external"},
		{"gh pr close 12 --delete-branch", "external+destructive"},
		{"gh pr comment 12 --body 'LGTM'", "external"},
		{"gh pr review 12 --approve", "external"},
		{"gh pr review --request-changes -b 'see inline'", "external"},
		{"gh pr edit 12 --add-label bug", "external"},
		{"gh pr ready 12", "external"},
		{"gh pr reopen 12", "external"},
		{"gh -R octo/repo pr create --fill", "external"},
		{"gh pr -R octo/repo merge 3", "external"},
		{"gh pr view 12", "local+netread"},
		{"gh pr view 12 --comments --json title", "local+netread"},
		{"gh pr list --state open", "local+netread"},
		{"gh pr status", "local+netread"},
		{"gh pr diff 12", "local+netread"},
		{"gh pr checks 12 --watch", "local+netread"},
		{"gh pr checkout 12", "shared+netread"},
		{"gh co 12", "shared+netread"},
		{"gh pr create --help", "local"},
		{"gh pr merge -h", "local"},
		{"gh help pr", "local"},
		{"gh pr view 12 --json body --jq '.body | test(\"gh pr merge\")'", "local+netread"},
		// Issues.
		{"gh issue create --title bug --body text", "external"},
		{"gh issue create --title help --body text", "external"},
		{"gh issue comment 7 --body 'fixed in #8'", "external"},
		{"gh issue close 7 --reason completed", "external"},
		{"gh issue edit 7 --add-assignee @me", "external"},
		{"gh issue delete 7 --yes", "external+destructive"},
		{"gh issue transfer 7 octo/other", "external"},
		{"gh issue develop 7 --checkout", "external"},
		{"gh issue develop 7 --list", "local+netread"},
		{"gh issue view 7", "local+netread"},
		{"gh issue list --label bug", "local+netread"},
		// Releases.
		{"gh release create v1.2.0 dist/*.tar.gz --notes 'x'", "external"},
		{"gh release upload v1.2.0 dist/app.zip --clobber", "external"},
		{"gh release edit v1.2.0 --draft=false", "external"},
		{"gh release delete v1.2.0 --yes", "external+destructive"},
		{"gh release delete-asset v1.2.0 app.zip", "external+destructive"},
		{"gh release view v1.2.0", "local+netread"},
		{"gh release list", "local+netread"},
		{"gh release download v1.2.0 -p '*.deb'", "local+netread"},
		// Repositories.
		{"gh repo create octo/new --public --source=. --push", "external"},
		{"gh repo delete octo/old --yes", "external+destructive"},
		{"gh repo edit --visibility public", "external"},
		{"gh repo fork octo/repo --clone", "external"},
		{"gh repo rename new-name", "external"},
		{"gh repo archive octo/repo -y", "external"},
		{"gh repo sync octo/fork --source octo/upstream", "external"},
		{"gh repo sync", "shared+netread"},
		{"gh repo deploy-key add key.pub", "external"},
		{"gh repo deploy-key list", "local+netread"},
		{"gh repo deploy-key delete 1234", "external+destructive"},
		{"gh repo set-default octo/repo", "shared"},
		{"gh repo clone octo/repo", "local+netread"},
		{"gh repo view octo/repo --web", "local+netread"},
		{"gh repo list octo", "local+netread"},
		// Actions.
		{"gh workflow run deploy.yml -f env=prod", "external"},
		{"gh workflow enable ci.yml", "external"},
		{"gh workflow disable ci.yml", "external"},
		{"gh workflow list", "local+netread"},
		{"gh workflow view ci.yml", "local+netread"},
		{"gh run rerun 123 --failed", "external"},
		{"gh run cancel 123", "external"},
		{"gh run delete 123", "external+destructive"},
		{"gh run view 123 --log", "local+netread"},
		{"gh run watch 123", "local+netread"},
		{"gh run list --workflow ci.yml", "local+netread"},
		{"gh run download 123", "local+netread"},
		{"gh cache delete --all", "external"},
		{"gh cache list", "local+netread"},
		// Gists, secrets, variables, labels, keys.
		{"gh gist create notes.md --public", "external"},
		{"gh gist edit abc123", "external"},
		{"gh gist delete abc123", "external+destructive"},
		{"gh gist view abc123", "local+netread"},
		{"gh gist list", "local+netread"},
		{"gh secret set API_TOKEN --body x", "external"},
		{"gh secret set -f .env", "external"},
		{"gh secret delete API_TOKEN", "external"},
		{"gh secret list", "local+netread"},
		{"gh variable set REGION --body eu", "external"},
		{"gh variable get REGION", "local+netread"},
		{"gh label create bug --color FF0000", "external"},
		{"gh label delete bug --yes", "external+destructive"},
		{"gh label list", "local+netread"},
		{"gh ssh-key add key.pub", "external"},
		{"gh ssh-key delete 1 --yes", "external+destructive"},
		{"gh project item-add 1 --owner octo --url https://github.com/o/r/issues/1", "external"},
		{"gh project view 1 --owner octo", "local+netread"},
		{"gh codespace ssh -c octo-x", "external"},
		{"gh codespace delete -c octo-x", "external+destructive"},
		{"gh codespace list", "local+netread"},
		{"gh search issues 'gh pr merge'", "local+netread"},
		{"gh status", "local+netread"},
		// The API.
		{"gh api repos/o/r/pulls", "local+netread"},
		{"gh api repos/o/r/issues --paginate --jq '.[].title'", "local+netread"},
		{"gh api -X GET search/issues -f q='repo:o/r is:open'", "local+netread"},
		{"gh api --method GET search/issues -f q=x", "local+netread"},
		{"gh api --method=HEAD repos/o/r", "local+netread"},
		{"gh api repos/o/r/issues -f title=x", "external"},
		{"gh api repos/o/r/issues -F title=@title.txt", "external"},
		{"gh api repos/o/r/issues --raw-field body=x", "external"},
		{"gh api repos/o/r/issues --field body=x", "external"},
		{"gh api repos/o/r/issues --input payload.json", "external"},
		{"gh api -X POST repos/o/r/issues/1/comments", "external"},
		{"gh api -XPOST repos/o/r/dispatches", "external"},
		{"gh api --method PATCH repos/o/r -f private=false", "external"},
		{"gh api --method=PUT repos/o/r/pulls/1/merge", "external"},
		{"gh api -X put repos/o/r/collaborators/u", "external"},
		{"gh api -X DELETE repos/o/r", "external+destructive"},
		{"gh api -X \"$METHOD\" repos/o/r", "external"},
		{"gh api graphql -f query='query { viewer { login } }'", "local+netread"},
		{"gh api graphql -F owner=o -f query='query($owner: String!) { user(login: $owner) { name } }'", "local+netread"},
		{"gh api graphql -f query='mutation { addStar(input: {starrableId: \"x\"}) { clientMutationId } }'", "external"},
		{"gh api graphql -F query=@mutation.graphql", "external"},
		{"gh api graphql --input request.json", "external"},
		{"gh api graphql -f query=\"$QUERY\"", "external"},
		{"gh api --help", "local"},
		// Login, config, aliases, extensions.
		{"gh auth login --with-token", "shared"},
		{"gh auth logout", "shared"},
		{"gh auth setup-git", "shared"},
		{"gh auth status", "local+netread"},
		{"gh config set editor vim", "shared"},
		{"gh config get editor", "local"},
		{"gh alias set pv 'pr view'", "shared"},
		{"gh alias list", "local"},
		{"gh extension install owner/gh-ext", "shared+netread"},
		{"gh extension list", "local+netread"},
		{"gh extension exec ext", "local+opaque"},
		{"gh my-alias 12", "local+opaque"},
		{"gh pr $VERB 12", "local+opaque"},
		{"gh browse", "local"},
		{"gh --version", "local"},
		{"gh", "local"},
	},
}

var glabSpec = &Spec{
	Programs: []string{"glab"},
	Classify: func(_ *Classifier, inv *shell.Invocation) Effect { return glabCLI.Get().classify(inv) },
	Examples: []Example{
		{"glab mr create --fill --target-branch main", "external"},
		{"glab mr new -t title -d text", "external"},
		{"glab mr merge 4 --squash", "external"},
		{"glab mr close 4", "external"},
		{"glab mr note 4 -m 'looks good'", "external"},
		{"glab mr approve 4", "external"},
		{"glab mr update 4 --draft", "external"},
		{"glab mr delete 4", "external+destructive"},
		{"glab mr view 4", "local+netread"},
		{"glab mr list --assignee=@me", "local+netread"},
		{"glab mr diff 4", "local+netread"},
		{"glab mr checkout 4", "shared+netread"},
		{"glab issue create -t bug -d text", "external"},
		{"glab issue note 9 -m 'thanks'", "external"},
		{"glab issue close 9", "external"},
		{"glab issue delete 9", "external+destructive"},
		{"glab issue view 9", "local+netread"},
		{"glab issue list", "local+netread"},
		{"glab release create v1.0.0 ./dist/*", "external"},
		{"glab release upload v1.0.0 app.zip", "external"},
		{"glab release delete v1.0.0", "external+destructive"},
		{"glab release view v1.0.0", "local+netread"},
		{"glab repo create grp/new --public", "external"},
		{"glab repo delete grp/old --yes", "external+destructive"},
		{"glab repo fork grp/repo", "external"},
		{"glab repo clone grp/repo", "local+netread"},
		{"glab repo archive grp/repo", "local+netread"},
		{"glab repo view", "local+netread"},
		{"glab ci run --branch main", "external"},
		{"glab ci retry 55", "external"},
		{"glab ci delete 55", "external+destructive"},
		{"glab ci status", "local+netread"},
		{"glab ci lint", "local+netread"},
		{"glab ci view", "local+netread"},
		{"glab variable set TOKEN secret", "external"},
		{"glab variable list", "local+netread"},
		{"glab label create -n bug", "external"},
		{"glab api projects/1/issues", "local+netread"},
		{"glab api projects/1/issues -X POST -f title=x", "external"},
		{"glab api projects/1/issues -f title=x", "external"},
		{"glab api --method DELETE projects/1", "external+destructive"},
		{"glab api graphql -f query='mutation { x }'", "external"},
		{"glab api graphql -f query='query { currentUser { name } }'", "local+netread"},
		{"glab auth login", "shared"},
		{"glab auth status", "local+netread"},
		{"glab config set editor vim", "shared"},
		{"glab config get editor", "local"},
		{"glab mr create --help", "local"},
		{"glab help", "local"},
		{"glab version", "local"},
		{"glab some-alias", "local+opaque"},
	},
}

// classify rates one invocation of a forge CLI.
func (f *forgeCLI) classify(inv *shell.Invocation) Effect {
	return f.classifyIn(nil, inv)
}

// classifyIn is classify with the classifier, which reads gh's aliases
// to tell an extension (gh-NAME, classified as that program) from one.
func (f *forgeCLI) classifyIn(c *Classifier, inv *shell.Invocation) Effect {
	args := inv.Args[1:]
	if forgeWantsHelp(args, true) {
		return nothing
	}
	p := f.path.Parse(args)
	if len(p.Operands) == 0 {
		return nothing // gh --version, bare gh
	}
	group := p.Operands[0]
	if inv.IsDynamic(1 + p.OperandIndex[0]) {
		return opaque(f.name+".dynamic", "the "+f.name+" command is computed at run time ("+group+")")
	}
	if group == "api" {
		return f.classifyAPI(inv, 1+p.OperandIndex[0]+1)
	}
	if e, ok := f.top[group]; ok {
		return e
	}
	g, ok := f.groups[group]
	if !ok {
		if c != nil && f.name == "gh" {
			if e, ok := c.ghExtension(inv, 1+p.OperandIndex[0]); ok {
				return e
			}
		}
		return opaque(f.name+".unknown", f.name+" "+group+" is not a command airlock knows (an alias or an extension), so what it runs cannot be known")
	}
	if len(p.Operands) < 2 {
		return netRead(f.name+".read", f.name+" "+group+" reads from "+f.site)
	}
	verb := p.Operands[1]
	if inv.IsDynamic(1 + p.OperandIndex[1]) {
		return opaque(f.name+".dynamic", "the "+f.name+" "+group+" verb is computed at run time ("+verb+")")
	}
	rest := args[p.OperandIndex[1]+1:]
	if e, ok := f.special(group, verb, rest); ok {
		return e
	}
	kind, known := g.verbs[verb]
	if !known {
		switch {
		case verb == "delete" || verb == "remove" || verb == "rm" || verb == "del":
			kind = forgeDelete
		case forgeWriteVerbs(verb):
			kind = forgeWrite
		default:
			kind = forgeRead
		}
	}
	return f.effect(kind, group, verb, g.noun)
}

// effect words the effect of one subcommand.
func (f *forgeCLI) effect(kind forgeKind, group, verb, noun string) Effect {
	cmd := f.name + " " + group + " " + verb
	phrase := forgeVerbPhrase.Get()[verb]
	if phrase == "" {
		phrase = "changes"
	}
	switch kind {
	case forgeWrite:
		return external(f.name+".write", cmd+" "+phrase+" "+noun+" on "+f.site)
	case forgeDelete:
		return external(f.name+".delete", cmd+" deletes "+noun+" on "+f.site+", which cannot be undone").destroys()
	case forgeShared:
		return shared(f.name+".config", cmd+" changes "+noun+" on this machine")
	case forgeSharedRead:
		if verb == "checkout" || verb == "co" {
			return shared(f.name+".checkout", cmd+" fetches "+noun+" and switches the working tree to it").reads()
		}
		return shared(f.name+".install", cmd+" downloads and installs "+noun).reads()
	case forgeLocal:
		return nothing
	case forgeOpaque:
		return opaque(f.name+".extension", cmd+" runs extension code airlock cannot see")
	}
	return netRead(f.name+".read", cmd+" reads "+noun+" from "+f.site)
}

// special rates the subcommands whose effect depends on their arguments.
func (f *forgeCLI) special(group, verb string, rest []string) (Effect, bool) {
	cmd := f.name + " " + group + " " + verb
	switch {
	case group == "pr" && (verb == "create" || verb == "new") && hasAny(rest, "--dry-run"):
		return netRead(f.name+".read", cmd+" --dry-run only prints what it would create"), true
	case group == "pr" && verb == "close" && hasAny(rest, "-d", "--delete-branch"):
		return external(f.name+".delete", cmd+" --delete-branch closes the pull request and deletes its unmerged branch on "+f.site).destroys(), true
	case group == "issue" && verb == "develop" && hasAny(rest, "-l", "--list"):
		return netRead(f.name+".read", cmd+" --list reads linked branches from "+f.site), true
	case group == "repo" && verb == "sync":
		p := argv.Spec{Short: "bs", Long: []string{"--branch", "--source"}}.Parse(rest)
		if len(p.Operands) == 0 {
			return shared(f.name+".sync", cmd+" updates the local repository from its remote").reads(), true
		}
		return external(f.name+".write", cmd+" "+p.Operands[0]+" updates a repository on "+f.site), true
	case group == "repo" && (verb == "deploy-key" || verb == "autolink"):
		if len(rest) == 0 || rest[0] == "list" || rest[0] == "ls" || rest[0] == "view" {
			return netRead(f.name+".read", cmd+" reads "+verb+"s from "+f.site), true
		}
		if rest[0] == "delete" {
			return external(f.name+".delete", cmd+" delete removes a "+verb+" on "+f.site).destroys(), true
		}
		return external(f.name+".write", cmd+" "+rest[0]+" changes a "+verb+" on "+f.site), true
	case group == "issue" && verb == "board" && len(rest) > 0 && rest[0] == "view":
		return netRead(f.name+".read", cmd+" view reads an issue board from "+f.site), true
	case group == "repo" && verb == "members" && len(rest) > 0 && (rest[0] == "list" || rest[0] == "ls"):
		return netRead(f.name+".read", cmd+" list reads project members from "+f.site), true
	case group == "stack" && verb == "sync":
		return external(f.name+".write", cmd+" pushes the stacked branches and updates their merge requests on "+f.site), true
	}
	return Effect{}, false
}

// classifyAPI rates "gh api" and "glab api": the method (-X, or POST when
// fields or an input body are given), and for graphql whether the query
// is a mutation.
func (f *forgeCLI) classifyAPI(inv *shell.Invocation, from int) Effect {
	args := inv.Args[from:]
	p := f.api.Parse(args)
	endpoint := ""
	if len(p.Operands) > 0 {
		endpoint = strings.TrimPrefix(p.Operands[0], "/")
	}
	cmd := f.name + " api " + endpoint
	fields := p.Values("-f", "-F", "--raw-field", "--field")
	body := len(fields) > 0 || p.Has("--input")
	if endpoint == "graphql" {
		return f.graphQL(inv, from, p)
	}
	method := "GET"
	if body {
		method = "POST"
	}
	if fl, ok := p.Last("-X", "--method"); ok {
		if inv.IsDynamic(from + fl.ValueIndex) {
			return external(f.name+".api.write", cmd+" uses a method computed at run time ("+fl.Value+"), which may write to "+f.site)
		}
		method = strings.ToUpper(fl.Value)
	}
	switch method {
	case "GET", "HEAD", "OPTIONS":
		return netRead(f.name+".api.read", cmd+" reads from the "+f.site+" API")
	case "DELETE":
		return external(f.name+".api.delete", cmd+" sends DELETE to the "+f.site+" API, which deletes what it names").destroys()
	}
	return external(f.name+".api.write", cmd+" sends "+method+" to the "+f.site+" API, which writes to "+f.site)
}

// graphQL rates a graphql call: a mutation writes; a query that cannot be
// seen (from a file, stdin or a variable) is taken as a write.
func (f *forgeCLI) graphQL(inv *shell.Invocation, from int, p argv.Parsed) Effect {
	cmd := f.name + " api graphql"
	if p.Has("--input") {
		return external(f.name+".api.graphql", cmd+" --input sends a request body airlock cannot see, which may be a mutation")
	}
	for _, fl := range p.Flags {
		switch fl.Name {
		case "-f", "-F", "--raw-field", "--field":
		default:
			continue
		}
		key, value, _ := strings.Cut(fl.Value, "=")
		if key != "query" {
			continue
		}
		switch {
		case strings.Contains(value, "mutation"):
			return external(f.name+".api.graphql", cmd+" sends a GraphQL mutation, which writes to "+f.site)
		case inv.IsDynamic(from + fl.ValueIndex):
			return external(f.name+".api.graphql", cmd+" sends a query computed at run time, which may be a mutation")
		case (fl.Name == "-F" || fl.Name == "--field") && strings.HasPrefix(value, "@"):
			return external(f.name+".api.graphql", cmd+" sends a query read from "+strings.TrimPrefix(value, "@")+", which may be a mutation")
		}
	}
	return netRead(f.name+".api.read", cmd+" sends a GraphQL query, which only reads from "+f.site)
}

// forgeWantsHelp reports whether a command only asks for help: --help (or
// -h when shortH says -h means help) where it cannot be the value of the
// option before it, or "help" as the first word. Being strict about where
// -h stands keeps "--body -h" from hiding a write.
func forgeWantsHelp(args []string, shortH bool) bool {
	if len(args) > 0 && args[0] == "help" {
		return true
	}
	for i, a := range args {
		if a == "--" {
			return false
		}
		if a != "--help" && !(shortH && a == "-h") {
			continue
		}
		if i == 0 {
			return true
		}
		prev := args[i-1]
		if !strings.HasPrefix(prev, "-") || strings.Contains(prev, "=") || prev == "--help" || prev == "-h" {
			return true
		}
	}
	return false
}
