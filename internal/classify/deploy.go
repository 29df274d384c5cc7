package classify

import (
	"github.com/airlock-dev/airlock/internal/firstuse"
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file rates deploy and infrastructure tools. Deploying, changing
// live resources and running commands on remote machines are external;
// deleting live resources also destroys. Reads of live state (status,
// logs, get, plan) read the network and stay local; dry runs likewise.
//
// Most of these CLIs are "TOOL GROUP... VERB": a deployTool table names
// what each command path does, and words it does not list are rated by
// their verb (deployVerbs), so new subcommands of known shapes are still
// caught. kubectl, helm, terraform, pulumi and ansible-playbook, whose
// effect depends on options, have their own functions.

// deployKind is what a deploy command does.
type deployKind int8

const (
	deployNone       deployKind = iota // no verb recognised
	deployRead                         // reads live state: local+netread
	deployWrite                        // changes live resources: external
	deployDestroy                      // deletes live resources: external+destructive
	deployShared                       // changes this machine's login or config: shared
	deploySharedRead                   // downloads and installs: shared+netread
	deployLocal                        // stays on this machine
	deployRemote                       // runs a command remotely: external, rated by that command too
	deployRunLocal                     // runs a local command with remote config: that command, plus a network read
)

// deployVerbs rates a word used as a command verb by deploy and cloud
// CLIs. Words not listed are no verb at all.
var deployVerbs = firstuse.Table[map[string]deployKind]{Build: func() map[string]deployKind {
	return map[string]deployKind{
		// Deletion of live resources.
		"delete": deployDestroy, "destroy": deployDestroy, "terminate": deployDestroy, "purge": deployDestroy,
		"wipe": deployDestroy, "rm": deployDestroy, "del": deployDestroy, "uninstall": deployDestroy,
		// Changes to live resources.
		"create": deployWrite, "deploy": deployWrite, "launch": deployWrite, "up": deployWrite, "apply": deployWrite,
		"set": deployWrite, "unset": deployWrite, "update": deployWrite, "upgrade": deployWrite, "put": deployWrite,
		"push": deployWrite, "publish": deployWrite, "import": deployWrite, "restart": deployWrite, "start": deployWrite,
		"stop": deployWrite, "scale": deployWrite, "run": deployWrite, "exec": deployWrite, "ssh": deployWrite,
		"attach": deployWrite, "detach": deployWrite, "add": deployWrite, "allocate": deployWrite, "release": deployWrite,
		"kill": deployWrite, "clone": deployWrite, "promote": deployWrite, "rollback": deployWrite, "redeploy": deployWrite,
		"patch": deployWrite, "replace": deployWrite, "enable": deployWrite, "disable": deployWrite, "invoke": deployWrite,
		"trigger": deployWrite, "rename": deployWrite, "move": deployWrite, "resize": deployWrite, "reset": deployWrite,
		"resume": deployWrite, "suspend": deployWrite, "upload": deployWrite, "sync": deployWrite, "cancel": deployWrite,
		"retry": deployWrite, "rerun": deployWrite, "submit": deployWrite, "execute": deployWrite, "send": deployWrite,
		"call": deployWrite, "swap": deployWrite, "restore": deployWrite, "reboot": deployWrite, "failover": deployWrite,
		"grant": deployWrite, "revoke": deployWrite, "assign": deployWrite, "unassign": deployWrite, "approve": deployWrite,
		"reject": deployWrite, "accept": deployWrite, "lock": deployWrite, "unlock": deployWrite, "archive": deployWrite,
		"unarchive": deployWrite, "extend": deployWrite, "fork": deployWrite, "tag": deployWrite, "untag": deployWrite,
		"label": deployWrite, "annotate": deployWrite, "edit": deployWrite, "modify": deployWrite, "register": deployWrite,
		"deregister": deployWrite, "associate": deployWrite, "disassociate": deployWrite, "authorize": deployWrite,
		"connect": deployWrite, "console": deployWrite, "bootstrap": deployWrite, "rotate": deployWrite,
		"regenerate": deployWrite, "renew": deployWrite, "shutdown": deployWrite, "expose": deployWrite,
		"cordon": deployWrite, "uncordon": deployWrite, "drain": deployWrite, "taint": deployWrite, "untaint": deployWrite,
		"activate": deployWrite, "deactivate": deployWrite, "pause": deployWrite, "unpause": deployWrite,
		"write": deployWrite, "insert": deployWrite, "provision": deployWrite, "reimage": deployWrite, "abort": deployWrite,
		"complete": deployWrite, "confirm": deployWrite, "subscribe": deployWrite, "unsubscribe": deployWrite,
		"invalidate": deployWrite, "flush": deployWrite, "capture": deployWrite, "copy": deployWrite, "cp": deployWrite,
		"mv": deployWrite, "export": deployWrite, "transfer": deployWrite, "rollout": deployWrite, "scp": deployWrite,
		"on": deployWrite, "off": deployWrite, "recreate": deployWrite, "reinstall": deployWrite,
		"deallocate": deployWrite, "recover": deployWrite, "generalize": deployWrite,
		// Reads of live state.
		"get": deployRead, "list": deployRead, "ls": deployRead, "describe": deployRead, "show": deployRead,
		"view": deployRead, "status": deployRead, "logs": deployRead, "log": deployRead, "info": deployRead,
		"inspect": deployRead, "whoami": deployRead, "version": deployRead, "validate": deployRead, "lint": deployRead,
		"search": deployRead, "tail": deployRead, "history": deployRead, "diff": deployRead, "download": deployRead,
		"cat": deployRead, "read": deployRead, "head": deployRead, "check": deployRead, "explain": deployRead,
		"top": deployRead, "print": deployRead, "preview": deployRead, "estimate": deployRead, "simulate": deployRead,
		"lookup": deployRead, "filter": deployRead, "verify": deployRead, "wait": deployRead, "watch": deployRead,
		"access": deployRead, "encrypt": deployRead, "decrypt": deployRead, "sign": deployRead, "generate": deployRead,
		"query": deployRead, "scan": deployRead, "health": deployRead, "events": deployRead, "test": deployRead,
	}
}}

// deployPrefixVerbs are the verbs that also start hyphenated command
// names (add-iam-policy-binding, get-credentials, delete-stack). Verbs
// that start group names (run-command, access-context-manager) are left
// out so a group is not read as its verb.
var deployPrefixVerbs = firstuse.Table[map[string]deployKind]{Build: func() map[string]deployKind {
	return map[string]deployKind{
		"add": deployWrite, "remove": deployWrite, "set": deployWrite, "unset": deployWrite, "get": deployRead,
		"list": deployRead, "describe": deployRead, "create": deployWrite, "delete": deployDestroy, "update": deployWrite,
		"reset": deployWrite, "import": deployWrite, "export": deployWrite, "put": deployWrite, "start": deployWrite,
		"stop": deployWrite, "attach": deployWrite, "detach": deployWrite, "modify": deployWrite, "enable": deployWrite,
		"disable": deployWrite, "associate": deployWrite, "disassociate": deployWrite, "register": deployWrite,
		"deregister": deployWrite, "tag": deployWrite, "untag": deployWrite, "upload": deployWrite, "download": deployRead,
		"send": deployWrite, "publish": deployWrite, "invoke": deployWrite, "terminate": deployDestroy,
		"purge": deployDestroy, "show": deployRead, "restore": deployWrite, "replace": deployWrite, "resize": deployWrite,
		"reboot": deployWrite, "restart": deployWrite, "copy": deployWrite, "move": deployWrite, "rename": deployWrite,
		"execute": deployWrite, "deploy": deployWrite, "destroy": deployDestroy,
		"search": deployRead, "check": deployRead, "validate": deployRead, "wait": deployRead, "test": deployRead,
	}
}}

// deployVerbOf rates one word as a verb, deployNone when it is not one.
func deployVerbOf(w string) deployKind {
	if k, ok := deployVerbs.Get()[w]; ok {
		return k
	}
	if i := strings.IndexByte(w, '-'); i > 0 {
		return deployPrefixVerbs.Get()[w[:i]]
	}
	return deployNone
}

// deploySeverity orders kinds for deployScan.
func deploySeverity(k deployKind) int {
	switch k {
	case deployDestroy:
		return 3
	case deployWrite:
		return 2
	case deployRead:
		return 1
	}
	return 0
}

// deployScan finds the most severe verb among the words of a command path,
// so a resource that looks like a verb (tag, config) cannot hide the verb
// that follows it; ties go to the first.
func deployScan(words []string) (deployKind, int) {
	return deployScanWith(words, deployVerbOf)
}

// deployScanWith is deployScan with the tool's own reading of a verb.
func deployScanWith(words []string, verbOf func(string) deployKind) (deployKind, int) {
	best, at := deployNone, -1
	for i, w := range words {
		if k := verbOf(w); deploySeverity(k) > deploySeverity(best) {
			best, at = k, i
		}
	}
	return best, at
}

// deployEntry is what one command path of a tool does.
type deployEntry struct {
	kind deployKind
	// what finishes the reason, after the command: "deploys the app".
	what string
	// group marks a path that is also a group: when a verb follows it,
	// the verb decides (fly apps destroy), otherwise the entry does.
	group bool
}

func dW(what string) deployEntry { return deployEntry{kind: deployWrite, what: what} }
func dD(what string) deployEntry { return deployEntry{kind: deployDestroy, what: what} }
func dR(what string) deployEntry { return deployEntry{kind: deployRead, what: what} }
func dG(what string) deployEntry { return deployEntry{kind: deployRead, what: what, group: true} }

// dGW is a group that changes live resources unless a read verb follows
// (fly scale count 3, but fly scale show).
func dGW(what string) deployEntry { return deployEntry{kind: deployWrite, what: what, group: true} }
func dL(what string) deployEntry  { return deployEntry{kind: deployLocal, what: what} }
func dS(what string) deployEntry  { return deployEntry{kind: deployShared, what: what} }
func dX(what string) deployEntry  { return deployEntry{kind: deployRemote, what: what} }

// deployTool describes one table-driven deploy CLI.
type deployTool struct {
	name string // program name used in reasons and rule ids
	site string // "Fly.io"
	// opts lists the options that take a value.
	opts argv.Spec
	// colon splits words at ':' (heroku config:set, firebase hosting:channel:deploy).
	colon bool
	// paths maps command paths ("apps destroy") to entries.
	paths map[string]deployEntry
	// fallback is the entry for commands that match nothing; nil rates
	// them as reads.
	fallback *deployEntry
	// command lists options whose value is a command run remotely (-C).
	command []string
	// special handles argument-dependent cases first.
	special func(c *Classifier, inv *shell.Invocation, words []string, p argv.Parsed) (Effect, bool)
}

// classify rates one invocation of a table-driven deploy tool.
func (t *deployTool) classify(c *Classifier, inv *shell.Invocation) Effect {
	args := inv.Args[1:]
	if forgeWantsHelp(args, true) {
		return nothing
	}
	p := t.opts.Parse(args)
	var words []string
	var wordAt []int // index in inv.Args of the operand each word came from
	for i, o := range p.Operands {
		if i < len(p.OperandIndex) && p.OperandIndex[i] > 0 && args[p.OperandIndex[i]-1] == "--" {
			break // what follows "--" is a command, not a path
		}
		if inv.IsDynamic(1+p.OperandIndex[i]) && len(words) < 2 {
			return opaque(t.name+".dynamic", "the "+t.name+" command is computed at run time ("+o+")")
		}
		parts := []string{o}
		if t.colon {
			parts = strings.Split(o, ":")
		}
		for _, w := range parts {
			words = append(words, w)
			wordAt = append(wordAt, 1+p.OperandIndex[i])
		}
	}
	if len(words) == 0 && p.Has("--version", "-v", "-V") {
		return nothing // vercel --version must not read as a bare deploy
	}
	if t.special != nil {
		if e, ok := t.special(c, inv, words, p); ok {
			return e
		}
	}
	for n := min(3, len(words)); n >= 1; n-- {
		path := strings.Join(words[:n], " ")
		ent, ok := t.paths[path]
		if !ok {
			continue
		}
		if ent.group && n < len(words) {
			if k, at := deployScan(words[n:]); k != deployNone {
				return t.effect(c, inv, p, deployEntry{kind: k}, strings.Join(words[:n+at+1], " "), wordAt[n+at])
			}
		}
		return t.effect(c, inv, p, ent, path, wordAt[n-1])
	}
	if k, at := deployScan(words); k != deployNone {
		return t.effect(c, inv, p, deployEntry{kind: k}, strings.Join(words[:at+1], " "), wordAt[at])
	}
	if t.fallback != nil {
		at := 0
		if len(wordAt) > 0 {
			at = wordAt[0] - 1
		}
		return t.effect(c, inv, p, *t.fallback, "", at)
	}
	if len(words) == 0 {
		return nothing
	}
	return netRead(t.name+".read", t.name+" "+words[0]+" is not a command airlock knows; taken as a read from "+t.site)
}

// effect turns an entry into an effect; at is the index in inv.Args of
// the last word of the command path (for remote commands that follow it).
func (t *deployTool) effect(c *Classifier, inv *shell.Invocation, p argv.Parsed, ent deployEntry, path string, at int) Effect {
	cmd := strings.TrimSpace(t.name + " " + path)
	what := ent.what
	if (ent.kind == deployWrite || ent.kind == deployDestroy) && publishDryRun(p) {
		return netRead(t.name+".dry-run", cmd+" --dry-run only shows what would change on "+t.site)
	}
	switch ent.kind {
	case deployWrite:
		if what == "" {
			what = "changes live resources on " + t.site
		}
		return external(t.name+".write", cmd+" "+what)
	case deployDestroy:
		if what == "" {
			what = "deletes live resources on " + t.site
		}
		return external(t.name+".delete", cmd+" "+what).destroys()
	case deployShared:
		return shared(t.name+".config", cmd+" "+what)
	case deploySharedRead:
		return shared(t.name+".install", cmd+" "+what).reads()
	case deployLocal:
		return nothing
	case deployRemote:
		e := external(t.name+".remote", cmd+" "+what)
		return deployWithInner(e, t.inner(c, inv, p, at))
	case deployRunLocal:
		e := t.inner(c, inv, p, at)
		e.Add(netRead(t.name+".run", cmd+" "+what))
		return e
	}
	if what == "" {
		what = "reads from " + t.site
	}
	return netRead(t.name+".read", cmd+" "+what)
}

// inner classifies the command a tool runs: the value of a command option
// (-C "..."), or the words after the command path and its options.
func (t *deployTool) inner(c *Classifier, inv *shell.Invocation, p argv.Parsed, at int) Effect {
	if len(t.command) > 0 {
		if text, ok := p.Value(t.command...); ok {
			return c.nested(text)
		}
	}
	from := at + 1
	if from >= len(inv.Args) {
		return nothing
	}
	rest := argv.Spec{Short: t.opts.Short, Long: t.opts.Long, StopAtOperand: true}.Parse(inv.Args[from:])
	from += rest.Rest
	if from >= len(inv.Args) {
		return nothing
	}
	return c.nested(inv.Text(from))
}

// deployWithInner marks a remote run as destructive when the command it
// runs destroys data, keeping the command's reasons.
func deployWithInner(e, inner Effect) Effect {
	if inner.Destructive {
		e.Destructive = true
		e.Reasons = append(e.Reasons, inner.Reasons...)
	}
	return e
}

var (
	deployVercelDefault = dW("deploys the project to Vercel")
)

// deployTools are the table-driven tools, by program name, built on
// first use so a hook that meets none of them does not pay for the tables.
var deployTools = firstuse.Table[map[string]*deployTool]{Build: func() map[string]*deployTool {
	railway := &deployTool{
		name: "railway", site: "Railway",
		opts: argv.Spec{Short: "se", Long: []string{"--service", "--environment", "--project", "--set", "--json-file"}},
		paths: map[string]deployEntry{
			"up": dW("deploys the project to Railway"), "deploy": dW("deploys a template to Railway"),
			"redeploy": dW("redeploys the latest deployment on Railway"), "down": dD("removes the latest deployment from Railway"),
			"delete": dD("deletes a Railway project"), "add": dW("adds a service or database to the Railway project"),
			"init": dW("creates a Railway project"), "domain": dW("creates a domain on Railway"),
			"scale": dW("scales a Railway service"), "restart": dW("restarts a Railway service"),
			"ssh":     dX("runs a command inside a Railway service"),
			"connect": dW("opens a shell on a Railway database"),
			"run":     {kind: deployRunLocal, what: "injects the Railway service's variables"},
			"shell":   dR("opens a local shell with the Railway service's variables"),
			"link":    dL(""), "unlink": dL(""), "service": dL(""), "completion": dL(""), "docs": dL(""), "open": dL(""),
			"environment": {kind: deployLocal, group: true}, "environment new": dW("creates an environment on Railway"),
			"environment delete": dD("deletes an environment on Railway"),
			"logs":               dR("reads deployment logs from Railway"), "status": dR("reads project status from Railway"),
			"whoami": dR("reads the logged-in user"), "list": dR("lists Railway projects"),
			"variables": dG("reads the service's variables from Railway"), "variable": dG("reads the service's variables from Railway"),
			"volume": dG("reads volumes from Railway"), "functions": dG("reads functions from Railway"),
			"login": dS("stores Railway credentials on this machine"), "logout": dS("removes Railway credentials"),
		},
		special: func(_ *Classifier, _ *shell.Invocation, words []string, p argv.Parsed) (Effect, bool) {
			if len(words) > 0 && (words[0] == "variables" || words[0] == "variable") && p.Has("--set", "-s") {
				return external("railway.write", "railway variables --set changes the service's variables on Railway"), true
			}
			return Effect{}, false
		},
	}
	vercel := &deployTool{
		name: "vercel", site: "Vercel",
		opts: argv.Spec{Short: "tSAQebm", Long: []string{"--token", "--scope", "--cwd", "--local-config", "--global-config",
			"--env", "--build-env", "--meta", "--target", "--regions", "--archive", "--team", "--environment", "--git-branch"}},
		fallback: &deployVercelDefault,
		paths: map[string]deployEntry{
			"deploy": dW("deploys the project to Vercel"), "redeploy": dW("redeploys a deployment on Vercel"),
			"promote": dW("promotes a deployment to production on Vercel"), "rollback": dW("rolls production back on Vercel"),
			"remove": dD("deletes deployments from Vercel"), "rm": dD("deletes deployments from Vercel"),
			"env": dG("reads environment variables from Vercel"), "env add": dW("adds an environment variable on Vercel"),
			"env rm": dW("removes an environment variable on Vercel"), "env remove": dW("removes an environment variable on Vercel"),
			"env update": dW("changes an environment variable on Vercel"),
			"env pull":   dR("downloads environment variables from Vercel"), "env ls": dR("lists environment variables on Vercel"),
			"pull": dR("downloads project settings from Vercel"), "link": dR("links this directory to a Vercel project"),
			"dev": dL(""), "build": dL(""), "help": dL(""), "telemetry": dL(""), "open": dL(""), "completion": dL(""),
			"logs": dR("reads deployment logs from Vercel"), "inspect": dR("reads a deployment from Vercel"),
			"ls": dR("lists deployments on Vercel"), "list": dR("lists deployments on Vercel"), "whoami": dR("reads the logged-in user"),
			"bisect": dR("reads deployments from Vercel"), "init": dR("downloads an example project"), "curl": dR("requests a deployment"),
			"login": dS("stores Vercel credentials on this machine"), "logout": dS("removes Vercel credentials"),
			"switch": dS("changes the current Vercel team"),
			"alias":  dG("reads aliases from Vercel"), "domains": dG("reads domains from Vercel"), "dns": dG("reads DNS records from Vercel"),
			"certs": dG("reads certificates from Vercel"), "secrets": dG("reads secrets from Vercel"), "project": dG("reads projects from Vercel"),
			"projects": dG("reads projects from Vercel"), "teams": dG("reads teams from Vercel"), "git": dG("reads the Git connection"),
			"blob": dG("reads Blob storage on Vercel"), "integration": dG("reads integrations on Vercel"), "target": dG("reads targets"),
			"project rm": dD("deletes a Vercel project"), "project remove": dD("deletes a Vercel project"),
			"git connect": dW("connects a Git repository to the Vercel project"), "git disconnect": dW("disconnects the Git repository"),
		},
	}
	netlify := &deployTool{
		name: "netlify", site: "Netlify", colon: true,
		opts: argv.Spec{Short: "dsfamco", Long: []string{"--dir", "--site", "--functions", "--auth", "--message", "--alias",
			"--context", "--filter", "--name", "--account-slug", "--scope", "--data", "--timeout", "--port", "--output"}},
		paths: map[string]deployEntry{
			"deploy": dW("deploys the site to Netlify"),
			"init":   dW("can create a Netlify site and configure its deploys"),
			"sites":  dG("reads sites from Netlify"), "sites delete": dD("deletes a Netlify site"),
			"sites create": dW("creates a Netlify site"), "sites list": dR("lists Netlify sites"),
			"env": dG("reads environment variables from Netlify"), "env set": dW("sets an environment variable on Netlify"),
			"env unset": dW("removes an environment variable on Netlify"), "env import": dW("imports environment variables to Netlify"),
			"env clone": dW("copies environment variables between Netlify sites"),
			"link":      dL(""), "unlink": dL(""), "dev": dL(""), "serve": dL(""), "build": dL(""), "open": dL(""),
			"completion": dL(""), "recipes": dL(""), "functions": dG("reads functions"), "functions create": dL(""),
			"functions invoke": dL(""), "functions build": dL(""), "functions serve": dL(""),
			"status": dR("reads the site status from Netlify"), "logs": dR("reads logs from Netlify"), "watch": dR("watches a deploy"),
			"login": dS("stores Netlify credentials on this machine"), "logout": dS("removes Netlify credentials"),
			"switch": dS("changes the active Netlify account"),
			"blobs":  dG("reads Blobs on Netlify"), "addons": dG("reads add-ons on Netlify"),
		},
		special: func(_ *Classifier, _ *shell.Invocation, words []string, _ argv.Parsed) (Effect, bool) {
			if len(words) > 1 && words[0] == "api" {
				m := words[1]
				switch {
				case strings.HasPrefix(m, "get") || strings.HasPrefix(m, "list"):
					return netRead("netlify.read", "netlify api "+m+" reads from Netlify"), true
				case strings.HasPrefix(m, "delete"):
					return external("netlify.delete", "netlify api "+m+" deletes resources on Netlify").destroys(), true
				}
				return external("netlify.write", "netlify api "+m+" changes resources on Netlify"), true
			}
			return Effect{}, false
		},
	}
	fly := &deployTool{
		name: "fly", site: "Fly.io",
		opts: argv.Spec{Short: "acortisCe", Long: []string{"--app", "--config", "--org", "--region", "--access-token",
			"--image", "--command", "--strategy", "--vm-size", "--vm-memory", "--env", "--dockerfile", "--build-arg",
			"--build-target", "--name", "--size", "--count", "--process-group", "--machine", "--volume", "--file-literal",
			"--file-local", "--file-secret", "--wait-timeout", "--label", "--select", "--user", "--address", "--port"}},
		command: []string{"-C", "--command"},
		paths: map[string]deployEntry{
			"deploy": dW("deploys the app to Fly.io"), "launch": dW("creates and deploys an app on Fly.io"),
			"destroy": dD("deletes an app on Fly.io"), "apps": dG("reads apps from Fly.io"),
			"scale": dGW("scales the app on Fly.io"), "secrets": dG("reads secrets from Fly.io"),
			"ssh": dG("reads SSH settings"), "ssh console": dX("runs a command on a Fly.io machine"),
			"ssh issue": dS("stores an SSH certificate on this machine"), "console": dX("runs a console on a Fly.io machine"),
			"machine exec": dX("runs a command on a Fly.io machine"), "machines exec": dX("runs a command on a Fly.io machine"),
			"m exec": dX("runs a command on a Fly.io machine"), "m": dG("reads machines from Fly.io"),
			"machine": dG("reads machines from Fly.io"), "machines": dG("reads machines from Fly.io"),
			"sftp": dG("reads files from a Fly.io machine"), "sftp shell": dW("opens a file shell on a Fly.io machine"),
			"sftp get": dR("downloads a file from a Fly.io machine"), "proxy": dR("forwards a port from Fly.io"),
			"logs": dR("reads app logs from Fly.io"), "status": dR("reads app status from Fly.io"),
			"open": dL(""), "dashboard": dL(""), "version": dL(""), "agent": dL(""), "docs": dL(""), "completion": dL(""),
			"auth": dG("reads the login"), "auth login": dS("stores Fly.io credentials on this machine"),
			"auth logout": dS("removes Fly.io credentials"), "auth docker": dS("configures Docker to push to Fly.io"),
			"auth token": dL(""), "auth whoami": dR("reads the logged-in user"),
			"config": dG("reads app configuration"), "config save": dL(""), "config validate": dL(""), "config show": dR("reads app configuration"),
			"doctor": dR("checks the Fly.io setup"), "releases": dR("reads releases from Fly.io"),
			"postgres connect": dX("opens a shell on a Fly.io Postgres cluster"), "pg connect": dX("opens a shell on a Fly.io Postgres cluster"),
			"volumes": dG("reads volumes from Fly.io"), "ips": dG("reads IP addresses from Fly.io"), "certs": dG("reads certificates from Fly.io"),
			"image": dG("reads the app image"), "regions": dG("reads regions"), "tokens": dG("reads tokens"),
		},
		special: func(_ *Classifier, _ *shell.Invocation, words []string, p argv.Parsed) (Effect, bool) {
			if len(words) > 0 && words[0] == "deploy" && p.Has("--build-only") {
				return netRead("fly.build", "fly deploy --build-only builds the image without deploying it"), true
			}
			return Effect{}, false
		},
	}
	heroku := &deployTool{
		name: "heroku", site: "Heroku", colon: true,
		opts: argv.Spec{Short: "arsenx", Long: []string{"--app", "--remote", "--size", "--env", "--team", "--type", "--space", "--region", "--stack", "--buildpack", "--as", "--confirm"}},
		paths: map[string]deployEntry{
			"create": dW("creates an app on Heroku"), "apps create": dW("creates an app on Heroku"),
			"destroy": dD("deletes an app on Heroku"), "apps destroy": dD("deletes an app on Heroku"),
			"config": dG("reads config vars from Heroku"), "config set": dW("sets config vars on Heroku (and restarts the app)"),
			"config unset": dW("removes config vars on Heroku"), "config get": dR("reads a config var from Heroku"),
			"rollback": dW("rolls the app back on Heroku"), "releases": dG("reads releases from Heroku"),
			"releases rollback": dW("rolls the app back on Heroku"), "ps": dG("reads dynos from Heroku"),
			"ps scale": dW("scales dynos on Heroku"), "scale": dW("scales dynos on Heroku"),
			"restart": dW("restarts dynos on Heroku"), "run": dX("runs a command in a one-off dyno on Heroku"),
			"run detached": dX("runs a command in a one-off dyno on Heroku"),
			"pg":           dG("reads Postgres databases on Heroku"), "pg reset": dD("erases a Heroku Postgres database"),
			"pg psql": dX("opens a SQL shell on a Heroku Postgres database"), "pg backups": dG("reads backups"),
			"pg backups restore": dD("overwrites a Heroku Postgres database from a backup"),
			"pg backups capture": dW("captures a backup on Heroku"),
			"container":          dG("reads containers"), "container login": dS("configures Docker to push to Heroku"),
			"git": dG("reads git settings"), "git remote": dS("adds a git remote for the Heroku app"),
			"git clone": dR("clones the app's repository from Heroku"),
			"login":     dS("stores Heroku credentials on this machine"), "logout": dS("removes Heroku credentials"),
			"logs": dR("reads app logs from Heroku"), "apps": dG("reads apps from Heroku"), "info": dR("reads the app from Heroku"),
			"open": dL(""), "help": dL(""), "version": dL(""), "autocomplete": dL(""), "local": dL(""),
			"maintenance": dG("reads maintenance mode"), "domains": dG("reads domains from Heroku"),
			"addons": dG("reads add-ons from Heroku"), "access": dG("reads collaborators from Heroku"),
			"pipelines": dG("reads pipelines from Heroku"), "buildpacks": dG("reads buildpacks from Heroku"),
			"features": dG("reads features from Heroku"), "labs": dG("reads features from Heroku"),
			"certs": dG("reads certificates from Heroku"), "spaces": dG("reads spaces from Heroku"),
			"authorizations": dG("reads authorizations from Heroku"), "stack": dG("reads the stack"),
		},
	}
	wrangler := &deployTool{
		name: "wrangler", site: "Cloudflare", colon: true,
		opts: argv.Spec{Short: "ec", Long: []string{"--env", "--config", "--name", "--binding", "--namespace-id", "--command",
			"--file", "--preview-id", "--compatibility-date", "--var", "--define", "--route", "--project-name", "--branch",
			"--commit-hash", "--commit-message", "--ttl", "--expiration", "--metadata", "--message", "--tag", "--persist-to",
			"--outdir", "--latest", "--jurisdiction", "--content-type", "--pipe"}},
		paths: map[string]deployEntry{
			"deploy": dW("deploys a Worker to Cloudflare"), "publish": dW("deploys a Worker to Cloudflare"),
			"delete": dD("deletes a Worker on Cloudflare"), "rollback": dW("rolls a Worker back on Cloudflare"),
			"versions": dG("reads Worker versions"), "versions upload": dW("uploads a Worker version to Cloudflare"),
			"versions deploy": dW("deploys Worker versions on Cloudflare"), "triggers deploy": dW("deploys Worker triggers"),
			"secret": dG("reads Worker secrets"), "secret put": dW("sets a Worker secret on Cloudflare"),
			"secret bulk": dW("sets Worker secrets on Cloudflare"), "secret delete": dW("removes a Worker secret on Cloudflare"),
			"pages": dG("reads Pages projects"), "pages deploy": dW("deploys a Pages site to Cloudflare"),
			"pages publish": dW("deploys a Pages site to Cloudflare"), "pages dev": dL(""),
			"dev": dL(""), "types": dL(""), "docs": dL(""), "init": dR("downloads a project template"),
			"generate": dR("downloads a project template"), "tail": dR("streams Worker logs from Cloudflare"),
			"whoami": dR("reads the logged-in account"), "login": dS("stores Cloudflare credentials on this machine"),
			"logout": dS("removes Cloudflare credentials"), "deployments": dG("reads deployments"),
			"kv": dG("reads Workers KV"), "r2": dG("reads R2 storage"), "d1": dG("reads D1 databases"), "queues": dG("reads queues"),
		},
		special: wranglerSpecial,
	}
	firebase := &deployTool{
		name: "firebase", site: "Firebase", colon: true,
		opts: argv.Spec{Short: "PmD", Long: []string{"--project", "--only", "--except", "--message", "--token", "--config",
			"--expires", "--site", "--data", "--instance", "--import", "--export-on-exit", "--hash-algo", "--release-notes",
			"--groups", "--testers", "--app", "--format", "--region", "--account"}},
		paths: map[string]deployEntry{
			"deploy": dW("deploys to Firebase"), "hosting": dG("reads Hosting"), "hosting channel": dG("reads preview channels"),
			"hosting channel deploy": dW("deploys a preview channel on Firebase Hosting"),
			"hosting disable":        dW("takes the Firebase Hosting site offline"),
			"functions":              dG("reads Cloud Functions"), "functions shell": dL(""), "functions log": dR("reads function logs"),
			"functions config": dG("reads function configuration"), "functions secrets": dG("reads function secrets"),
			"functions secrets destroy": dW("removes a function secret on Firebase"),
			"firestore":                 dG("reads Firestore"), "database": dG("reads the Realtime Database"),
			"database remove": dD("deletes data from the Realtime Database"),
			"database push":   dW("writes data to the Realtime Database"),
			"auth":            dG("reads users"), "auth export": dR("downloads user accounts from Firebase"),
			"emulators": dL(""), "serve": dL(""), "use": dL(""), "init": dL(""), "open": dL(""), "target": dL(""),
			"experiments": dL(""), "help": dL(""),
			"login": dS("stores Firebase credentials on this machine"), "logout": dS("removes Firebase credentials"),
			"projects": dG("reads projects"), "apps": dG("reads apps"), "apps sdkconfig": dR("reads app configuration"),
			"remoteconfig": dG("reads Remote Config"), "ext": dG("reads extensions"), "ext uninstall": dD("removes an extension and its resources"),
			"ext install": dW("installs an extension on Firebase"), "ext configure": dW("reconfigures an extension on Firebase"),
			"appdistribution":            dG("reads App Distribution"),
			"appdistribution distribute": dW("distributes a build to testers"),
			"crashlytics":                dG("reads Crashlytics"), "crashlytics symbols upload": dW("uploads symbols to Crashlytics"),
		},
	}
	serverless := &deployTool{
		name: "serverless", site: "the cloud provider",
		opts: argv.Spec{Short: "srfcptd", Long: []string{"--stage", "--region", "--function", "--config", "--path", "--type", "--data", "--aws-profile", "--param", "--org", "--app", "--name", "--template", "--template-url", "--startTime", "--package"}},
		paths: map[string]deployEntry{
			"deploy": dW("deploys the service to the cloud provider"), "deploy list": dR("lists deployments"),
			"deploy function": dW("deploys a function to the cloud provider"), "remove": dD("deletes the deployed service and its resources"),
			"invoke": dW("invokes a deployed function"), "invoke local": dL(""), "rollback": dW("rolls the service back"),
			"dev": dW("deploys a development instance"), "logs": dR("reads function logs"), "info": dR("reads the deployed service"),
			"metrics": dR("reads function metrics"), "package": dL(""), "print": dL(""), "offline": dL(""), "create": dL(""),
			"config": dG("reads configuration"), "config credentials": dS("stores provider credentials on this machine"),
			"login": dS("stores credentials on this machine"), "logout": dS("removes credentials"),
			"plugin": dG("reads plugins"), "plugin install": {kind: deploySharedRead, what: "installs a plugin from npm"},
			"plugin uninstall": dL(""), "help": dL(""), "doctor": dL(""),
		},
	}
	cdk := &deployTool{
		name: "cdk", site: "AWS",
		opts: argv.Spec{Short: "acorem", Long: []string{"--app", "--context", "--output", "--profile", "--role-arn", "--toolkit-stack-name",
			"--parameters", "--outputs-file", "--require-approval", "--method", "--concurrency", "--change-set-name", "--exclude", "--language", "--plugin"}},
		paths: map[string]deployEntry{
			"deploy": dW("deploys CloudFormation stacks to AWS"), "destroy": dD("deletes CloudFormation stacks and their resources"),
			"bootstrap": dW("creates the CDK toolkit stack in AWS"), "watch": dW("deploys stacks to AWS on every change"),
			"import": dW("imports resources into a stack on AWS"), "rollback": dW("rolls a stack back on AWS"),
			"gc": dD("deletes unused assets in AWS"), "diff": dR("compares stacks with what is deployed"), "drift": dR("reads stack drift"),
			"synth": dL(""), "synthesize": dL(""), "ls": dL(""), "list": dL(""), "init": dL(""), "doctor": dL(""), "docs": dL(""),
			"context": dL(""), "notices": dL(""), "acknowledge": dL(""), "ack": dL(""), "metadata": dL(""), "migrate": dL(""),
		},
	}
	sam := &deployTool{
		name: "sam", site: "AWS",
		opts: argv.Spec{Short: "tesdo", Long: []string{"--template-file", "--template", "--stack-name", "--s3-bucket", "--s3-prefix",
			"--region", "--profile", "--parameter-overrides", "--capabilities", "--config-env", "--config-file", "--event",
			"--env-vars", "--output-template-file", "--image-repository", "--resource-id", "--name", "--tail", "--port"}},
		paths: map[string]deployEntry{
			"deploy": dW("deploys the application to AWS"), "delete": dD("deletes the application's stack on AWS"),
			"sync": dW("syncs the application to AWS"), "package": dW("uploads code artifacts to S3"),
			"publish": dW("publishes the application to the Serverless Application Repository"),
			"remote":  dG("reads deployed resources"), "remote invoke": dW("invokes a deployed function"),
			"remote test-event": dG("reads test events"),
			"pipeline":          dG("reads pipelines"), "pipeline bootstrap": dW("creates pipeline resources in AWS"), "pipeline init": dL(""),
			"build": dL(""), "validate": dL(""), "local": dL(""), "init": dR("downloads an application template"),
			"logs": dR("reads function logs"), "traces": dR("reads traces"), "list": dR("reads deployed resources"), "docs": dL(""),
		},
	}
	eb := &deployTool{
		name: "eb", site: "Elastic Beanstalk",
		opts: argv.Spec{Short: "lmprci", Long: []string{"--label", "--message", "--profile", "--region", "--cname", "--instance_type", "--platform", "--source", "--timeout", "--version", "--command"}},
		paths: map[string]deployEntry{
			"deploy": dW("deploys the application to Elastic Beanstalk"), "create": dW("creates an environment on Elastic Beanstalk"),
			"terminate": dD("terminates an environment and its resources"), "scale": dW("scales the environment"),
			"setenv": dW("sets environment properties (and restarts the app)"), "swap": dW("swaps environment URLs"),
			"restore": dW("restores a terminated environment"), "upgrade": dW("upgrades the environment platform"),
			"abort": dW("aborts an environment update"), "clone": dW("clones an environment"),
			"config": dW("changes the environment configuration"), "config list": dR("lists saved configurations"),
			"config get": dR("downloads a saved configuration"), "ssh": dX("runs a command on an environment instance"),
			"use": dL(""), "open": dL(""), "console": dL(""), "init": dR("sets up an application"), "local": dL(""),
			"status": dR("reads the environment status"), "health": dR("reads environment health"), "logs": dR("reads logs"),
			"events": dR("reads events"), "list": dR("lists environments"), "printenv": dR("reads environment properties"),
			"platform": dG("reads platforms"), "appversion": dG("reads application versions"), "tags": dG("reads tags"),
			"labs": dG("reads labs"), "codesource": dL(""),
		},
		command: []string{"-c", "--command"},
		special: func(_ *Classifier, _ *shell.Invocation, words []string, p argv.Parsed) (Effect, bool) {
			if len(words) > 0 && words[0] == "tags" && p.Has("-a", "--add", "-d", "--delete", "-u", "--update") {
				return external("eb.write", "eb tags changes tags on Elastic Beanstalk"), true
			}
			return Effect{}, false
		},
	}
	return map[string]*deployTool{
		"railway": railway, "vercel": vercel, "netlify": netlify, "fly": fly, "flyctl": fly, "heroku": heroku,
		"wrangler": wrangler, "firebase": firebase, "serverless": serverless, "sls": serverless, "cdk": cdk, "sam": sam, "eb": eb,
	}
}}

// classifyDeployTool rates a table-driven deploy tool.
func classifyDeployTool(c *Classifier, inv *shell.Invocation) Effect {
	return deployTools.Get()[inv.Name()].classify(c, inv)
}

var deploySaaSSpec = &Spec{
	Programs: []string{"railway", "vercel", "netlify", "fly", "flyctl", "heroku", "wrangler", "firebase"},
	Classify: classifyDeployTool,
	Examples: []Example{
		// Railway.
		{"railway up", "external"},
		{"railway up --detach -s api", "external"},
		{"railway deploy -t postgres", "external"},
		{"railway redeploy -y", "external"},
		{"railway down -y", "external+destructive"},
		{"railway variables --set KEY=value", "external"},
		{"railway variables", "local+netread"},
		{"railway logs", "local+netread"},
		{"railway status", "local+netread"},
		{"railway link -p my-project", "local"},
		{"railway run npm start", "local+netread"},
		{"railway run rm -rf dist", "local+destructive+netread"},
		{"railway ssh -- rm -rf /data", "external+destructive"},
		{"railway login", "shared"},
		{"railway up --help", "local"},
		// Vercel.
		{"vercel", "external"},
		{"vercel --prod", "external"},
		{"vercel ./dist --prod --yes", "external"},
		{"vercel deploy --prebuilt --prod", "external"},
		{"vercel --token $T --scope team deploy", "external"},
		{"vercel promote https://app-abc.vercel.app", "external"},
		{"vercel rollback", "external"},
		{"vercel env add API_KEY production", "external"},
		{"vercel env rm API_KEY production", "external"},
		{"vercel remove my-app --yes", "external+destructive"},
		{"vercel rm my-app", "external+destructive"},
		{"vercel domains add example.com", "external"},
		{"vercel domains ls", "local+netread"},
		{"vercel env pull .env.local", "local+netread"},
		{"vercel env ls", "local+netread"},
		{"vercel pull --environment=production", "local+netread"},
		{"vercel ls", "local+netread"},
		{"vercel logs https://app-abc.vercel.app", "local+netread"},
		{"vercel inspect https://app-abc.vercel.app", "local+netread"},
		{"vercel dev", "local"},
		{"vercel build --prod", "local"},
		{"vercel whoami", "local+netread"},
		{"vercel login", "shared"},
		{"vercel --help", "local"},
		{"vercel --version", "local"},
		{"vercel deploy -h", "local"},
		{"vercel $CMD", "local+opaque"},
		// Netlify.
		{"netlify deploy", "external"},
		{"netlify deploy --prod --dir=dist", "external"},
		{"netlify deploy --build --prod -m 'release'", "external"},
		{"netlify sites:delete my-site-id --force", "external+destructive"},
		{"netlify sites:create --name new", "external"},
		{"netlify sites:list", "local+netread"},
		{"netlify env:set API_KEY x", "external"},
		{"netlify env:list", "local+netread"},
		{"netlify status", "local+netread"},
		{"netlify dev", "local"},
		{"netlify build", "local"},
		{"netlify link --id abc", "local"},
		{"netlify functions:invoke hello", "local"},
		{"netlify api listSites", "local+netread"},
		{"netlify api deleteSite --data '{\"site_id\": \"x\"}'", "external+destructive"},
		{"netlify api updateSite --data '{}'", "external"},
		{"netlify deploy --help", "local"},
		// Fly.io.
		{"fly deploy", "external"},
		{"flyctl deploy --remote-only -a app", "external"},
		{"fly deploy --build-only", "local+netread"},
		{"fly launch --no-deploy", "external"},
		{"fly apps destroy my-app -y", "external+destructive"},
		{"fly destroy my-app", "external+destructive"},
		{"fly apps create my-app", "external"},
		{"fly apps list", "local+netread"},
		{"fly machine destroy 148e --force", "external+destructive"},
		{"fly machines list", "local+netread"},
		{"fly machine run nginx --region ams", "external"},
		{"fly scale count 3", "external"},
		{"fly scale show", "local+netread"},
		{"fly secrets set KEY=value", "external"},
		{"fly secrets unset KEY", "external"},
		{"fly secrets list", "local+netread"},
		{"fly volumes destroy vol_123", "external+destructive"},
		{"fly volumes create data --size 1", "external"},
		{"fly ssh console", "external"},
		{"fly ssh console -C 'rm -rf /data'", "external+destructive"},
		{"fly logs -a deploy", "local+netread"},
		{"fly status", "local+netread"},
		{"fly auth login", "shared"},
		{"fly proxy 5432 -a db", "local+netread"},
		{"fly deploy --help", "local"},
		// Heroku.
		{"heroku create my-app", "external"},
		{"heroku apps:create my-app", "external"},
		{"heroku apps:destroy my-app --confirm my-app", "external+destructive"},
		{"heroku destroy -a my-app", "external+destructive"},
		{"heroku config:set DEBUG=1 -a my-app", "external"},
		{"heroku config:unset DEBUG", "external"},
		{"heroku config", "local+netread"},
		{"heroku config:get DATABASE_URL", "local+netread"},
		{"heroku releases:rollback v12", "external"},
		{"heroku releases", "local+netread"},
		{"heroku ps:scale web=2", "external"},
		{"heroku ps", "local+netread"},
		{"heroku ps:restart", "external"},
		{"heroku run bash -a my-app", "external"},
		{"heroku run -a my-app rm -rf /app/tmp", "external+destructive"},
		{"heroku pg:reset DATABASE --confirm my-app", "external+destructive"},
		{"heroku pg:backups:capture", "external"},
		{"heroku pg:backups:restore b101 DATABASE_URL", "external+destructive"},
		{"heroku addons:create heroku-postgresql", "external"},
		{"heroku addons", "local+netread"},
		{"heroku logs --tail", "local+netread"},
		{"heroku maintenance:on", "external"},
		{"heroku git:remote -a my-app", "shared"},
		{"heroku login", "shared"},
		{"heroku apps", "local+netread"},
		{"heroku config:set --help", "local"},
		// Wrangler.
		{"wrangler deploy", "external"},
		{"wrangler deploy --env production", "external"},
		{"wrangler publish", "external"},
		{"wrangler deploy --dry-run --outdir dist", "local+netread"},
		{"wrangler versions upload", "external"},
		{"wrangler delete my-worker", "external+destructive"},
		{"wrangler secret put API_KEY", "external"},
		{"wrangler secret list", "local+netread"},
		{"wrangler kv:key put --binding=KV key value", "external"},
		{"wrangler kv key put key value --binding KV", "external"},
		{"wrangler kv key put key value --binding KV --local", "local"},
		{"wrangler kv key get key --binding KV", "local+netread"},
		{"wrangler kv key delete key --binding KV", "external+destructive"},
		{"wrangler kv namespace create CACHE", "external"},
		{"wrangler r2 object put bucket/key --file x", "external"},
		{"wrangler r2 bucket delete old", "external+destructive"},
		{"wrangler d1 execute db --remote --command 'SELECT 1'", "external"},
		{"wrangler d1 execute db --remote --command 'DROP TABLE users'", "external+destructive"},
		{"wrangler d1 execute db --command 'DROP TABLE users'", "local"},
		{"wrangler d1 execute db --local --file schema.sql", "local"},
		{"wrangler d1 migrations apply db --remote", "external"},
		{"wrangler d1 migrations apply db --local", "local"},
		{"wrangler d1 list", "local+netread"},
		{"wrangler pages deploy dist --project-name site", "external"},
		{"wrangler dev", "local"},
		{"wrangler tail", "local+netread"},
		{"wrangler whoami", "local+netread"},
		{"wrangler login", "shared"},
		{"wrangler deploy --help", "local"},
		// Firebase.
		{"firebase deploy", "external"},
		{"firebase deploy --only hosting", "external"},
		{"firebase deploy --only functions -P prod", "external"},
		{"firebase deploy --dry-run", "local+netread"},
		{"firebase hosting:channel:deploy preview", "external"},
		{"firebase hosting:channel:delete preview", "external+destructive"},
		{"firebase hosting:channel:list", "local+netread"},
		{"firebase hosting:disable", "external"},
		{"firebase functions:delete oldFn --force", "external+destructive"},
		{"firebase functions:config:set a.b=c", "external"},
		{"firebase functions:log", "local+netread"},
		{"firebase firestore:delete --all-collections", "external+destructive"},
		{"firebase database:get /users", "local+netread"},
		{"firebase database:set /users data.json", "external"},
		{"firebase database:remove /users", "external+destructive"},
		{"firebase emulators:start", "local"},
		{"firebase serve", "local"},
		{"firebase use prod", "local"},
		{"firebase target:apply hosting main site", "local"},
		{"firebase projects:list", "local+netread"},
		{"firebase login", "shared"},
		{"firebase deploy --help", "local"},
	},
}

var deployStackSpec = &Spec{
	Programs: []string{"serverless", "sls", "cdk", "sam", "eb"},
	Classify: classifyDeployTool,
	Examples: []Example{
		{"serverless deploy", "external"},
		{"sls deploy --stage prod", "external"},
		{"sls deploy function -f hello", "external"},
		{"sls deploy list", "local+netread"},
		{"sls remove --stage dev", "external+destructive"},
		{"sls invoke -f hello", "external"},
		{"sls invoke local -f hello", "local"},
		{"sls logs -f hello --tail", "local+netread"},
		{"sls info", "local+netread"},
		{"sls package", "local"},
		{"sls offline", "local"},
		{"sls deploy --help", "local"},
		{"cdk deploy", "external"},
		{"cdk deploy --all --require-approval never", "external"},
		{"cdk destroy MyStack --force", "external+destructive"},
		{"cdk bootstrap aws://123/eu-west-1", "external"},
		{"cdk watch", "external"},
		{"cdk synth", "local"},
		{"cdk diff", "local+netread"},
		{"cdk ls", "local"},
		{"cdk deploy --help", "local"},
		{"sam deploy --guided", "external"},
		{"sam deploy --stack-name app --capabilities CAPABILITY_IAM", "external"},
		{"sam delete --stack-name app", "external+destructive"},
		{"sam sync --watch", "external"},
		{"sam package --s3-bucket b", "external"},
		{"sam build", "local"},
		{"sam validate", "local"},
		{"sam local invoke Fn -e event.json", "local"},
		{"sam local start-api", "local"},
		{"sam logs -n Fn --tail", "local+netread"},
		{"eb deploy", "external"},
		{"eb deploy prod-env --label v2", "external"},
		{"eb create prod-env", "external"},
		{"eb terminate prod-env --force", "external+destructive"},
		{"eb setenv KEY=value", "external"},
		{"eb scale 3", "external"},
		{"eb ssh -c 'sudo rm -rf /var/app/current'", "external+destructive"},
		{"eb status", "local+netread"},
		{"eb health", "local+netread"},
		{"eb logs", "local+netread"},
		{"eb printenv", "local+netread"},
		{"eb use prod-env", "local"},
		{"eb deploy --help", "local"},
	},
}

// wranglerSpecial rates wrangler's commands that act locally unless told
// --remote (d1) or told --local (kv, r2).
func wranglerSpecial(c *Classifier, inv *shell.Invocation, words []string, p argv.Parsed) (Effect, bool) {
	if len(words) < 2 {
		return Effect{}, false
	}
	path := strings.Join(words[:min(3, len(words))], " ")
	switch {
	case words[0] == "d1" && (words[1] == "execute" || strings.HasPrefix(path, "d1 migrations apply")):
		if !p.Has("--remote") || p.Has("--local") {
			return local("wrangler.local", "wrangler d1 "+words[1]+" runs against the local development database"), true
		}
		e := external("wrangler.write", "wrangler d1 "+words[1]+" --remote changes a D1 database on Cloudflare")
		if sql, ok := p.Value("--command"); ok && deploySQLDestroys(sql) {
			e = external("wrangler.delete", "wrangler d1 execute --remote runs SQL that deletes data on Cloudflare").destroys()
		}
		return e, true
	case (words[0] == "kv" || words[0] == "r2") && p.Has("--local") && !p.Has("--remote"):
		return local("wrangler.local", "wrangler "+words[0]+" --local changes the local development store"), true
	}
	return Effect{}, false
}

// deploySQLDestroys reports whether SQL text drops, truncates or deletes
// without a WHERE clause.
func deploySQLDestroys(sql string) bool {
	u := strings.ToUpper(sql)
	return strings.Contains(u, "DROP ") || strings.Contains(u, "TRUNCATE ") ||
		strings.Contains(u, "DELETE FROM") && !strings.Contains(u, "WHERE")
}

// ---- kubectl ----

var kubectlOpts = argv.Spec{
	Short: "nsflcLopkv",
	Long: []string{"--namespace", "--context", "--kubeconfig", "--cluster", "--user", "--server", "--token", "--as",
		"--as-group", "--as-uid", "--selector", "--output", "--filename", "--container", "--field-selector",
		"--label-columns", "--sort-by", "--template", "--patch", "--type", "--kustomize", "--image", "--replicas",
		"--port", "--target-port", "--name", "--timeout", "--request-timeout", "--cache-dir", "--certificate-authority",
		"--client-certificate", "--client-key", "--tls-server-name", "--password", "--username", "--for", "--since",
		"--tail", "--overrides", "--env", "--labels", "--grace-period", "--field-manager", "--subresource",
		"--patch-file", "--pod-running-timeout", "--max", "--min", "--cpu-percent", "--protocol", "--external-ip",
		"--generator", "--resource-version", "--current-replicas", "--since-time", "--limit-bytes", "--address"},
}

var kubectlSpec = &Spec{
	Programs: []string{"kubectl", "oc", "microk8s.kubectl"},
	Classify: classifyKubectl,
	Examples: []Example{
		{"kubectl apply -f deploy.yaml", "external"},
		{"kubectl -n prod apply -k overlays/prod", "external"},
		{"kubectl --context prod apply -f x.yaml", "external"},
		{"kubectl apply -f x.yaml --prune -l app=web", "external+destructive"},
		{"kubectl apply -f x.yaml --dry-run=client", "local+netread"},
		{"kubectl apply -f x.yaml --dry-run=server -o yaml", "local+netread"},
		{"kubectl apply -f x.yaml --dry-run=none", "external"},
		{"kubectl create deployment web --image=nginx", "external"},
		{"kubectl create secret generic s --from-literal=a=b --dry-run=client -o yaml", "local+netread"},
		{"kubectl patch deploy web -p '{\"spec\":{\"replicas\":2}}'", "external"},
		{"kubectl replace -f x.yaml", "external"},
		{"kubectl replace --force -f x.yaml", "external+destructive"},
		{"kubectl scale deploy web --replicas=0", "external"},
		{"kubectl rollout restart deploy/web", "external"},
		{"kubectl rollout undo deploy/web", "external"},
		{"kubectl rollout status deploy/web", "local+netread"},
		{"kubectl rollout history deploy/web", "local+netread"},
		{"kubectl set image deploy/web web=nginx:1.27", "external"},
		{"kubectl label pods web tier=frontend", "external"},
		{"kubectl annotate deploy web note=x", "external"},
		{"kubectl edit deploy web", "external"},
		{"kubectl expose deploy web --port 80", "external"},
		{"kubectl autoscale deploy web --max 5", "external"},
		{"kubectl cordon node-1", "external"},
		{"kubectl drain node-1 --ignore-daemonsets", "external"},
		{"kubectl taint nodes node-1 key=value:NoSchedule", "external"},
		{"kubectl run tmp --image=busybox --rm -it -- sh", "external"},
		{"kubectl delete pod web-123", "external+destructive"},
		{"kubectl delete -f deploy.yaml", "external+destructive"},
		{"kubectl -n prod delete namespace prod", "external+destructive"},
		{"kubectl delete pod web --dry-run=client", "local+netread"},
		{"kubectl exec -it web-123 -- sh", "external"},
		{"kubectl exec web-123 -c app -- rm -rf /data", "external+destructive"},
		{"kubectl cp ./dump.sql db-0:/tmp/dump.sql", "external"},
		{"kubectl cp db-0:/tmp/dump.sql ./dump.sql", "local+netread"},
		{"kubectl get pods", "local+netread"},
		{"kubectl get pods -n delete", "local+netread"},
		{"kubectl -n prod get deploy -o yaml", "local+netread"},
		{"kubectl describe pod web-123", "local+netread"},
		{"kubectl logs -f deploy/web", "local+netread"},
		{"kubectl logs -p web-123", "local+netread"},
		{"kubectl top pods", "local+netread"},
		{"kubectl explain deployment.spec", "local+netread"},
		{"kubectl diff -f x.yaml", "local+netread"},
		{"kubectl version", "local+netread"},
		{"kubectl version --client", "local"},
		{"kubectl port-forward svc/web 8080:80", "local+netread"},
		{"kubectl auth can-i delete pods", "local+netread"},
		{"kubectl config view", "local"},
		{"kubectl config get-contexts", "local"},
		{"kubectl config use-context prod", "shared"},
		{"kubectl config set-context --current --namespace=dev", "shared"},
		{"kubectl kustomize overlays/prod", "local"},
		{"kubectl apply --help", "local"},
		{"kubectl delete -h", "local"},
		{"kubectl $VERB pod web", "local+opaque"},
		{"oc apply -f x.yaml", "external"},
		{"oc get pods", "local+netread"},
	},
}

// deployVerb reads the verb of a deploy tool (kubectl, helm, pulumi) and
// the word after it. done is set, with the effect to return, when the call
// only asks for help, names no verb, or computes its verb at run time.
func deployVerb(inv *shell.Invocation, spec argv.Spec, rule string) (p argv.Parsed, verb, sub string, e Effect, done bool) {
	args := inv.Args[1:]
	if forgeWantsHelp(args, true) {
		return p, "", "", nothing, true
	}
	p = spec.Parse(args)
	if len(p.Operands) == 0 {
		return p, "", "", nothing, true
	}
	verb = p.Operands[0]
	if inv.IsDynamic(1 + p.OperandIndex[0]) {
		return p, verb, "", opaque(rule+".dynamic", "the "+inv.Name()+" command is computed at run time ("+verb+")"), true
	}
	if len(p.Operands) > 1 {
		sub = p.Operands[1]
	}
	return p, verb, sub, nothing, false
}

// kubectlBuiltin are kubectl's own commands; any other runs a plugin.
func kubectlBuiltin(name string) bool {
	switch name {
	case "create", "expose", "run", "set", "explain", "get", "edit", "delete", "rollout", "scale",
		"autoscale", "certificate", "cluster-info", "top", "cordon", "uncordon", "drain", "taint", "describe",
		"logs", "attach", "exec", "port-forward", "proxy", "cp", "auth", "debug", "events", "diff", "apply",
		"patch", "replace", "wait", "kustomize", "label", "annotate", "completion", "alpha", "api-resources",
		"api-versions", "config", "plugin", "version", "options", "help":
		return true
	}
	return false
}

func classifyKubectl(c *Classifier, inv *shell.Invocation) Effect {
	p, verb, sub, e, done := deployVerb(inv, kubectlOpts, "kubectl")
	if done {
		return e
	}
	tool := inv.Name()
	cmd := tool + " " + verb
	if tool == "kubectl" && !kubectlBuiltin(verb) && len(p.OperandIndex) > 0 && validExtension(verb) {
		if k := 1 + p.OperandIndex[0]; k < len(inv.Args) && inv.Args[k] == verb {
			// A plugin: kubectl NAME runs kubectl-NAME, classified as
			// that program.
			return c.extensionRun(inv, k, "kubectl-").through("kubectl.plugin", "kubectl "+verb+" runs the plugin kubectl-"+verb)
		}
	}
	for _, f := range p.Flags {
		if f.Name == "--dry-run" && f.Value != "none" && f.Value != "false" {
			return netRead("kubectl.dry-run", cmd+" --dry-run only shows what would change in the cluster")
		}
	}
	switch verb {
	case "delete":
		return external("kubectl.delete", cmd+" deletes resources from the cluster").destroys()
	case "apply":
		if p.Has("--prune") {
			return external("kubectl.delete", cmd+" --prune deletes resources missing from the manifests").destroys()
		}
		if sub == "view-last-applied" {
			return netRead("kubectl.read", cmd+" view-last-applied reads from the cluster")
		}
		return external("kubectl.write", cmd+" changes resources in the cluster")
	case "replace":
		if p.Has("--force") {
			return external("kubectl.delete", cmd+" --force deletes and recreates resources").destroys()
		}
		return external("kubectl.write", cmd+" changes resources in the cluster")
	case "drain":
		if p.Has("--delete-emptydir-data", "--delete-local-data") {
			return external("kubectl.delete", cmd+" evicts pods and deletes their local data").destroys()
		}
		return external("kubectl.write", cmd+" evicts every pod from a node")
	case "create", "patch", "scale", "set", "label", "annotate", "edit", "expose", "autoscale", "cordon",
		"uncordon", "taint", "run", "certificate":
		return external("kubectl.write", cmd+" changes resources in the cluster")
	case "exec", "attach", "debug":
		e := external("kubectl.exec", cmd+" runs a command inside the cluster")
		for i := 1; i+1 < len(inv.Args); i++ {
			if inv.Args[i] == "--" {
				return deployWithInner(e, c.nested(inv.Text(i+1)))
			}
		}
		return e
	case "cp":
		if len(p.Operands) >= 3 && strings.Contains(p.Operands[len(p.Operands)-1], ":") {
			return external("kubectl.cp", cmd+" copies local files into a container")
		}
		return netRead("kubectl.read", cmd+" copies files out of a container")
	case "rollout":
		switch sub {
		case "status", "history":
			return netRead("kubectl.read", cmd+" "+sub+" reads rollout state from the cluster")
		}
		return external("kubectl.write", cmd+" "+sub+" changes a rollout in the cluster")
	case "config":
		switch sub {
		case "", "view", "get-contexts", "current-context", "get-clusters", "get-users":
			return nothing
		}
		return shared("kubectl.config", cmd+" "+sub+" changes which cluster and credentials kubectl uses")
	case "auth":
		if sub == "reconcile" {
			return external("kubectl.write", cmd+" reconcile changes RBAC rules in the cluster")
		}
	case "kustomize", "completion", "plugin", "options":
		return nothing
	case "version":
		if p.Has("--client") {
			return nothing
		}
	}
	return netRead("kubectl.read", cmd+" reads from the cluster")
}

// ---- helm ----

var helmOpts = argv.Spec{
	Short: "nfo",
	Long: []string{"--namespace", "--kube-context", "--kubeconfig", "--registry-config", "--repository-cache",
		"--repository-config", "--burst-limit", "--qps", "--kube-apiserver", "--kube-as-user", "--kube-as-group",
		"--kube-token", "--kube-ca-file", "--values", "--set", "--set-string", "--set-file", "--set-json", "--set-literal",
		"--version", "--repo", "--timeout", "--description", "--post-renderer", "--post-renderer-args", "--username",
		"--password", "--ca-file", "--cert-file", "--key-file", "--output", "--revision", "--keyring", "--name-template",
		"--max", "--filter", "--destination", "--untardir", "--history-max", "--cascade", "--label"},
}

var helmSpec = &Spec{
	Programs: []string{"helm"},
	Classify: classifyHelm,
	Examples: []Example{
		{"helm install web ./chart", "external"},
		{"helm install web bitnami/nginx -n prod --set replicas=2", "external"},
		{"helm upgrade --install web ./chart -f values.yaml", "external"},
		{"helm upgrade web ./chart --dry-run", "local+netread"},
		{"helm install web ./chart --dry-run=server", "local+netread"},
		{"helm rollback web 3", "external"},
		{"helm test web", "external"},
		{"helm uninstall web", "external+destructive"},
		{"helm delete web -n prod", "external+destructive"},
		{"helm uninstall web --dry-run", "local+netread"},
		{"helm push chart-1.0.0.tgz oci://registry.example/charts", "external"},
		{"helm repo add bitnami https://charts.bitnami.com/bitnami", "shared"},
		{"helm repo update", "local+netread"},
		{"helm repo list", "local"},
		{"helm pull bitnami/nginx --untar", "local+netread"},
		{"helm template web ./chart -f values.yaml", "local"},
		{"helm lint ./chart", "local"},
		{"helm package ./chart", "local"},
		{"helm dependency update ./chart", "local+netread"},
		{"helm list -A", "local+netread"},
		{"helm status web", "local+netread"},
		{"helm history web", "local+netread"},
		{"helm get values web", "local+netread"},
		{"helm show values bitnami/nginx", "local"},
		{"helm registry login registry.example", "shared"},
		{"helm plugin install https://github.com/databus23/helm-diff", "shared+netread"},
		{"helm install --help", "local"},
		{"helm version", "local"},
	},
}

func classifyHelm(_ *Classifier, inv *shell.Invocation) Effect {
	p, verb, sub, e, done := deployVerb(inv, helmOpts, "helm")
	if done {
		return e
	}
	cmd := "helm " + verb
	dry := false
	for _, f := range p.Flags {
		if f.Name == "--dry-run" && f.Value != "false" && f.Value != "none" {
			dry = true
		}
	}
	switch verb {
	case "install", "upgrade", "rollback", "test":
		if dry {
			return netRead("helm.dry-run", cmd+" --dry-run only renders the release against the cluster")
		}
		return external("helm.write", cmd+" changes a release in the cluster")
	case "uninstall", "delete", "del", "un":
		if dry {
			return netRead("helm.dry-run", cmd+" --dry-run only shows what would be removed")
		}
		return external("helm.delete", cmd+" removes a release and its resources from the cluster").destroys()
	case "push", "cm-push", "s3", "gcs":
		if verb == "s3" || verb == "gcs" {
			if sub != "push" {
				break
			}
		}
		return external("helm.push", cmd+" uploads a chart to a registry")
	case "list", "ls", "status", "history", "hist", "get":
		return netRead("helm.read", cmd+" reads releases from the cluster")
	case "pull", "fetch":
		return netRead("helm.read", cmd+" downloads a chart")
	case "repo":
		switch sub {
		case "add", "remove", "rm":
			return shared("helm.repo", cmd+" "+sub+" changes the configured chart repositories")
		case "update", "up":
			return netRead("helm.read", cmd+" "+sub+" downloads chart indexes")
		}
		return nothing
	case "registry":
		if sub == "login" || sub == "logout" {
			return shared("helm.registry", cmd+" "+sub+" changes stored registry credentials")
		}
		return nothing
	case "dependency", "dep":
		if sub == "update" || sub == "up" || sub == "build" {
			return netRead("helm.read", cmd+" "+sub+" downloads chart dependencies")
		}
		return nothing
	case "plugin":
		switch sub {
		case "install", "update", "add":
			return shared("helm.plugin", cmd+" "+sub+" downloads and installs a plugin").reads()
		case "uninstall", "remove", "rm":
			return shared("helm.plugin", cmd+" "+sub+" removes a plugin")
		}
		return nothing
	case "search":
		if sub == "hub" {
			return netRead("helm.read", cmd+" hub searches Artifact Hub")
		}
		return nothing
	case "template", "lint", "create", "package", "show", "inspect", "verify", "version", "env", "completion":
		return nothing
	}
	return netRead("helm.read", cmd+" is a helm plugin or command airlock does not know; taken as a read from the cluster")
}

// ---- terraform, tofu ----

var terraformSpec = &Spec{
	Programs: []string{"terraform", "tofu", "terragrunt"},
	Classify: classifyTerraform,
	Examples: []Example{
		{"terraform apply", "external"},
		{"terraform apply -auto-approve", "external"},
		{"terraform -chdir=infra apply -var 'env=prod' plan.tfplan", "external"},
		{"terraform apply -destroy -auto-approve", "external+destructive"},
		{"terraform destroy", "external+destructive"},
		{"terraform destroy -target=aws_instance.web", "external+destructive"},
		{"terraform import aws_instance.web i-123", "external"},
		{"terraform state rm aws_instance.web", "external"},
		{"terraform state mv a b", "external"},
		{"terraform state rm -dry-run aws_instance.web", "local+netread"},
		{"terraform state list", "local+netread"},
		{"terraform state show aws_instance.web", "local+netread"},
		{"terraform taint aws_instance.web", "external"},
		{"terraform untaint aws_instance.web", "external"},
		{"terraform workspace delete staging", "external"},
		{"terraform workspace select prod", "local"},
		{"terraform workspace new staging", "shared"},
		{"terraform force-unlock 1234", "external"},
		{"terraform refresh", "external"},
		{"terraform test", "external"},
		{"terraform plan", "local+netread"},
		{"terraform plan -destroy -out=p.tfplan", "local+netread"},
		{"terraform init -upgrade", "local+netread"},
		{"terraform validate", "local"},
		{"terraform fmt -recursive", "local"},
		{"terraform show", "local+netread"},
		{"terraform output -json", "local+netread"},
		{"terraform login", "shared"},
		{"terraform apply -help", "local"},
		{"terraform -version", "local"},
		{"tofu apply", "external"},
		{"tofu destroy", "external+destructive"},
		{"tofu plan", "local+netread"},
		{"terragrunt run-all apply", "external"},
		{"terragrunt plan", "local+netread"},
	},
}

func classifyTerraform(_ *Classifier, inv *shell.Invocation) Effect {
	tool := inv.Name()
	args := inv.Args[1:]
	if forgeWantsHelp(args, true) || hasAny(args, "-help") {
		return nothing
	}
	var ops []string
	var first = -1
	for i, a := range args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		if first < 0 {
			first = i
		}
		ops = append(ops, a)
	}
	if first < 0 {
		return nothing
	}
	if inv.IsDynamic(1 + first) {
		return opaque("terraform.dynamic", "the "+tool+" command is computed at run time ("+ops[0]+")")
	}
	verb := ops[0]
	if tool == "terragrunt" && (verb == "run-all" || verb == "run") && len(ops) > 1 {
		verb, ops = ops[1], ops[1:]
	}
	sub := ""
	if len(ops) > 1 {
		sub = ops[1]
	}
	cmd := tool + " " + verb
	switch verb {
	case "apply":
		if hasAny(args, "-destroy", "--destroy") {
			return external("terraform.destroy", cmd+" -destroy destroys the managed infrastructure").destroys()
		}
		return external("terraform.apply", cmd+" changes real infrastructure")
	case "destroy":
		return external("terraform.destroy", cmd+" destroys the managed infrastructure").destroys()
	case "import", "taint", "untaint", "force-unlock", "refresh":
		return external("terraform.state", cmd+" changes the infrastructure state")
	case "test":
		return external("terraform.apply", cmd+" creates real infrastructure to test against")
	case "state":
		switch sub {
		case "list", "show", "pull", "":
			return netRead("terraform.read", cmd+" "+sub+" reads the infrastructure state")
		}
		if hasAny(args, "-dry-run") {
			return netRead("terraform.dry-run", cmd+" "+sub+" -dry-run only shows what would change")
		}
		return external("terraform.state", cmd+" "+sub+" changes the infrastructure state")
	case "workspace", "env":
		switch sub {
		case "delete":
			return external("terraform.state", cmd+" delete deletes a workspace and its state")
		case "new":
			return shared("terraform.workspace", cmd+" new creates a workspace")
		}
		return nothing
	case "plan", "init", "show", "output", "console", "get", "providers":
		if verb == "providers" && sub != "lock" && sub != "mirror" {
			return nothing
		}
		return netRead("terraform.read", cmd+" reads providers, modules or state")
	case "login", "logout":
		return shared("terraform.login", cmd+" changes stored credentials")
	case "validate", "fmt", "version", "graph", "metadata", "modules", "hclfmt", "render-json":
		return nothing
	}
	return netRead("terraform.read", cmd+" is not a command airlock knows; taken as a read")
}

// ---- pulumi ----

var pulumiOpts = argv.Spec{
	Short: "sCctpm",
	Long: []string{"--stack", "--cwd", "--config", "--config-file", "--target", "--parallel", "--message", "--secrets-provider",
		"--color", "--replace", "--exclude", "--policy-pack", "--policy-pack-config", "--exec-kind", "--path", "--file", "--name"},
}

var pulumiSpec = &Spec{
	Programs: []string{"pulumi"},
	Classify: classifyPulumi,
	Examples: []Example{
		{"pulumi up", "external"},
		{"pulumi up --yes -s prod", "external"},
		{"pulumi update --skip-preview", "external"},
		{"pulumi destroy --yes", "external+destructive"},
		{"pulumi destroy --preview-only", "local+netread"},
		{"pulumi refresh --yes", "external"},
		{"pulumi import aws:s3/bucket:Bucket b my-bucket", "external"},
		{"pulumi stack rm prod --yes", "external+destructive"},
		{"pulumi stack init dev", "external"},
		{"pulumi stack select dev", "local"},
		{"pulumi stack output", "local+netread"},
		{"pulumi stack ls", "local+netread"},
		{"pulumi config set aws:region eu-west-1", "shared"},
		{"pulumi config set --secret dbPassword x", "shared"},
		{"pulumi config get aws:region", "local"},
		{"pulumi preview", "local+netread"},
		{"pulumi preview --diff", "local+netread"},
		{"pulumi state delete urn:x", "external+destructive"},
		{"pulumi cancel", "external"},
		{"pulumi login", "shared"},
		{"pulumi whoami", "local+netread"},
		{"pulumi up --help", "local"},
		{"pulumi version", "local"},
	},
}

func classifyPulumi(_ *Classifier, inv *shell.Invocation) Effect {
	p, verb, sub, e, done := deployVerb(inv, pulumiOpts, "pulumi")
	if done {
		return e
	}
	cmd := "pulumi " + verb
	preview := p.Has("--preview-only")
	switch verb {
	case "up", "update", "refresh", "import", "cancel", "watch":
		if preview {
			return netRead("pulumi.preview", cmd+" --preview-only only previews the changes")
		}
		return external("pulumi.write", cmd+" changes real infrastructure")
	case "destroy":
		if preview {
			return netRead("pulumi.preview", cmd+" --preview-only only previews the deletions")
		}
		return external("pulumi.destroy", cmd+" destroys every resource of the stack").destroys()
	case "preview", "pre", "whoami", "logs", "new", "about":
		if verb == "about" {
			return nothing
		}
		return netRead("pulumi.read", cmd+" reads from the Pulumi backend and providers")
	case "stack":
		switch sub {
		case "rm", "remove":
			return external("pulumi.destroy", cmd+" "+sub+" deletes a stack and its history").destroys()
		case "init", "import", "rename", "change-secrets-provider", "tag":
			if sub == "tag" && len(p.Operands) > 2 && (p.Operands[2] == "ls" || p.Operands[2] == "get") {
				return netRead("pulumi.read", cmd+" tag reads stack tags")
			}
			return external("pulumi.stack", cmd+" "+sub+" changes a stack on the Pulumi backend")
		case "select", "unselect":
			return nothing
		}
		return netRead("pulumi.read", cmd+" "+sub+" reads a stack from the Pulumi backend")
	case "config":
		switch sub {
		case "set", "rm", "set-all", "rm-all", "cp", "refresh", "env":
			return shared("pulumi.config", cmd+" "+sub+" changes stack configuration")
		}
		return nothing
	case "state":
		if sub == "delete" {
			return external("pulumi.destroy", cmd+" delete removes resources from the stack state").destroys()
		}
		return external("pulumi.state", cmd+" "+sub+" changes the stack state")
	case "login", "logout":
		return shared("pulumi.login", cmd+" changes stored credentials")
	case "plugin":
		switch sub {
		case "install":
			return shared("pulumi.plugin", cmd+" install downloads and installs a plugin").reads()
		case "rm":
			return shared("pulumi.plugin", cmd+" rm removes a plugin")
		}
		return nothing
	case "version", "help", "gen-completion", "completion", "convert", "schema", "package":
		return nothing
	}
	return netRead("pulumi.read", cmd+" is not a command airlock knows; taken as a read")
}

// ---- ansible-playbook ----

var ansibleSpec = &Spec{
	Programs: []string{"ansible-playbook"},
	Classify: classifyAnsible,
	Examples: []Example{
		{"ansible-playbook site.yml", "external"},
		{"ansible-playbook -i inventory/prod site.yml --limit web", "external"},
		{"ansible-playbook -i hosts deploy.yml -e version=2", "external"},
		{"ansible-playbook site.yml --check", "local+netread"},
		{"ansible-playbook site.yml -C --diff", "local+netread"},
		{"ansible-playbook site.yml --syntax-check", "local"},
		{"ansible-playbook site.yml --list-hosts", "local"},
		{"ansible-playbook site.yml --list-tasks", "local"},
		{"ansible-playbook --help", "local"},
	},
}

func classifyAnsible(_ *Classifier, inv *shell.Invocation) Effect {
	args := inv.Args[1:]
	if forgeWantsHelp(args, true) || len(args) == 0 {
		return nothing
	}
	p := argv.Spec{Short: "iefltucMT", Long: []string{"--inventory", "--extra-vars", "--forks", "--limit", "--tags", "--user",
		"--connection", "--private-key", "--skip-tags", "--vault-password-file", "--vault-id", "--start-at-task", "--timeout",
		"--module-path", "--become-user", "--become-method"}}.Parse(args)
	switch {
	case p.Has("--syntax-check", "--list-hosts", "--list-tasks", "--list-tags"):
		return nothing
	case p.Has("-C", "--check"):
		return netRead("ansible.check", "ansible-playbook --check only reports what would change on the hosts")
	}
	return external("ansible.run", "ansible-playbook runs tasks that change the target hosts")
}

// ---- ansible (ad-hoc) ----

// ansibleAdhocSpec rates ansible HOSTS -m MODULE -a ARGS: the module runs
// on the target hosts, so what it changes is changed there. The shell
// modules' text is classified for what it would lose.
var ansibleAdhocSpec = &Spec{
	Programs: []string{"ansible"},
	Classify: classifyAnsibleAdhoc,
	Examples: []Example{
		{`ansible web -i prod -m shell -a "rm -rf /var/log/app"`, "external+destructive"},
		{"ansible all -i prod -m apt -a name=nginx", "external"},
		{"ansible all -m ping", "local+netread"},
		{"ansible all -m setup", "local+netread"},
		{"ansible --version", "local"},
	},
}

func classifyAnsibleAdhoc(c *Classifier, inv *shell.Invocation) Effect {
	args := inv.Args[1:]
	if forgeWantsHelp(args, true) || len(args) == 0 || hasAny(args, "--version") {
		return nothing
	}
	p := argv.Spec{Short: "iefltucMTmaBP", Long: []string{"--inventory", "--extra-vars", "--forks", "--limit", "--tags", "--user",
		"--connection", "--private-key", "--vault-password-file", "--vault-id", "--timeout", "--module-path", "--become-user",
		"--become-method", "--module-name", "--args", "--background", "--poll"}}.Parse(args)
	if p.Has("--list-hosts") {
		return nothing
	}
	module := "command" // ansible's default module
	if f, ok := p.Last("-m", "--module-name"); ok {
		module = strings.TrimPrefix(strings.TrimPrefix(f.Value, "ansible.builtin."), "ansible.legacy.")
	}
	switch module {
	case "ping", "setup", "debug", "gather_facts", "stat", "slurp", "fetch", "service_facts", "package_facts":
		return netRead("ansible.read", "ansible -m "+module+" reads from the target hosts")
	}
	if p.Has("-C", "--check") {
		return netRead("ansible.check", "ansible --check only reports what would change on the hosts")
	}
	e := external("ansible.adhoc", "ansible runs the module "+module+" on the target hosts, changing them")
	if f, ok := p.Last("-a", "--args"); ok && (module == "shell" || module == "command" || module == "raw") {
		if inv.IsDynamic(1 + f.ValueIndex) {
			e.Opaque = true
		} else if n := c.nested(f.Value); n.Destructive {
			e = e.destroys()
			e.Reasons = append(e.Reasons, Reason{"ansible.args", "on the hosts it runs: " + clip(f.Value)})
		}
	}
	return e
}
