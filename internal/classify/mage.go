package classify

import (
	"path"
	"strconv"
	"strings"

	"github.com/airlock-dev/airlock/internal/argv"
	"github.com/airlock-dev/airlock/internal/shell"
)

// mage compiles the project's magefiles (Go files with the mage build
// tag in the directory, or every Go file in magefiles/) and runs the
// targets asked for. airlock does not read Go, so mage is rated as go run
// is (local); its magefiles are handed to self-protection as code
// (Result.Code), which refuses one that names airlock's verbs or files,
// as it does a script an interpreter runs (FINDINGS-4 K5). A magefile
// directory that cannot be listed or read, more files than maxMageFiles,
// or -gocmd (another program compiles them) make the run opaque.

// maxMageFiles bounds the Go files read for one mage run.
const maxMageFiles = 64

func (c *Classifier) mageRun(inv *shell.Invocation) Effect {
	p := argv.Spec{Short: "dwt", Long: []string{"-gocmd", "-goos", "-goarch", "-ldflags", "-compile", "-timeout"}, LongSingleDash: true}.Parse(inv.Args[1:])
	if p.Has("-l", "-h", "-version", "-init", "-clean", "--help", "--version") {
		return nothing
	}
	if _, ok := p.Value("-gocmd"); ok {
		return opaque("mage.gocmd", "mage -gocmd compiles the magefiles with another program, which airlock does not read")
	}
	if c.FS == nil {
		return nothing
	}
	if inv.AnyDynamic(1) {
		return opaque("script.dynamic", "mage is given words computed at run time, so which magefiles it runs cannot be known")
	}
	dir, given := p.Value("-d")
	all := given
	if !given {
		dir = "magefiles"
	}
	dir, known := runDir(inv, dir)
	if !known {
		return opaque("script.cwd", "mage runs in a directory known only at run time, so which magefiles it compiles cannot be known")
	}
	if !given {
		if st, err := c.FS.Stat(fsName(dir)); err == nil && st.IsDir() {
			all = true
		} else {
			dir = path.Dir(dir)
		}
	}
	entries, err := c.readDir(dir)
	if err != nil {
		if exists, known := c.exists(dir); known && !exists {
			return nothing // no magefiles: mage fails
		}
		return opaque("script.unreadable", "mage reads the Go files in "+dir+", which airlock cannot list ("+err.Error()+")")
	}
	read := 0
	for _, en := range entries {
		if en.IsDir() || !strings.HasSuffix(en.Name(), ".go") || strings.HasSuffix(en.Name(), "_test.go") {
			continue
		}
		name := path.Join(dir, en.Name())
		data, err := c.readFile(name)
		if err != nil {
			return opaque("script.unreadable", name+", a magefile, cannot be read ("+err.Error()+"), so what mage runs cannot be known")
		}
		if !all && !mageTagged(string(data)) {
			continue
		}
		read++
		if read > maxMageFiles {
			return opaque("script.limit", "limit reached: mage would compile more than "+strconv.Itoa(maxMageFiles)+" magefiles")
		}
		c.keepCode("mage "+name, name, data)
	}
	return nothing
}

// mageTagged reports a Go file built only for mage (//go:build mage, or
// the older // +build mage), read from its header.
func mageTagged(src string) bool {
	for _, l := range strings.Split(src, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "package ") {
			return false
		}
		if c, ok := strings.CutPrefix(l, "//go:build "); ok && strings.Contains(c, "mage") {
			return true
		}
		if c, ok := strings.CutPrefix(l, "// +build "); ok && strings.Contains(c, "mage") {
			return true
		}
	}
	return false
}

// runDir is the directory a runner is told to use (-C DIR, "" for its
// own), relative to the classifier's FS, which is already seen from the
// directory the text's cd left the run in (Classifier.invocation); false
// when that one is only known at run time.
func runDir(inv *shell.Invocation, dir string) (string, bool) {
	if inv.Dir == shell.DirUnknown {
		return "", false
	}
	return dir, true
}
