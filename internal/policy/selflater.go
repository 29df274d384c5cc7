package policy

import (
	"github.com/airlock-dev/airlock/internal/firstuse"
	"path/filepath"
	"slices"
	"strings"

	"github.com/airlock-dev/airlock/internal/classify"
)

// This file is self-protection for files that make a later program run
// code the agent chose, outside any hook (FINDINGS-3 H9, H10):
//
//   - a tool's start-up or configuration file that names code to run
//     (~/.npmrc's script-shell, ~/.yarnrc.yml's yarnPath, Gradle's init
//     scripts, ~/.ssh/config's ProxyCommand, an editor's rc);
//   - Python's site customisation: usercustomize, sitecustomize and *.pth
//     files in any site-packages directory run in every later Python;
//   - a program on the human's PATH named like airlock or a program the
//     human trusts (git, gh, ssh, curl, npm, …): the human's next "git
//     push" or "airlock queue approve" would run the agent's file;
//   - the configuration commands that write those settings (npm config
//     set script-shell, pip config set global.index-url).
//
// Each is a write the agent's later tool calls would not show: the code
// runs in the human's own shell, or in a program airlock rates by its
// arguments. Reading them is not refused.

// shadowNames are the programs a file on the human's PATH may not be
// named like: airlock's own binaries (added from airlockBinaries), the
// agents, and the programs the human runs to publish, fetch, log in or
// approve.
var shadowNames = []string{
	"git", "gh", "glab", "hub", "ssh", "scp", "sftp", "rsync", "curl", "wget", "http", "https",
	"npm", "npx", "pnpm", "yarn", "bun", "node", "deno", "pip", "pip3", "pipx", "uv", "python", "python3", "twine",
	"go", "cargo", "rustup", "gem", "bundle", "mvn", "gradle", "make", "docker", "podman", "kubectl", "helm",
	"terraform", "aws", "gcloud", "az", "vercel", "netlify", "flyctl", "fly", "heroku",
	"sudo", "su", "doas", "env", "sh", "bash", "zsh", "dash", "fish", "ls", "cat", "cp", "mv", "rm", "ln",
	"chmod", "sed", "awk", "grep", "find", "xargs", "tar", "less", "more", "vi", "vim", "nvim", "nano", "emacs",
	"code", "open", "xdg-open", "gpg", "gpg2", "pass", "op", "security", "keychain", "ssh-agent", "ssh-add",
	"claude", "codex", "gemini", "copilot", "opencode", "cursor-agent", "aider", "goose", "qwen", "kiro-cli",
}

// laterWhy is the table's reason for a runs-later path under the home
// (selflatertable.go), or "" for one the table does not name (Python's
// site customisation): the refusal says which program runs the file.
func (g *guard) laterWhy(p string) string {
	if g.home == "" {
		return ""
	}
	for _, t := range laterHomeTargets {
		abs := filepath.Join(g.home, t.rel)
		if p == abs || t.dir && strings.HasPrefix(p, abs+"/") {
			return t.why
		}
	}
	return ""
}

// pathDirHome are the directories below the home that installers put on
// the PATH, counted whether or not the hook's own PATH has them.
var pathDirHome = []string{"bin", ".local/bin", "go/bin", ".cargo/bin", ".npm-global/bin", ".yarn/bin", ".bun/bin", ".deno/bin", ".volta/bin", ".pyenv/shims", ".rbenv/shims", ".asdf/shims", ".nix-profile/bin", ".local/share/pnpm"}

// pathDirsFrom lists the absolute directories of a PATH value, with the
// home's usual ones, cleaned and without repeats.
func pathDirsFrom(pathEnv, home string) []string {
	var out []string
	add := func(d string) {
		if d == "" || !filepath.IsAbs(d) {
			return // "." or "": the working directory, not a place a human's shell looks later
		}
		d = filepath.Clean(d)
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	for _, d := range filepath.SplitList(pathEnv) {
		add(d)
	}
	if home != "" {
		for _, d := range pathDirHome {
			add(filepath.Join(home, d))
		}
	}
	return out
}

// laterHit reports whether writing p plants code a later program runs:
// Python's site customisation, or a program on the PATH named like one
// the human trusts. parents says the write reaches everything below p
// (cp -r into it); deletes that it only deletes (which plants nothing).
func (g *guard) laterHit(p string, parents, deletes bool) (hit, bool) {
	if deletes {
		return hit{}, false
	}
	if t, ok := siteCustomize(p, parents); ok {
		return hit{target: target{path: t, kind: kindRunsLater}, path: p}, true
	}
	dir, base := filepath.Split(p)
	dir = filepath.Clean(dir)
	dirASCII, pASCII := isASCII(dir), isASCII(p)
	for _, d := range g.pathDirs {
		if foldEqual(d, g.pathDirsASCII, dir, dirASCII) && g.shadows(base) {
			return hit{target: target{path: p, kind: kindPathProgram}, path: p}, true
		}
		if parents && foldEqual(d, g.pathDirsASCII, p, pASCII) {
			// cp -r tools/. ~/.local/bin: which names it writes the
			// sources say.
			return hit{target: target{path: filepath.Join(p, "git"), kind: kindPathProgram}, path: p, ancestor: true}, true
		}
	}
	return hit{}, false
}

// shadows reports whether a file name on the PATH would run instead of a
// program the human trusts.
func (g *guard) shadows(base string) bool {
	b := strings.TrimSuffix(strings.ToLower(base), ".exe")
	return slices.Contains(shadowNames, b) || slices.Contains(airlockBinaries, b) || g.exeName != "" && b == g.exeName
}

// siteCustomize reports whether p is (or, with parents, holds) a file
// Python runs at every start: usercustomize or sitecustomize (a module of
// any suffix, or a package) or a .pth file in a site-packages or
// dist-packages directory. It returns the path named.
func siteCustomize(p string, parents bool) (string, bool) {
	parts := strings.Split(fold(p), "/")
	for i, part := range parts {
		if part != "site-packages" && part != "dist-packages" {
			continue
		}
		if i == len(parts)-1 {
			if parents {
				return p, true
			}
			continue
		}
		n := parts[i+1]
		mod := strings.SplitN(n, ".", 2)[0]
		if mod == "usercustomize" || mod == "sitecustomize" || i+2 == len(parts) && strings.HasSuffix(n, ".pth") {
			return p, true
		}
	}
	return "", false
}

// configSetKeys are the settings a configuration command may not store:
// each names a program, a script or a place code is fetched from, which
// later runs of the tool use without the agent's tool calls showing it.
var configSetKeys = firstuse.Table[map[string][]string]{Build: func() map[string][]string {
	return map[string][]string{
		"npm":  {"script-shell", "shell", "node-options", "onload-script", "init-module", "editor", "browser", "viewer", "git", "prefix", "globalconfig", "userconfig", "registry", "ignore-scripts"},
		"pnpm": {"script-shell", "shell-emulator", "node-options", "global-dir", "global-bin-dir", "registry", "ignore-scripts"},
		"yarn": {"yarnPath", "yarn-path", "script-shell", "npmRegistryServer", "registry", "plugins", "ignore-scripts"},
		"pip":  {"index-url", "extra-index-url", "find-links", "trusted-host", "target", "prefix", "user", "src"},
	}
}}

// configSet refuses a tool's configuration command that stores one of
// configSetKeys (npm config set script-shell X, pip config set
// global.index-url URL): the tool's next run, the human's included, runs
// or installs what the value names.
func configSet(inv *classify.Invocation) *refusal {
	name := inv.Name()
	switch name {
	case "pip3", "python3", "python":
		name = "pip"
	}
	keys, ok := configSetKeys.Get()[name]
	if !ok {
		return nil
	}
	args := inv.Args[1:]
	if inv.Name() == "python" || inv.Name() == "python3" {
		if len(args) < 2 || args[0] != "-m" || args[1] != "pip" {
			return nil
		}
		args = args[2:]
	}
	// The verb after "config" (pip config --user set), or npm's and
	// pnpm's shorthands (npm set K V, npm c set K V).
	i := -1
	for k, a := range args {
		if a == "config" || (name == "npm" || name == "pnpm") && a == "c" && k == 0 {
			i = k
			break
		}
		if (name == "npm" || name == "pnpm") && a == "set" && k == 0 {
			i = k - 1
			break
		}
		if !strings.HasPrefix(a, "-") {
			return nil
		}
	}
	if i < -1 || i == -1 && (len(args) == 0 || args[0] != "set") {
		return nil
	}
	j := i + 1
	for j < len(args) && strings.HasPrefix(args[j], "-") {
		j++
	}
	if j >= len(args) {
		return nil
	}
	verb := args[j]
	i = j - 1
	if verb != "set" && verb != "edit" && verb != "unset" && verb != "delete" && verb != "rm" {
		return nil
	}
	if verb == "edit" {
		return &refusal{RuleProtectedPath, name + " config edit opens the tool's configuration, which can name programs and package sources that later runs use. Change it by hand, or ask the human." + instead}
	}
	for _, w := range args[i+2:] {
		if strings.HasPrefix(w, "-") {
			continue
		}
		k, _, _ := strings.Cut(w, "=")
		k = k[strings.LastIndexByte(k, '.')+1:] // pip's global.index-url
		for _, bad := range keys {
			if strings.EqualFold(k, bad) {
				return &refusal{RuleProtectedPath, name + " config " + verb + " " + clipText(w) + " changes the program, script or package source that later runs of " + name + " use (the human's included), which no later tool call of the agent shows; " + kindRunsLater.String() + "." + instead}
			}
		}
		break // only the key: the value is free text
	}
	return nil
}
