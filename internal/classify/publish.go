package classify

import (
	"github.com/airlock-dev/airlock/internal/firstuse"
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/classify/interp"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file rates package managers and publishing tools. Publishing to a
// registry (npm publish, cargo publish, twine upload, mvn deploy, ...) is
// external; removing a published version (unpublish, yank) also destroys.
// Installing is shared (it changes what is installed) and reads the
// network; builds and tests stay local. Package runners (npx, pnpm dlx,
// uv run, bundle exec) are rated by the command they run.

// publishCommand finds a tool's subcommand: the first operand once the
// options that take a value are known. at is its index in inv.Args, or -1.
func publishCommand(inv *shell.Invocation, spec argv.Spec) (cmd string, at int, p argv.Parsed) {
	p = spec.Parse(inv.Args[1:])
	if len(p.Operands) == 0 {
		return "", -1, p
	}
	return p.Operands[0], 1 + p.OperandIndex[0], p
}

// publishDynamic is the effect of a subcommand computed at run time.
func publishDynamic(tool, word string) Effect {
	return opaque(tool+".dynamic", "the "+tool+" subcommand is computed at run time ("+word+")")
}

// publishDryRun reports whether --dry-run is given and not turned off
// (--dry-run=false).
func publishDryRun(p argv.Parsed) bool {
	for _, f := range p.Flags {
		if f.Name == "--dry-run" && (!f.HasValue || f.Value != "false" && f.Value != "0") {
			return true
		}
	}
	return false
}

// publishInstall is the effect of installing packages.
func publishInstall(rule, cmd string) Effect {
	return shared(rule, cmd+" installs packages from a registry").reads()
}

// publishRun rates a command a package runner runs (npx X, uv run X): the
// command's own effect, reading the network when the runner downloads.
func publishRun(c *Classifier, inv *shell.Invocation, at int, bin string, downloads bool) Effect {
	var e Effect
	// poetry run x.py, yarn exec x.cjs: the file is read as its
	// interpreter's script (runnerfiles.go).
	script, isScript := Effect{}, false
	if bin == inv.Args[at] {
		script, isScript = c.runnerScript(inv, at, "", "")
	}
	if r := publishReleaseTool(bin, inv.Args[at+1:]); r.Reasons != nil {
		e = r
	} else if isScript {
		e = script
	} else {
		text := shell.Join([]string{bin})
		if rest := inv.Text(at + 1); rest != "" {
			text += " " + rest
		}
		e = c.nestedRun(inv, text)
	}
	if downloads {
		e.Add(netRead("npm.exec", "running "+bin+" through a package runner may download it"))
	}
	return e
}

// publishReleaseTool rates release tools usually run through npx, which
// publish packages: lerna publish, changeset publish, semantic-release.
func publishReleaseTool(bin string, args []string) Effect {
	ops := operandsOf(args)
	first := ""
	if len(ops) > 0 {
		first = ops[0]
	}
	dry := hasAny(args, "--dry-run", "-d", "--no-publish")
	switch {
	case (bin == "lerna" || bin == "changeset") && first == "publish" && !dry:
		return external("npm.publish", bin+" publish publishes packages to a registry")
	case (bin == "semantic-release" || bin == "release-it" || bin == "np") && !dry:
		return external("npm.publish", bin+" publishes a release and its package")
	}
	return Effect{}
}

// publishNpxBin turns a package spec into the command it provides:
// vercel@latest → vercel, @railway/cli → railway.
func publishNpxBin(pkg string) string {
	name := pkg
	if i := strings.LastIndexByte(name, '@'); i > 0 {
		name = name[:i]
	}
	switch name {
	case "@railway/cli":
		return "railway"
	case "netlify-cli":
		return "netlify"
	case "firebase-tools":
		return "firebase"
	case "aws-cdk":
		return "cdk"
	case "@changesets/cli":
		return "changeset"
	case "@vercel/cli":
		return "vercel"
	}
	if i := strings.LastIndexByte(name, '/'); i >= 0 && strings.HasPrefix(name, "@") {
		return name[i+1:]
	}
	return name
}

// ---- npm, npx ----

var npmOpts = argv.Spec{
	Short: "Cwcm",
	Long: []string{"--prefix", "--registry", "--workspace", "--tag", "--otp", "--access", "--loglevel", "--cache",
		"--userconfig", "--globalconfig", "--scope", "--call", "--message", "--auth-type", "--before", "--omit",
		"--include", "--install-strategy", "--script-shell", "--shell", "--location", "--cafile", "--proxy",
		"--https-proxy", "--save-prefix", "--package", "--node-options", "--preid", "--otp"},
}

var npxOpts = argv.Spec{
	Short:         "pcw",
	Long:          []string{"--package", "--call", "--registry", "--cache", "--prefix", "--userconfig", "--workspace", "--node-options", "--shell", "--script-shell", "--loglevel"},
	StopAtOperand: true,
}

// npmAlias maps npm's abbreviations and aliases to the command.
var npmAlias = firstuse.Table[map[string]string]{Build: func() map[string]string {
	return map[string]string{
		"i": "install", "in": "install", "ins": "install", "inst": "install", "insta": "install", "instal": "install",
		"isnt": "install", "isnta": "install", "isntal": "install", "isntall": "install", "add": "install",
		"clean-install": "ci", "ic": "ci", "install-clean": "ci", "isntall-clean": "ci",
		"it": "install-test", "cit": "install-ci-test", "sit": "install-ci-test",
		"un": "uninstall", "unlink": "uninstall", "remove": "uninstall", "rm": "uninstall", "r": "uninstall",
		"rum": "run", "urn": "run", "run-script": "run", "t": "test", "tst": "test", "x": "exec",
		"up": "update", "upgrade": "update", "udpate": "update", "ln": "link", "dist-tags": "dist-tag",
		"author": "owner", "v": "view", "info": "view", "show": "view", "s": "search", "se": "search",
		"find": "search", "innit": "init", "create": "init", "c": "config", "list": "ls", "la": "ls", "ll": "ls",
		"login": "adduser", "add-user": "adduser", "verison": "version", "hlep": "help", "ddp": "dedupe",
	}
}}

// npmSub rates npm commands that need no more than their name.
var npmSub = firstuse.Table[map[string]Effect]{Build: func() map[string]Effect {
	return map[string]Effect{
		"view":      netRead("npm.read", "npm view reads package metadata from the registry"),
		"search":    netRead("npm.read", "npm search queries the registry"),
		"outdated":  netRead("npm.read", "npm outdated reads versions from the registry"),
		"ping":      netRead("npm.read", "npm ping contacts the registry"),
		"whoami":    netRead("npm.read", "npm whoami asks the registry who is logged in"),
		"doctor":    netRead("npm.read", "npm doctor checks the registry and the installation"),
		"stars":     netRead("npm.read", "npm stars reads starred packages from the registry"),
		"diff":      netRead("npm.read", "npm diff compares package versions from the registry"),
		"star":      external("npm.star", "npm star stars a package on the registry"),
		"unstar":    external("npm.star", "npm unstar unstars a package on the registry"),
		"adduser":   shared("npm.login", "npm login stores registry credentials on this machine"),
		"logout":    shared("npm.login", "npm logout removes registry credentials"),
		"link":      shared("npm.link", "npm link changes globally linked packages"),
		"set":       shared("npm.config", "npm set changes npm configuration"),
		"uninstall": nothing,
	}
}}

var npmSpec = &Spec{
	Programs: []string{"npm", "npx"},
	Classify: classifyNpm,
	Examples: []Example{
		{"npm publish", "external"},
		{"npm publish --access public --tag next", "external"},
		{"npm publish ./pkg --otp 123456", "external"},
		{"npm --prefix packages/a publish", "external"},
		{"npm publish -w packages/a", "external"},
		{"npm publish --dry-run", "local"},
		{"npm publish --dry-run=false", "external"},
		{"npm publish --help", "local"},
		{"npm unpublish mypkg@1.0.0", "external+destructive"},
		{"npm unpublish mypkg --force", "external+destructive"},
		{"npm unpublish mypkg@1.0.0 --dry-run", "local"},
		{"npm deprecate mypkg@1 'use v2'", "external"},
		{"npm dist-tag add mypkg@1.2.0 latest", "external"},
		{"npm dist-tag rm mypkg beta", "external"},
		{"npm dist-tag ls mypkg", "local+netread"},
		{"npm owner add alice mypkg", "external"},
		{"npm owner ls mypkg", "local+netread"},
		{"npm access set status=public mypkg", "external"},
		{"npm access grant read-only org:team mypkg", "external"},
		{"npm access list packages", "local+netread"},
		{"npm token create", "external"},
		{"npm token list", "local+netread"},
		{"npm install", "shared+netread"},
		{"npm i lodash", "shared+netread"},
		{"npm install -g typescript", "shared+netread"},
		{"npm ci", "shared+netread"},
		{"npm add -D vitest", "shared+netread"},
		{"npm install --dry-run left-pad", "local+netread"},
		{"npm update", "shared+netread"},
		{"npm audit", "local+netread"},
		{"npm audit fix", "shared+netread"},
		{"npm uninstall lodash", "local"},
		{"npm uninstall -g typescript", "shared"},
		{"npm run build", "local"},
		{"npm run publish", "local+opaque"}, // a script named after a release, unread
		{"npm test", "local"},
		{"npm start", "local"},
		{"npm run deploy -- --prod", "local+opaque"},
		{"npm pack", "local"},
		{"npm ls", "local"},
		{"npm view react version", "local+netread"},
		{"npm version patch", "shared"},
		{"npm version patch --no-git-tag-version", "local"},
		{"npm version", "local"},
		{"npm login", "shared"},
		{"npm config set registry https://r.example", "shared"},
		{"npm config get registry", "local"},
		{"npm init -y", "local"},
		{"npm init vite@latest my-app", "local+netread"},
		{"npm exec -- vercel deploy --prod", "external+netread"},
		{"npm exec eslint .", "local+netread"},
		{"npx --no-install tsc --noEmit", "local"},
		{"npx --no eslint .", "local"},
		{"npx --no-install semantic-release", "external"},
		{"npm help publish", "local"},
		{"npm --version", "local"},
		{"npm", "local"},
		{"npm $CMD", "local+opaque"},
		{"npx prettier --write .", "local+netread"},
		{"npx -y create-react-app app", "local+netread"},
		{"npx vercel --prod", "external+netread"},
		{"npx vercel@latest deploy", "external+netread"},
		{"npx wrangler deploy", "external+netread"},
		{"npx netlify-cli deploy --prod", "external+netread"},
		{"npx -p @railway/cli railway up", "external+netread"},
		{"npx --package=firebase-tools firebase deploy", "external+netread"},
		{"npx firebase-tools deploy", "external+netread"},
		{"npx lerna publish from-package --yes", "external+netread"},
		{"npx changeset publish", "external+netread"},
		{"npx semantic-release", "external+netread"},
		{"npx semantic-release --dry-run", "local+netread"},
		{"npx -c 'npm publish'", "external+netread"},
		{"npx vercel --help", "local+netread"},
		{"npx tsc --noEmit", "local+netread"},
		{"npx $TOOL", "local+opaque"},
	},
}

func classifyNpm(c *Classifier, inv *shell.Invocation) Effect {
	if inv.Name() == "npx" {
		return npxRun(c, inv, 1, "npx")
	}
	if forgeWantsHelp(inv.Args[1:], true) {
		return nothing
	}
	cmd, at, p := publishCommand(inv, npmOpts)
	if at < 0 {
		return nothing
	}
	if inv.IsDynamic(at) {
		return publishDynamic("npm", cmd)
	}
	if a, ok := npmAlias.Get()[cmd]; ok {
		cmd = a
	} else {
		cmd = npmPrefix(cmd)
	}
	if cmd == "exec" {
		return npxRun(c, inv, at+1, "npm exec")
	}
	return npmCommand("npm", cmd, p)
}

// npmCommands lists npm's commands (npm 10). npm accepts any unique
// prefix of one (npm pub, npm publ, npm unpub), so a prefix is resolved
// against the whole list rather than a hand-made list of spellings.
var npmCommands = []string{"access", "adduser", "audit", "bugs", "cache", "ci", "completion", "config", "dedupe",
	"deprecate", "diff", "dist-tag", "docs", "doctor", "edit", "exec", "explain", "explore", "find-dupes", "fund",
	"get", "help", "help-search", "hook", "init", "install", "install-ci-test", "install-test", "link", "ll", "login",
	"logout", "ls", "org", "outdated", "owner", "pack", "ping", "pkg", "prefix", "profile", "prune", "publish",
	"query", "rebuild", "repo", "restart", "root", "run-script", "sbom", "search", "set", "shrinkwrap", "star",
	"stars", "start", "stop", "team", "test", "token", "undeprecate", "uninstall", "unpublish", "unstar", "update",
	"version", "view", "whoami"}

// npmPrefix resolves a unique prefix of an npm command to the command;
// anything else is returned unchanged.
func npmPrefix(cmd string) string {
	found := ""
	for _, c := range npmCommands {
		if c == cmd {
			return cmd
		}
		if strings.HasPrefix(c, cmd) {
			if found != "" {
				return cmd // ambiguous: npm refuses it
			}
			found = c
		}
	}
	if found == "" {
		return cmd
	}
	return found
}

// npmCommand rates one npm command; pnpm hands several commands to npm,
// so it rates those here too. p holds every argument after the tool name
// and p.Operands[0] is the command.
func npmCommand(tool, cmd string, p argv.Parsed) Effect {
	full := tool + " " + cmd
	ops := operandsAfter(p, 1)
	sub := ""
	if len(ops) > 0 {
		sub = ops[0]
	}
	dry := publishDryRun(p)
	global := p.Has("-g", "--global")
	switch cmd {
	case "publish":
		if dry {
			return local("npm.publish.dry-run", full+" --dry-run only packs and checks the package")
		}
		return external("npm.publish", full+" uploads a package to a registry")
	case "unpublish":
		if dry {
			return local("npm.publish.dry-run", full+" --dry-run only shows what would be removed")
		}
		return external("npm.unpublish", full+" removes published versions from the registry").destroys()
	case "deprecate":
		if dry {
			return nothing
		}
		return external("npm.deprecate", full+" marks published versions as deprecated on the registry")
	case "dist-tag", "owner", "team", "org", "hook", "token", "profile":
		switch sub {
		case "", "ls", "list", "get":
			return netRead("npm.read", full+" reads from the registry")
		}
		return external("npm.registry", full+" "+sub+" changes "+cmd+" settings on the registry")
	case "access":
		switch sub {
		case "list", "get", "ls-packages", "ls-collaborators", "":
			return netRead("npm.read", full+" reads package access from the registry")
		}
		return external("npm.access", full+" "+sub+" changes who can use a package on the registry")
	case "install", "ci", "update", "install-test", "install-ci-test":
		if dry {
			return netRead("npm.install.dry-run", full+" --dry-run only resolves packages")
		}
		return publishInstall("npm.install", full)
	case "uninstall", "prune", "dedupe":
		if global {
			return shared("npm.uninstall", full+" -g removes globally installed packages")
		}
		return nothing
	case "audit":
		if sub == "fix" {
			return publishInstall("npm.install", full+" fix")
		}
		return netRead("npm.read", full+" reads advisories from the registry")
	case "version":
		if len(ops) == 0 || dry {
			return nothing
		}
		for _, f := range p.Flags {
			if f.Name == "--no-git-tag-version" || f.Name == "--git-tag-version" && f.Value == "false" {
				return nothing
			}
		}
		return shared("npm.version", full+" bumps the version and records a git commit and tag")
	case "config":
		switch sub {
		case "set", "delete", "edit", "fix":
			return shared("npm.config", full+" "+sub+" changes npm configuration")
		}
		return nothing
	case "init":
		if len(ops) > 0 {
			return netRead("npm.exec", full+" "+ops[0]+" downloads and runs an initializer package")
		}
		return nothing
	case "cache":
		if sub == "add" {
			return netRead("npm.read", full+" add downloads a package into the cache")
		}
		return nothing
	}
	if e, ok := npmSub.Get()[cmd]; ok {
		return e
	}
	return nothing // run, test, start, ls, pack, rebuild, explain, ...
}

// npxRun rates npx and "npm exec": the package command they run, or the
// shell text of --call.
func npxRun(c *Classifier, inv *shell.Invocation, from int, tool string) Effect {
	args := inv.Args[from:]
	if tool == "npx" && forgeWantsHelp(args, true) && len(args) > 0 && (args[0] == "--help" || args[0] == "-h") {
		return nothing
	}
	p := npxOpts.Parse(args)
	if text, ok := p.Value("-c", "--call"); ok {
		e := c.nested(text)
		e.Add(netRead("npm.exec", tool+" --call runs shell text with packages that may be downloaded"))
		return e
	}
	at := from + p.Rest
	if at >= len(inv.Args) {
		return netRead("npm.exec", tool+" may download packages")
	}
	if inv.IsDynamic(at) {
		return opaque("npm.exec.dynamic", "the package "+tool+" runs is computed at run time ("+inv.Args[at]+")")
	}
	bin := inv.Args[at]
	if !p.Has("-p", "--package") {
		bin = publishNpxBin(bin)
	}
	// --no (--no-install before npm 7) refuses to download a package
	// that is not installed: the run fails rather than reading the network.
	return publishRun(c, inv, at, bin, !p.Has("--no", "--no-install"))
}

// ---- pnpm ----

var pnpmOpts = argv.Spec{
	Short: "CF",
	Long: []string{"--dir", "--filter", "--filter-prod", "--reporter", "--loglevel", "--registry", "--tag", "--access",
		"--otp", "--publish-branch", "--workspace-concurrency", "--store-dir", "--virtual-store-dir", "--test-pattern",
		"--changed-files-ignore-pattern", "--report-summary"},
}

var pnpmAlias = firstuse.Table[map[string]string]{Build: func() map[string]string {
	return map[string]string{
		"i": "install", "up": "update", "upgrade": "update", "rm": "remove", "uninstall": "remove", "un": "remove",
		"ln": "link", "rb": "rebuild", "it": "install-test", "t": "test", "run-script": "run", "m": "recursive",
		"multi": "recursive", "dlx": "dlx",
	}
}}

// pnpmNpm lists the commands pnpm passes on to npm.
func pnpmNpm(name string) bool {
	switch name {
	case "access", "adduser", "login", "logout", "deprecate", "dist-tag", "owner", "ping", "profile",
		"search", "team", "token", "unpublish", "view", "info", "whoami", "star", "unstar", "version":
		return true
	}
	return false
}

var pnpmSpec = &Spec{
	Programs: []string{"pnpm", "pnpx"},
	Classify: classifyPnpm,
	Examples: []Example{
		{"pnpm publish", "external"},
		{"pnpm -r publish --access public", "external"},
		{"pnpm --filter @org/a publish --no-git-checks", "external"},
		{"pnpm recursive publish", "external"},
		{"pnpm publish --dry-run", "local"},
		{"pnpm unpublish pkg@1.0.0", "external+destructive"},
		{"pnpm dist-tag add pkg@1.0.0 latest", "external"},
		{"pnpm add zod", "shared+netread"},
		{"pnpm add -g pnpm", "shared+netread"},
		{"pnpm install --frozen-lockfile", "shared+netread"},
		{"pnpm i", "shared+netread"},
		{"pnpm update --latest", "shared+netread"},
		{"pnpm remove zod", "local"},
		{"pnpm fetch", "local+netread"},
		{"pnpm run build", "local"},
		{"pnpm build", "local"},
		{"pnpm test", "local"},
		{"pnpm deploy --filter=api out/api", "local"},
		{"pnpm dlx vercel deploy --prod", "external+netread"},
		{"pnpm dlx create-vite app", "local+netread"},
		{"pnpm exec wrangler deploy", "external"},
		{"pnpm exec tsc -b", "local"},
		{"pnpx netlify deploy", "external+netread"},
		{"pnpm view react", "local+netread"},
		{"pnpm audit", "local+netread"},
		{"pnpm publish --help", "local"},
		{"pnpm", "local"},
	},
}

func classifyPnpm(c *Classifier, inv *shell.Invocation) Effect {
	if inv.Name() == "pnpx" {
		return npxRun(c, inv, 1, "pnpx")
	}
	return pnpmFrom(c, inv, 1)
}

// pnpmFrom rates the pnpm command whose options start at inv.Args[from]
// (pnpm recursive runs the command that follows it).
func pnpmFrom(c *Classifier, inv *shell.Invocation, from int) Effect {
	args := inv.Args[from:]
	if forgeWantsHelp(args, true) {
		return nothing
	}
	p := pnpmOpts.Parse(args)
	if len(p.Operands) == 0 {
		return nothing
	}
	at := from + p.OperandIndex[0]
	cmd := p.Operands[0]
	if inv.IsDynamic(at) {
		return publishDynamic("pnpm", cmd)
	}
	if a, ok := pnpmAlias.Get()[cmd]; ok {
		cmd = a
	}
	full := "pnpm " + cmd
	switch cmd {
	case "recursive":
		return pnpmFrom(c, inv, at+1)
	case "publish":
		if publishDryRun(p) {
			return local("npm.publish.dry-run", full+" --dry-run only packs and checks the package")
		}
		return external("npm.publish", full+" uploads a package to a registry")
	case "add", "install", "update", "install-test", "dedupe":
		return publishInstall("pnpm.install", full)
	case "fetch":
		return netRead("pnpm.fetch", full+" downloads packages into the store")
	case "remove", "link", "unlink":
		if p.Has("-g", "--global") {
			return shared("pnpm.global", full+" -g changes globally installed packages")
		}
		return nothing
	case "audit":
		if p.Has("--fix") {
			return publishInstall("pnpm.install", full+" --fix")
		}
		return netRead("pnpm.read", full+" reads advisories from the registry")
	case "outdated":
		return netRead("pnpm.read", full+" reads versions from the registry")
	case "dlx":
		return npxRun(c, inv, at+1, "pnpm dlx")
	case "exec":
		p := argv.Spec{StopAtOperand: true}.Parse(inv.Args[at+1:])
		if at+1+p.Rest >= len(inv.Args) {
			return nothing
		}
		return publishRun(c, inv, at+1+p.Rest, inv.Args[at+1+p.Rest], false)
	case "create":
		return netRead("npm.exec", full+" downloads and runs a starter kit")
	case "env":
		if len(p.Operands) > 1 && p.Operands[1] == "use" {
			return publishInstall("pnpm.env", full+" use")
		}
		return nothing
	case "setup":
		return shared("pnpm.setup", full+" changes the shell profile and global bin directory")
	}
	if pnpmNpm(cmd) {
		return npmCommand("pnpm", cmd, p)
	}
	return nothing // run, test, scripts, deploy (a local copy), pack, list, why, ...
}

// ---- yarn ----

var yarnOpts = argv.Spec{
	Long: []string{"--cwd", "--registry", "--otp", "--tag", "--access", "--new-version", "--message", "--network-timeout",
		"--modules-folder", "--cache-folder", "--mutex", "--link-folder", "--global-folder", "--use-yarnrc", "--preid"},
}

var yarnSpec = &Spec{
	Programs: []string{"yarn", "yarnpkg"},
	Classify: func(c *Classifier, inv *shell.Invocation) Effect { return yarnFrom(c, inv, 1) },
	Examples: []Example{
		{"yarn publish", "external"},
		{"yarn publish --new-version 1.2.3 --access public", "external"},
		{"yarn npm publish", "external"},
		{"yarn npm publish --tag next", "external"},
		{"yarn npm publish --dry-run", "local"},
		{"yarn npm tag add pkg@1.0.0 latest", "external"},
		{"yarn npm tag list pkg", "local+netread"},
		{"yarn tag add pkg@1.0.0 latest", "external"},
		{"yarn owner add alice pkg", "external"},
		{"yarn workspace @org/a npm publish", "external"},
		{"yarn workspaces foreach -A --topological npm publish --tolerate-republish", "external"},
		{"yarn workspaces foreach --include '@org/*' run build", "local"},
		{"yarn", "shared+netread"},
		{"yarn install --frozen-lockfile", "shared+netread"},
		{"yarn add react", "shared+netread"},
		{"yarn add -D typescript", "shared+netread"},
		{"yarn global add serve", "shared+netread"},
		{"yarn up react", "shared+netread"},
		{"yarn remove react", "local"},
		{"yarn build", "local"},
		{"yarn run publish", "local+opaque"},
		{"yarn test --watch", "local"},
		{"yarn dlx vercel --prod", "external+netread"},
		{"yarn dlx create-next-app", "local+netread"},
		{"yarn exec wrangler deploy", "external"},
		{"yarn info react", "local+netread"},
		{"yarn why react", "local"},
		{"yarn npm login", "shared"},
		{"yarn publish --help", "local"},
		{"yarn --version", "local"},
	},
}

// yarnFrom rates the yarn command whose options start at inv.Args[from]
// (yarn workspace NAME runs the command that follows).
func yarnFrom(c *Classifier, inv *shell.Invocation, from int) Effect {
	args := inv.Args[from:]
	if forgeWantsHelp(args, true) {
		return nothing
	}
	p := yarnOpts.Parse(args)
	if len(p.Operands) == 0 {
		if p.Has("--version", "-v") {
			return nothing
		}
		return publishInstall("yarn.install", "yarn")
	}
	at := from + p.OperandIndex[0]
	cmd := p.Operands[0]
	if inv.IsDynamic(at) {
		return publishDynamic("yarn", cmd)
	}
	ops := operandsAfter(p, 1)
	sub := ""
	if len(ops) > 0 {
		sub = ops[0]
	}
	full := "yarn " + cmd
	dry := publishDryRun(p)
	switch cmd {
	case "workspace":
		if len(p.OperandIndex) > 1 {
			return yarnFrom(c, inv, from+p.OperandIndex[1]+1)
		}
		return nothing
	case "workspaces":
		if sub == "foreach" {
			fp := argv.Spec{Short: "j", Long: []string{"--include", "--exclude", "--from", "--jobs", "--since"}, StopAtOperand: true}.Parse(inv.Args[from+p.OperandIndex[1]+1:])
			return yarnFrom(c, inv, from+p.OperandIndex[1]+1+fp.Rest)
		}
		return nothing
	case "publish":
		if dry {
			return local("npm.publish.dry-run", full+" --dry-run only packs and checks the package")
		}
		return external("npm.publish", full+" uploads a package to a registry")
	case "npm":
		switch sub {
		case "publish":
			if dry {
				return local("npm.publish.dry-run", full+" publish --dry-run only packs and checks the package")
			}
			return external("npm.publish", full+" publish uploads a package to a registry")
		case "tag":
			if len(ops) > 1 && (ops[1] == "add" || ops[1] == "remove") {
				return external("npm.registry", full+" tag "+ops[1]+" changes dist-tags on the registry")
			}
			return netRead("npm.read", full+" tag list reads dist-tags from the registry")
		case "login", "logout":
			return shared("npm.login", full+" "+sub+" changes registry credentials on this machine")
		}
		return netRead("npm.read", full+" "+sub+" reads from the registry")
	case "tag", "owner":
		if sub == "add" || sub == "remove" || sub == "rm" {
			return external("npm.registry", full+" "+sub+" changes "+cmd+" settings on the registry")
		}
		return netRead("npm.read", full+" reads from the registry")
	case "add", "install", "upgrade", "up", "upgrade-interactive", "dedupe":
		return publishInstall("yarn.install", full)
	case "global":
		switch sub {
		case "add", "upgrade", "upgrade-interactive":
			return publishInstall("yarn.install", full+" "+sub)
		case "remove":
			return shared("yarn.global", full+" remove removes a globally installed package")
		}
		return nothing
	case "set":
		if sub == "version" {
			return publishInstall("yarn.install", full+" version")
		}
		return nothing
	case "plugin":
		if sub == "import" {
			return publishInstall("yarn.install", full+" import")
		}
		return nothing
	case "dlx":
		return npxRun(c, inv, at+1, "yarn dlx")
	case "exec":
		if at+1 >= len(inv.Args) {
			return nothing
		}
		return publishRun(c, inv, at+1, inv.Args[at+1], false)
	case "create":
		return netRead("npm.exec", full+" downloads and runs a starter kit")
	case "info", "outdated", "audit":
		return netRead("yarn.read", full+" reads from the registry")
	case "login", "logout", "link", "unlink":
		return shared("yarn.config", full+" changes this machine's yarn state")
	case "config":
		if sub == "set" || sub == "delete" || sub == "unset" {
			return shared("yarn.config", full+" "+sub+" changes yarn configuration")
		}
		return nothing
	case "version":
		if len(ops) == 0 && !p.Has("--new-version", "--major", "--minor", "--patch", "--premajor", "--preminor", "--prepatch", "--prerelease") {
			return nothing
		}
		return shared("yarn.version", full+" bumps the version and may record a git commit and tag")
	}
	return nothing // run, remove, scripts, why, list, pack, ...
}

// ---- bun ----

var bunOpts = argv.Spec{
	Short: "cFr",
	Long:  []string{"--cwd", "--config", "--filter", "--registry", "--tag", "--access", "--otp", "--cafile", "--preload", "--env-file", "--tsconfig-override", "--auth-type"},
}

var bunSpec = &Spec{
	Programs: []string{"bun", "bunx"},
	Classify: classifyBun,
	Examples: []Example{
		{"bun publish", "external"},
		{"bun publish --access public", "external"},
		{"bun publish --dry-run", "local"},
		{"bun add zod", "shared+netread"},
		{"bun a -d vitest", "shared+netread"},
		{"bun install", "shared+netread"},
		{"bun i", "shared+netread"},
		{"bun remove zod", "local"},
		{"bun run build", "local"},
		{"bun test", "local"},
		{"bun index.ts", "local"},
		{"bun build ./src/index.ts --outdir dist", "local"},
		{"bun x vercel deploy", "external+netread"},
		{"bunx wrangler deploy", "external+netread"},
		{"bunx --bun vite", "local+netread"},
		{"bun -e 'fetch(\"https://x\", {method: \"POST\"})'", "local+opaque"},
		{"bun upgrade", "shared+netread"},
		{"bun publish --help", "local"},
		{"bun --version", "local"},
	},
}

func classifyBun(c *Classifier, inv *shell.Invocation) Effect {
	if inv.Name() == "bunx" {
		p := argv.Spec{Short: "p", Long: []string{"--package"}, StopAtOperand: true}.Parse(inv.Args[1:])
		if 1+p.Rest >= len(inv.Args) {
			return nothing
		}
		if inv.IsDynamic(1 + p.Rest) {
			return opaque("npm.exec.dynamic", "the package bunx runs is computed at run time")
		}
		return publishRun(c, inv, 1+p.Rest, publishNpxBin(inv.Args[1+p.Rest]), true)
	}
	args := inv.Args[1:]
	if forgeWantsHelp(args, true) {
		return nothing
	}
	p := bunOpts.Parse(args)
	if p.Has("-e", "--eval", "-p", "--print") {
		return opaque("bun.eval", "bun -e runs JavaScript that airlock does not inspect")
	}
	if len(p.Operands) == 0 {
		return nothing
	}
	at := 1 + p.OperandIndex[0]
	cmd := p.Operands[0]
	if inv.IsDynamic(at) {
		return publishDynamic("bun", cmd)
	}
	full := "bun " + cmd
	switch cmd {
	case "publish":
		if publishDryRun(p) {
			return local("npm.publish.dry-run", full+" --dry-run only packs and checks the package")
		}
		return external("npm.publish", full+" uploads a package to a registry")
	case "add", "a", "install", "i", "update", "link":
		return publishInstall("bun.install", full)
	case "upgrade":
		return shared("bun.upgrade", "bun upgrade replaces bun itself with a downloaded release").reads()
	case "x":
		if at+1 >= len(inv.Args) {
			return nothing
		}
		return publishRun(c, inv, at+1, publishNpxBin(inv.Args[at+1]), true)
	case "create", "c":
		return netRead("npm.exec", full+" downloads and runs a starter kit")
	case "outdated", "info", "audit":
		return netRead("bun.read", full+" reads from the registry")
	case "remove", "rm", "unlink":
		if p.Has("-g", "--global") {
			return shared("bun.global", full+" -g removes a globally installed package")
		}
		return nothing
	}
	return nothing // run, test, build, scripts and files
}

// ---- pip, uv, poetry ----

var pipOpts = argv.Spec{
	Short: "rceiftdC",
	Long: []string{"--proxy", "--python", "--log", "--cert", "--client-cert", "--cache-dir", "--retries", "--timeout",
		"--exists-action", "--trusted-host", "--use-feature", "--use-deprecated", "--keyring-provider", "--requirement",
		"--constraint", "--editable", "--index-url", "--extra-index-url", "--find-links", "--target", "--prefix", "--root",
		"--src", "--platform", "--python-version", "--implementation", "--abi", "--only-binary", "--no-binary",
		"--progress-bar", "--report", "--upgrade-strategy", "--config-settings", "--global-option", "--dest", "--group"},
}

// pipNames are the pip launchers, including the versioned ones.
var pipNames = []string{"pip", "pip3", "pip2", "pip3.8", "pip3.9", "pip3.10", "pip3.11", "pip3.12", "pip3.13", "pip3.14"}

var pipSpec = &Spec{
	Programs: pipNames,
	Classify: classifyPip,
	Examples: []Example{
		{"pip install requests", "shared+netread"},
		{"pip3 install -r requirements.txt", "shared+netread"},
		{"pip install -e .", "shared+netread"},
		{"pip3.12 install --user httpx", "shared+netread"},
		{"pip --proxy http://p:3128 install flask", "shared+netread"},
		{"pip install --dry-run requests", "local+netread"},
		{"pip download requests -d wheels", "local+netread"},
		{"pip uninstall -y requests", "shared"},
		{"pip config set global.index-url https://x", "shared"},
		{"pip list", "local"},
		{"pip list --outdated", "local+netread"},
		{"pip freeze > requirements.txt", "local"},
		{"pip show requests", "local"},
		{"pip install --help", "local"},
		{"pip --version", "local"},
	},
}

func classifyPip(_ *Classifier, inv *shell.Invocation) Effect {
	if forgeWantsHelp(inv.Args[1:], true) {
		return nothing
	}
	cmd, at, p := publishCommand(inv, pipOpts)
	if at < 0 {
		return nothing
	}
	if inv.IsDynamic(at) {
		return publishDynamic("pip", cmd)
	}
	return pipCommand("pip", cmd, p, operandsAfter(p, 1))
}

// pipCommand rates a pip command; uv pip shares it.
func pipCommand(tool, cmd string, p argv.Parsed, ops []string) Effect {
	full := tool + " " + cmd
	switch cmd {
	case "install", "sync":
		if publishDryRun(p) {
			return netRead("pip.install.dry-run", full+" --dry-run only resolves packages")
		}
		return publishInstall("pip.install", full)
	case "uninstall":
		return shared("pip.uninstall", full+" removes installed packages")
	case "download", "wheel", "index", "search", "lock", "compile":
		return netRead("pip.read", full+" downloads from a package index")
	case "list":
		if p.Has("-o", "--outdated", "-u", "--uptodate") {
			return netRead("pip.read", full+" --outdated reads versions from the index")
		}
	case "config":
		if len(ops) > 0 && (ops[0] == "set" || ops[0] == "unset" || ops[0] == "edit") {
			return shared("pip.config", full+" "+ops[0]+" changes pip configuration")
		}
	}
	return nothing
}

var uvOpts = argv.Spec{
	Short: "pPiftCuo",
	Long: []string{"--directory", "--project", "--cache-dir", "--config-file", "--python", "--color", "--python-preference",
		"--index", "--default-index", "--index-url", "--extra-index-url", "--find-links", "--token", "--username", "--password",
		"--publish-url", "--check-url", "--trusted-publishing", "--keyring-provider", "--with", "--from", "--script",
		"--package", "--extra", "--group", "--only-group", "--output-file", "--requirements", "--constraints",
		"--overrides", "--target", "--prefix", "--python-platform", "--exclude-newer", "--upgrade-package", "--allow-insecure-host"},
}

// uvRunOpts are uv run's and uv tool run's options; the command starts at
// the first operand.
var uvRunOpts = argv.Spec{
	Short: "pPiwfC",
	Long: []string{"--with", "--with-editable", "--with-requirements", "--python", "--package", "--extra", "--group",
		"--only-group", "--no-group", "--env-file", "--directory", "--project", "--index", "--default-index", "--index-url",
		"--extra-index-url", "--find-links", "--from", "--cache-dir", "--config-file", "--color",
		"--refresh-package", "--upgrade-package", "--reinstall-package", "--exclude-newer", "--link-mode",
		"--python-platform", "--resolution", "--prerelease", "--keyring-provider", "--index-strategy", "--config-setting"},
	StopAtOperand: true,
}

var uvSpec = &Spec{
	Programs: []string{"uv"},
	Classify: classifyUv,
	Examples: []Example{
		{"uv pip install requests", "shared+netread"},
		{"uv pip install -r requirements.txt --system", "shared+netread"},
		{"uv pip install --dry-run requests", "local+netread"},
		{"uv pip sync requirements.txt", "shared+netread"},
		{"uv pip uninstall requests", "shared"},
		{"uv pip compile pyproject.toml -o requirements.txt", "local+netread"},
		{"uv pip list", "local"},
		{"uv add httpx", "shared+netread"},
		{"uv add --dev pytest", "shared+netread"},
		{"uv sync", "shared+netread"},
		{"uv lock", "local+netread"},
		{"uv remove httpx", "local"},
		{"uv publish", "external"},
		{"uv publish --token x dist/*", "external"},
		{"uv publish --dry-run", "local"},
		{"uv run pytest -q", "local+netread"},
		{"uv run --with twine twine upload dist/*", "external+netread"},
		{"uv run -- twine upload dist/*", "external+netread"},
		{"uv tool install ruff", "shared+netread"},
		{"uv tool run twine check dist/*", "local+netread"},
		{"uv python install 3.12", "shared+netread"},
		{"uv venv", "local"},
		{"uv build", "local"},
		{"uv init app", "local"},
		{"uv self update", "shared+netread"},
		{"uv publish --help", "local"},
		{"uv --version", "local"},
	},
}

func classifyUv(c *Classifier, inv *shell.Invocation) Effect {
	if forgeWantsHelp(inv.Args[1:], true) {
		return nothing
	}
	cmd, at, p := publishCommand(inv, uvOpts)
	if at < 0 {
		return nothing
	}
	if inv.IsDynamic(at) {
		return publishDynamic("uv", cmd)
	}
	ops := operandsAfter(p, 1)
	sub := ""
	if len(ops) > 0 {
		sub = ops[0]
	}
	full := "uv " + cmd
	switch cmd {
	case "pip":
		return pipCommand("uv pip", sub, p, operandsAfter(p, 2))
	case "add", "sync":
		if publishDryRun(p) {
			return netRead("uv.dry-run", full+" --dry-run only resolves packages")
		}
		return publishInstall("uv.install", full)
	case "lock", "export", "tree":
		if cmd == "lock" || p.Has("--outdated") {
			return netRead("uv.lock", full+" resolves packages from the index")
		}
		return nothing
	case "publish":
		if publishDryRun(p) {
			return local("pypi.publish.dry-run", full+" --dry-run only checks the files")
		}
		return external("pypi.publish", full+" uploads packages to a package index")
	case "run":
		return uvRun(c, inv, at+1, true)
	case "tool":
		switch sub {
		case "install", "upgrade":
			return publishInstall("uv.install", full+" "+sub)
		case "uninstall":
			return shared("uv.uninstall", full+" uninstall removes an installed tool")
		case "update-shell":
			return shared("uv.shell", full+" update-shell changes the shell profile")
		case "run":
			return uvRun(c, inv, 1+p.OperandIndex[1]+1, true)
		}
		return nothing
	case "python":
		switch sub {
		case "install", "upgrade":
			return shared("uv.python", full+" "+sub+" downloads and installs Python").reads()
		case "uninstall":
			return shared("uv.python", full+" uninstall removes an installed Python")
		}
		return nothing
	case "self":
		if sub == "update" {
			return shared("uv.self", "uv self update replaces uv with a downloaded release").reads()
		}
		return nothing
	case "auth":
		if sub == "login" || sub == "logout" {
			return shared("uv.auth", full+" "+sub+" changes stored index credentials")
		}
		return nothing
	}
	return nothing // venv, init, build, remove, cache, version, ...
}

// uvRun rates "uv run CMD" from the options at inv.Args[from]: the command
// it runs, after syncing the environment (a network read).
func uvRun(c *Classifier, inv *shell.Invocation, from int, downloads bool) Effect {
	if from >= len(inv.Args) {
		return netRead("uv.run", "uv run syncs the environment")
	}
	p := uvRunOpts.Parse(inv.Args[from:])
	at := from + p.Rest
	if at >= len(inv.Args) {
		return netRead("uv.run", "uv run syncs the environment")
	}
	if inv.IsDynamic(at) {
		return opaque("uv.run.dynamic", "the command uv runs is computed at run time ("+inv.Args[at]+")")
	}
	var e Effect
	// uv run FILE.py runs python on the file (FINDINGS-9 P12), also one
	// without a #! line, which is no shell script; --script (-s,
	// --gui-script) says the word is such a file whatever its name
	// (P16), -m a module python imports. A file that is not there is
	// left to the program's run (unknown).
	who, lang := "", ""
	if p.Has("--script", "-s", "--gui-script") {
		who, lang = "python3", interp.Python
	}
	if se, ok := c.runnerScript(inv, at, who, lang); ok {
		e = se
	} else if p.Has("-m", "--module") {
		e = c.nestedRun(inv, "python3 -m "+inv.Text(at))
	} else {
		e = publishRun(c, inv, at, inv.Args[at], false)
	}
	if downloads {
		e.Add(netRead("uv.run", "uv run may download packages for the environment"))
	}
	return e
}

var poetryOpts = argv.Spec{
	Short: "CPGEruP",
	Long: []string{"--directory", "--project", "--group", "--with", "--without", "--only", "--extras", "--repository",
		"--username", "--password", "--cert", "--client-cert", "--source", "--python", "--dist-dir"},
}

var poetrySpec = &Spec{
	Programs: []string{"poetry"},
	Classify: classifyPoetry,
	Examples: []Example{
		{"poetry publish", "external"},
		{"poetry publish --build -r testpypi", "external"},
		{"poetry publish --dry-run", "local"},
		{"poetry add requests", "shared+netread"},
		{"poetry add --group dev pytest", "shared+netread"},
		{"poetry install --no-root", "shared+netread"},
		{"poetry install --dry-run", "local+netread"},
		{"poetry update", "shared+netread"},
		{"poetry lock", "local+netread"},
		{"poetry remove requests", "local"},
		{"poetry build", "local"},
		{"poetry run pytest", "local"},
		{"poetry run twine upload dist/*", "external"},
		{"poetry config virtualenvs.in-project true", "shared"},
		{"poetry config --list", "local"},
		{"poetry self add poetry-plugin-export", "shared+netread"},
		{"poetry version patch", "local"},
		{"poetry publish --help", "local"},
	},
}

func classifyPoetry(c *Classifier, inv *shell.Invocation) Effect {
	if forgeWantsHelp(inv.Args[1:], true) {
		return nothing
	}
	cmd, at, p := publishCommand(inv, poetryOpts)
	if at < 0 {
		return nothing
	}
	if inv.IsDynamic(at) {
		return publishDynamic("poetry", cmd)
	}
	ops := operandsAfter(p, 1)
	full := "poetry " + cmd
	dry := publishDryRun(p)
	switch cmd {
	case "publish":
		if dry {
			return local("pypi.publish.dry-run", full+" --dry-run only checks the files")
		}
		return external("pypi.publish", full+" uploads packages to a package index")
	case "add", "install", "update", "sync":
		if dry {
			return netRead("poetry.dry-run", full+" --dry-run only resolves packages")
		}
		return publishInstall("poetry.install", full)
	case "lock", "search":
		return netRead("poetry.lock", full+" reads from the package index")
	case "run":
		if at+1 >= len(inv.Args) {
			return nothing
		}
		return publishRun(c, inv, at+1, inv.Args[at+1], false)
	case "config":
		if p.Has("--list", "--local") || len(ops) < 2 && !p.Has("--unset") {
			return nothing
		}
		return shared("poetry.config", full+" changes poetry's user configuration")
	case "self":
		if len(ops) > 0 {
			switch ops[0] {
			case "add", "install", "update", "sync":
				return publishInstall("poetry.install", full+" "+ops[0])
			case "remove":
				return shared("poetry.self", full+" remove removes a poetry plugin")
			}
		}
	}
	return nothing
}

// ---- go, cargo ----

var goSpec = &Spec{
	Programs: []string{"go"},
	Classify: classifyGo,
	Examples: []Example{
		{"go get github.com/x/y@latest", "shared+netread"},
		{"go get -u ./...", "shared+netread"},
		{"go install golang.org/x/tools/gopls@latest", "shared+netread"},
		{"go install ./cmd/app", "shared+netread"},
		{"go mod download", "local+netread"},
		{"go mod tidy", "local+netread"},
		{"go env -w GOPROXY=direct", "shared"},
		{"go env GOPATH", "local"},
		{"go build ./...", "local"},
		{"go test -run TestPublish ./...", "local"},
		{"go vet ./...", "local"},
		{"go run ./cmd/app", "local"},
		{"go run golang.org/x/tools/cmd/stringer@v0.20.0", "local+netread"},
		{"go list -m -u all", "local+netread"},
		{"go fmt ./...", "local"},
		{"go version", "local"},
		{"go help get", "local"},
	},
}

func classifyGo(_ *Classifier, inv *shell.Invocation) Effect {
	args := inv.Args[1:]
	if len(args) == 0 || forgeWantsHelp(args, true) {
		return nothing
	}
	// go -C DIR CMD: the directory is read by rundir.go; the command
	// follows it.
	at := 1
	if args[0] == "-C" && len(args) > 2 {
		args, at = args[2:], 3
	} else if strings.HasPrefix(args[0], "-C=") && len(args) > 1 {
		args, at = args[1:], 2
	}
	if inv.IsDynamic(at) {
		return publishDynamic("go", args[0])
	}
	cmd, rest := args[0], args[1:]
	ops := operandsOf(rest)
	switch cmd {
	case "get", "install":
		return publishInstall("go.install", "go "+cmd)
	case "mod":
		if len(ops) > 0 && (ops[0] == "download" || ops[0] == "tidy" || ops[0] == "vendor" || ops[0] == "verify" || ops[0] == "why" || ops[0] == "graph") {
			return netRead("go.mod", "go mod "+ops[0]+" may download modules")
		}
	case "env":
		if hasAny(rest, "-w", "-u") {
			return shared("go.env", "go env -w changes Go's user configuration")
		}
	case "run":
		for _, o := range ops {
			if strings.Contains(o, "@") && !strings.HasSuffix(o, ".go") {
				return netRead("go.run", "go run "+o+" downloads the module it runs")
			}
			break
		}
	case "list":
		if hasAny(rest, "-u", "-versions", "-retracted") {
			return netRead("go.list", "go list -u reads module versions from the proxy")
		}
	}
	return nothing // build, test, vet, fmt, generate, doc, clean, version, work, ...
}

var cargoOpts = argv.Spec{
	Short: "ZCpFj",
	Long: []string{"--config", "--color", "--manifest-path", "--package", "--target", "--features", "--jobs", "--bin",
		"--example", "--test", "--bench", "--profile", "--target-dir", "--registry", "--index", "--token",
		"--message-format", "--lockfile-path", "--vers", "--version", "--git", "--branch", "--tag", "--rev", "--path", "--root"},
}

var cargoSpec = &Spec{
	Programs: []string{"cargo"},
	Classify: classifyCargo,
	Examples: []Example{
		{"cargo publish", "external"},
		{"cargo publish -p mycrate --registry crates-io", "external"},
		{"cargo +nightly publish", "external"},
		{"cargo publish --dry-run", "local"},
		{"cargo yank --version 1.0.1 mycrate", "external+destructive"},
		{"cargo yank mycrate@1.0.1", "external+destructive"},
		{"cargo yank --undo mycrate@1.0.1", "external"},
		{"cargo owner --add github:org:team", "external"},
		{"cargo owner --list", "local+netread"},
		{"cargo install ripgrep", "shared+netread"},
		{"cargo install --path .", "shared+netread"},
		{"cargo add serde --features derive", "shared+netread"},
		{"cargo uninstall ripgrep", "shared"},
		{"cargo login", "shared"},
		{"cargo build --release", "local"},
		{"cargo test -p publish", "local"},
		{"cargo check", "local"},
		{"cargo run --bin publish", "local"},
		{"cargo clippy -- -D warnings", "local"},
		{"cargo fetch", "local+netread"},
		{"cargo update", "local+netread"},
		{"cargo search serde", "local+netread"},
		{"cargo package", "local"},
		{"cargo release patch", "local"},
		{"cargo release patch --execute", "external"},
		{"cargo publish --help", "local"},
		{"cargo --version", "local"},
	},
}

func classifyCargo(_ *Classifier, inv *shell.Invocation) Effect {
	if forgeWantsHelp(inv.Args[1:], true) {
		return nothing
	}
	args := inv.Args[1:]
	from := 1
	if len(args) > 0 && strings.HasPrefix(args[0], "+") {
		from = 2 // cargo +nightly ...
	}
	p := cargoOpts.Parse(inv.Args[from:])
	if len(p.Operands) == 0 {
		return nothing
	}
	at := from + p.OperandIndex[0]
	cmd := p.Operands[0]
	if inv.IsDynamic(at) {
		return publishDynamic("cargo", cmd)
	}
	full := "cargo " + cmd
	switch cmd {
	case "publish":
		if publishDryRun(p) {
			return local("cargo.publish.dry-run", full+" --dry-run only packages and checks the crate")
		}
		return external("cargo.publish", full+" uploads a crate to a registry")
	case "yank":
		if p.Has("--undo") {
			return external("cargo.yank", full+" --undo restores a yanked version on the registry")
		}
		return external("cargo.yank", full+" withdraws a published version from the registry").destroys()
	case "owner":
		if p.Has("-a", "--add", "-r", "--remove") {
			return external("cargo.owner", full+" changes the owners of a crate on the registry")
		}
		return netRead("cargo.read", full+" reads crate owners from the registry")
	case "install", "add":
		return publishInstall("cargo.install", full)
	case "uninstall":
		return shared("cargo.uninstall", full+" removes an installed binary")
	case "login", "logout":
		return shared("cargo.login", full+" changes stored registry credentials")
	case "fetch", "update", "search", "vendor", "generate-lockfile", "info":
		return netRead("cargo.read", full+" reads from the registry")
	case "release":
		// cargo-release is a dry run unless told to execute.
		if p.Has("-x", "--execute") {
			return external("cargo.publish", full+" --execute publishes crates and pushes tags")
		}
		return nothing
	case "workspaces", "ws":
		if len(p.Operands) > 1 && p.Operands[1] == "publish" {
			return external("cargo.publish", full+" publish uploads crates to a registry")
		}
	}
	return nothing // build, test, check, run, clippy, fmt, doc, package, ...
}

// ---- gem, bundle, composer ----

var gemSpec = &Spec{
	Programs: []string{"gem"},
	Classify: classifyGem,
	Examples: []Example{
		{"gem push mygem-1.0.0.gem", "external"},
		{"gem push mygem-1.0.0.gem --host https://rubygems.pkg.github.com/o", "external"},
		{"gem yank mygem -v 1.0.0", "external+destructive"},
		{"gem owner mygem --add bob@example.com", "external"},
		{"gem owner mygem", "local+netread"},
		{"gem install rails", "shared+netread"},
		{"gem install bundler -v 2.5.0", "shared+netread"},
		{"gem update --system", "shared+netread"},
		{"gem uninstall rails", "shared"},
		{"gem build mygem.gemspec", "local"},
		{"gem list", "local"},
		{"gem search rails", "local+netread"},
		{"gem signin", "shared"},
		{"gem push --help", "local"},
	},
}

func classifyGem(_ *Classifier, inv *shell.Invocation) Effect {
	args := inv.Args[1:]
	if forgeWantsHelp(args, true) {
		return nothing
	}
	cmd, at, p := publishCommand(inv, argv.Spec{Short: "vanpk", Long: []string{"--version", "--add", "--remove", "--host", "--key", "--otp", "--source", "--install-dir", "--bindir", "--http-proxy", "--platform"}})
	if at < 0 {
		return nothing
	}
	if inv.IsDynamic(at) {
		return publishDynamic("gem", cmd)
	}
	full := "gem " + cmd
	switch cmd {
	case "push":
		return external("gem.push", full+" uploads a gem to a registry")
	case "yank":
		return external("gem.yank", full+" withdraws a published gem version").destroys()
	case "owner":
		if p.Has("-a", "--add", "-r", "--remove") {
			return external("gem.owner", full+" changes the owners of a gem on the registry")
		}
		return netRead("gem.read", full+" reads gem owners from the registry")
	case "install", "i", "update":
		return publishInstall("gem.install", full)
	case "uninstall", "cleanup":
		return shared("gem.uninstall", full+" removes installed gems")
	case "signin", "signout", "sources":
		if cmd == "sources" && !p.Has("-a", "--add", "-r", "--remove") {
			return nothing
		}
		return shared("gem.config", full+" changes gem credentials or sources")
	case "search", "fetch", "outdated", "query":
		return netRead("gem.read", full+" reads from the registry")
	case "exec":
		return netRead("gem.exec", full+" downloads and runs a gem")
	}
	return nothing
}

var bundleSpec = &Spec{
	Programs: []string{"bundle", "bundler"},
	Classify: classifyBundle,
	Examples: []Example{
		{"bundle", "shared+netread"},
		{"bundle install --jobs 4", "shared+netread"},
		{"bundle update rails", "shared+netread"},
		{"bundle add rspec --group test", "shared+netread"},
		{"bundle exec rspec", "local"},
		{"bundle exec gem push pkg/x.gem", "external"},
		{"bundle exec rake release", "local+opaque"},
		{"bundle config set --local path vendor/bundle", "local"},
		{"bundle config set path vendor/bundle", "shared"},
		{"bundle check", "local"},
		{"bundle outdated", "local+netread"},
		{"bundle remove rspec", "local"},
		{"bundle install --help", "local"},
	},
}

func classifyBundle(c *Classifier, inv *shell.Invocation) Effect {
	if forgeWantsHelp(inv.Args[1:], true) {
		return nothing
	}
	cmd, at, p := publishCommand(inv, argv.Spec{Short: "j", Long: []string{"--gemfile", "--path", "--jobs", "--retry", "--without", "--with", "--binstubs", "--shebang", "--standalone", "--trust-policy", "--source", "--git", "--branch", "--ref", "--version", "--group", "--require"}})
	if at < 0 {
		if p.Has("--version", "-v") {
			return nothing
		}
		return publishInstall("bundle.install", "bundle")
	}
	if inv.IsDynamic(at) {
		return publishDynamic("bundle", cmd)
	}
	full := "bundle " + cmd
	switch cmd {
	case "install", "update", "add", "i":
		return publishInstall("bundle.install", full)
	case "exec":
		if at+1 >= len(inv.Args) {
			return nothing
		}
		return publishRun(c, inv, at+1, inv.Args[at+1], false)
	case "outdated", "lock", "cache", "package":
		return netRead("bundle.read", full+" reads from the gem registry")
	case "config":
		if len(p.Operands) > 1 && (p.Operands[1] == "set" || p.Operands[1] == "unset") && !p.Has("--local") {
			return shared("bundle.config", full+" changes bundler's user configuration")
		}
	}
	return nothing
}

var composerSpec = &Spec{
	Programs: []string{"composer", "composer.phar"},
	Classify: classifyComposer,
	Examples: []Example{
		{"composer install", "shared+netread"},
		{"composer require monolog/monolog", "shared+netread"},
		{"composer req --dev phpunit/phpunit", "shared+netread"},
		{"composer update", "shared+netread"},
		{"composer global require laravel/installer", "shared+netread"},
		{"composer create-project laravel/laravel app", "local+netread"},
		{"composer remove monolog/monolog", "local"},
		{"composer dump-autoload", "local"},
		{"composer run-script test", "local"},
		{"composer validate", "local"},
		{"composer outdated", "local+netread"},
		{"composer config --global github-oauth.github.com x", "shared"},
		{"composer install --dry-run", "local+netread"},
		{"composer self-update", "shared+netread"},
		{"composer --help", "local"},
	},
}

func classifyComposer(_ *Classifier, inv *shell.Invocation) Effect {
	if forgeWantsHelp(inv.Args[1:], true) {
		return nothing
	}
	cmd, at, p := publishCommand(inv, argv.Spec{Short: "d", Long: []string{"--working-dir", "--format", "--repository", "--stability"}})
	if at < 0 {
		return nothing
	}
	if inv.IsDynamic(at) {
		return publishDynamic("composer", cmd)
	}
	full := "composer " + cmd
	if cmd == "global" && len(p.Operands) > 1 {
		cmd = p.Operands[1]
		full += " " + cmd
	}
	switch cmd {
	case "install", "i", "update", "u", "upgrade", "require", "r", "req", "reinstall":
		if publishDryRun(p) {
			return netRead("composer.dry-run", full+" --dry-run only resolves packages")
		}
		return publishInstall("composer.install", full)
	case "self-update", "selfupdate":
		return shared("composer.self", full+" replaces composer with a downloaded release").reads()
	case "create-project", "outdated", "search", "audit", "show":
		if cmd == "show" && !p.Has("--latest", "-l", "--outdated", "-o", "--available", "-a") {
			return nothing
		}
		return netRead("composer.read", full+" reads from the package repository")
	case "config":
		if p.Has("-g", "--global") && len(p.Operands) > 2 {
			return shared("composer.config", full+" --global changes composer's user configuration")
		}
	}
	return nothing
}

// ---- apt, brew ----

var aptSpec = &Spec{
	Programs: []string{"apt", "apt-get"},
	Classify: classifyApt,
	Examples: []Example{
		{"apt-get install -y curl", "shared+netread"},
		{"sudo apt install ripgrep", "shared+netread"},
		{"apt-get -o Dpkg::Options::=--force-confold install nginx", "shared+netread"},
		{"apt-get update", "shared+netread"},
		{"apt upgrade -y", "shared+netread"},
		{"apt-get remove nginx", "shared"},
		{"apt-get purge -y nginx", "shared"},
		{"apt autoremove", "shared"},
		{"apt-get install -s nginx", "local"},
		{"apt-get install --dry-run nginx", "local"},
		{"apt search ripgrep", "local"},
		{"apt show curl", "local"},
		{"apt list --installed", "local"},
		{"apt-get download curl", "local+netread"},
		{"apt-get clean", "local"},
		{"apt-get --help", "local"},
	},
}

func classifyApt(_ *Classifier, inv *shell.Invocation) Effect {
	if forgeWantsHelp(inv.Args[1:], true) {
		return nothing
	}
	tool := inv.Name()
	cmd, at, p := publishCommand(inv, argv.Spec{Short: "oct", Long: []string{"--option", "--config-file", "--target-release", "--default-release"}})
	if at < 0 {
		return nothing
	}
	if inv.IsDynamic(at) {
		return publishDynamic(tool, cmd)
	}
	full := tool + " " + cmd
	simulate := p.Has("-s", "--simulate", "--just-print", "--dry-run", "--recon", "--no-act")
	switch cmd {
	case "install", "reinstall", "upgrade", "full-upgrade", "dist-upgrade", "build-dep", "satisfy":
		if simulate {
			return local("apt.simulate", full+" --simulate only shows what would change")
		}
		return shared("apt.install", full+" installs system packages from the archive").reads()
	case "update":
		return shared("apt.update", full+" refreshes the package lists from the archive").reads()
	case "remove", "purge", "autoremove", "autopurge":
		if simulate {
			return local("apt.simulate", full+" --simulate only shows what would change")
		}
		return shared("apt.remove", full+" removes system packages")
	case "download", "source", "changelog":
		return netRead("apt.read", full+" downloads from the archive")
	case "edit-sources":
		return shared("apt.sources", full+" changes the package sources")
	}
	return nothing // search, show, list, policy, clean, check, ...
}

var brewSpec = &Spec{
	Programs: []string{"brew"},
	Classify: classifyBrew,
	Examples: []Example{
		{"brew install jq", "shared+netread"},
		{"brew install --cask firefox", "shared+netread"},
		{"brew upgrade", "shared+netread"},
		{"brew update", "shared+netread"},
		{"brew tap homebrew/cask-fonts", "shared+netread"},
		{"brew bundle", "shared+netread"},
		{"brew uninstall jq", "shared"},
		{"brew services start postgresql", "shared"},
		{"brew services list", "local"},
		{"brew list", "local"},
		{"brew info jq", "local"},
		{"brew search ripgrep", "local+netread"},
		{"brew doctor", "local"},
		{"brew bump-formula-pr --url https://x/y.tar.gz jq", "external"},
		{"brew gist-logs jq", "external"},
		{"brew install --help", "local"},
	},
}

func classifyBrew(_ *Classifier, inv *shell.Invocation) Effect {
	if forgeWantsHelp(inv.Args[1:], true) {
		return nothing
	}
	cmd, at, p := publishCommand(inv, argv.Spec{})
	if at < 0 {
		return nothing
	}
	if inv.IsDynamic(at) {
		return publishDynamic("brew", cmd)
	}
	full := "brew " + cmd
	switch cmd {
	case "install", "reinstall", "upgrade", "tap":
		return shared("brew.install", full+" installs packages from Homebrew").reads()
	case "update":
		return shared("brew.update", full+" updates Homebrew and its formulae").reads()
	case "bundle":
		if len(p.Operands) > 1 && p.Operands[1] != "install" {
			return nothing // dump, check, list, cleanup --dry-run
		}
		return shared("brew.install", full+" installs the packages of a Brewfile").reads()
	case "uninstall", "remove", "rm", "untap", "autoremove", "link", "unlink", "pin", "unpin":
		return shared("brew.uninstall", full+" changes installed packages")
	case "services":
		if len(p.Operands) > 1 {
			switch p.Operands[1] {
			case "start", "stop", "restart", "run", "kill", "cleanup":
				return shared("brew.services", full+" "+p.Operands[1]+" changes background services")
			}
		}
		return nothing
	case "fetch", "search", "outdated", "livecheck":
		return netRead("brew.read", full+" reads from Homebrew's servers")
	case "bump-formula-pr", "bump-cask-pr", "bump", "pr-pull", "pr-upload", "gist-logs", "create-pr":
		return external("brew.pr", full+" opens a pull request or gist on GitHub")
	}
	return nothing
}

// ---- twine, flit, hatch, pdm ----

var pyPublishSpec = &Spec{
	Programs: []string{"twine", "flit", "hatch", "pdm"},
	Classify: classifyPyPublish,
	Examples: []Example{
		{"twine upload dist/*", "external"},
		{"twine upload -r testpypi dist/*", "external"},
		{"twine upload --repository-url https://upload.example.test/legacy/ dist/*", "external"},
		{"twine register dist/x.whl", "external"},
		{"twine check dist/*", "local"},
		{"twine upload --help", "local"},
		{"flit publish", "external"},
		{"flit --repository testpypi publish", "external"},
		{"flit build", "local"},
		{"flit install --symlink", "shared+netread"},
		{"hatch publish", "external"},
		{"hatch publish -r test", "external"},
		{"hatch build", "local"},
		{"hatch test", "local"},
		{"hatch run twine upload dist/*", "external"},
		{"hatch -e docs run mkdocs build", "local"},
		{"hatch version minor", "local"},
		{"hatch python install 3.12", "shared+netread"},
		{"pdm publish", "external"},
		{"pdm publish -r testpypi", "external"},
		{"pdm publish --no-build --dry-run", "local"},
		{"pdm run twine upload dist/*", "external"},
		{"pdm run pytest", "local"},
		{"pdm install", "shared+netread"},
		{"pdm build", "local"},
	},
}

func classifyPyPublish(c *Classifier, inv *shell.Invocation) Effect {
	tool := inv.Name()
	if forgeWantsHelp(inv.Args[1:], true) {
		return nothing
	}
	spec := argv.Spec{Short: "rupc", Long: []string{"--repository", "--repository-url", "--username", "--password", "--comment", "--identity", "--sign-with", "--config-file", "--client-cert", "--cert", "--format"}}
	if tool == "pdm" {
		spec = argv.Spec{Short: "prugPd", Long: []string{"--project", "--repository", "--username", "--password", "--ca-certs", "--comment", "--identity", "--venv", "--group", "--dev"}}
	}
	if tool == "hatch" {
		spec = argv.Spec{Short: "epru", Long: []string{"--env", "--project", "--data-dir", "--cache-dir", "--config", "--repo", "--user", "--auth", "--ca-cert", "--client-cert", "--client-key", "--target"}}
	}
	cmd, at, p := publishCommand(inv, spec)
	if at < 0 {
		return nothing
	}
	if inv.IsDynamic(at) {
		return publishDynamic(tool, cmd)
	}
	full := tool + " " + cmd
	switch cmd {
	case "upload", "publish", "register":
		if tool == "twine" && cmd == "publish" || tool == "pdm" && cmd != "publish" {
			return nothing
		}
		if tool == "pdm" && hasAny(inv.Args, "--dry-run") {
			return nothing
		}
		return external("pypi.publish", full+" uploads packages to a package index")
	case "install", "add", "sync", "update":
		if tool == "flit" && cmd == "install" || tool == "pdm" {
			return publishInstall("pip.install", full)
		}
	case "run":
		if (tool == "hatch" || tool == "pdm") && at+1 < len(inv.Args) {
			return publishRun(c, inv, at+1, inv.Args[at+1], false)
		}
	case "python":
		if len(p.Operands) > 1 && (p.Operands[1] == "install" || p.Operands[1] == "update") {
			return shared("hatch.python", full+" "+p.Operands[1]+" downloads and installs Python").reads()
		}
	}
	return nothing
}

// ---- mvn, gradle ----

// mvnValueOpts are Maven's options that take the next word as a value.
func mvnValueOpts(name string) bool {
	switch name {
	case "-f", "-s", "-gs", "-t", "-gt", "-P", "-pl", "-rf", "-T", "-l", "-D", "-b", "--file",
		"--settings", "--global-settings", "--toolchains", "--global-toolchains", "--activate-profiles",
		"--projects", "--resume-from", "--threads", "--log-file", "--define", "--builder", "--color":
		return true
	}
	return false
}

var mvnSpec = &Spec{
	Programs: []string{"mvn", "mvnw", "mvnw.cmd", "mvn.cmd", "mvnd"},
	Classify: classifyMvn,
	Examples: []Example{
		{"mvn deploy", "external"},
		{"mvn clean deploy -DskipTests", "external"},
		{"./mvnw -B -s settings.xml deploy -P release", "external"},
		{"mvn -pl core deploy", "external"},
		{"mvn release:prepare release:perform", "external"},
		{"mvn release:perform", "external"},
		{"mvn release:prepare -DdryRun=true", "local"},
		{"mvn deploy:deploy-file -Dfile=x.jar -Durl=https://repo", "external"},
		{"mvn site-deploy", "external"},
		{"mvn compile jib:build", "external"},
		{"mvn -f deploy/pom.xml package", "local"},
		{"mvn clean install", "local"},
		{"mvn test -Dtest=DeployTest", "local"},
		{"mvn package -DskipTests", "local"},
		{"mvn help:effective-pom", "local"},
		{"mvn --help", "local"},
		{"mvn -v", "local"},
	},
}

func classifyMvn(_ *Classifier, inv *shell.Invocation) Effect {
	args := inv.Args[1:]
	if forgeWantsHelp(args, true) {
		return nothing
	}
	dry := false
	var goals []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case mvnValueOpts(a):
			if a == "-D" && i+1 < len(args) {
				dry = dry || strings.EqualFold(args[i+1], "dryRun=true")
			}
			i++
		case strings.HasPrefix(a, "-"):
			dry = dry || strings.EqualFold(a, "-DdryRun=true")
		default:
			if inv.IsDynamic(1 + i) {
				return publishDynamic("mvn", a)
			}
			goals = append(goals, a)
		}
	}
	for _, g := range goals {
		lg := strings.ToLower(g)
		switch {
		case lg == "deploy" || lg == "site-deploy" || strings.HasSuffix(lg, ":deploy") || strings.HasSuffix(lg, ":deploy-file") || strings.HasSuffix(lg, ":sign-and-deploy-file"):
			return external("mvn.deploy", "mvn "+g+" uploads artifacts to a remote repository")
		case strings.HasSuffix(lg, "release:perform") || strings.HasSuffix(lg, "release:prepare") || strings.HasSuffix(lg, "release:stage"):
			if dry {
				return local("mvn.release.dry-run", "mvn "+g+" -DdryRun=true only simulates the release")
			}
			return external("mvn.release", "mvn "+g+" tags the release in source control and publishes its artifacts")
		case strings.HasSuffix(lg, "jib:build") || strings.HasSuffix(lg, ":push") || strings.HasPrefix(lg, "nexus-staging:") && !strings.HasSuffix(lg, ":rc-list"):
			return external("mvn.deploy", "mvn "+g+" publishes to a remote registry")
		}
	}
	return nothing
}

// gradleValueOpts are Gradle's options that take the next word as a value.
func gradleValueOpts(name string) bool {
	switch name {
	case "-p", "-b", "-c", "-I", "-x", "-g", "-D", "-P", "-M", "-F", "--project-dir", "--build-file",
		"--settings-file", "--init-script", "--exclude-task", "--gradle-user-home", "--console",
		"--warning-mode", "--max-workers", "--priority", "--include-build", "--write-verification-metadata",
		"--dependency-verification", "--project-cache-dir", "--tests", "--system-prop", "--project-prop":
		return true
	}
	return false
}

var gradleSpec = &Spec{
	Programs: []string{"gradle", "gradlew", "gradlew.bat"},
	Classify: classifyGradle,
	Examples: []Example{
		{"gradle publish", "external"},
		{"./gradlew publish", "external"},
		{"./gradlew :lib:publish", "external"},
		{"./gradlew publishAllPublicationsToSonatypeRepository", "external"},
		{"./gradlew publishPlugins", "external"},
		{"./gradlew artifactoryPublish", "external"},
		{"./gradlew jib", "external"},
		{"./gradlew build closeAndReleaseSonatypeStagingRepository", "external"},
		{"./gradlew publish --dry-run", "local"},
		{"./gradlew publish -m", "local"},
		{"./gradlew publishToMavenLocal", "local"},
		{"./gradlew build -x publish", "local"},
		{"./gradlew test --tests PublishTest", "local"},
		{"./gradlew build", "local"},
		{"gradle tasks --all", "local"},
		{"./gradlew --help", "local"},
	},
}

func classifyGradle(_ *Classifier, inv *shell.Invocation) Effect {
	args := inv.Args[1:]
	if forgeWantsHelp(args, true) || hasAny(args, "-?") {
		return nothing
	}
	var tasks []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case gradleValueOpts(a):
			i++
		case a == "-m" || a == "--dry-run":
			return local("gradle.dry-run", "gradle --dry-run only lists the tasks it would run")
		case strings.HasPrefix(a, "-"):
		default:
			if inv.IsDynamic(1 + i) {
				return publishDynamic("gradle", a)
			}
			tasks = append(tasks, a)
		}
	}
	for _, t := range tasks {
		name := t[strings.LastIndexByte(t, ':')+1:]
		l := strings.ToLower(name)
		switch {
		case strings.HasSuffix(l, "tomavenlocal"):
		case strings.HasPrefix(l, "publish") || strings.HasSuffix(l, "publish") || l == "uploadarchives" || l == "jib" ||
			strings.HasPrefix(l, "closeandrelease") || strings.HasSuffix(l, "deploy") || strings.HasPrefix(l, "bintrayupload"):
			return external("gradle.publish", "gradle "+t+" publishes artifacts to a remote repository")
		}
	}
	return nothing
}

// ---- dotnet, nuget ----

var dotnetSpec = &Spec{
	Programs: []string{"dotnet", "nuget"},
	Classify: classifyDotnet,
	Examples: []Example{
		{"dotnet nuget push bin/x.nupkg -k $KEY -s https://api.nuget.org/v3/index.json", "external"},
		{"dotnet nuget delete MyPkg 1.0.0 -k $KEY", "external+destructive"},
		{"dotnet nuget push --help", "local"},
		{"dotnet add package Newtonsoft.Json", "shared+netread"},
		{"dotnet restore", "local+netread"},
		{"dotnet tool install -g dotnet-ef", "shared+netread"},
		{"dotnet build", "local"},
		{"dotnet test", "local"},
		{"dotnet publish -c Release -o out", "local"},
		{"dotnet pack", "local"},
		{"dotnet add reference ../lib/lib.csproj", "local"},
		{"dotnet ef database update", "shared"},
		{"dotnet ef database drop --force", "shared+destructive"},
		{"nuget push x.nupkg -Source https://api.nuget.org/v3/index.json", "external"},
		{"nuget delete MyPkg 1.0.0", "external+destructive"},
		{"nuget restore", "local+netread"},
		{"nuget sources add -Name x -Source https://x", "shared"},
		{"nuget pack x.nuspec", "local"},
	},
}

func classifyDotnet(_ *Classifier, inv *shell.Invocation) Effect {
	args := inv.Args[1:]
	if forgeWantsHelp(args, true) || hasAny(args, "-?", "/?") {
		return nothing
	}
	ops := operandsOf(args)
	if len(ops) == 0 {
		return nothing
	}
	if inv.IsDynamic(1) {
		return publishDynamic(inv.Name(), args[0])
	}
	if inv.Name() == "nuget" {
		return nugetCommand("nuget", strings.ToLower(ops[0]), ops[1:])
	}
	cmd := ops[0]
	sub := ""
	if len(ops) > 1 {
		sub = ops[1]
	}
	full := "dotnet " + cmd
	switch cmd {
	case "nuget":
		return nugetCommand(full, sub, ops[2:])
	case "add":
		if sub == "package" {
			return publishInstall("dotnet.install", full+" package")
		}
	case "restore":
		return netRead("dotnet.restore", full+" downloads packages")
	case "tool", "workload":
		switch sub {
		case "install", "update", "restore", "repair":
			return publishInstall("dotnet.install", full+" "+sub)
		case "uninstall":
			return shared("dotnet.uninstall", full+" uninstall removes an installed "+cmd)
		}
	case "ef":
		if sub == "database" && len(ops) > 2 {
			switch ops[2] {
			case "drop":
				return shared("dotnet.ef.drop", full+" database drop deletes the database").destroys()
			case "update":
				return shared("dotnet.ef.update", full+" database update migrates the database")
			}
		}
	}
	return nothing // build, test, run, publish (to a folder), pack, new, ...
}

// nugetCommand rates a NuGet command (nuget, dotnet nuget).
func nugetCommand(tool, cmd string, ops []string) Effect {
	full := tool + " " + cmd
	switch cmd {
	case "push":
		return external("nuget.push", full+" uploads a package to a NuGet feed")
	case "delete":
		return external("nuget.delete", full+" removes a package version from a NuGet feed").destroys()
	case "install", "restore", "list", "search":
		return netRead("nuget.read", full+" downloads from a NuGet feed")
	case "sources", "source", "add", "remove", "update", "enable", "disable", "setapikey", "config":
		if len(ops) > 0 && (ops[0] == "list" || ops[0] == "List") {
			return nothing
		}
		if cmd == "update" && tool == "nuget" {
			return publishInstall("nuget.install", full)
		}
		return shared("nuget.config", full+" changes NuGet sources or credentials")
	}
	return nothing
}
