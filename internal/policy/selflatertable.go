package policy

// laterHomeTargets is the table of files in the home directory that make
// a program the human runs later execute code the agent chose, outside
// any hook (selflater.go; FINDINGS-3 H9, FINDINGS-10 H1). A write to one
// (or, for a directory, to anything below it) is refused; reading it is
// not.
//
// Each entry says why (for the refusal's reader and the next maintainer)
// and names a neighbour, miss, that must stay writable: TestLaterHomeTable
// runs both, the entry as a positive example and miss as a negative one,
// so that an entry cannot silently stop matching and cannot grow to take
// in ordinary files beside it.
type laterHome struct {
	rel  string // relative to the home directory, with /
	dir  bool   // everything below rel counts
	why  string // which program runs it, and when
	miss string // a neighbour that is not protected for this entry's sake
}

// Reasons shared by several entries.
const (
	lwPkg      = "the package manager reads it at the human's next install or script: a script shell, a hook, a package source"
	lwRepl     = "the interpreter runs the code in it every time the human starts it"
	lwDebugger = "the debugger runs the commands in it (a shell escape among them) every time it starts"
	lwEditor   = "the editor runs the code in it every time the human starts it"
	lwVSCode   = "VS Code runs its tasks, terminal profiles and environment for every window the human opens"
	lwVSExt    = "the editor loads and runs every extension here at its next start"
	lwShell    = "the human's interactive shell sources it (the .bashrc an installer edited names it)"
	lwPlugin   = "the tool runs every plugin here when the human runs it (docker runs each to list them)"
	lwCred     = "the tool runs the credential or proxy program it names at the human's next command"
	lwShim     = "its files stand on the human's PATH in front of the real programs: the human's next ruby, python or node runs the agent's file"
	lwTerm     = "the terminal or multiplexer runs the commands it names when the human opens it"
	lwLogin    = "the desktop or systemd starts what it names at the human's next login, with no enable step"
	lwVCS      = "the version control tool runs the hooks and aliases it names at the human's next command in any repository"
	lwAgent    = "an agent the human starts later loads it: commands that run shell lines"
)

var laterHomeTargets = []laterHome{
	// Package managers and build tools.
	{".npmrc", false, lwPkg, ".npm/_logs/x.log"},
	{".npm-init.js", false, "npm init runs it as a module", ".npm-init.json.bak"},
	{".yarnrc", false, lwPkg, ".yarn-cache/x"},
	{".yarnrc.yml", false, lwPkg, ".yarn/berry/cache/x.zip"},
	{".bunfig.toml", false, "bun runs its preload scripts at every bun run or test", ".bun/install/cache/x"},
	{".config/pip", true, lwPkg, ".config/pipx/x.json"},
	{".pip", true, lwPkg, ".pipx/x.json"},
	{".pydistutils.cfg", false, "setuptools reads its commands and options at every build", ".pypirc.example"},
	{".condarc", false, lwPkg, ".conda/environments.txt"},
	{".gemrc", false, lwPkg, ".gem/specs/x"},
	{".mavenrc", false, "mvn sources it as shell at every build", ".m2/repository/x.jar"},
	{".m2/settings.xml", false, "maven reads its mirrors and profiles at every build", ".m2/settings-security.xml.bak"},
	{".gradle/init.d", true, "gradle runs its init scripts at every build", ".gradle/caches/x"},
	{".gradle/init.gradle", false, "gradle runs it at every build", ".gradle/gradle.properties.bak"},
	{".gradle/init.gradle.kts", false, "gradle runs it at every build", ".gradle/daemon/x.log"},
	{".cargo/config.toml", false, "cargo reads its runner, linker and aliases at every command", ".cargo/registry/x"},
	{".cargo/config", false, "cargo reads its runner, linker and aliases at every command", ".cargo/git/x"},
	{".cargo/env", false, lwShell, ".cargo/.package-cache"},
	{".terraformrc", false, "terraform runs the provider binaries its dev_overrides name at the next plan", ".terraform.d/checkpoint_cache"},
	{".terraform.d/plugins", true, "terraform runs the provider binaries found here at the next init", ".terraform.d/credentials.tfrc.json.bak"},
	{".ansible.cfg", false, "ansible runs an executable vault_password_file, and the plugins it names, at every play", ".ansible/tmp/x"},
	{".ansible/plugins", true, "ansible loads the Python plugins here at every play", ".ansible/cp/x"},
	// Interpreters and debuggers: start-up files.
	{".pythonrc", false, lwRepl, ".python_history"},
	{".pythonrc.py", false, lwRepl, ".python_history.bak"},
	{".ipython", true, "IPython and every Jupyter kernel run its profiles' start-up files and configuration (Python) at start", ".ipython-notes.txt"},
	{".jupyter", true, "Jupyter runs its server and notebook configuration (Python) and custom.js at start", ".local/share/jupyter/runtime/x.json"},
	{".irbrc", false, lwRepl, ".irb_history"},
	{".pryrc", false, lwRepl, ".pry_history"},
	{".Rprofile", false, lwRepl, ".Rhistory"},
	{".julia/config", true, lwRepl, ".julia/logs/x.log"},
	{".erlang", false, "erl evaluates it at every start", ".erlang.cookie.bak"},
	{".iex.exs", false, lwRepl, ".iex_history"},
	{".ghci", false, "ghci runs its commands (:! is a shell escape) at every start", ".ghc/ghci_history"},
	{".ghc/ghci.conf", false, "ghci runs its commands (:! is a shell escape) at every start", ".ghc/x86_64-linux/x"},
	{".octaverc", false, lwRepl, ".octave_hist"},
	{".sbclrc", false, lwRepl, ".sbcl_history"},
	{".clisprc.lisp", false, lwRepl, ".clisp_history"},
	{".guile", false, lwRepl, ".guile_history"},
	{".racketrc", false, lwRepl, ".racket_history"},
	{".config/powershell", true, "PowerShell runs its profiles at every start", ".local/share/powershell/PSReadLine/x.txt"},
	{".config/nushell", true, "nushell runs config.nu and env.nu at every start", ".local/share/nushell/x"},
	{".psqlrc", false, "psql runs its commands (\\! is a shell escape) at every start", ".psql_history"},
	{".sqliterc", false, "sqlite3 runs its commands (.shell, .system) at every start", ".sqlite_history"},
	{".pdbrc", false, lwDebugger, ".pdbrc-notes.txt"},
	{".perldb", false, lwDebugger, ".perldb-notes.txt"},
	{".pylintrc", false, "pylint runs its init-hook (Python) at every run, an editor's lint on save included", ".pylint.d/x.stats"},
	{".config/pylintrc", false, "pylint runs its init-hook (Python) at every run, an editor's lint on save included", ".config/pylint-notes.txt"},
	{".gdbinit", false, lwDebugger, ".gdb_history"},
	{".config/gdb", true, lwDebugger, ".cache/gdb/x"},
	{".lldbinit", false, lwDebugger, ".lldb/x.log"},
	// Shells: files the start-up files source (the start-up files
	// themselves are homeTargets).
	{".bash_completion", false, "bash-completion sources it in every interactive shell", ".bash_history"},
	{".bash_completion.d", true, "bash-completion sources every file here in every interactive shell", ".bash_sessions/x"},
	{".local/share/bash-completion", true, "bash-completion sources a command's file here at its first completion in the human's shell", ".local/share/recently-used.xbel"},
	{".nvm/nvm.sh", false, lwShell, ".nvm/.cache/x"},
	{".nvm/bash_completion", false, lwShell, ".nvm/alias/default"},
	{".sdkman/bin", true, lwShell, ".sdkman/tmp/x"},
	{".sdkman/etc", true, lwShell, ".sdkman/archives/x.zip"},
	{".config/direnv", true, "direnv runs direnvrc and its lib in every directory with an .envrc", ".local/share/direnv/allow/x"},
	{".direnvrc", false, "direnv runs it in every directory with an .envrc", ".direnv-notes.txt"},
	{".p10k.zsh", false, lwShell, ".p10k-notes.txt"},
	{".config/starship.toml", false, "starship runs its custom modules' commands at every prompt of the human's shell", ".config/starship-notes.txt"},
	{".selected_editor", false, "sensible-editor (crontab -e, git without an editor set) runs the program it names", ".editorconfig"},
	{".mailcap", false, "mail readers and browsers run the viewer commands it names", ".mail/x"},
	{".lessfilter", false, "lesspipe runs it for every file the human pages with less", ".lesshst"},
	// Editors.
	{".vimrc", false, lwEditor, ".viminfo"},
	{".gvimrc", false, lwEditor, ".viminfo.tmp"},
	{".vim", true, "vim runs every plugin, ftplugin and after/ script here at start", ".vim-notes.txt"},
	{".config/vim", true, "vim 9.1 runs vimrc and the plugins here at start", ".config/vimb/x"},
	{".config/nvim", true, lwEditor, ".config/nvim-notes.txt"},
	{".local/share/nvim/site", true, "neovim runs every plugin script on its site directory at start", ".local/share/nvim/shada/main.shada"},
	{".local/share/nvim/lazy", true, "lazy.nvim loads the plugins checked out here at neovim's start", ".local/state/nvim/log"},
	{".emacs", false, lwEditor, ".emacs.desktop"},
	{".emacs.el", false, lwEditor, ".emacs.desktop.lock"},
	{".emacs.d/init.el", false, lwEditor, ".emacs.d/auto-save-list/x"},
	{".emacs.d/early-init.el", false, lwEditor, ".emacs.d/recentf"},
	{".config/emacs/init.el", false, lwEditor, ".config/emacs/recentf"},
	{".config/emacs/early-init.el", false, lwEditor, ".config/emacs/history"},
	{".config/Code/User/settings.json", false, lwVSCode, ".config/Code/User/keybindings.json"},
	{".config/Code/User/tasks.json", false, lwVSCode, ".config/Code/User/snippets/x.json"},
	{".config/Code - Insiders/User/settings.json", false, lwVSCode, ".config/Code - Insiders/User/keybindings.json"},
	{".config/Code - Insiders/User/tasks.json", false, lwVSCode, ".config/Code - Insiders/User/snippets/x.json"},
	{".config/VSCodium/User/settings.json", false, lwVSCode, ".config/VSCodium/User/keybindings.json"},
	{".config/VSCodium/User/tasks.json", false, lwVSCode, ".config/VSCodium/User/snippets/x.json"},
	{".config/Cursor/User/settings.json", false, lwVSCode, ".config/Cursor/User/keybindings.json"},
	{".config/Cursor/User/tasks.json", false, lwVSCode, ".config/Cursor/User/snippets/x.json"},
	{".config/Windsurf/User/settings.json", false, lwVSCode, ".config/Windsurf/User/keybindings.json"},
	{".config/Windsurf/User/tasks.json", false, lwVSCode, ".config/Windsurf/User/snippets/x.json"},
	// macOS's Library/Application Support/Code/User is not listed: with
	// no dot directory on the way, a glob such as ~/**/settings.json
	// would name it, and a deletion of the home's settings files is
	// graded as destruction, not refused for this table's sake.
	{".vscode-server/data/User/settings.json", false, lwVSCode, ".vscode-server/data/logs/x.log"},
	{".vscode-server/data/User/tasks.json", false, lwVSCode, ".vscode-server/data/User/keybindings.json"},
	{".vscode/extensions", true, lwVSExt, ".vscode/argv.json"},
	{".vscode-insiders/extensions", true, lwVSExt, ".vscode-insiders/argv.json"},
	{".vscode-oss/extensions", true, lwVSExt, ".vscode-oss/argv.json"},
	{".vscode-server/extensions", true, lwVSExt, ".vscode-server/data/Machine/x.json"},
	{".cursor/extensions", true, lwVSExt, ".cursor/argv.json.bak"},
	{".cursor-server/extensions", true, lwVSExt, ".cursor-server/data/logs/x.log"},
	{".windsurf/extensions", true, lwVSExt, ".windsurf/argv.json"},
	{".config/zed", true, "Zed runs the language servers, tasks and context servers its settings name", ".local/share/zed/logs/x.log"},
	{".config/helix", true, "Helix starts the language servers its languages.toml names when a file is opened", ".cache/helix/helix.log"},
	// Terminals and multiplexers.
	{".tmux.conf", false, lwTerm, ".tmux-notes.txt"},
	{".config/tmux", true, lwTerm, ".config/tmuxinator-notes.txt"},
	{".screenrc", false, lwTerm, ".screen-exchange"},
	{".wezterm.lua", false, lwTerm, ".wezterm-notes.txt"},
	{".config/wezterm", true, lwTerm, ".local/share/wezterm/x.log"},
	// Plugins and extensions a tool runs by name.
	{".docker/cli-plugins", true, lwPlugin, ".docker/buildx/instances/x"},
	{".docker/config.json", false, lwCred, ".docker/contexts/meta/x/meta.json"},
	{".local/share/gh/extensions", true, "gh runs an extension when the human types its name after gh", ".local/share/gh/x.log"},
	{".config/gh/config.yml", false, "gh runs its ! aliases as shell", ".config/gh/hosts.yml.bak"},
	{".krew/bin", true, "kubectl runs a kubectl-NAME plugin from here when the human types kubectl NAME", ".krew/receipts/x.yaml"},
	{".config/mise", true, "mise runs the hooks and tasks its global configuration names, in every directory", ".local/share/mise/installs/x"},
	{".gnupg/gpg-agent.conf", false, "gpg-agent runs the pinentry-program it names at the human's next signature", ".gnupg/pubring.kbx"},
	{".gnupg/gpg.conf", false, "gpg runs the photo-viewer and exec-path programs it names", ".gnupg/trustdb.gpg"},
	// Credential and proxy programs, configuration that runs commands.
	{".ssh/config", false, lwCred, ".ssh/known_hosts"},
	{".ssh/rc", false, "sshd runs it at every login to this machine", ".ssh/known_hosts.old"},
	{".aws/config", false, lwCred, ".aws/cli/cache/x.json"},
	{".kube/config", false, lwCred, ".kube/cache/x"},
	{".curlrc", false, "curl reads its output file and body from it at every run", ".curl-notes.txt"},
	{".config/curlrc", false, "curl reads its output file and body from it at every run", ".config/curl-notes.txt"},
	{".wgetrc", false, "wget reads its output file, body and commands from it at every run", ".wget-hsts"},
	{".hgrc", false, lwVCS, ".hgignore_global"},
	{".config/hg", true, lwVCS, ".config/hgview/x"},
	// Version managers' shims: on the PATH before the programs they
	// stand for, whatever the file's name. (pnpm's home and volta's bin
	// hold the programs installed globally too: they are PATH
	// directories, pathDirHome, where a trusted program's name counts.)
	{".rbenv/shims", true, lwShim, ".rbenv/version"},
	{".pyenv/shims", true, lwShim, ".pyenv/version"},
	{".nodenv/shims", true, lwShim, ".nodenv/version"},
	{".goenv/shims", true, lwShim, ".goenv/version"},
	{".jenv/shims", true, lwShim, ".jenv/version"},
	{".asdf/shims", true, lwShim, ".asdf/installs/x/.keep"},
	{".local/share/mise/shims", true, lwShim, ".local/share/mise/downloads/x"},
	// Login: the desktop's autostart and systemd's user units.
	{".config/autostart", true, lwLogin, ".config/autostart-notes.txt"},
	// systemd's user units: what a target "wants" starts with it, with no
	// enable step. A unit file itself runs once the human (or a command
	// the hook reads) enables or starts it, and its Exec lines are read
	// when it is written (classify surfaces.go): setting up a service is
	// ordinary work.
	{".config/systemd/user/default.target.wants", true, lwLogin, ".config/systemd/user/app.service"},
	{".config/systemd/user/default.target.requires", true, lwLogin, ".config/systemd/user/app.timer"},
	{".config/systemd/user/graphical-session.target.wants", true, lwLogin, ".config/systemd/user/app.socket"},
	{".config/systemd/user/timers.target.wants", true, lwLogin, ".config/systemd/user/app.path"},
	{".config/systemd/user/sockets.target.wants", true, lwLogin, ".config/systemd/user/x.service"},
	{".config/systemd/user/basic.target.wants", true, lwLogin, ".config/systemd/user/y.service"},
	{".local/share/systemd/user/default.target.wants", true, lwLogin, ".local/share/systemd/user/app.service"},
	{".xsession", false, lwLogin, ".xsession-errors"},
	{".config/i3", true, "i3 runs its exec lines at the human's next login", ".config/i3status-notes.txt"},
	{".config/sway", true, "sway runs its exec lines at the human's next login", ".config/swaylock-notes.txt"},
	{".config/hypr", true, "Hyprland runs its exec-once lines at the human's next login", ".config/hyprpaper-notes.txt"},
	// git's hooks and templates where a global core.hooksPath or
	// init.templateDir usually names them: every repository of the
	// human's runs them.
	{".config/git/hooks", true, lwVCS, ".config/git/ignore"},
	{".githooks", true, lwVCS, ".githooks-notes.txt"},
	{".git-templates", true, lwVCS, ".git-templates-notes.txt"},
	{".git_template", true, lwVCS, ".git_template-notes.txt"},
	{".config/git/template", true, lwVCS, ".config/git/attributes"},
	// Agents' commands not in the agent-configuration table: Gemini's
	// and Qwen's custom commands run !{…} shell lines when invoked.
	{".gemini/commands", true, lwAgent, ".gemini/tmp/x/logs.json"},
	{".qwen/commands", true, lwAgent, ".qwen/tmp/x/logs.json"},
	// Claude Code's statusline scripts by the names its /statusline set-up
	// gives them: the settings' statusLine command runs them at every
	// prompt, outside any hook (G14's neighbours).
	{".claude/statusline.sh", false, "Claude Code's statusLine command runs it at every prompt", ".claude/todos/x.json"},
	{".claude/statusline-command.sh", false, "Claude Code's statusLine command runs it at every prompt", ".claude/projects/x/y.jsonl"},
}
