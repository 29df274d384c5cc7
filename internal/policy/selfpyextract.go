package policy

import (
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/airlock-dev/airlock/internal/classify"
)

// This file gives the links Python's archive modules make to the phase of
// self-protection that reads the links a command makes before it uses
// them (selfmadelinks.go; FINDINGS-6 F8): python3 -m tarfile -e evil.tar
// ., python3 -m zipfile -e evil.zip out, and tarfile.open("evil.tar")
// .extractall(), zipfile.ZipFile(…).extractall(DIR) or
// shutil.unpack_archive(…) in code the run executes (-c, a heredoc, a
// script file). The archive is read at decision time as tar's and unzip's
// are; where it is not named literally, or cannot be read, the directory
// extracted into is tainted: every path below it may be a link whose
// target is known only when the command runs.

// pyExtractRe finds what Python code extracts: the archive it opens, the
// call that extracts, and the directory given to it.
func pyExtractRe() [3]*regexp.Regexp {
	pyExtractOnce.Do(func() {
		pyExtractRes = [3]*regexp.Regexp{
			regexp.MustCompile(`(?:tarfile\.open|TarFile\.open|tarfile\.TarFile|TarFile|zipfile\.ZipFile|ZipFile|unpack_archive)\(\s*(?:name\s*=\s*|file\s*=\s*|filename\s*=\s*)?(['"])([^'"]+)['"]`),
			regexp.MustCompile(`\.extractall\(|\.extract\(|unpack_archive\(|\.extractfile\(`),
			regexp.MustCompile(`(?:extractall\(\s*(?:path\s*=\s*)?|unpack_archive\(\s*['"][^'"]*['"]\s*,\s*(?:extract_dir\s*=\s*)?)(['"])([^'"]+)['"]`),
		}
	})
	return pyExtractRes
}

// pyExtractOnce builds pyExtractRes on first use (no allocation at
// package initialisation).
var (
	pyExtractOnce sync.Once
	pyExtractRes  [3]*regexp.Regexp
)

// pythonProgram reports whether a program name is a Python interpreter.
func pythonProgram(name string) bool {
	return strings.HasPrefix(name, "python") || strings.HasPrefix(name, "pypy") || name == "py"
}

// pythonExtractions returns the archives a Python run extracts and where,
// as archive → directory ("" archive: one not named literally).
func (c *call) pythonExtractions(inv *classify.Invocation, cwd string) [][2]string {
	args := inv.Args
	var code string
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-m" && i+1 < len(args) || strings.HasPrefix(a, "-m") && len(a) > 2:
			var mod string
			var rest []string
			if a == "-m" {
				mod, rest = args[i+1], args[i+2:]
			} else {
				mod, rest = a[2:], args[i+1:]
			}
			if mod != "tarfile" && mod != "zipfile" {
				return nil
			}
			return moduleExtraction(rest)
		case a == "-c" && i+1 < len(args):
			code = args[i+1]
			i = len(args)
		case strings.HasPrefix(a, "-c") && len(a) > 2:
			code = a[2:]
			i = len(args)
		case a == "-W" || a == "-X" || a == "-Q":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			// A script file: its text, when it can be read.
			if !inv.IsDynamic(i) {
				p := filepath.Clean(c.g.rawAbs(a, cwd))
				if fi, err := c.g.fs.Lstat(p); err == nil && fi.Mode().IsRegular() && fi.Size() <= maxSourceBytes {
					if data, err := c.g.fs.ReadFile(p); err == nil {
						code = string(data)
					}
				}
			}
			i = len(args)
		}
	}
	if code == "" && inv.StdinKnown {
		code = inv.StdinText
	}
	if code == "" {
		return nil
	}
	return extractionsIn(code, pyExtractRe(), 2)
}

// moduleExtraction reads python -m tarfile/zipfile's own command line:
// -e/--extract ARCHIVE [DIR].
func moduleExtraction(rest []string) [][2]string {
	for j := 0; j < len(rest); j++ {
		if rest[j] != "-e" && rest[j] != "--extract" {
			continue
		}
		var ops []string
		for _, w := range rest[j+1:] {
			if !strings.HasPrefix(w, "-") {
				ops = append(ops, w)
			}
		}
		if len(ops) == 0 {
			return nil
		}
		archive, dir := ops[0], "."
		if len(ops) > 1 {
			dir = ops[1]
		}
		if strings.ContainsAny(archive, "$`") {
			archive = ""
		}
		return [][2]string{{archive, dir}}
	}
	return nil
}

// extractLinks records the links extracting archive into dir makes, or
// taints dir when they cannot be read.
func (c *call) extractLinks(archive, dir, cwd string) {
	d := filepath.Clean(c.g.rawAbs(dir, cwd))
	if archive == "" || strings.ContainsAny(dir, "$`") {
		c.res.taintBecause(d, "the code extracts an archive it does not name literally")
		return
	}
	links, ok := c.archiveLinks(filepath.Clean(c.g.rawAbs(archive, cwd)))
	if !ok {
		c.res.taintBecause(d, archiveLimit(archive))
		return
	}
	for name, target := range links {
		c.res.addLink(filepath.Join(d, name), target)
	}
}
