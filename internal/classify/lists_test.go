package classify

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/airlock-dev/airlock/internal/shell"
)

// Archivers and copiers that take their file list from standard input or
// a file read the files the list names: a list known now gives those
// paths as read operands, one fed at run time the placeholder ListInput;
// runs with no list add nothing.
func TestListedFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "l"), []byte("/secret/a\nrel/b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := Classifier{Limits: shell.DefaultLimits, FS: DirFS(dir)}
	for _, tc := range []struct {
		cmd  string
		want []string // the words of the list operands
	}{
		{"find ~ -name x | tar -cf o.tar -T -", []string{ListInput}},
		{"tar -cf o.tar --files-from <(find ~ -name x)", []string{ListInput}},
		{"tar -cf o.tar --files-from=l", []string{"/secret/a", "rel/b"}},
		{"tar -T l -czf o.tgz", []string{"/secret/a", "rel/b"}},
		{"tar cvf o.tar -T l", []string{"/secret/a", "rel/b"}},
		{"echo /secret/a | cpio -o > o.cpio", []string{"/secret/a"}},
		{"cpio -o < l > o.cpio", []string{"/secret/a", "rel/b"}},
		{"find . | cpio -pdm out", []string{ListInput}},
		{"find . | zip o.zip -@", []string{ListInput}},
		{"7z a o.7z @l", []string{"/secret/a", "rel/b"}},
		{"7z a o.7z @missing", []string{ListInput}},
		{"rsync -a --files-from=l /src /dst", []string{"/secret/a", "/src/rel/b"}},
		{"tar -xf o.tar -T l", nil},
		{"tar -cf o.tar src", nil},
		{"zip -r o.zip src", nil},
		{"cpio -i < o.cpio", nil},
	} {
		r := c.Command(tc.cmd)
		var got []string
		for _, inv := range r.Invocations {
			for _, o := range inv.Operands {
				if o.Arg == -1 && o.Role == RoleRead && (o.Word == ListInput || !o.Dynamic && o.Recursive) {
					got = append(got, o.Word)
				}
			}
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: list operands %q, want %q", tc.cmd, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: list operands %q, want %q", tc.cmd, got, tc.want)
				break
			}
		}
	}
}
