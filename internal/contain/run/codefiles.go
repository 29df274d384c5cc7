package run

import (
	"path"
	"strings"
)

// The project's files that a tool reads as code: one table, read by
// airlock run's plan and its review after the command, by "install
// claude-code --contain" (FencedProjectFiles) and by the macOS profile
// (SeatbeltFor). Each entry says who runs the file and when, and how
// airlock run treats it (Handling). docs/CONTAIN.md names every pattern
// (TestCodeFilesDocumented).
//
// What the table misses is caught by a general rule after the run
// (review.go): a file made or changed during it whose name starts with
// a dot, or that lies under a dot-directory, at any depth, and a new
// executable outside git's index are named in the run's summary and
// journaled, unless they are ordinary (ordinaryDot) or a cache
// (cacheDirs).

// Handling is what airlock run does with a project code file.
type Handling uint8

const (
	// Fence: bound read-only inside while it exists. A missing one in
	// a directory gets a placeholder; one at the project's top (or one
	// a pattern names) that the run made is set aside after it.
	Fence Handling = iota + 1
	// Review: writable inside, as ordinary work edits it (a lint
	// configuration, flake.nix, .env). After the run, one made or
	// changed is set aside as NAME.airlock-review and the bytes it had
	// before the run are put back: nothing written inside is in force
	// outside until the human moves it back.
	Review
	// Watch: writable inside and left in place (pip and venv write
	// these at every install); one made or changed is named in the
	// run's summary and journaled.
	Watch
	// Repo: a git repository's directory or gitdir file below the
	// project's top (embedded, nested, --separate-git-dir). After the
	// run, what of such a repository that the run made or changed runs
	// a program at the human's next git command is set aside
	// (repoFiles).
	Repo
)

func (h Handling) String() string {
	switch h {
	case Fence:
		return "read-only"
	case Review:
		return "set aside after the run"
	case Watch:
		return "named after the run"
	case Repo:
		return "repository reviewed after the run"
	}
	return "?"
}

// CodeFile is one entry of the table.
type CodeFile struct {
	// Pattern is relative to the project, with / between names: a
	// plain path names that file or directory (and all below it); a
	// name may hold * (any run of characters but /) and a whole name
	// ** stands for any number of directories.
	Pattern  string
	Handling Handling
	// Reason says which tool runs it and when, for the human reading
	// the run's summary and for the next maintainer.
	Reason string
}

// Reasons shared by several entries.
const (
	rEditor   = "an editor runs its tasks, language servers or settings when the human opens the project"
	rShell    = "a shell started in the project sources it"
	rNpm      = "npm, yarn or pnpm read it at the human's next install or script: a script shell, a yarn binary, a hook"
	rGitHook  = "a commit hook manager runs what it names at the human's next git commit"
	rMise     = "mise or asdf installs and runs the tools it names when the human's shell enters the project"
	rDevCont  = "the editor builds and starts the container it describes, with its commands, when the folder opens"
	rAgent    = "an agent started later in the project loads it: commands, hooks, skills, MCP servers"
	rStartup  = "the program reads it from the working directory at start and runs the code in it"
	rJVM      = "the build tool reads JVM options or extensions from it at the human's next build"
	rCompose  = "docker compose merges it at the human's next docker compose up: any image, any mount of the host"
	rRust     = "rustup installs and runs the toolchain it names at the human's next cargo command"
	rEditorJS = "the editor's extension (ESLint, Prettier) loads this JavaScript when a file is opened"
	rNix      = "nix-shell or nix develop runs its shellHook; direnv's use nix/use flake does so on entering the project"
	rVenv     = "an editor activates the project's virtual environment in every terminal it opens; Python runs a .pth line at every start"
)

// CodeFiles is the table.
var CodeFiles = []CodeFile{
	// Agents and editors.
	{".mcp.json", Fence, rAgent},
	{".claude/commands", Fence, rAgent},
	{".claude/agents", Fence, rAgent},
	{".claude/hooks", Fence, rAgent},
	{".claude/skills", Fence, rAgent},
	{".vscode", Fence, rEditor},
	{"*.code-workspace", Fence, "VS Code runs a workspace file's tasks (runOn: folderOpen) and settings when it is opened"},
	{".idea", Fence, rEditor},
	{".helix", Fence, rEditor},
	{".zed", Fence, rEditor},
	{".exrc", Fence, "vim and neovim with exrc source it when started in the project"},
	{".nvimrc", Fence, "neovim with exrc sources it when started in the project"},
	{".nvim.lua", Fence, "neovim with exrc runs it when started in the project"},
	{".lvimrc", Fence, "the localvimrc plugin sources it when vim opens a file in the project"},
	{".dir-locals.el", Fence, "Emacs evaluates its directory variables when a file in the project is opened"},
	{".devcontainer.json", Fence, rDevCont},
	{".devcontainer", Fence, rDevCont},
	// Package managers and downloaders.
	{".npmrc", Fence, rNpm},
	{".yarnrc", Fence, rNpm},
	{".yarnrc.yml", Fence, rNpm},
	{".pnpmfile.cjs", Fence, rNpm},
	{".yarn/releases", Review, "yarn runs the release .yarnrc.yml's yarnPath names at the human's next yarn command"},
	{".yarn/plugins", Review, "yarn loads its plugins at the human's next yarn command"},
	{"bunfig.toml", Review, "bun runs its preload scripts at the human's next bun run or bun test"},
	{".cargo", Fence, "cargo reads its config (a runner, a linker, aliases) at the human's next cargo command"},
	{"rust-toolchain.toml", Review, rRust},
	{"rust-toolchain", Review, rRust},
	{".curlrc", Fence, "curl reads it from the home it is pointed at: an output file, a body"},
	{".wgetrc", Fence, "wget reads it: an output file, a body, a command"},
	// Shells and environment managers.
	{".zshrc", Fence, rShell},
	{".bashrc", Fence, rShell},
	{".profile", Fence, rShell},
	{".zshenv", Fence, rShell},
	{".bash_profile", Fence, rShell},
	{".zprofile", Fence, rShell},
	{".zlogin", Fence, rShell},
	{".autoenv.zsh", Fence, "zsh-autoenv sources it when the shell enters the project"},
	{".autoenv_leave.zsh", Fence, "zsh-autoenv sources it when the shell leaves the project"},
	{"mise.toml", Fence, rMise},
	{".mise.toml", Fence, rMise},
	{".tool-versions", Fence, rMise},
	{"shell.nix", Review, rNix},
	{"flake.nix", Review, rNix},
	{".env", Review, "docker compose reads COMPOSE_FILE and DOCKER_HOST from it, bun and other runners load it into the environment (NODE_OPTIONS)"},
	// Version control.
	{".gitattributes", Fence, "git runs the filters it names at the human's next checkout or status"},
	{".pre-commit-config.yaml", Fence, rGitHook},
	{".husky", Fence, rGitHook},
	{"lefthook.yml", Fence, rGitHook},
	{".lefthook.yml", Fence, rGitHook},
	{"lefthook.yaml", Fence, rGitHook},
	{".lefthook.yaml", Fence, rGitHook},
	{"lefthook-local.yml", Fence, rGitHook},
	{".lfsconfig", Fence, "git-lfs runs its custom transfer agents at the human's next push or pull"},
	{".hg/hgrc", Fence, "Mercurial runs the repository's hooks at the human's next hg command"},
	{".git/config.worktree", Fence, "git reads it as the repository's config: core.fsmonitor runs at the next git status"},
	{"**/.git", Repo, "git reads a nested or embedded repository's config and hooks at the human's next git status in the project"},
	// Interpreters and debuggers started in the project. Reviewed, not
	// read-only: a tool inside may write one as part of its work (renv
	// writes .Rprofile), and the command should not fail half way.
	{".Rprofile", Review, rStartup},
	{".irbrc", Review, rStartup},
	{".pryrc", Review, rStartup},
	{".pdbrc", Review, rStartup},
	{".octaverc", Review, rStartup},
	{".lldbinit", Review, rStartup},
	{".gdbinit", Review, rStartup},
	// Build tools.
	{".bazelrc", Review, "bazel reads its options (a --run_under, a workspace status command) at the human's next build"},
	{".sbtopts", Review, rJVM},
	{".jvmopts", Review, rJVM},
	{".mvn", Review, rJVM},
	{"gradle.properties", Review, "gradle reads JVM options (org.gradle.jvmargs: -javaagent) from it at the human's next build"},
	{"docker-compose.override.yml", Review, rCompose},
	{"docker-compose.override.yaml", Review, rCompose},
	{"compose.override.yml", Review, rCompose},
	{"compose.override.yaml", Review, rCompose},
	// Editor extensions that load the project's JavaScript.
	{"eslint.config.js", Review, rEditorJS},
	{"eslint.config.mjs", Review, rEditorJS},
	{"eslint.config.cjs", Review, rEditorJS},
	{"eslint.config.ts", Review, rEditorJS},
	{".eslintrc.js", Review, rEditorJS},
	{".eslintrc.cjs", Review, rEditorJS},
	{".prettierrc.js", Review, rEditorJS},
	{".prettierrc.cjs", Review, rEditorJS},
	{".prettierrc.mjs", Review, rEditorJS},
	{"prettier.config.js", Review, rEditorJS},
	{"prettier.config.cjs", Review, rEditorJS},
	{"prettier.config.mjs", Review, rEditorJS},
	// What a program started in a directory below the top reads there
	// (or, for Emacs, mise and direnv, in every directory above the
	// file or the shell): a new one, or one the run changed, is set
	// aside after the run. No copy of it was kept, so one that existed
	// is set aside whole, not put back.
	{"**/.envrc", Review, "direnv runs it when the human's shell enters that directory"},
	{"**/.dir-locals.el", Review, "Emacs evaluates its directory variables when a file below it is opened"},
	{"**/.exrc", Review, "vim and neovim with exrc source it when started in that directory"},
	{"**/.nvimrc", Review, "neovim with exrc sources it when started in that directory"},
	{"**/.nvim.lua", Review, "neovim with exrc runs it when started in that directory"},
	{"**/.npmrc", Review, "npm reads it in a package's directory (a workspace's package) at the next install or script"},
	{"**/mise.toml", Review, rMise},
	{"**/.mise.toml", Review, rMise},
	{"**/.tool-versions", Review, rMise},
	{"**/.Rprofile", Review, rStartup},
	{"**/.irbrc", Review, rStartup},
	{"**/.pryrc", Review, rStartup},
	{"**/.pdbrc", Review, rStartup},
	{"**/.octaverc", Review, rStartup},
	{"**/.lldbinit", Review, rStartup},
	{"**/.gdbinit", Review, rStartup},
	{"**/.vscode", Review, "VS Code runs a folder's tasks and settings when the human opens that folder"},
	// Python's virtual environments.
	{".venv/bin/*", Watch, rVenv},
	{"venv/bin/*", Watch, rVenv},
	{".venv/**/*.pth", Watch, rVenv},
	{"venv/**/*.pth", Watch, rVenv},
}

// FencedProjectFiles are the paths, relative to the project, that a
// sandbox with no step after the command must deny writing: every
// plain-path entry of the table that airlock run fences or reviews,
// git's configuration, hooks and info, and .git/modules, where a
// submodule's repository keeps its own. "install claude-code --contain"
// and the macOS profile use it (FINDINGS-9 C3): with nothing after the
// command to set aside what it wrote, a reviewed file is denied there,
// and .git/modules is denied whole (a submodule repository cannot be
// made or changed inside).
func FencedProjectFiles() []string {
	var out []string
	for _, c := range CodeFiles {
		if (c.Handling == Fence || c.Handling == Review) && !hasWild(c.Pattern) {
			out = append(out, c.Pattern)
		}
	}
	out = append(out, gitCode...)
	return append(out, ".git/modules")
}

// fencedPaths are the table's plain paths airlock run binds read-only.
func fencedPaths() []string {
	var out []string
	for _, c := range CodeFiles {
		if c.Handling == Fence && !hasWild(c.Pattern) {
			out = append(out, c.Pattern)
		}
	}
	return out
}

func hasWild(p string) bool { return strings.Contains(p, "*") }

// CodeFileFor is the table's entry for rel (a path relative to the
// project, with /), and whether there is one: the first whose pattern
// names rel or a directory above it.
func CodeFileFor(rel string) (CodeFile, bool) {
	names := strings.Split(rel, "/")
	for _, c := range CodeFiles {
		if matchNames(strings.Split(c.Pattern, "/"), names) {
			return c, true
		}
	}
	return CodeFile{}, false
}

// matchNames matches a pattern's names against a path's: a plain
// pattern also names everything below it (".vscode" names
// ".vscode/tasks.json"); "**" any number of names. A leading "**" does
// not match the project's own .git at the top: that one is git's
// configuration, fenced apart (gitCode).
func matchNames(pat, names []string) bool {
	if len(pat) > 0 && pat[0] == "**" {
		for i := 1; i < len(names); i++ {
			if matchNames(pat[1:], names[i:]) {
				return true
			}
		}
		return false
	}
	return matchFrom(pat, names)
}

func matchFrom(pat, names []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(names); i++ {
				if matchFrom(pat[1:], names[i:]) {
					return true
				}
			}
			return false
		}
		if len(names) == 0 {
			return false
		}
		if ok, err := path.Match(pat[0], names[0]); err != nil || !ok {
			return false
		}
		pat, names = pat[1:], names[1:]
	}
	// A plain pattern names its directory's content too; one that ends
	// in a wildcard name matches only that name.
	return true
}

// ordinaryDot are names of dot files that no tool runs as code: the
// general rule (review.go) does not name them when an agent writes them.
// A configuration that only lists names, options or patterns is here; one
// that is JavaScript, or that names a program to run, is not.
var ordinaryDot = map[string]bool{
	".gitignore": true, ".gitkeep": true, ".keep": true, ".dockerignore": true, ".npmignore": true,
	".prettierignore": true, ".eslintignore": true, ".stylelintignore": true, ".editorconfig": true,
	".prettierrc": true, ".prettierrc.json": true, ".prettierrc.yaml": true, ".prettierrc.yml": true, ".prettierrc.toml": true,
	".eslintrc": true, ".eslintrc.json": true, ".eslintrc.yaml": true, ".eslintrc.yml": true,
	".stylelintrc": true, ".stylelintrc.json": true, ".stylelintrc.yaml": true, ".stylelintrc.yml": true,
	".markdownlint.json": true, ".markdownlint.yaml": true, ".markdownlint.yml": true, ".markdownlintignore": true,
	".nvmrc": true, ".node-version": true, ".python-version": true, ".ruby-version": true, ".terraform-version": true,
	".env.example": true, ".env.sample": true, ".env.template": true,
	".flake8": true, ".pylintrc": true, ".coveragerc": true, ".yamllint": true, ".yamllint.yml": true, ".yamllint.yaml": true,
	".golangci.yml": true, ".golangci.yaml": true, ".clang-format": true, ".clang-tidy": true, ".rustfmt.toml": true,
	".mailmap": true, ".gitlab-ci.yml": true, ".travis.yml": true, ".browserslistrc": true, ".babelrc": true,
	".hadolint.yaml": true, ".shellcheckrc": true, ".codespellrc": true, ".gitleaksignore": true, ".DS_Store": true,
	// Data a tool writes as it works: a coverage database, a lint
	// cache, a lock file of checksums.
	".coverage": true, ".eslintcache": true, ".stylelintcache": true, ".terraform.lock.hcl": true,
}

// ordinaryDirs are dot-directories of the project whose files run on a
// CI service or are read as data, not on the human's machine at a
// tool's start: an agent writing a workflow is ordinary work.
var ordinaryDirs = map[string]bool{".github": true, ".gitlab": true, ".circleci": true, ".changeset": true}

// cacheDirs are directories the review walks only for nested
// repositories (Repo): the caches and build outputs of the tools, which
// an install or a build fills with thousands of files every run. Their
// content is the dependency and build class docs/THREAT-MODEL.md names
// as not reviewed.
var cacheDirs = map[string]bool{
	"node_modules": true, "target": true, "__pycache__": true, ".pytest_cache": true, ".mypy_cache": true,
	".ruff_cache": true, ".tox": true, ".nox": true, ".hypothesis": true, ".gradle": true, ".next": true,
	".nuxt": true, ".svelte-kit": true, ".turbo": true, ".parcel-cache": true, ".cache": true, ".terraform": true,
	".angular": true, ".dart_tool": true, ".eggs": true, ".sass-cache": true, ".venv": true, "venv": true,
	".yarn": true, ".pnpm-store": true, ".bundle": true, ".stack-work": true, ".direnv": true,
}
