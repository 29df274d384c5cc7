package policy

import (
	"strings"
	"testing"
)

// TestMountSpellings runs close variants of FINDINGS-5 L16: host paths
// that reach a container or a sandbox through $PWD and ~+, a volume's
// driver options, a build's secrets and contexts, and proot, bwrap and
// systemd-nspawn binds; and ordinary mounts that stay allowed.
func TestMountSpellings(t *testing.T) {
	f := newFixture(t)
	f.userFile("mode: interactive\n")
	f.write("home/.local/state/airlock/secrets/serve.token", "t\n")
	f.write("home/.claude/settings.json", "{}\n")
	f.write("proj/data/x", "x")
	f.write("proj/secrets/npm.txt", "x")
	f.write("proj/.git/HEAD", "ref: refs/heads/main\n")
	p := f.load()
	home := f.path("home")
	for _, c := range []struct {
		cmd  string
		held bool // held or denied unattended; else neither denied nor held
	}{
		{`docker run -v $PWD/..:/h alpine true`, true},
		{`docker run -v "$PWD/../home":/h alpine true`, true},
		{`docker run -v ${PWD}/../home:/h alpine true`, true},
		{`docker run -v ~+/../home:/h alpine cat /h/.local/state/airlock/secrets/serve.token`, true},
		{`docker run -v "$(pwd)/..":/h:ro alpine true`, true},
		{`nerdctl run -v $PWD/..:/h alpine true`, true},
		{`podman run --mount type=bind,src=$PWD/../home,dst=/h alpine true`, true},
		{`docker run --mount type=volume,dst=/h,volume-driver=local,volume-opt=type=none,volume-opt=o=bind,volume-opt=device=` + home + ` alpine true`, true},
		{`docker buildx build --secret id=k,src=` + home + `/.local/state/airlock/secrets/serve.token .`, true},
		{`docker build --secret id=k,source=$HOME/.local/state/airlock/secrets/serve.token .`, true},
		{`podman build --secret=id=k,src=~/.local/state/airlock/secrets/serve.token .`, true},
		{`docker build --build-context s=$HOME/.local/state/airlock/secrets .`, true},
		{`docker build --ssh default=~/.local/state/airlock/secrets/serve.token .`, true},
		{`proot -b ` + home + `:/h cat /h/x`, true},
		{`proot --bind=~/.claude:/c sh -c 'echo > /c/settings.json'`, true},
		{`proot -R rootfs sh`, true},
		{`proot -r / cat /x`, true},
		{`bwrap --ro-bind / / cat /x`, true},
		{`bwrap --ro-bind /usr /usr --bind ~/.claude /c sh`, true},
		{`bwrap --dev-bind $PWD/.. /h sh`, true},
		{`systemd-nspawn --bind=~/.local/state/airlock:/a -D rootfs`, true},
		{`systemd-nspawn -D / true`, true},
		// negative
		{`docker run -v $PWD:/w alpine make`, false},
		{`docker run -v "$PWD/data":/data alpine ls /data`, false},
		{`docker run -v ~+/data:/data alpine ls /data`, false},
		{`docker run --mount type=volume,src=cache,dst=/c alpine true`, false},
		{`docker build --secret id=npm,src=secrets/npm.txt -t app .`, false},
		{`docker build --secret id=tok,env=NPM_TOKEN -t app .`, false},
		{`docker build --build-context deps=docker-image://alpine:3 .`, false},
		{`docker build --ssh default -t app .`, false},
		{`bwrap --ro-bind /usr /usr --proc /proc --dev /dev sh`, false},
		{`proot -b /usr/lib:/lib ls`, false},
	} {
		v := p.DecideIn(Unattended, Action{Kind: Shell, Tool: "Bash", Command: c.cmd, Cwd: f.path("proj")})
		got := v.Decision != Allow && v.Decision != Warn
		if got != c.held {
			t.Errorf("%q: %s by %s (%s); want held = %v", c.cmd, v.Decision, v.Rule, v.Message, c.held)
		}
		if c.held && strings.Contains(c.cmd, "secrets") && (v.Decision != Deny || !strings.HasPrefix(v.Rule, "self.")) {
			t.Errorf("%q: %s by %s; a read of airlock's secrets is denied by self-protection", c.cmd, v.Decision, v.Rule)
		}
	}
}
