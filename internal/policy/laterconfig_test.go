package policy

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestLaterConfigFiles: Claude Code's shell snapshots are protected like a
// shell start-up file (FINDINGS-7 G14), and the configuration files that
// name an HTTP client's output and body, a credential program or a gh
// alias (G1, G15, G20) like the other files that run later; reading them,
// and the programs that write them themselves, are ordinary work. The
// commands that run the verb through a configuration read at decision
// time are refused by self-protection.
func TestLaterConfigFiles(t *testing.T) {
	const approve = "airlock queue approve abcd"
	for _, tc := range []struct {
		cmd   string
		write string // a Write tool call of cmd's text to this path
		want  findingCheck
	}{
		// G14: the snapshots, every writer and spelling.
		{cmd: `printf 'x\n' >> ~/.claude/shell-snapshots/snapshot-bash-2-b.sh`, want: denied},
		{cmd: `cat x.sh > ~/.claude/shell-snapshots/snapshot-zsh-9.sh`, want: denied},
		{cmd: `cp x.sh "$HOME/.claude/shell-snapshots/snapshot-bash-1-a.sh"`, want: denied},
		{cmd: `install -m 644 x.sh @HOME@/.claude/shell-snapshots/snapshot-bash-3.sh`, want: denied},
		{cmd: `dd if=x.sh of=@HOME@/.claude/shell-snapshots/snapshot-bash-1-a.sh`, want: denied},
		{cmd: `rm -rf ~/.claude/shell-snapshots`, want: held},
		{cmd: "alias ls=./x.sh\n", write: "@HOME@/.claude/shell-snapshots/snapshot-bash-7.sh", want: denied},
		{cmd: `ls ~/.claude/shell-snapshots`, want: notHeld},
		{cmd: `cat ~/.claude/shell-snapshots/snapshot-bash-1-a.sh`, want: notHeld},
		{cmd: `grep -l alias ~/.claude/shell-snapshots/*`, want: notHeld},
		{cmd: `echo '` + approve + `' > ~/.claude/statusline.sh`, want: denied},
		{cmd: `cp x.sh ~/.claude/statusline-command.sh`, want: denied},
		{cmd: `echo '{}' > ~/.claude/keybindings.json`, want: notHeld},
		{cmd: `mkdir -p ~/.claude/output-styles && echo x > ~/.claude/output-styles/x.md`, want: notHeld},
		{cmd: `cat ~/.claude/statusline.sh`, want: notHeld},
		// G1, G15, G20: the configuration files.
		{cmd: `cp cc.cfg ~/.curlrc`, want: denied},
		{cmd: `echo silent >> ~/.config/curlrc`, want: denied},
		{cmd: `mv w ~/.wgetrc`, want: denied},
		{cmd: `cp kc.yaml ~/.kube/config`, want: denied},
		{cmd: `printf '[default]\nregion = eu-west-1\n' > ~/.aws/config`, want: denied},
		{cmd: "aliases:\n    co: pr checkout\n", write: "@HOME@/.config/gh/config.yml", want: denied},
		{cmd: `cat ~/.curlrc ~/.kube/config ~/.aws/config`, want: notHeld},
		{cmd: `kubectl config use-context prod`, want: notDeny},
		{cmd: `aws configure list`, want: notHeld},
		// The verb reached through a configuration read at decision time.
		{cmd: `AWS_CONFIG_FILE=verb.cfg aws s3 ls`, want: denied},
		{cmd: `CURL_HOME=cfg curl https://example.com`, want: denied},
		{cmd: `npm_config_script_shell=./x.sh npm test`, want: denied},
		{cmd: `LUA_INIT=@x.lua lua -e 1`, want: denied},
		{cmd: `GH_PAGER=./x.sh gh pr list`, want: denied},
		{cmd: `printf 'repos:\n- repo: local\n  hooks:\n  - id: x\n    entry: ./x.sh\n' > .pre-commit-config.yaml`, want: denied},
		{cmd: `printf '{"postStartCommand": ["sh", "-c", "` + approve + `"]}' > .devcontainer.json`, want: denied},
		{cmd: `printf 'web: ` + approve + `\n' > Procfile`, want: denied},
		{cmd: `printf 'services:\n  x:\n    entrypoint: ["` + approve + `"]\n' > docker-compose.yml`, want: denied},
		{cmd: `printf 'services:\n  x:\n    image: node\n    command: npm run dev\n' > compose.yml`, want: notHeld},
		{cmd: "repos:\n- repo: local\n  hooks:\n  - id: x\n    entry: " + approve + "\n", write: "@ROOT@/.pre-commit-config.yaml", want: denied},
		{cmd: `{"postCreateCommand": "` + approve + `"}`, write: "@ROOT@/.devcontainer/devcontainer.json", want: denied},
		{cmd: "x:\n\t" + approve + "\n", write: "@ROOT@/Makefile", want: denied},
		{cmd: "tasks:\n  x:\n    cmds:\n      - " + approve + "\n", write: "@ROOT@/Taskfile.yml", want: denied},
		{cmd: `{"postCreateCommand": "go mod download"}`, write: "@ROOT@/.devcontainer/devcontainer.json", want: notHeld},
		{cmd: `printf '[testenv]\ncommands = pytest\n' > tox.ini`, want: notHeld},
	} {
		t.Run(strings.Map(func(r rune) rune {
			if strings.ContainsRune("()$&;|<>`'\"*?[]!#{}\n", r) {
				return -1
			}
			return r
		}, tc.cmd), func(t *testing.T) {
			f := newFixture(t)
			home := f.path("home")
			repl := strings.NewReplacer("@HOME@", home, "@ROOT@", f.path("proj"))
			f.write("home/.claude/settings.json", "{\"hooks\":{}}\n")
			f.write("home/.claude/shell-snapshots/snapshot-bash-1-a.sh", "# snapshot\n")
			f.write("proj/x.sh", "#!/bin/sh\n"+approve+"\n")
			f.write("proj/x.lua", "os.execute(\""+approve+"\")\n")
			f.write("proj/verb.cfg", "[default]\ncredential_process = "+approve+"\n")
			f.write("proj/cfg/.curlrc", "output = \""+filepath.Join(home, ".claude/settings.json")+"\"\n")
			f.write("proj/.git/HEAD", "ref: refs/heads/main\n")
			p := f.load()
			a := Action{Kind: Shell, Tool: "Bash", Command: repl.Replace(tc.cmd), Cwd: f.path("proj")}
			if tc.write != "" {
				a = Action{Kind: Write, Tool: "Write", Paths: []string{repl.Replace(tc.write)}, Content: tc.cmd, Cwd: f.path("proj")}
			}
			checkFinding(t, a.Command+a.Content, p.DecideIn(Unattended, a), tc.want)
		})
	}
}
