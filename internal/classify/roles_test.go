package classify

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/airlock-dev/airlock/internal/shell"
)

// TestOperandRoles checks the role each path of a run gets, and that
// what is not known stays unknown.
func TestOperandRoles(t *testing.T) {
	type op struct {
		word, role string
		rec        bool
		pattern    string
	}
	for _, tc := range []struct {
		cmd  string
		want []op // in order, redirections first
	}{
		{"cat a b", []op{{"a", "read", false, ""}, {"b", "read", false, ""}}},
		{"grep -r x src", []op{{"x", "read", true, ""}, {"src", "read", true, ""}}},
		{"rm -rf build dist", []op{{"build", "delete", true, ""}, {"dist", "delete", true, ""}}},
		{"rm a.txt", []op{{"a.txt", "delete", false, ""}}},
		{"cp a b dir", []op{{"a", "read", false, ""}, {"b", "read", false, ""}, {"dir", "write", false, ""}, {"dir/a", "write", false, ""}, {"dir/b", "write", false, ""}}},
		{"cp -r src out", []op{{"src", "read", true, ""}, {"out", "write", true, ""}, {"out/src", "write", true, ""}}},
		{"mv old new", []op{{"old", "moved-from", true, ""}, {"new", "moved-to", true, ""}, {"new/old", "moved-to", true, ""}}},
		{"echo hi > out.txt", []op{{"out.txt", "write", false, ""}}},
		{"sort < in.txt", []op{{"in.txt", "read", false, ""}}},
		{"tee -a log", []op{{"log", "write", false, ""}}},
		{"dd if=a of=b", []op{{"a", "read", false, ""}, {"b", "write", false, ""}}},
		{"touch x", []op{{"x", "create", false, ""}}},
		{"mkdir -p a/b", []op{{"a/b", "create", false, ""}}},
		{"sed -i 's/a/b/' f", []op{{"f", "write", false, ""}}},
		{"sed 's/a/b/' f", []op{{"f", "read", false, ""}}},
		{"perl -pi -e 's/a/b/' f", []op{{"f", "write", false, ""}}},
		{"chmod -R a-w .", []op{{".", "write", true, ""}}},
		{"chmod -w f", []op{{"f", "write", false, ""}}},
		{"tar czf /tmp/x.tgz .", []op{{"/tmp/x.tgz", "write", false, ""}, {".", "read", true, ""}}},
		{"tar -xzf x.tgz -C out", []op{{"x.tgz", "read", false, ""}, {"out", "write", true, ""}}},
		{"tar xf x.tar", []op{{"x.tar", "read", false, ""}, {".", "write", false, ""}}},
		{"zip -r o.zip src", []op{{"o.zip", "write", false, ""}, {"src", "read", true, ""}}},
		{"find . -name '*.pyc' -delete", []op{{".", "read", true, ""}, {".", "delete", true, "*.pyc"}}},
		{"find src -path './src/gen/*' -exec rm -rf {} +", []op{{"src", "read", true, ""}, {"src", "delete", true, "./src/gen/*"}}},
		{"find . -name x -o -name y -delete", []op{{".", "read", true, ""}, {".", "delete", true, "y"}}},
		{"find . \\( -name x -o -name y \\) -delete", []op{{".", "read", true, ""}, {".", "delete", true, "x"}, {".", "delete", true, "y"}}},
		{"find . -name x -o -delete", []op{{".", "read", true, ""}, {".", "delete", true, ""}}},
		{"find . \\( -name x -o -type f \\) -delete", []op{{".", "read", true, ""}, {".", "delete", true, ""}}},
		{"find . ! \\( -name x -o -name y \\) -delete", []op{{".", "read", true, ""}, {".", "delete", true, ""}}},
		{"find . -name x , -delete", []op{{".", "read", true, ""}, {".", "delete", true, ""}}},
		{"find . -name x -frobnicate -o -name y -delete", []op{{".", "read", true, ""}, {".", "delete", true, ""}}},
		{"find . -name '*.go' -exec grep -l x {} +", []op{{".", "read", true, ""}, {".", "read", true, "*.go"}}},
		{"find . -exec frobnicate {} +", []op{{".", "read", true, ""}, {".", "unknown", true, ""}}},
		{"find . -fprint list.txt", []op{{".", "read", true, ""}, {"list.txt", "write", false, ""}}},
		{"find . -type d -empty -delete", []op{{".", "read", true, ""}}},
		{"git rm -r old", []op{{"old", "delete", true, ""}}},
		{"git rm --cached f", []op{{"f", "read", false, ""}}},
		{"git checkout -- f", []op{{"f", "write", false, ""}}},
		{"git add .", []op{{".", "read", false, ""}}},
		// Without "--" a word may be a revision or a path: either is read.
		{"git diff .claude/settings.json", []op{{".claude/settings.json", "read", false, ""}}},
		{"git log --oneline HEAD a", []op{{"HEAD", "read", false, ""}, {"a", "read", false, ""}}},
		// --output FILE writes FILE.
		{"git diff --output out.txt a", []op{{"out.txt", "write", false, ""}, {"a", "read", false, ""}}},
		{"git diff -- a", []op{{"a", "read", false, ""}}},
		{"bash x.sh", []op{{"x.sh", "exec", false, ""}}},
		{"frobnicate a b", []op{{"a", "unknown", false, ""}, {"b", "unknown", false, ""}}},
		{"scp a host:b", []op{{"a", "read", false, ""}}},
	} {
		r := Command(tc.cmd)
		got := r.Invocations[0].Operands
		var g, w []string
		for _, o := range got {
			g = append(g, o.Word+":"+o.Role.String()+":"+map[bool]string{true: "r", false: ""}[o.Recursive]+":"+o.Pattern)
		}
		for _, o := range tc.want {
			w = append(w, o.word+":"+o.role+":"+map[bool]string{true: "r", false: ""}[o.rec]+":"+o.pattern)
		}
		if strings.Join(g, " ") != strings.Join(w, " ") {
			t.Errorf("%s:\n got  %v\n want %v", tc.cmd, g, w)
		}
	}
}

// TestPlaceholderRoles: the run of find -exec gets find's start paths,
// with find's pattern, in place of "{}".
func TestPlaceholderRoles(t *testing.T) {
	r := Command("find . -type d -name __pycache__ -exec rm -rf {} +")
	if len(r.Invocations) != 2 {
		t.Fatalf("want find and rm, got %d runs", len(r.Invocations))
	}
	ops := r.Invocations[1].Operands
	if len(ops) != 1 || ops[0].Word != "." || ops[0].Role != RoleDelete || !ops[0].Recursive || ops[0].Pattern != "__pycache__" || ops[0].Arg != -1 {
		t.Errorf("rm {} via find -exec: got %+v", ops)
	}
	r = Command("find . -exec rm -f /tmp/x \\;")
	if ops := r.Invocations[1].Operands; len(ops) != 1 || ops[0].Word != "/tmp/x" || ops[0].Arg != 2 {
		t.Errorf("a run of find -exec without {} keeps its operands: %+v", ops)
	}
}

// TestFollowedFrom: the runs read from a followed script say which run
// of the command led to them.
func TestFollowedFrom(t *testing.T) {
	c := Classifier{Limits: shell.DefaultLimits, FS: fstest.MapFS{"x.sh": {Data: []byte("rm -rf build\n")}}}
	r := c.Command("ls; bash x.sh")
	if len(r.Followed) != 1 || r.Followed[0].From != 1 || r.Followed[0].Operands[0].Role != RoleDelete {
		t.Errorf("followed: %+v", r.Followed)
	}
}

// TestExtractUnlisted: an extraction's directory (named by -C, -d, -o,
// -D, or the one the run happens in) is marked Unlisted, since the
// archive names what is written there; listing and creating are not.
func TestExtractUnlisted(t *testing.T) {
	for _, tc := range []struct {
		cmd, dir string // dir "" means no Unlisted operand
	}{
		{"tar xf x.tar", "."},
		{"tar -xzf x.tgz -C out", "out"},
		{"tar --extract --file x.tar --directory=d", "d"},
		{"unzip -o x.zip", "."},
		{"unzip x.zip -d dest", "dest"},
		{"7z x a.7z", "."},
		{"7z x a.7z -o/tmp/out", "/tmp/out"},
		{"cpio -idm", "."},
		{"cpio -i -D dest", "dest"},
		{"jar xf a.jar", "."},
		{"ar x lib.a", "."},
		{"pax -r -f a.pax", "."},
		{"unrar x a.rar out/", "out/"},
		// Not extractions.
		{"tar tf x.tar", ""},
		{"tar czf x.tgz src", ""},
		{"unzip -l x.zip", ""},
		{"7z l a.7z", ""},
		{"cpio -o", ""},
		{"jar cf a.jar src", ""},
		{"ar rcs lib.a a.o", ""},
	} {
		r := Command(tc.cmd)
		got := ""
		for _, o := range r.Invocations[0].Operands {
			if o.Unlisted {
				got = o.Word
			}
		}
		if got != tc.dir {
			t.Errorf("%s: unlisted dir %q, want %q", tc.cmd, got, tc.dir)
		}
	}
}

// TestResultCode: the code of an interpreter script a command runs is in
// Result.Code, read from the FS or from the literal text an earlier run
// of the same command writes it with.
func TestResultCode(t *testing.T) {
	c := Classifier{Limits: shell.DefaultLimits, FS: fstest.MapFS{"a.py": {Data: []byte("print(1)\n")}}}
	for _, tc := range []struct{ cmd, want string }{
		{"python3 a.py", "print(1)\n"},
		{"printf 'import os\\n' > b.py && python3 b.py", "import os\n"},
		{"echo 'x = 2' > c.rb; ruby c.rb", "x = 2\n"},
		{"ls", ""},
		{"python3 -c 'print(3)'", ""}, // a one-liner is the run's own words
	} {
		r := c.Command(tc.cmd)
		got := ""
		for _, k := range r.Code {
			got += k.Text
		}
		if got != tc.want {
			t.Errorf("%s: code %q, want %q", tc.cmd, got, tc.want)
		}
	}
}
