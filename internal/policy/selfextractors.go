package policy

import (
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/airlock-dev/airlock/internal/classify"
)

// This file gives the links other extractors make to the phase of
// self-protection that reads the links a command makes before it uses
// them (selfmadelinks.go; close variants of FINDINGS-6 F8): cmake -E tar
// x, the archive front ends (unar, atool/aunpack, ark --batch, dtrx,
// patool extract, unp), and code of Perl (Archive::Tar, Archive::Extract,
// Archive::Zip), Node (tar's x/extract, adm-zip, extract-zip, unzipper,
// decompress), Ruby (Minitar, Gem::Package, Zip::File) and PHP (PharData,
// ZipArchive) that extracts. The archive is read at decision time as tar's
// is, its links placed in the directory extracted into and, for the front
// ends that make one when an archive has several top-level entries, in a
// directory named after the archive; code whose archive is not a literal
// name taints the directory it runs in.

// archiveName matches a string literal naming an archive in code.
var (
	codeArchiveOnce sync.Once
	codeArchiveRes  [3]*regexp.Regexp
)

func codeArchiveRe() [3]*regexp.Regexp {
	codeArchiveOnce.Do(func() {
		codeArchiveRes = [3]*regexp.Regexp{
			// an archive's name as a string literal
			regexp.MustCompile(`['"]([^'"\s]+\.(?:tar|tgz|tar\.gz|tbz2?|tar\.bz2|txz|tar\.xz|zip|jar|whl|gem|phar))['"]`),
			// the calls that extract
			regexp.MustCompile(`extract_archive|Archive::Extract|Archive::Tar|Archive::Zip|extractTree|extractMember|` +
				`require\(\s*['"]tar['"]\s*\)|from\s+['"]tar['"]|\btar\.(?:x|extract)\(|adm-zip|extractAllTo|extract-zip|unzipper|decompress\(|` +
				`Minitar|Gem::Package|Zip::File|PharData|ZipArchive|extractTo\(`),
			// the directory given: node's cwd/C, PHP's extractTo, adm-zip's extractAllTo, extract-zip's dir
			regexp.MustCompile(`(?:\bcwd\s*:\s*|\bC\s*:\s*|extractTo\(\s*|extractAllTo\(\s*|\bdir\s*:\s*)(['"])([^'"]+)['"]`),
		}
	})
	return codeArchiveRes
}

// codeExtractions returns the archives interpreter code extracts, and
// where ("" archive: one not named literally).
func codeExtractions(code string) [][2]string {
	return extractionsIn(code, codeArchiveRe(), 1)
}

// extractionsIn reads extractions from code with a language's three
// expressions: res[0] names an archive (in submatch group), res[1] says
// the code extracts at all, res[2] names the directory (submatch 2). An
// extraction of no literal archive is ("", dir).
func extractionsIn(code string, res [3]*regexp.Regexp, group int) [][2]string {
	if !res[1].MatchString(code) {
		return nil
	}
	dir := "."
	if m := res[2].FindStringSubmatch(code); m != nil {
		dir = m[2]
	}
	var out [][2]string
	for _, m := range res[0].FindAllStringSubmatch(code, -1) {
		out = append(out, [2]string{m[group], dir})
	}
	if len(out) == 0 {
		out = append(out, [2]string{"", dir})
	}
	return out
}

// interpreterCode returns the code a Perl, Node, Ruby or PHP run is given
// on its command line (-e, -E, -r, --eval, -p) or its standard input.
func interpreterCode(inv *classify.Invocation) (string, bool) {
	name := inv.Name()
	var flags []string
	switch {
	case name == "perl":
		flags = []string{"-e", "-E"}
	case name == "node" || name == "nodejs" || name == "bun" || name == "deno":
		flags = []string{"-e", "--eval", "-p", "--print", "eval"}
	case name == "ruby":
		flags = []string{"-e"}
	case name == "php":
		flags = []string{"-r"}
	default:
		return "", false
	}
	var code []string
	for i := 1; i+1 < len(inv.Args); i++ {
		for _, f := range flags {
			if inv.Args[i] == f {
				code = append(code, inv.Args[i+1])
			}
		}
	}
	if len(code) == 0 && inv.StdinKnown {
		code = append(code, inv.StdinText)
	}
	return strings.Join(code, "\n"), len(code) > 0
}

// frontEndExtractions returns the archives an extracting program airlock
// reads here extracts, and where; sub says the program may put them in a
// directory named after the archive.
func frontEndExtractions(inv *classify.Invocation) (out [][2]string, sub bool) {
	args := inv.Args
	name := inv.Name()
	dirFlags := map[string]bool{}
	var ops []string
	start := 1
	switch name {
	case "cmake":
		// cmake -E tar xf ARCHIVE [FILES]: into the directory it runs in.
		if len(args) < 4 || args[1] != "-E" || args[2] != "tar" || !strings.Contains(strings.TrimPrefix(args[3], "-"), "x") {
			return nil, false
		}
		for _, a := range args[4:] {
			if !strings.HasPrefix(a, "-") {
				return [][2]string{{a, "."}}, false
			}
		}
		return nil, false
	case "unar":
		dirFlags = map[string]bool{"-o": true, "-output-directory": true, "--output-directory": true}
		sub = true
	case "aunpack", "atool":
		if name == "atool" && !hasArg(args, "-x") && !hasArg(args, "--extract") && !hasArg(args, "-X") && !strings.HasPrefix(strings.Join(args, " "), "atool --extract-to") {
			return nil, false
		}
		dirFlags = map[string]bool{"-X": true, "--extract-to": true}
		sub = true
	case "ark":
		if !hasArg(args, "--batch") && !hasArg(args, "-b") {
			return nil, false
		}
		dirFlags = map[string]bool{"--destination": true, "-o": true}
		sub = true
	case "dtrx", "unp":
		sub = true
	case "patool":
		if len(args) < 2 || args[1] != "extract" {
			return nil, false
		}
		start = 2
		dirFlags = map[string]bool{"--outdir": true}
		sub = true
	default:
		return nil, false
	}
	dir := "."
	for i := start; i < len(args); i++ {
		a := args[i]
		if flag, v, ok := strings.Cut(a, "="); ok && dirFlags[flag] {
			dir = v
			continue
		}
		if dirFlags[a] && i+1 < len(args) {
			dir = args[i+1]
			i++
			continue
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		if inv.IsDynamic(i) {
			a = ""
		}
		ops = append(ops, a)
	}
	for _, o := range ops {
		out = append(out, [2]string{o, dir})
	}
	return out, sub
}

func hasArg(args []string, a string) bool {
	for _, x := range args[1:] {
		if x == a {
			return true
		}
	}
	return false
}

// otherExtractions records the links the extractors of this file make.
func (c *call) otherExtractions(inv *classify.Invocation, cwd string) bool {
	if code, ok := interpreterCode(inv); ok {
		for _, x := range codeExtractions(code) {
			c.extractLinks(x[0], x[1], cwd)
		}
		return true
	}
	xs, sub := frontEndExtractions(inv)
	for _, x := range xs {
		c.extractLinks(x[0], x[1], cwd)
		if sub && x[0] != "" {
			base := filepath.Base(x[0])
			for _, ext := range []string{".tar.gz", ".tar.bz2", ".tar.xz", ".tgz", ".tbz2", ".txz", ".tar", ".zip", ".7z", ".rar"} {
				if strings.HasSuffix(base, ext) {
					base = strings.TrimSuffix(base, ext)
					break
				}
			}
			c.extractLinks(x[0], filepath.Join(x[1], base), cwd)
		}
	}
	return len(xs) > 0
}
