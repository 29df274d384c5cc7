package interp

import "testing"

// TestRelinkFindings: code that moves files or makes links is reported as
// a Relink finding (read by policy's grading of a later deletion); code
// that only mentions the names in text or uses a string's replace is not.
func TestRelinkFindings(t *testing.T) {
	for _, c := range []struct {
		lang, src string
		want      bool
	}{
		{Python, `import os; os.rename("/home/u/t", "build/t")`, true},
		{Python, `import os; os.replace("a", "build/a")`, true},
		{Python, `import shutil; shutil.move("/srv/data", "build/")`, true},
		{Python, `from shutil import move; move("/srv/data", "build/")`, true},
		{Python, `import os; os.symlink("/srv", "build/l")`, true},
		{Python, `from pathlib import Path; Path("build/l").symlink_to("/srv")`, true},
		{Python, `import os; os.link("/srv/db", "build/db")`, true},
		{JavaScript, `require("fs").renameSync("/srv/data", "build/t")`, true},
		{JavaScript, `const fs = require("fs"); fs.symlinkSync(process.env.HOME, "dist/tmp")`, true},
		{JavaScript, `require("fs-extra").moveSync("/srv/data", "build/t")`, true},
		{Ruby, `require "fileutils"; FileUtils.mv("/srv/data", "build/")`, true},
		{Ruby, `File.symlink("/srv", "build/l")`, true},
		{Perl, `rename "/srv/data", "build/t"`, true},
		{Perl, `symlink "/srv", "build/l"`, true},
		{Python, `print("rename and move and symlink")`, false},
		{Python, `s = "a-b"; print(s.replace("-", "_"))`, false},
		{JavaScript, `console.log("x".replace("a", "b"))`, false},
	} {
		r := Analyse("x", c.lang, c.src)
		got := false
		for _, f := range r.Findings {
			got = got || f.Kind == Relink && f.Rule == "interp.relink"
		}
		if got != c.want {
			t.Errorf("%s %q: relink finding %v, want %v (%+v)", c.lang, c.src, got, c.want, r.Findings)
		}
	}
}
