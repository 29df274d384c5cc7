package classify

import (
	"testing"
	"testing/fstest"

	"github.com/airlock-dev/airlock/internal/shell"
)

// TestExtensions: "gh NAME" and "git NAME" not built in run the programs
// gh-NAME and git-NAME, unless an alias of that name is configured;
// without a filesystem to read the aliases they stay opaque.
func TestExtensions(t *testing.T) {
	fsys := fstest.MapFS{
		"~/.config/gh/config.yml": {Data: []byte("git_protocol: https\naliases:\n    pm: pr merge\n    mine: pr list --author @me\n")},
		"~/.gitconfig":            {Data: []byte("[alias]\n\tpub = push origin HEAD\n")},
		".git/HEAD":               {Data: []byte("ref: refs/heads/main\n")},
	}
	for _, tc := range []struct{ cmd, label string }{
		{"gh dash", "local"},
		{"gh copilot suggest x", "local+netread"},
		// An alias is followed (credconfig.go): pr merge writes to GitHub.
		{"gh pm 12", "external+opaque"},
		{"gh mine", "local+opaque+netread"},
		{"git pub", "external"},
		{"git town sync", "external"}, // git-town syncs with the remote
		{"git absorb", "local"},
		{"git lfs push origin main", "external"},
		{"git symbolic-ref HEAD refs/heads/x", "shared"},
		{"git fast-export --all", "local"},
		{"git daemon --export-all", "external"},
		{"git hook run pre-commit", "local+opaque"},
	} {
		c := Classifier{Limits: shell.DefaultLimits, FS: fsys}
		if got := c.Command(tc.cmd).Label(); got != tc.label {
			t.Errorf("%s: got %s, want %s", tc.cmd, got, tc.label)
		}
	}
	for _, cmd := range []string{"gh dash", "git absorb"} {
		if got := Command(cmd).Label(); got != "local+opaque" {
			t.Errorf("%s without a filesystem: got %s, want local+opaque (an alias cannot be ruled out)", cmd, got)
		}
	}
}

// TestPlugins: kubectl and docker commands they do not build in run
// plugins, classified as those programs (unknown ones as any unknown
// program); their own commands keep their ratings.
func TestPlugins(t *testing.T) {
	for _, tc := range []struct{ cmd, label string }{
		{"kubectl ctx prod", "local"},
		{"kubectl get pods", "local+netread"},
		{"kubectl delete pod x", "external+destructive"},
		{"docker frob app", "local"},
		{"docker compose up -d", "shared"},
		{"docker rm -f app", "local+destructive"},
		{"cargo nextest run", "local"},
	} {
		if got := Command(tc.cmd).Label(); got != tc.label {
			t.Errorf("%s: got %s, want %s", tc.cmd, got, tc.label)
		}
	}
}
