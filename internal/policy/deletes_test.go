package policy

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDeletionGradedLikeRm: every program that truncates or deletes what
// it names is graded like rm (issue 24): inside the project it is
// snapshotted (or, for a single file, allowed as rm FILE is), outside it
// is held; and a sensitive home directory is never a project.
func TestDeletionGradedLikeRm(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(base, "home")
	proj := filepath.Join(home, "proj")
	for _, d := range []string{"proj/.git", "proj/build", ".ssh", ".aws", "x", ".config/nvim/.git"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"proj/a.txt", ".ssh/id_ed25519", "x/f"} {
		if err := os.WriteFile(filepath.Join(home, f), []byte("data"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// The classifier's file system reads "~/" from $HOME.
	t.Setenv("HOME", home)
	p := Defaults()
	p.home = home
	const snap, held, allow = "snapshot", "held", "allow"
	tests := []struct {
		cmd, cwd, want string
	}{
		// Outside the project: held, whatever program deletes.
		{"truncate -s 0 ~/x/f", proj, held},
		{"truncate --size=0 ../x/f", proj, held},
		{"cp /dev/null ~/x/f", proj, held},
		{": > ~/x/f", proj, held},
		{"> ~/x/f", proj, held},
		{"true >| ~/x/f", proj, held},
		{"unlink ~/x/f", proj, held},
		{"npx rimraf ~/x", proj, held},
		{"npx --yes rimraf@5 ~/x", proj, held},
		{"pnpm dlx rimraf ~/x", proj, held},
		{"rimraf ~/x", proj, held},
		{"npx del-cli ~/x", proj, held},
		{"shred -u ~/x/f", proj, held},
		{"srm ~/x/f", proj, held},
		{"find ~/x -delete", proj, held},
		{"chmod -R a-rwx ~/x", proj, held},
		{"chmod 000 ~/x/f", proj, held},
		{"chmod u-r ~/x/f", proj, held},
		{"rsync -a --delete src/ ~/x/", proj, held},
		{"rsync -a --delete src/ backup:proj/", proj, held},
		{"dd if=/dev/zero of=~/x/f", proj, held},
		{"rm ~/x/f", proj, held},
		{"rm -f -- ~/.ssh/id_ed25519", proj, held},
		// Close variants: quoting, wrappers, nested shells.
		{`unlink "$HOME/x/f"`, proj, held}, // $HOME is the decision's home: placed like ~/x/f
		{"unlink '../x/f'", proj, held},
		{"unlink ../x/../x/f", proj, held},
		{"bash -c 'unlink ~/x/f'", proj, held},
		{`sh -c "truncate -s0 ~/x/f"`, proj, held},
		{"sudo chmod 000 ~/x/f", proj, held},
		{"env unlink ~/x/f", proj, held},
		{"timeout 5 shred ~/x/f", proj, held},
		// Inside the project: snapshotted, or allowed like rm FILE.
		{"truncate -s 0 a.txt", proj, snap},
		{"cp /dev/null a.txt", proj, snap},
		{": > a.txt", proj, snap},
		{"> a.txt", proj, snap},
		{"npx rimraf build", proj, snap},
		{"rimraf build", proj, snap},
		{"shred a.txt", proj, snap},
		{"rsync -a --delete src/ build/", proj, snap},
		{"dd if=/dev/zero of=a.txt count=1", proj, snap},
		{"unlink a.txt", proj, allow},
		{"rm a.txt", proj, allow},
		{"chmod 000 a.txt", proj, allow},
		{"chmod 644 ~/x/f", proj, allow},
		{"chmod go-rwx ~/x/f", proj, allow},
		{"rm /tmp/scratch.txt", proj, allow},
		{"cp a.txt ~/x/f", proj, allow},
		{"rm a.txt; rm build/b.txt", proj, allow},
		// A sensitive home directory is never a project.
		{"rm id_ed25519", filepath.Join(home, ".ssh"), held},
		{"rm -f ./id_ed25519", filepath.Join(home, ".ssh"), held},
		{"truncate -s 0 id_ed25519", filepath.Join(home, ".ssh"), held},
		{"rm -rf credentials", filepath.Join(home, ".aws"), held},
		{"rm -rf lua", filepath.Join(home, ".config/nvim"), held},
		{"rm x/f", home, held},
		{"rm -rf build", proj, snap},
	}
	for _, tt := range tests {
		a := Action{Kind: Shell, Tool: "Bash", Command: tt.cmd, Cwd: tt.cwd, Snapshots: true}
		v := p.DecideIn(Unattended, a)
		got := allow
		switch {
		case v.Decision == Warn && v.Snapshot != nil:
			got = snap
		case v.Decision >= Ask:
			got = held
		case v.Decision > Warn:
			got = v.Decision.String()
		}
		if got != tt.want {
			t.Errorf("%q in %s: got %s by %s (%v), want %s", tt.cmd, tt.cwd, v.Decision, v.Rule, v.Reasons, tt.want)
		}
	}
}

func TestRemovesAccess(t *testing.T) {
	for mode, want := range map[string]bool{
		"000": true, "0": true, "0000": true, "200": true, "400": true, "a-rwx": true, "u-r": true,
		"-w": true, "u=": true, "a=x": true, "go-rwx,u-w": true,
		"644": false, "755": false, "600": false, "0700": false, "go-rwx": false, "+x": false, "u+rw": false, "a=rw": false, "o-r": false,
	} {
		if got := removesAccess(mode); got != want {
			t.Errorf("removesAccess(%q) = %v, want %v", mode, got, want)
		}
	}
}
