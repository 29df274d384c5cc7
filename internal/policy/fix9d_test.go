package policy

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestFix9d holds FINDINGS-9's scratch and link classes (T1–T4) and the
// ordinary work B2 and B5 refused, with close variants and ordinary
// negatives: deletion through a link (abbreviated rm options, find
// through a trailing slash), movers the old list did not name, emptying
// through a link made in the same command, and links that already exist
// in the temporary directory.
func TestFix9d(t *testing.T) {
	base := map[string]string{
		"home/.claude/settings.json":                    "{\"hooks\":{}}\n",
		"home/.config/airlock/policy.yaml":              "mode: interactive\n",
		"home/docs/a.txt":                               "the human's\n",
		"home/.local/state/airlock/secrets/serve.token": strings.Repeat("d4", 32) + "\n",
		"proj/.claude/settings.json":                    "{\"hooks\":{}}\n",
		"proj/src/m.py":                                 "print(1)\n",
		"proj/Makefile":                                 "build:\n\techo hi\n",
		"proj/package.json":                             `{"name":"p","scripts":{"build":"tsc","test":"jest"}}`,
		"proj/go.mod":                                   "module example.com/p\n\ngo 1.22\n",
	}
	// tmpLink is a symbolic link in the fixture's directory (under the
	// temporary directory, scratch by its name) to a directory outside it;
	// tmpInLink one to another directory in the temporary directory.
	tmpLink := func(t *testing.T, f *fixture) {
		if err := os.Symlink("/usr/share", f.path("x/l")); err != nil {
			t.Fatal(err)
		}
	}
	tmpHomeLink := func(t *testing.T, f *fixture) {
		if err := os.Symlink(f.path("home/docs"), f.path("x/l")); err != nil {
			t.Fatal(err)
		}
	}
	tmpInLink := func(t *testing.T, f *fixture) {
		if err := os.MkdirAll(f.path("x/real/sub"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(f.path("x/real"), f.path("x/l")); err != nil {
			t.Fatal(err)
		}
	}
	cases := []findingCase{
		// T1: rm's abbreviated long options, find through a trailing slash.
		{finding: "T1 rm --rec --force through a link in scratch", cmd: `d=$(mktemp -d); ln -s /srv/data $d/l; rm --rec --force $d/l/`, want: held},
		{finding: "T1 rm --recu -f through a link in scratch", cmd: `d=$(mktemp -d); ln -s /srv/data $d/l; rm --recu -f "$d/l/"`, want: held},
		{finding: "T1 rm --recursiv --for", cmd: `d=$(mktemp -d); ln -s /srv/data $d/l; rm --recursiv --for $d/l/`, want: held},
		{finding: "T1 rm --force --re through a link", cmd: `d=$(mktemp -d); ln -s /srv/data $d/l; rm --force --re $d/l/`, want: held},
		{finding: "T1 rm --dir --rec through a link", cmd: `d=$(mktemp -d); ln -s /srv/data $d/l; rm --dir --rec $d/l/`, want: held},
		{finding: "T1 find LINK/ -delete through a link in scratch", cmd: `d=$(mktemp -d); ln -s /srv/data $d/l; find $d/l/ -delete`, want: held},
		{finding: "T1 find LINK/ -mindepth 1 -delete", cmd: `d=$(mktemp -d); ln -s /srv/data $d/l; find $d/l/ -mindepth 1 -delete`, want: held},
		{finding: "T1 find -L LINK -delete", cmd: `d=$(mktemp -d); ln -s /srv/data $d/l; find -L $d/l -delete`, want: held},
		{finding: "T1 find LINK/. -delete", cmd: `d=$(mktemp -d); ln -s /srv/data $d/l; find "$d/l/." -delete`, want: held},
		{finding: "T1 find LINK/ -exec rm", cmd: `d=$(mktemp -d); ln -s /srv/data $d/l; find $d/l/ -type f -exec rm {} +`, want: held},
		{finding: "T1 truncate -s0 through a symbolic link in scratch", cmd: `d=$(mktemp -d); ln -s /srv/data/db $d/f; truncate -s0 $d/f`, want: held},
		{finding: "T1 : > through a symbolic link in scratch", cmd: `d=$(mktemp -d); ln -s /srv/data/db $d/f; : > $d/f`, want: held},
		{finding: "T1 ok: rm --rec a scratch directory", cmd: `d=$(mktemp -d); touch $d/a; rm --rec --force "$d"`, want: notHeld},
		{finding: "T1 ok: find in scratch -delete", cmd: `d=$(mktemp -d); touch $d/a; find "$d" -name '*.o' -delete`, want: notHeld},
		{finding: "T1 ok: rm --recursive build", cmd: `rm --recursive --force build`, want: notHeld},

		// T2: programs that remove their inputs, moving them into scratch.
		{finding: "T2 zstd --rm into scratch, scratch deleted", cmd: `d=$(mktemp -d); zstd -q --rm /srv/data/db -o $d/a.zst; rm -rf "$d"`, want: held},
		{finding: "T2 zstd --rm of ~/docs into scratch", cmd: `d=$(mktemp -d); zstd -q --rm ~/docs/a.txt -o $d/a.zst; rm -rf "$d"`, want: held},
		{finding: "T2 lz4 --rm into scratch", cmd: `d=$(mktemp -d); lz4 -q --rm /srv/data/db $d/a.lz4; rm -rf "$d"`, want: held},
		{finding: "T2 gzip (removes by default) then the copy", cmd: `d=$(mktemp -d); gzip /srv/data/db; mv /srv/data/db.gz $d/; rm -rf "$d"`, want: held},
		{finding: "T2 lzop -U -o into scratch", cmd: `d=$(mktemp -d); lzop -U -o $d/a.lzo /srv/data/db; rm -rf "$d"`, want: held},
		{finding: "T2 brotli --rm -o into scratch", cmd: `d=$(mktemp -d); brotli --rm -o $d/a.br /srv/data/db; rm -rf "$d"`, want: held},
		{finding: "T2 zstd --rm through busybox-like env", cmd: `d=$(mktemp -d); env zstd --rm /srv/data/db -o $d/a.zst; rm -rf "$d"`, want: held},
		{finding: "T2 ok: xz in place (db.xz stays beside it), scratch deleted", cmd: `d=$(mktemp -d); xz -T0 /srv/data/db; rm -rf "$d"`, want: notHeld},
		{finding: "T2 ok: gunzip a project file, scratch deleted", cmd: `gunzip data.gz && rm -rf /tmp/airlock-fix9d-q`, want: notHeld},
		{finding: "T2 ok: bzip2 in place, scratch deleted", cmd: `d=$(mktemp -d); bzip2 build/log; rm -rf "$d"`, want: notHeld},
		{finding: "T2 zip -rm (clustered -m) into scratch", cmd: `d=$(mktemp -d); zip -rm $d/a.zip /srv/data; rm -rf "$d"`, want: held},
		{finding: "T2 zip -r --move into scratch", cmd: `d=$(mktemp -d); zip -r --move $d/a.zip /srv/data; rm -rf "$d"`, want: held},
		{finding: "T2 zip -qmr into scratch", cmd: `d=$(mktemp -d); zip -qmr $d/a.zip /srv/data; rm -rf "$d"`, want: held},
		{finding: "T2 rar m into scratch", cmd: `d=$(mktemp -d); rar m $d/a.rar /srv/data; rm -rf "$d"`, want: held},
		{finding: "T2 7z a -sdel into scratch", cmd: `d=$(mktemp -d); 7z a -sdel $d/a.7z /srv/data; rm -rf "$d"`, want: held},
		{finding: "T2 rsync --remove-source-files into scratch", cmd: `d=$(mktemp -d); rsync -a --remove-source-files /srv/data/ $d/; rm -rf "$d"`, want: held},
		{finding: "T2 rsync --remove-source (abbreviated) into scratch", cmd: `d=$(mktemp -d); rsync -a --remove-source /srv/data/ $d/; rm -rf "$d"`, want: held},
		{finding: "T2 tar --remove-f into scratch", cmd: `d=$(mktemp -d); tar --remove-f -cf $d/a.tar /srv/data; rm -rf "$d"`, want: held},
		{finding: "T2 toybox mv into scratch", cmd: `d=$(mktemp -d); toybox mv /srv/data $d/; rm -rf "$d"`, want: held},
		{finding: "T2 busybox mv into scratch", cmd: `d=$(mktemp -d); busybox mv /srv/data $d/; rm -rf "$d"`, want: held},
		{finding: "T2 gio move into scratch", cmd: `d=$(mktemp -d); gio move /srv/data $d/; rm -rf "$d"`, want: held},
		{finding: "T2 gio mv into scratch", cmd: `d=$(mktemp -d); gio mv /srv/data $d/; rm -rf "$d"`, want: held},
		{finding: "T2 zstd --rm, then scratch deleted by name", cmd: `zstd -q --rm /srv/data/db -o /tmp/q/a.zst; rm -rf /tmp/q`, want: held},
		{finding: "T2 ok: zstd into scratch, then scratch deleted", cmd: `d=$(mktemp -d); zstd -q src/m.py -o $d/a.zst; rm -rf "$d"`, want: notHeld},
		{finding: "T2 ok: gzip -k into scratch", cmd: `d=$(mktemp -d); gzip -k -c src/m.py > $d/m.gz; rm -rf "$d"`, want: notHeld},
		{finding: "T2 ok: zip -r into scratch", cmd: `d=$(mktemp -d); zip -qr $d/a.zip src; rm -rf "$d"`, want: notHeld},
		{finding: "T2 ok: gzip -d a scratch file", cmd: `d=$(mktemp -d); cp src/m.py $d/; gzip $d/m.py; rm -rf "$d"`, want: notHeld},

		// T3: emptying through a link the same command makes.
		{finding: "T3 : > through a symbolic link to ~/docs made in the same command", cmd: `ln -sfn ~/docs build/y && : > build/y/a.txt`, want: held},
		{finding: "T3 : > through a hard link of ~/docs/a.txt", cmd: `ln ~/docs/a.txt build/o && : > build/o`, want: held},
		{finding: "T3 : > through a symbolic link to a file", cmd: `ln -s ~/docs/a.txt build/o && : > build/o`, want: held},
		{finding: "T3 > through a symbolic link to /srv/data", cmd: `ln -sfn /srv/data build/y; > build/y/db`, want: held},
		{finding: "T3 true > through a link, separate lines", cmd: "ln -sfn ~/docs build/y\ntrue > build/y/a.txt", want: held},
		{finding: "T3 cat /dev/null > through a hard link", cmd: `ln ~/docs/a.txt build/o; cat /dev/null > build/o`, want: held},
		{finding: "T3 : > through cp -s", cmd: `cp -s ~/docs/a.txt build/o && : > build/o`, want: held},
		{finding: "T3 : > through link(1)", cmd: `link ~/docs/a.txt build/o && : > build/o`, want: held},
		{finding: "T3 : >| through a link", cmd: `ln -s ~/docs/a.txt build/o; :>| build/o`, want: held},
		{finding: "T3 : > through a link, the path spelled ./", cmd: `ln -sfn ~/docs build/y && : > ./build/y/a.txt`, want: held},
		{finding: "T3 : > through a link, the path spelled with $PWD", cmd: `ln -sfn ~/docs build/y && : > "$PWD/build/y/a.txt"`, want: held},
		{finding: "T3 : > through a link, the link spelled absolute", cmd: `ln -sfn ~/docs "$PWD/build/y" && : > build/y/a.txt`, want: held},
		{finding: "T3 : > through a link made with -t", cmd: `ln -s -t build ~/docs && : > build/docs/a.txt`, want: held},
		{finding: "T3 : > through a link made into a directory", cmd: `mkdir -p build && ln -s ~/docs build/ && : > build/docs/a.txt`, want: held},
		{finding: "T3 : > through busybox ln", cmd: `busybox ln -s ~/docs build/y; : > build/y/a.txt`, want: held},
		{finding: "T3 : > through a link in a subshell", cmd: `(ln -s ~/docs build/y); : > build/y/a.txt`, want: held},
		{finding: "T3 : > through a link via bash -c", cmd: `bash -c 'ln -s ~/docs build/y'; : > build/y/a.txt`, want: held},
		{finding: "T3 echo > through a hard link", cmd: `ln ~/docs/a.txt build/o; echo > build/o`, want: held},
		{finding: "T3 echo -n > through a link to a directory", cmd: `ln -sfn ~/docs build/y && echo -n > build/y/a.txt`, want: held},
		{finding: "T3 printf '' > through a link", cmd: `ln -s ~/docs/a.txt build/o && printf '' > build/o`, want: held},
		{finding: "T3 tee < /dev/null through a link", cmd: `ln -sfn ~/docs build/y && tee build/y/a.txt < /dev/null`, want: held},
		{finding: "T3 echo > through a link onto mktemp's file", cmd: `d=$(mktemp); ln -sf /srv/data/db $d; echo > $d`, want: held},
		{finding: "T3 ok: echo > a new build file", cmd: `mkdir -p build && echo > build/o`, want: notHeld},
		{finding: "T3 ok: tee -a < /dev/null through a link", cmd: `ln -sfn ../src build/y && tee -a build/z < /dev/null`, want: notHeld},
		{finding: "T3 ok: : > a build file", cmd: `mkdir -p build && : > build/o`, want: notHeld},
		{finding: "T3 ok: ln -s within the project, then : >", cmd: `ln -sf ../src/m.py build/o; : > build/x`, want: notHeld},
		{finding: "T3 ok: ln -s then write elsewhere", cmd: `ln -sfn ~/docs build/y && : > build/z`, want: notHeld},

		// T4: links that already exist in the temporary directory.
		{finding: "T4 rm -rf LINK/ leading outside", prep: tmpLink, cmd: `rm -rf @ROOT@/x/l/`, want: held},
		{finding: "T4 rm -rf LINK/. leading outside", prep: tmpLink, cmd: `rm -rf @ROOT@/x/l/.`, want: held},
		{finding: "T4 find LINK/ -delete leading outside", prep: tmpLink, cmd: `find @ROOT@/x/l/ -delete`, want: held},
		{finding: "T4 find -L LINK -delete leading outside", prep: tmpLink, cmd: `find -L @ROOT@/x/l -delete`, want: held},
		{finding: "T4 rm -rf LINK/DIR leading outside", prep: tmpLink, cmd: `rm -rf @ROOT@/x/l/doc`, want: held},
		{finding: "T4 rm -f LINK/FILE leading outside", prep: tmpLink, cmd: `rm -f @ROOT@/x/l/doc/README`, want: held},
		{finding: "T4 truncate -s0 LINK/FILE leading outside", prep: tmpLink, cmd: `truncate -s0 @ROOT@/x/l/f.txt`, want: held},
		{finding: "T4 : > LINK/FILE leading home", prep: tmpHomeLink, cmd: `: > @ROOT@/x/l/a.txt`, want: held},
		{finding: "T4 rm -rf LINK/ leading home", prep: tmpHomeLink, cmd: `rm -rf @ROOT@/x/l/`, want: held},
		{finding: "T4 ok: rm -rf LINK itself (the link goes)", prep: tmpLink, cmd: `rm -rf @ROOT@/x/l`, want: notHeld},
		{finding: "T4 shred LINK/FILE leading home", prep: tmpHomeLink, cmd: `shred @ROOT@/x/l/a.txt`, want: held},
		{finding: "T4 cp /dev/null LINK/FILE leading home", prep: tmpHomeLink, cmd: `cp /dev/null @ROOT@/x/l/a.txt`, want: held},
		{finding: "T4 dd of=LINK/FILE leading home", prep: tmpHomeLink, cmd: `dd if=/dev/zero of=@ROOT@/x/l/a.txt count=1`, want: held},
		{finding: "T4 chmod 000 LINK/FILE leading home", prep: tmpHomeLink, cmd: `chmod 000 @ROOT@/x/l/a.txt`, want: held},
		{finding: "T4 cat /dev/null > LINK/FILE leading home", prep: tmpHomeLink, cmd: `cat /dev/null > @ROOT@/x/l/a.txt`, want: held},
		{finding: "T4 rm -rf LINK/* leading home", prep: tmpHomeLink, cmd: `rm -rf @ROOT@/x/l/*`, want: held},
		{finding: "T4 find LINK -mindepth 1 -delete (no slash) removes nothing through it", prep: tmpLink, cmd: `find @ROOT@/x/l -delete`, want: notHeld},
		{finding: "T4 find -L LINK -delete leading home", prep: tmpHomeLink, cmd: `find -L @ROOT@/x/l -delete`, want: held},
		{finding: "T4 echo > LINK/FILE leading home", prep: tmpHomeLink, cmd: `echo > @ROOT@/x/l/a.txt`, want: held},
		{finding: "T4 tee < /dev/null LINK/FILE leading home", prep: tmpHomeLink, cmd: `tee @ROOT@/x/l/a.txt < /dev/null`, want: held},
		{finding: "T4 ok: unlink LINK", prep: tmpHomeLink, cmd: `unlink @ROOT@/x/l`, want: notHeld},
		{finding: "T4 ok: rm -f LINK", prep: tmpHomeLink, cmd: `rm -f @ROOT@/x/l`, want: notHeld},
		{finding: "T4 ok: rm -rf LINK/ leading within scratch", prep: tmpInLink, cmd: `rm -rf @ROOT@/x/l/sub`, want: notHeld},
		{finding: "T4 ok: rm -rf a scratch directory", prep: tmpInLink, cmd: `rm -rf @ROOT@/x/real/`, want: notHeld},

		// B2, B5: ordinary work.
		{finding: "B2 npm run build && rm -rf dist/tmp", cmd: `npm run build && rm -rf dist/tmp`, want: notHeld},
		{finding: "B2 go build && rm -rf build/tmp", cmd: `go build ./... && rm -rf build/tmp`, want: notHeld},
		{finding: "B2 make && rm -rf out/gen/", cmd: `make && rm -rf out/gen/`, want: notHeld},
		{finding: "B2 ln -s outside && rm -rf through it stays held", cmd: `ln -sfn /srv/data build/y && rm -rf build/y/`, want: held},
		{finding: "B2 ln -s outside; npm run build; rm -rf through it", cmd: `ln -sfn /srv/data dist/tmp; npm run build && rm -rf dist/tmp/`, want: held},
		{finding: "B2 yarn build && rm -rf dist/tmp", cmd: `yarn build && rm -rf dist/tmp`, want: notHeld},
		{finding: "B2 pnpm run build && rm -rf dist/tmp/", cmd: `pnpm run build && rm -rf dist/tmp/`, want: notHeld},
		{finding: "B2 tsc && rm -rf dist/tmp", cmd: `tsc -p . && rm -rf dist/tmp`, want: notHeld},
		{finding: "B2 go vet && rm -rf build/tmp", cmd: `go vet ./... && rm -rf build/tmp`, want: notHeld},
		{finding: "B2 a build script that links outside, then rm -rf through it", setup: map[string]string{"proj/package.json": `{"name":"p","scripts":{"build":"ln -sfn ~/docs dist/tmp"}}`}, cmd: `npm run build && rm -rf dist/tmp/`, want: held},
		{finding: "B2 a make recipe that links outside, then rm -rf through it", setup: map[string]string{"proj/Makefile": "build:\n\tln -sfn ~/docs out/gen\n"}, cmd: `make && rm -rf out/gen/`, want: held},
		{finding: "B2 a build script that runs a script airlock cannot read", setup: map[string]string{"proj/package.json": `{"name":"p","scripts":{"build":"node build.js"}}`, "proj/build.js": "require('fs').symlinkSync(process.env.HOME, 'dist/tmp')\n"}, cmd: `npm run build && rm -rf dist/tmp/`, want: held},
		{finding: "B2 go build with -toolexec, then rm -rf", cmd: `go build -toolexec=./x.sh ./... && rm -rf build/tmp/`, want: held},
		{finding: "B2 go run, then rm -rf", cmd: `go run ./cmd/gen && rm -rf build/tmp/`, want: held},
		{finding: "B5 find . -type d -name __pycache__ -prune -exec rm -rf {} ;", cmd: `find . -type d -name __pycache__ -prune -exec rm -rf {} \;`, want: notHeld},
		{finding: "B5 find src -name node_modules -prune -exec rm -rf {} +", cmd: `find src -name node_modules -prune -exec rm -rf {} +`, want: notHeld},
		{finding: "B5 find . -name keep -prune -o -exec rm -rf {} + deletes the rest", cmd: `find . -name keep -prune -o -exec rm -rf {} +`, want: held},
		{finding: "B5 find . -name __pycache__ -type d -prune -exec rm -rf {} +", cmd: `find . -name '__pycache__' -type d -prune -exec rm -rf {} +`, want: notHeld},
		{finding: "B5 find . -type d -name node_modules -prune -exec rm -rf {} ;", cmd: `find . -type d -name node_modules -prune -exec rm -rf '{}' \;`, want: notHeld},
		{finding: "B5 find . -prune -exec rm -rf {} + deletes the project", cmd: `find . -prune -exec rm -rf {} +`, want: held},
		{finding: "B5 find ~ -name x -prune -exec rm -rf", cmd: `find ~ -name docs -prune -exec rm -rf {} +`, want: held},
	}
	for i := range cases {
		cases[i].fixed = true
	}
	runFindingCases(t, "9d", base, cases)
}

// TestFix9dScratchNames: deleting by name directly in the temporary
// directory stays scratch work (rm -rf /tmp/x, find /tmp/x -delete).
func TestFix9dScratchNames(t *testing.T) {
	f := newFixture(t)
	f.write("proj/.git/HEAD", "ref: refs/heads/main\n")
	p := f.load()
	for _, cmd := range []string{`rm -rf /tmp/airlock-fix9d-x`, `rm -rf /tmp/airlock-fix9d-x/`, `rm -f /tmp/airlock-fix9d-x.log`, `find /tmp/airlock-fix9d-x -name '*.o' -delete`, `truncate -s0 /tmp/airlock-fix9d-x.log`, `: > /tmp/airlock-fix9d-x.log`} {
		v := p.DecideIn(Unattended, Action{Kind: Shell, Tool: "Bash", Command: cmd, Cwd: f.path("proj"), Snapshots: true})
		if v.Decision != Allow && v.Decision != Warn {
			t.Errorf("%q was %s by %s (%v); scratch work", cmd, v.Decision, v.Rule, v.Reasons)
		}
	}
}

// TestRemovesInputs runs the examples of removesInputs' table: the
// programs that take their inputs away, and the same programs keeping
// them.
func TestRemovesInputs(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		want bool
	}{
		{"mv a b", true}, {"toybox mv a b", true}, {"busybox mv a b", true}, {"gio move a b", true}, {"gio mv a b", true},
		{"git mv a b", true}, {"mmv a b", true},
		{"rsync -a --remove-source-files a/ b/", true}, {"rsync -a --remove-source a/ b/", true}, {"rsync --remove-sent-files a b", true},
		{"tar --remove-files -cf a.tar d", true}, {"tar --remove-f -cf a.tar d", true},
		{"zip -m a.zip f", true}, {"zip -rm a.zip d", true}, {"zip -qmr a.zip d", true}, {"zip -r --move a.zip d", true},
		{"7z a -sdel a.7z d", true}, {"rar m a.rar d", true}, {"rar a -df a.rar d", true},
		{"zstd -q --rm f -o f.zst", true}, {"lz4 --rm f f.lz4", true}, {"brotli --rm f", true},
		{"gzip f", true}, {"xz -T0 f", true}, {"bzip2 -9 f", true}, {"gunzip f.gz", true}, {"unxz f.xz", true}, {"pigz f", true}, {"lzop -U f", true},
		{"gzip -k f", false}, {"gzip -c f", false}, {"gzip --keep f", false}, {"xz -kT0 f", false}, {"gzip -t f.gz", false}, {"gzip", false},
		{"zstd f -o f.zst", false}, {"lz4 f f.lz4", false}, {"lzop f", false},
		{"zip -r a.zip d", false}, {"7z a a.7z d", false}, {"rar a a.rar d", false}, {"tar -cf a.tar d", false},
		{"rsync -a a/ b/", false}, {"gio copy a b", false}, {"git add a", false}, {"cp a b", false},
		{"rclone move a b", true}, {"rclone --transfers 4 moveto a b", true}, {"rclone copy --delete-empty-src-dirs a b", true},
		{"kioclient5 move a b", true}, {"mc mv a b", true}, {"s5cmd mv a s3://b/", true}, {"aws s3 mv a s3://b/", true},
		{"gcloud storage mv a gs://b/", true}, {"gsutil -m mv a gs://b/", true}, {"hg mv a b", true}, {"svn move a b", true},
		{"rclone copy a b", false}, {"rclone sync a b", false}, {"aws s3 cp a s3://b/", false}, {"mc cp a b", false}, {"hg add a", false},
	} {
		if got := removesInputs(strings.Fields(c.cmd)); got != c.want {
			t.Errorf("removesInputs(%q) = %v, want %v", c.cmd, got, c.want)
		}
	}
}

// TestFix9dNet is FINDINGS-9 N1 and N2: a header's name is searched and
// weighed like its value, and SHA-256 object ids are git's only when the
// negotiation names object-format=sha256.
func TestFix9dNet(t *testing.T) {
	p := netSecretPolicy(t, true)
	sum := sha256.Sum256([]byte("token"))
	token := hex.EncodeToString(sum[:])
	for _, h := range []string{"X-" + token + ": 1", "X-" + strings.ToUpper(token) + ": 1", token + ": x", "X-A-" + token[:32] + ": " + token[32:]} {
		if v := p.Decide(netGet("/x", "", h)); v.Rule != RuleSecretValue {
			t.Errorf("N1 the token in a header's name (%s): %s by %s; want refused (%s)", h, v.Decision, v.Rule, RuleSecretValue)
		}
	}
	var hs []string
	for i := 0; i < 40; i++ {
		hs = append(hs, fmt.Sprintf("X-%s: 1", strings.Repeat(fmt.Sprintf("a%02dB", i), 12)))
	}
	if v := p.Decide(netGet("/x", "", hs...)); v.Decision == Allow || v.Decision == Warn {
		t.Errorf("N1 40 header names of 48 data-shaped characters each: %s by %s; want held", v.Decision, v.Rule)
	}
	// Ordinary: a browser-like set of headers stays a read.
	if v := p.Decide(netGet("/x", "", "Accept: text/html", "Accept-Language: en-US", "X-Request-Id: 1", "Cache-Control: no-cache", "If-None-Match: W/\"1\"")); v.Decision != Allow && v.Decision != Warn {
		t.Errorf("ordinary headers: %s by %s (%v)", v.Decision, v.Rule, v.Reasons)
	}

	body := func(head []string, n int, hexLen int, caps string) []byte {
		var b strings.Builder
		pkt := func(line string) { fmt.Fprintf(&b, "%04x%s", len(line)+4, line) }
		for _, h := range head {
			pkt(h + "\n")
		}
		if len(head) > 0 {
			b.WriteString("0001")
		}
		for i := 0; i < n; i++ {
			s := sha256.Sum256([]byte{byte(i), byte(i >> 8)})
			id := hex.EncodeToString(s[:])[:hexLen]
			if i == 0 && caps != "" {
				pkt("want " + id + " " + caps + "\n")
				continue
			}
			pkt("have " + id + "\n")
		}
		pkt("done\n")
		b.WriteString("0000")
		return []byte(b.String())
	}
	for _, c := range []struct {
		name string
		b    []byte
		want bool
	}{
		{"N2 SHA-256 ids without object-format", body([]string{"command=fetch"}, 4096, 64, ""), false},
		{"N2 SHA-256 ids with object-format=sha1", body([]string{"command=fetch", "object-format=sha1"}, 8, 64, ""), false},
		{"N2 v0 SHA-256 ids, no capability", body(nil, 8, 64, "multi_ack ofs-delta"), false},
		{"N2 object-format twice", body([]string{"command=fetch", "object-format=sha1", "object-format=sha256"}, 8, 64, ""), false},
		{"SHA-1 ids", body([]string{"command=fetch", "agent=git/2.39.5"}, 8, 40, ""), true},
		{"SHA-256 ids with object-format=sha256", body([]string{"command=fetch", "object-format=sha256"}, 8, 64, ""), true},
		{"v0 SHA-256 ids, object-format in the first want", body(nil, 8, 64, "multi_ack ofs-delta object-format=sha256"), true},
		{"v0 SHA-1 ids", body(nil, 8, 40, "multi_ack ofs-delta"), true},
	} {
		if ok, why := GitFetchBody(c.b); ok != c.want {
			t.Errorf("%s: GitFetchBody = %v (%s), want %v", c.name, ok, why, c.want)
		}
	}
}
