package classify

import (
	"github.com/airlock-dev/airlock/internal/firstuse"
	"path"
	"regexp"
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/shell"
)

// This file covers local destruction: programs that delete, overwrite or
// wipe files and disks (rm, find -delete, dd, mkfs, shred, truncate, chmod
// -R on /), and the system-wide switches nearby (crontab, systemctl,
// shutdown, firewalls).

// filesSpec rates programs that delete or overwrite files.
var filesSpec = &Spec{
	Programs: []string{"rm", "srm", "unlink", "find", "dd", "shred", "truncate", "mv", "tar", "gtar", "bsdtar", "cp", "sed", "gsed"},
	Classify: func(_ *Classifier, inv *shell.Invocation) Effect {
		switch inv.Name() {
		case "rm", "srm", "unlink":
			return filesRm(inv)
		case "cp":
			return filesCp(inv)
		case "sed", "gsed":
			return filesSed(inv)
		case "find":
			return filesFind(inv)
		case "dd":
			return filesDd(inv)
		case "shred":
			return filesShred(inv)
		case "truncate":
			return filesTruncate(inv)
		case "mv":
			return filesMv(inv)
		default:
			return filesTar(inv)
		}
	},
	Examples: []Example{
		// rm: recursive deletion in every spelling.
		{"rm -rf /", "local+destructive"},
		{"rm   -rf   /", "local+destructive"},
		{"rm -f -r /", "local+destructive"},
		{"rm -fr /", "local+destructive"},
		{"rm -Rf /some/path", "local+destructive"},
		{"rm -R -f /some/path", "local+destructive"},
		{"rm --recursive --force x", "local+destructive"},
		{"rm --force --recursive /etc", "local+destructive"},
		{"rm --rec --force x", "local+destructive"},
		{"rm -rf -- /", "local+destructive"},
		{"rm -rf ./build", "local+destructive"},
		{"rm -rf build", "local+destructive"},
		{"rm -rf ~", "local+destructive"},
		{"rm -rf ~/projects", "local+destructive"},
		{"rm -rf $HOME", "local+destructive"},
		{"rm -rf *", "local+destructive"},
		{"rm -rf .", "local+destructive"},
		{"rm -rf ../other", "local+destructive"},
		{`rm -rf "/home/user"`, "local+destructive"},
		{"rm -r dir", "local+destructive"},
		{"rm -R /some/path", "local+destructive"},
		{"rm -i -r dir", "local+destructive"},
		{"rm -r -i dir", "local+destructive"},
		{"rm --no-preserve-root -rf /", "local+destructive"},
		{"rm --no-preserve-root x", "local+destructive"},
		{"/bin/rm -rf /some/path", "local+destructive"},
		{"sudo rm -rf /", "local+destructive"},
		{"nice -n 19 rm -rf /home/user", "local+destructive"},
		{"bash -c 'rm -rf /home/user'", "local+destructive"},
		{"echo / | xargs rm -rf", "local+destructive"},
		{"find . -exec rm -rf {} \\;", "local+destructive"},
		{"rm -rf /tmp/../Users/some/path", "local+destructive"},
		{"rm -rf /tmp/test-dir build", "local+destructive"},
		{"rm -rf $TMPDIR/../escape", "local+destructive"},
		{"TMPDIR=/Users rm -rf $TMPDIR/test-dir", "local+destructive"},
		{"rm -rf `pwd`/escape", "local+destructive"},
		{"rm -rf ~someone/escape", "local+destructive"},
		{"rm -f /*", "local+destructive"},
		{"rm *", "local+destructive"},
		// rm: temporary directories are scratch space.
		{"rm -r -f /tmp/x", "local"},
		{"rm -rf /tmp/build", "local"},
		{"rm -rf /tmp/*", "local"},
		{"rm -rf /var/tmp/build", "local"},
		{"rm -rf $TMPDIR/build", "local"},
		{"rm -rf ${TMPDIR}/build", "local"},
		{`rm -rf "$TMPDIR/build"`, "local"},
		{"rm -rf ${TMPDIR:-/tmp}/build", "local"},
		// rm: single files are ordinary local work.
		{"rm file.txt", "local"},
		{"rm -f file.txt", "local"},
		{"rm file1.txt file2.txt", "local"},
		{"rm -i file.txt", "local"},
		{"rm -v *.o", "local"},
		{"rm -d empty_dir", "local"},
		{"rm", "local"},
		{"rm -rf", "local"},
		{"rm --help", "local"},
		{"rm --version", "local"},
		{"echo ok | xargs rm -- -rf", "local"},
		{"echo 'rm -rf /'", "local"},
		{"git commit -m 'fix: do not rm -rf root'", "shared"},
		{"rmdir empty_folder", "local"},
		{"unlink file", "local"},
		{"trash-put dir", "local"},
		{"gio trash dir", "local"},
		{"srm -r secrets", "local+destructive"},
		{"srm -z file.txt", "local"},
		{"srm --help", "local"},
		{"parallel rm -rf ::: /", "local+destructive"},
		{"echo yes | rm -rf && echo done", "local"},
		// find: -delete is find's own deletion; -exec rm is rated as rm.
		{"find . -name '*.tmp' -delete", "local+destructive"},
		{"find . -delete", "local+destructive"},
		{"find -L . -type f -mtime +30 -delete", "local+destructive"},
		{"find /tmp/x -type f -delete", "local"},
		{"find -L /tmp/x -type f -delete", "local+destructive"},
		{"find /tmp/x -follow -delete", "local+destructive"},
		{"busybox find . -name '*.pyc' -delete", "local+destructive"},
		{"echo ok | xargs find . -delete", "local+destructive"},
		{"find . -name x", "local"},
		{"find . -name -delete -print", "local"},
		{"find . -exec echo -delete \\; -print", "local"},
		{"find . -exec echo -delete + -print", "local"},
		{"find . -name '*.txt' -exec rm {} \\;", "local+destructive"}, // bulk delete (issue 13)
		{"find . -type f -exec cat {} +", "local"},
		{"find . -fprint out.txt", "local"},
		{"find /tmp/cache -name '*.tmp' -delete", "local"},
		// dd: whatever of= names is overwritten.
		{"dd if=/dev/zero of=/dev/sda", "local+destructive"},
		{"dd if=/dev/urandom of=/dev/nvme0n1 bs=1M", "local+destructive"},
		{"dd if=a of=b", "local+destructive"},
		{"dd if=image.iso of=/dev/disk2 bs=4m", "local+destructive"},
		{"dd if=/dev/sda of=/dev/null", "local"},
		{"dd if=/dev/zero of=/tmp/test bs=1M count=10", "local"},
		{"dd if=disk.img bs=512 count=1", "local"},
		{"dd --help", "local"},
		// shred and truncate lose data; growing a file does not.
		{"shred -u secret", "local+destructive"},
		{"shred -n 3 -z /dev/sdb", "local+destructive"},
		{"shred --help", "local"},
		{"truncate -s 0 log", "local+destructive"},
		{"truncate --size=0 app.log", "local+destructive"},
		{"truncate -s 10G disk.img", "local+destructive"},
		{"truncate -s +1M disk.img", "local"},
		{"truncate -s 0 /tmp/out.log", "local"},
		{"truncate --help", "local"},
		// mv onto /dev/null; tar --remove-files.
		{"mv data.db /dev/null", "local+destructive"},
		{"mv -t /dev/null data.db", "local+destructive"},
		{"mv old.txt new.txt", "local"},
		{"mv -f a b", "local"},
		{"tar --remove-files -czf logs.tgz logs/", "local+destructive"},
		{"tar czf out.tgz src", "local"},
		{"tar -xzf archive.tgz -C /tmp", "local"},
		{"cp /dev/null file", "local+destructive"},
		{"cp /dev/null /tmp/x", "local"},
		{"cp a.txt b.txt", "local"},
		{"unlink stale.sock", "local"},
		{"find . -name '*.log' -exec rm {} +", "local+destructive"},
		{"ls | xargs rm", "local+destructive"},
		{"echo a.txt | xargs rm", "local"},
		{"for f in *.log; do rm \"$f\"; done", "local+destructive"},
		{"while read f; do unlink \"$f\"; done < l", "local+destructive"},
		{"rm \"$f\"", "local"},
		{"sed -i d notes.txt", "local+destructive"},
		{"sed -i '1,$d' a", "local+destructive"},
		{"sed -i.bak d notes.txt", "local"},
		{"sed -i 's/a/b/' f", "local"},
		{"sed -i '/^#/d' f", "local"},
		{"sed -n '1,$d' f", "local"},
		{"ln -sf target link", "local"},
		{"kill 1234", "local"},
		{"pkill -f server", "local"},
		{"killall node", "local"},
	},
}

// filesHelp reports whether the arguments only ask for help or a version.
func filesHelp(args []string) bool {
	return hasAny(args, "--help", "--version")
}

// filesRm rates rm (and srm, which also overwrites): recursive deletion
// (with or without -f, which only silences prompts) loses a whole tree;
// single files are ordinary work.
func filesRm(inv *shell.Invocation) Effect {
	args := inv.Args[1:]
	if filesHelp(args) {
		return nothing
	}
	p := argv.Spec{}.Parse(args)
	ops := filesOperands(inv, p)
	recursive := p.Has("-r", "-R") || hasLongPrefix(p, "--recursive", 1)
	force := p.Has("-f") || hasLongPrefix(p, "--force", 1)
	name := inv.Name()
	cmd := name + " -r"
	if force {
		cmd = name + " -rf"
	}
	if hasLongPrefix(p, "--no-preserve-root", 2) {
		return local("rm.no-preserve-root", name+" --no-preserve-root switches off the guard against deleting /").destroys()
	}
	if len(ops) == 0 {
		if recursive && len(inv.Via) > 0 {
			// Run by xargs, parallel or find, its paths come from elsewhere.
			return local("rm.recursive", cmd+" deletes whatever paths "+inv.Via[len(inv.Via)-1]+" gives it, and everything under them").destroys()
		}
		return nothing // rm -rf with nothing to delete does nothing
	}
	if !recursive && filesBulk(inv, ops) {
		return local("rm.bulk", name+" deletes every path "+inv.Via0()+" gives it: a bulk delete of files chosen at run time").destroys()
	}
	if !recursive {
		for _, o := range ops {
			switch filesNormPath(o.word) {
			case "/*", "~/*", "$HOME/*", "${HOME}/*", "*", "./*":
				return local("rm.glob", name+" "+o.word+" deletes every file in "+filesPlace(o.word)).destroys()
			}
		}
		return nothing
	}
	temp := true
	for _, o := range ops {
		if desc, ok := filesCritical(o.word); ok {
			return local("rm.recursive", cmd+" "+o.word+" deletes "+desc).destroys()
		}
		temp = temp && filesIsTemp(inv, o.word, o.dynamic)
	}
	if temp {
		return local("rm.temp", cmd+" only deletes temporary files")
	}
	return local("rm.recursive", cmd+" deletes "+clip(filesJoin(ops))+" and everything under it").destroys()
}

// filesOperand is one non-option word with whether it is only known at run
// time.
type filesOperand struct {
	word    string
	dynamic bool
}

// filesOperands returns the operands of a parsed argument list (parsed from
// inv.Args[1:]) with their dynamic marks.
func filesOperands(inv *shell.Invocation, p argv.Parsed) []filesOperand {
	out := make([]filesOperand, len(p.Operands))
	for i, o := range p.Operands {
		out[i] = filesOperand{o, inv.IsDynamic(1 + p.OperandIndex[i])}
	}
	return out
}

// filesJoin renders operands for a message.
func filesJoin(ops []filesOperand) string {
	words := make([]string, len(ops))
	for i, o := range ops {
		words[i] = o.word
		if o.word == "{}" {
			// find -exec and xargs -I fill it in at run time.
			words[i] = "each path found"
		}
	}
	return strings.Join(words, " ")
}

// filesNormPath strips the quotes a dynamic word keeps in its source text
// ("$HOME"/ is $HOME),
// doubled slashes and a trailing slash or "/.", so that "/", "//" and "/."
// compare equal.
func filesNormPath(w string) string {
	if len(w) >= 2 && w[0] == '\'' && w[len(w)-1] == '\'' {
		w = w[1 : len(w)-1]
	}
	w = strings.ReplaceAll(w, `"`, "")
	for strings.Contains(w, "//") {
		w = strings.ReplaceAll(w, "//", "/")
	}
	for len(w) > 1 && (strings.HasSuffix(w, "/") || strings.HasSuffix(w, "/.")) {
		w = strings.TrimSuffix(strings.TrimSuffix(w, "/"), "/.")
	}
	if w == "" {
		w = "/"
	}
	return w
}

// filesSystemDirs are the top-level directories whose loss breaks the
// machine or every user's data.
func filesSystemDirs(name string) bool {
	switch name {
	case "/bin", "/boot", "/dev", "/etc", "/home", "/lib", "/lib64", "/opt", "/proc", "/root", "/sbin",
		"/srv", "/sys", "/usr", "/var", "/Users", "/System", "/Library", "/Applications", "/private",
		"/usr/bin", "/usr/lib", "/usr/local", "/var/lib":
		return true
	}
	return false
}

// filesCritical says whether a path is the root, the home directory, a
// system directory or the whole working directory, and describes it.
func filesCritical(w string) (string, bool) {
	n := filesNormPath(w)
	switch n {
	case "/", "/*":
		return "the whole file system", true
	case "~", "~/*", "$HOME", "${HOME}", "$HOME/*", "${HOME}/*":
		return "your whole home directory", true
	case ".", "*", "./*", ".*":
		return "everything in the working directory", true
	case "..", "../*":
		return "everything in the parent directory", true
	}
	if filesSystemDirs(strings.TrimSuffix(n, "/*")) {
		return "the system directory " + strings.TrimSuffix(n, "/*") + " and everything in it", true
	}
	return "", false
}

// filesPlace names the directory a glob like "/*" or "~/*" covers.
func filesPlace(w string) string {
	d := strings.TrimSuffix(filesNormPath(w), "*")
	switch d {
	case "", "./":
		return "the working directory"
	case "/":
		return "/"
	}
	return strings.TrimSuffix(d, "/")
}

// filesTempDirs are the directories meant for scratch files.
var filesTempDirs = []string{"/tmp", "/var/tmp", "/private/tmp", "/private/var/tmp"}

// filesIsTemp reports whether a path is inside a temporary directory
// (/tmp, /var/tmp or $TMPDIR), where deleting is what the files are for.
// A ".." that could climb out, a computed part, or a TMPDIR assigned in the
// same command all disqualify it.
func filesIsTemp(inv *shell.Invocation, w string, dynamic bool) bool {
	if dynamic {
		if _, set := inv.Getenv("TMPDIR"); set {
			return false
		}
		// rm -rf "$(mktemp -d)", or a variable set to it: a new name in
		// the temporary directory, and what the command put there.
		if rest, ok := shell.MktempWord(w); ok {
			return rest == "" || rest[0] == '/' && !strings.Contains(rest+"/", "/../")
		}
		w = strings.Trim(w, `"`)
		rest, ok := "", false
		for _, p := range []string{"${TMPDIR:-/tmp}", "${TMPDIR}", "$TMPDIR"} {
			if strings.HasPrefix(w, p) {
				rest, ok = w[len(p):], true
				break
			}
		}
		if !ok || rest != "" && rest[0] != '/' || strings.ContainsAny(rest, "$`\"'\\") {
			return false
		}
		return !strings.Contains(rest+"/", "/../")
	}
	if !strings.HasPrefix(w, "/") {
		return false
	}
	c := path.Clean(w)
	for _, d := range filesTempDirs {
		if c == d || strings.HasPrefix(c, d+"/") {
			return true
		}
	}
	return false
}

// filesFindArgs lists find's primaries that take arguments, and how many,
// so that a value such as "-name -delete" is not read as an action.
var filesFindArgs = firstuse.Table[map[string]int]{Build: func() map[string]int {
	return map[string]int{
		"-name": 1, "-iname": 1, "-path": 1, "-ipath": 1, "-wholename": 1, "-iwholename": 1, "-regex": 1,
		"-iregex": 1, "-lname": 1, "-ilname": 1, "-type": 1, "-xtype": 1, "-user": 1, "-group": 1, "-uid": 1,
		"-gid": 1, "-perm": 1, "-size": 1, "-mtime": 1, "-atime": 1, "-ctime": 1, "-mmin": 1, "-amin": 1,
		"-cmin": 1, "-newer": 1, "-anewer": 1, "-cnewer": 1, "-samefile": 1, "-inum": 1, "-links": 1,
		"-maxdepth": 1, "-mindepth": 1, "-fstype": 1, "-used": 1, "-printf": 1, "-fprint": 1, "-fprint0": 1,
		"-fls": 1, "-fprintf": 2, "-context": 1, "-regextype": 1, "-files0-from": 1, "-D": 1, "-Bmin": 1,
		"-Bnewer": 1, "-Btime": 1, "-newerat": 1, "-newerct": 1, "-newermt": 1, "-newerBt": 1, "-newerma": 1,
		"-newermm": 1, "-newermc": 1,
	}
}}

// filesFind rates find itself: -delete deletes every match. Commands run
// by -exec and friends are separate invocations found by package shell, so
// their words are skipped here.
func filesFind(inv *shell.Invocation) Effect {
	args := inv.Args[1:]
	if filesHelp(args) {
		return nothing
	}
	var starts []filesOperand
	expr := false
	deletes, follows := false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-follow" || !expr && (a == "-L" || a == "-H") {
			follows = true
		}
		switch {
		case a == "-exec" || a == "-execdir" || a == "-ok" || a == "-okdir":
			j := i + 1
			for j < len(args) && !(args[j] == ";" || args[j] == "+" && j > i+1 && args[j-1] == "{}") {
				j++
			}
			i, expr = j, true
		case a == "-delete":
			deletes, expr = true, true
		case filesFindArgs.Get()[a] > 0:
			i += filesFindArgs.Get()[a]
			expr = expr || a != "-D"
		case !expr && (a == "-H" || a == "-L" || a == "-P" || a == "-E" || a == "-X" || a == "-s" || a == "-x" || a == "-d" || strings.HasPrefix(a, "-O")):
			// options before the start paths
		case !expr && !strings.HasPrefix(a, "-") && a != "(" && a != "!" && a != ")":
			starts = append(starts, filesOperand{a, inv.IsDynamic(1 + i)})
		default:
			expr = true
		}
	}
	if !deletes {
		return nothing
	}
	// Following symbolic links (-L, -H, -follow), find deletes what a
	// link in the temporary directory leads to, wherever it is
	// (FINDINGS-8 H9): not temporary files then.
	temp := len(starts) > 0 && !follows
	for _, s := range starts {
		temp = temp && filesIsTemp(inv, s.word, s.dynamic)
	}
	if temp {
		return local("find.delete.temp", "find -delete only deletes temporary files")
	}
	where := "."
	if len(starts) > 0 {
		where = filesJoin(starts)
	}
	return local("find.delete", "find "+clip(where)+" -delete deletes every file that matches").destroys()
}

// filesDd rates dd: of= names what it overwrites; without it dd writes to
// standard output.
func filesDd(inv *shell.Invocation) Effect {
	args := inv.Args[1:]
	if filesHelp(args) {
		return nothing
	}
	target, dyn, found := "", false, false
	for i, a := range args {
		if strings.HasPrefix(a, "of=") {
			target, dyn, found = a[3:], inv.IsDynamic(1+i), true
		}
	}
	if !found {
		return nothing
	}
	if !dyn && strings.HasPrefix(target, "/dev/") && !isBlockDevice(target) {
		return nothing // /dev/null and friends
	}
	if isBlockDevice(target) {
		return local("dd.device", "dd of="+target+" overwrites the disk "+target).destroys()
	}
	if filesIsTemp(inv, target, dyn) {
		return local("dd.temp", "dd writes a temporary file")
	}
	return local("dd.file", "dd of="+clip(target)+" overwrites "+clip(target)).destroys()
}

// filesBulk reports whether a delete of single files is a bulk delete:
// run by find -exec, or given paths only known at run time inside a loop
// or by xargs or parallel. Temporary files stay scratch space.
func filesBulk(inv *shell.Invocation, ops []filesOperand) bool {
	fromFind := false
	for _, v := range inv.Via {
		if strings.HasPrefix(v, "find -exec") || strings.HasPrefix(v, "find -ok") {
			fromFind = true
		}
	}
	dynamic := false
	for _, o := range ops {
		if o.dynamic {
			dynamic = true
		}
	}
	fed := inv.InLoop
	for _, v := range inv.Via {
		if v == "xargs" || v == "parallel" {
			fed = true
		}
	}
	if !fromFind && !(dynamic && fed) {
		return false
	}
	for _, o := range ops {
		if !filesIsTemp(inv, o.word, o.dynamic) {
			return true
		}
	}
	return len(ops) == 0
}

// filesCp rates cp: copying /dev/null over a file empties it.
func filesCp(inv *shell.Invocation) Effect {
	args := inv.Args[1:]
	p := argv.Spec{Short: "St", Long: []string{"--suffix", "--target-directory", "--backup", "--sparse", "--reflink", "--preserve", "--no-preserve"}}.Parse(args)
	ops := filesOperands(inv, p)
	if filesHelp(args) || len(ops) < 2 || p.Has("-b") || hasLongPrefix(p, "--backup", 4) {
		return nothing
	}
	dst := ops[len(ops)-1]
	for _, o := range ops[:len(ops)-1] {
		if o.word == "/dev/null" && !o.dynamic && !filesIsTemp(inv, dst.word, dst.dynamic) && !strings.HasPrefix(dst.word, "/dev/") {
			return local("file.empty", "cp /dev/null "+dst.word+" empties "+dst.word+", losing its contents").destroys()
		}
	}
	return nothing
}

// sedDeleteAll matches sed scripts that delete every line.
var sedDeleteAll = firstuse.Table[*regexp.Regexp]{Build: func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(1\s*,\s*\$|0\s*,\s*\$|/\^/|/\.\*/|/\^\.\*\$?/)?\s*d\s*;?\s*$`)
}}

// filesSed rates sed -i: a script that deletes every line empties the
// files it edits in place, unless a backup suffix keeps the original.
func filesSed(inv *shell.Invocation) Effect {
	args := inv.Args[1:]
	inPlace, backup := false, false
	var scripts []string
	var files []string
	explicit := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			files = append(files, args[i+1:]...)
			i = len(args)
		case a == "-e" || a == "--expression":
			if i+1 < len(args) {
				scripts = append(scripts, args[i+1])
				i++
			}
			explicit = true
		case strings.HasPrefix(a, "--expression="):
			scripts = append(scripts, strings.TrimPrefix(a, "--expression="))
			explicit = true
		case a == "-f" || a == "--file":
			i++
			explicit = true
			scripts = append(scripts, "") // a script file: not read here
		case a == "--in-place":
			inPlace = true
		case strings.HasPrefix(a, "--in-place="):
			inPlace, backup = true, true
		case strings.HasPrefix(a, "--"):
		case strings.HasPrefix(a, "-") && len(a) > 1:
			if j := strings.IndexByte(a, 'i'); j >= 0 {
				inPlace = true
				backup = backup || j < len(a)-1 // -i.bak; -ni and -Ei end in i
			}
			if strings.HasSuffix(a, "e") && i+1 < len(args) {
				scripts = append(scripts, args[i+1])
				i++
				explicit = true
			}
		default:
			if !explicit && len(scripts) == 0 {
				scripts = append(scripts, a)
				continue
			}
			files = append(files, a)
		}
	}
	if !inPlace || backup || len(files) == 0 {
		return nothing
	}
	for _, sc := range scripts {
		if sedDeleteAll.Get().MatchString(sc) {
			return local("file.empty", "sed -i '"+sc+"' deletes every line of "+clip(strings.Join(files, " "))).destroys()
		}
	}
	return nothing
}

// filesShred rates shred: it overwrites contents so they cannot come back.
func filesShred(inv *shell.Invocation) Effect {
	args := inv.Args[1:]
	p := argv.Spec{Short: "ns", Long: []string{"--iterations", "--size", "--random-source", "--remove"}}.Parse(args)
	if filesHelp(args) || len(p.Operands) == 0 {
		return nothing
	}
	return local("shred", "shred overwrites "+clip(strings.Join(p.Operands, " "))+" beyond recovery").destroys()
}

// filesTruncate rates truncate: cutting a file loses its tail; sizes that
// only grow (+N, >N, %N) lose nothing.
func filesTruncate(inv *shell.Invocation) Effect {
	args := inv.Args[1:]
	p := argv.Spec{Short: "sr", Long: []string{"--size", "--reference"}}.Parse(args)
	ops := filesOperands(inv, p)
	if filesHelp(args) || len(ops) == 0 {
		return nothing
	}
	if size, ok := p.Value("-s", "--size"); ok && size != "" && strings.ContainsRune("+>%", rune(size[0])) {
		return nothing
	}
	temp := true
	for _, o := range ops {
		temp = temp && filesIsTemp(inv, o.word, o.dynamic)
	}
	if temp {
		return local("truncate.temp", "truncate only cuts temporary files")
	}
	return local("truncate", "truncate cuts "+clip(filesJoin(ops))+", losing its contents").destroys()
}

// filesMv rates mv: moving a file onto /dev/null throws it away.
func filesMv(inv *shell.Invocation) Effect {
	args := inv.Args[1:]
	p := argv.Spec{Short: "tS", Long: []string{"--target-directory", "--suffix"}}.Parse(args)
	dest, ok := p.Value("-t", "--target-directory")
	if !ok && len(p.Operands) >= 2 {
		dest, ok = p.Operands[len(p.Operands)-1], true
	}
	if ok && filesNormPath(dest) == "/dev/null" {
		return local("mv.devnull", "mv onto /dev/null throws the file away").destroys()
	}
	return nothing
}

// filesTar rates tar: --remove-files deletes the originals once archived.
func filesTar(inv *shell.Invocation) Effect {
	p := argv.Spec{}.Parse(inv.Args[1:])
	if hasLongPrefix(p, "--remove-files", 3) {
		return local("tar.remove-files", "tar --remove-files deletes the files it archives").destroys()
	}
	return nothing
}

// filesMkfs lists the programs that build a file system (or swap area) on a
// device, erasing what was there.
var filesMkfs = []string{
	"mkfs", "mkfs.ext2", "mkfs.ext3", "mkfs.ext4", "mkfs.xfs", "mkfs.btrfs", "mkfs.vfat", "mkfs.fat",
	"mkfs.msdos", "mkfs.exfat", "mkfs.ntfs", "mkfs.f2fs", "mkfs.minix", "mkfs.bfs", "mkfs.cramfs",
	"mkfs.jfs", "mkfs.reiserfs", "mkfs.hfsplus", "mkfs.udf", "mke2fs", "mkdosfs", "mkntfs", "mkexfatfs",
	"mkswap", "newfs", "newfs_apfs", "newfs_hfs", "newfs_msdos", "newfs_exfat",
}

// filesDiskSpec rates programs that format, wipe or repartition disks.
var filesDiskSpec = &Spec{
	Programs: append(append([]string(nil), filesMkfs...),
		"wipefs", "blkdiscard", "fdisk", "sfdisk", "cfdisk", "gdisk", "cgdisk", "sgdisk", "parted"),
	Classify: func(_ *Classifier, inv *shell.Invocation) Effect {
		args := inv.Args[1:]
		if filesHelp(args) {
			return nothing
		}
		switch name := inv.Name(); name {
		case "wipefs":
			return filesWipefs(args)
		case "blkdiscard":
			if len(operandsOf(args)) == 0 {
				return nothing
			}
			return local("disk.discard", "blkdiscard discards every block of the device").destroys()
		case "fdisk", "gdisk", "cfdisk", "cgdisk":
			if hasAny(args, "-l", "--list", "-V", "--version") || len(operandsOf(args)) == 0 && name != "cfdisk" && name != "cgdisk" {
				return nothing
			}
			return local("disk.partition", name+" rewrites the partition table of "+filesDevice(args)).destroys()
		case "sfdisk":
			return filesSfdisk(args)
		case "sgdisk":
			return filesSgdisk(args)
		case "parted":
			return filesParted(args)
		default:
			return filesMkfsRun(name, args)
		}
	},
	Examples: []Example{
		{"mkfs.ext4 /dev/sdb1", "local+destructive"},
		{"mkfs -t ext4 /dev/sdb1", "local+destructive"},
		{"mkfs.xfs -f /dev/nvme1n1", "local+destructive"},
		{"mkfs.vfat -F 32 /dev/sdc1", "local+destructive"},
		{"mke2fs -t ext4 /dev/sdb1", "local+destructive"},
		{"mkswap /dev/sdb2", "local+destructive"},
		{"sudo mkfs.btrfs -f /dev/sdd", "local+destructive"},
		{"newfs_msdos -F 32 /dev/disk2s1", "local+destructive"},
		{"mke2fs -n /dev/sdb1", "local"},
		{"mkfs.ext4 --help", "local"},
		{"mkfs.ext4 -V", "local"},
		{"wipefs -a /dev/sdb", "local+destructive"},
		{"wipefs --all --force /dev/sdb", "local+destructive"},
		{"wipefs -o 0x438 /dev/sdb1", "local+destructive"},
		{"wipefs /dev/sdb", "local"},
		{"wipefs -n -a /dev/sdb", "local"},
		{"blkdiscard /dev/nvme0n1", "local+destructive"},
		{"fdisk /dev/sda", "local+destructive"},
		{"fdisk -l", "local"},
		{"fdisk -l /dev/sda", "local"},
		{"gdisk -l /dev/sda", "local"},
		{"cfdisk /dev/sda", "local+destructive"},
		{"sfdisk /dev/sda < layout.txt", "local+destructive"},
		{"sfdisk --delete /dev/sda 2", "local+destructive"},
		{"sfdisk -d /dev/sda", "local"},
		{"sfdisk --list", "local"},
		{"sgdisk --zap-all /dev/sda", "local+destructive"},
		{"sgdisk -n 1:0:+512M -t 1:ef00 /dev/sda", "local+destructive"},
		{"sgdisk -p /dev/sda", "local"},
		{"sgdisk --backup=table.bin /dev/sda", "local"},
		{"parted /dev/sda mklabel gpt", "local+destructive"},
		{"parted -s /dev/sda rm 1", "local+destructive"},
		{"parted /dev/sda", "local+destructive"},
		{"parted -l", "local"},
		{"parted /dev/sda print", "local"},
		{"parted /dev/sda unit s print", "local"},
		{"lsblk", "local"},
		{"blkid /dev/sda1", "local"},
	},
}

// filesDevice names the device operand of a partitioning tool, for messages.
func filesDevice(args []string) string {
	for _, a := range args {
		if strings.HasPrefix(a, "/dev/") {
			return a
		}
	}
	return "a disk"
}

// filesMkfsRun rates mkfs and its relatives. mke2fs -n and the ext mkfs
// only show what they would do.
func filesMkfsRun(name string, args []string) Effect {
	if hasAny(args, "-V", "--version") && len(args) == 1 {
		return nothing
	}
	if strings.HasPrefix(name, "mke2fs") || strings.HasPrefix(name, "mkfs.ext") {
		if hasAny(args, "-n") {
			return nothing
		}
	}
	ops := operandsOf(args)
	if len(ops) == 0 {
		return nothing
	}
	dev := filesDevice(args)
	if dev == "a disk" {
		dev = ops[len(ops)-1]
	}
	return local("disk.mkfs", name+" formats "+dev+", erasing everything on it").destroys()
}

// filesWipefs rates wipefs: without -a or -o it only lists signatures.
func filesWipefs(args []string) Effect {
	p := argv.Spec{Short: "otO", Long: []string{"--offset", "--types", "--backup", "--output"}}.Parse(args)
	if p.Has("-n") || hasLongPrefix(p, "--no-act", 4) {
		return nothing
	}
	if p.Has("-a", "-o") || hasLongPrefix(p, "--all", 3) || hasLongPrefix(p, "--offset", 3) {
		return local("disk.wipefs", "wipefs erases the file system signatures of "+filesDevice(args)).destroys()
	}
	return nothing
}

// filesSfdisk rates sfdisk: its listing options read, anything else writes
// a partition table.
func filesSfdisk(args []string) Effect {
	if hasAny(args, "-l", "--list", "-d", "--dump", "-J", "--json", "-s", "--show-size", "-g", "--show-geometry",
		"-V", "--verify", "-F", "--list-free", "-n", "--no-act", "--version", "-v") || len(operandsOf(args)) == 0 {
		return nothing
	}
	return local("disk.partition", "sfdisk rewrites the partition table of "+filesDevice(args)).destroys()
}

// filesSgdisk rates sgdisk: only print, info, verify, backup and pretend
// leave the disk as it was.
func filesSgdisk(args []string) Effect {
	if hasAny(args, "-P", "--pretend") || len(operandsOf(args)) == 0 {
		return nothing
	}
	for _, a := range args {
		if !strings.HasPrefix(a, "-") || len(a) < 2 {
			continue
		}
		name, _, _ := strings.Cut(a, "=")
		switch name {
		case "-p", "--print", "-i", "--info", "-v", "--verify", "-b", "--backup", "-O", "--print-mbr", "-L", "--list-types":
			continue
		}
		return local("disk.partition", "sgdisk "+name+" rewrites the partition table of "+filesDevice(args)).destroys()
	}
	return nothing
}

// filesParted rates parted: print-like commands read; other commands, or
// an interactive session on a device, can rewrite the partition table.
func filesParted(args []string) Effect {
	p := argv.Spec{Long: []string{"--align"}, Short: "a"}.Parse(args)
	if p.Has("-l") || hasLongPrefix(p, "--list", 3) || p.Has("-v") || len(p.Operands) == 0 {
		return nothing
	}
	cmds := p.Operands[1:]
	if len(cmds) > 0 {
		reads := true
		for _, c := range cmds {
			switch c {
			case "print", "p", "unit", "s", "B", "kB", "MB", "MiB", "GB", "GiB", "TB", "TiB", "%", "cyl", "chs",
				"compact", "help", "version", "quit", "free", "all", "list", "devices":
			default:
				reads = false
			}
		}
		if reads {
			return nothing
		}
	}
	return local("disk.partition", "parted can rewrite the partition table of "+p.Operands[0]).destroys()
}

// filesPermSpec rates permission and ownership changes: on one file they are
// local work; recursively over /, a system directory or the home directory
// they break the machine in ways that are hard to undo.
var filesPermSpec = &Spec{
	Programs: []string{"chmod", "chown", "chgrp"},
	Classify: func(_ *Classifier, inv *shell.Invocation) Effect {
		args := inv.Args[1:]
		if filesHelp(args) {
			return nothing
		}
		p := argv.Spec{}.Parse(args)
		if !(p.Has("-R") || hasLongPrefix(p, "--recursive", 3)) {
			return nothing
		}
		for _, o := range filesOperands(inv, p) {
			if desc, ok := filesCritical(o.word); ok && !strings.Contains(desc, "working") && !strings.Contains(desc, "parent") {
				return local("perm.recursive-root", inv.Name()+" -R on "+o.word+" changes "+strings.TrimSuffix(desc, " and everything in it")+" throughout, which is hard to undo").destroys()
			}
		}
		return nothing
	},
	Examples: []Example{
		{"chmod -R 777 /", "local+destructive"},
		{"chmod -R 000 /*", "local+destructive"},
		{"chmod --recursive 755 ~", "local+destructive"},
		{"chmod -R u+w $HOME", "local+destructive"},
		{"chown -R nobody:nogroup /", "local+destructive"},
		{"chown -R me /usr", "local+destructive"},
		{"sudo chgrp -R staff /etc", "local+destructive"},
		{"chmod -Rv 700 ~/", "local+destructive"},
		{"chmod 644 file", "local"},
		{"chmod +x script.sh", "local"},
		{"chmod -R 755 ./public", "local"},
		{"chmod -R u+rwX .", "local"},
		{"chown -R me:me ~/project", "local"},
		{"chmod 755 /", "local"},
		{"chmod --help", "local"},
	},
}

// filesAdminSpec rates the system switches an agent may reach for: cron,
// services, power and firewalls.
var filesAdminSpec = &Spec{
	Programs: []string{
		"crontab", "systemctl", "service", "kill", "shutdown", "reboot", "halt", "poweroff", "init", "telinit",
		"iptables", "ip6tables", "iptables-legacy", "iptables-nft", "ip6tables-legacy", "ip6tables-nft",
		"iptables-restore", "ip6tables-restore", "nft", "ufw",
	},
	Classify: func(c *Classifier, inv *shell.Invocation) Effect {
		args := inv.Args[1:]
		if filesHelp(args) {
			return nothing
		}
		switch name := inv.Name(); name {
		case "crontab":
			e := filesCrontab(args)
			if c != nil && e.Reasons != nil && e.Reasons[0].Rule == "cron.install" {
				e.Add(c.crontabJobs(inv)) // schedule.go
			}
			return e
		case "systemctl":
			return filesSystemctl(args)
		case "service":
			return filesService(args)
		case "kill":
			return filesKill(args)
		case "shutdown":
			if hasAny(args, "-c", "-k") {
				return shared("power.shutdown", "shutdown "+firstOf(args, "-c", "-k")+" only cancels or announces a shutdown")
			}
			return shared("power.shutdown", "shutdown stops the machine").destroys()
		case "reboot", "halt", "poweroff":
			if hasAny(args, "-w", "--wtmp-only") {
				return nothing
			}
			return shared("power."+name, name+" stops the machine and every program on it").destroys()
		case "init", "telinit":
			// Only a lone run level is read, so that a project script named
			// init (./init setup) is not taken for the system's.
			ops := operandsOf(args)
			if len(args) != 1 || len(ops) != 1 || len(ops[0]) != 1 || !strings.Contains("0123456sSqQuU", ops[0]) {
				return nothing
			}
			if ops[0] == "0" || ops[0] == "6" {
				return shared("power.init", name+" "+ops[0]+" stops the machine").destroys()
			}
			return shared("power.init", name+" "+ops[0]+" changes the system run level")
		case "nft":
			return filesNft(args)
		case "ufw":
			return filesUfw(args)
		case "iptables-restore", "ip6tables-restore":
			if hasAny(args, "-t", "--test") {
				return nothing
			}
			return shared("firewall.restore", name+" replaces the firewall rules")
		default:
			return filesIptables(name, args)
		}
	},
	Examples: []Example{
		{"crontab -r", "shared+destructive"},
		{"crontab -u alice -r", "shared+destructive"},
		{"crontab -ir", "shared+destructive"},
		{"crontab -e", "shared"},
		{"crontab jobs.txt", "shared"},
		{"(crontab -l; echo '0 * * * * job') | crontab -", "shared"},
		{"crontab -l", "local"},
		{"crontab -u alice -l", "local"},
		{"systemctl restart nginx", "shared"},
		{"systemctl stop postgresql", "shared"},
		{"systemctl enable --now docker", "shared"},
		{"systemctl --user start app.service", "shared"},
		{"systemctl mask sshd", "shared"},
		{"systemctl daemon-reload", "shared"},
		{"systemctl poweroff", "shared+destructive"},
		{"systemctl -H prod restart nginx", "external"},
		{"systemctl status nginx", "local"},
		{"systemctl is-active --quiet nginx", "local"},
		{"systemctl list-units --type=service", "local"},
		{"systemctl", "local"},
		{"systemctl -p MainPID show nginx", "local"},
		{"service nginx restart", "shared"},
		{"service nginx status", "local"},
		{"service --status-all", "local"},
		{"kill 1234", "local"},
		{"kill -9 1234", "local"},
		{"kill -s TERM 1234", "local"},
		{"kill -l", "local"},
		{"kill -9 -1", "local+destructive"},
		{"kill -- -1", "local+destructive"},
		{"kill -KILL -1", "local+destructive"},
		{"kill -1 1234", "local"},
		{"shutdown -h now", "shared+destructive"},
		{"shutdown -r +5", "shared+destructive"},
		{"shutdown -c", "shared"},
		{"sudo reboot", "shared+destructive"},
		{"halt", "shared+destructive"},
		{"poweroff --help", "local"},
		{"init 0", "shared+destructive"},
		{"telinit 6", "shared+destructive"},
		{"init 1", "shared"},
		{"./init setup --force", "local"},
		{"iptables -F", "shared+destructive"},
		{"iptables -t nat --flush", "shared+destructive"},
		{"sudo iptables -A INPUT -p tcp --dport 22 -j ACCEPT", "shared"},
		{"iptables -P INPUT DROP", "shared"},
		{"iptables -L -n -v", "local"},
		{"iptables -nvL", "local"},
		{"iptables -S", "local"},
		{"iptables-restore < rules.v4", "shared"},
		{"iptables-save", "local"},
		{"nft flush ruleset", "shared+destructive"},
		{"nft 'delete table inet filter'", "shared+destructive"},
		{"nft add rule inet filter input tcp dport 22 accept", "shared"},
		{"nft -f /etc/nftables.conf", "shared"},
		{"nft list ruleset", "local"},
		{"nft -c -f rules.nft", "local"},
		{"ufw disable", "shared"},
		{"ufw --force reset", "shared+destructive"},
		{"ufw allow 22/tcp", "shared"},
		{"ufw status verbose", "local"},
		{"ufw --dry-run allow 80", "local"},
	},
}

// filesCrontab rates crontab: -r deletes every job, -l lists, and anything
// else installs or edits the table.
func filesCrontab(args []string) Effect {
	p := argv.Spec{Short: "uc"}.Parse(args)
	switch {
	case p.Has("-r"):
		return shared("cron.remove", "crontab -r deletes every scheduled job").destroys()
	case p.Has("-l", "-T", "-V"):
		return nothing
	case p.Has("-e"):
		return shared("cron.edit", "crontab -e edits the scheduled jobs")
	}
	return shared("cron.install", "crontab installs a new table of scheduled jobs, replacing the old one")
}

// filesSystemctlReads lists systemctl verbs that only report.
func filesSystemctlReads(name string) bool {
	switch name {
	case "status", "show", "cat", "is-active", "is-enabled", "is-failed", "is-system-running",
		"list-units", "list-unit-files", "list-sockets", "list-timers", "list-jobs", "list-dependencies",
		"list-machines", "list-automounts", "list-paths", "help", "show-environment", "get-default", "whoami",
		"log-level", "log-target", "service-log-level":
		return true
	}
	return false
}

// filesSystemctlStops lists systemctl verbs that stop the whole machine or
// everything running on it.
func filesSystemctlStops(name string) bool {
	switch name {
	case "poweroff", "reboot", "halt", "kexec", "soft-reboot", "rescue", "emergency":
		return true
	}
	return false
}

// filesSystemctl rates systemctl: reads report; other verbs change what
// runs; power verbs stop the machine. -H runs it on another host.
func filesSystemctl(args []string) Effect {
	p := argv.Spec{Short: "tspHMno", Long: []string{"--type", "--state", "--signal", "--property", "--host", "--machine",
		"--lines", "--output", "--root", "--image", "--job-mode", "--kill-whom", "--kill-value", "--message", "--what",
		"--boot-loader-entry", "--boot-loader-menu", "--reboot-argument", "--timestamp", "--preset-mode", "--when",
		"--check-inhibitors", "--drop-in"}}.Parse(args)
	if len(p.Operands) == 0 {
		return nothing // lists units
	}
	verb := p.Operands[0]
	var e Effect
	switch {
	case filesSystemctlReads(verb):
		return nothing
	case filesSystemctlStops(verb):
		e = shared("systemctl.power", "systemctl "+verb+" stops the machine or everything running on it").destroys()
	default:
		e = shared("systemctl.change", "systemctl "+verb+" changes which system services run")
	}
	if host, ok := p.Value("-H", "--host"); ok {
		e.Tier = External
		e.Reasons = []Reason{{"systemctl.remote", "systemctl -H " + host + " " + verb + " changes services on another machine"}}
	}
	return e
}

// filesService rates the SysV service wrapper: "service NAME status"
// reads, other actions start or stop the service.
func filesService(args []string) Effect {
	ops := operandsOf(args)
	if len(ops) < 2 || ops[1] == "status" {
		return nothing
	}
	return shared("service.change", "service "+ops[0]+" "+ops[1]+" changes a system service")
}

// filesKill rates kill: signalling processes is ordinary work, except the
// pid -1, which reaches every process the user may signal (this session
// included).
func filesKill(args []string) Effect {
	signal, pids := false, false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			if hasAny(args[i+1:], "-1") {
				return filesKillAll()
			}
			return nothing
		case a == "-l" || a == "-L":
			return nothing
		case (a == "-s" || a == "-n") && !pids:
			signal = true
			i++
		case strings.HasPrefix(a, "-") && !signal && !pids:
			signal = true
		case a == "-1":
			return filesKillAll()
		default:
			pids = true
		}
	}
	return nothing
}

// filesKillAll is the effect of signalling pid -1.
func filesKillAll() Effect {
	return local("kill.all", "kill -1 signals every process you own, this session included").destroys()
}

// filesIptables rates iptables by its command letters: -F flushes every
// rule, -L/-S/-C only read, any other command changes the rules.
func filesIptables(name string, args []string) Effect {
	reads, writes := false, false
	for _, a := range args {
		switch a {
		case "--flush":
			return filesFlush(name)
		case "--list", "--list-rules", "--check", "--version":
			reads = true
			continue
		case "--append", "--insert", "--delete", "--replace", "--policy", "--new-chain", "--delete-chain", "--rename-chain", "--zero":
			writes = true
			continue
		}
		if len(a) < 2 || a[0] != '-' || a[1] == '-' {
			continue
		}
		for _, c := range a[1:] {
			switch {
			case c == 'F':
				return filesFlush(name)
			case c == 'L' || c == 'S' || c == 'C' || c == 'V':
				reads = true
			case c >= 'A' && c <= 'Z':
				writes = true
			}
		}
	}
	if reads && !writes {
		return nothing
	}
	return shared("firewall.change", name+" changes the firewall rules")
}

// filesFlush is the effect of flushing every iptables rule.
func filesFlush(name string) Effect {
	return shared("firewall.flush", name+" -F deletes every firewall rule in the table").destroys()
}

// filesNft rates nft: flushing the ruleset or deleting a table removes
// rules wholesale; list commands read.
func filesNft(args []string) Effect {
	p := argv.Spec{Short: "fID", Long: []string{"--file", "--includepath", "--define"}}.Parse(args)
	if p.Has("-c", "--check") {
		return nothing
	}
	if f, ok := p.Value("-f", "--file"); ok {
		return shared("firewall.change", "nft -f "+f+" loads firewall rules")
	}
	words := strings.Fields(strings.Join(p.Operands, " "))
	if len(words) == 0 {
		return nothing
	}
	switch words[0] {
	case "list", "describe", "monitor", "help":
		return nothing
	case "flush", "delete", "destroy":
		if len(words) > 1 && (words[1] == "ruleset" || words[1] == "table") {
			return shared("firewall.flush", "nft "+words[0]+" "+words[1]+" deletes firewall rules wholesale").destroys()
		}
	}
	return shared("firewall.change", "nft "+words[0]+" changes the firewall rules")
}

// filesUfw rates ufw: reset deletes every rule, status reads, the rest
// changes the firewall.
func filesUfw(args []string) Effect {
	if hasAny(args, "--dry-run") {
		return nothing
	}
	ops := operandsOf(args)
	if len(ops) == 0 {
		return nothing
	}
	switch ops[0] {
	case "status", "show", "version", "help":
		return nothing
	case "app":
		if len(ops) > 1 && (ops[1] == "list" || ops[1] == "info") {
			return nothing
		}
	case "reset":
		return shared("firewall.reset", "ufw reset deletes every firewall rule").destroys()
	case "disable":
		return shared("firewall.disable", "ufw disable turns the firewall off")
	}
	return shared("firewall.change", "ufw "+ops[0]+" changes the firewall rules")
}
