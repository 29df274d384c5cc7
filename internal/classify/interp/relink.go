package interp

import "strings"

// relink records code that moves files or makes links, in any language
// read here: os.rename, shutil.move, os.symlink, Path.symlink_to,
// fs.renameSync, fs.symlinkSync, FileUtils.mv and ln_s, File.rename,
// Perl's rename, link and symlink, PHP's, Lua's and R's. Nothing is
// deleted by it, but a deletion later in the same command may then take
// what was moved into its place, or follow the link (FINDINGS-9 B6):
// policy's grading reads the rule interp.relink. It is read broadly (any
// receiver of rename, a bare move where a module that moves files is
// named): a false finding only keeps a later deletion from its snapshot.
func (s *interpScan) relink() {
	m := s.code.masked
	named := func(c interpCall) string {
		if c.recv != "" && c.recv != ")" {
			return c.recv + "." + c.name
		}
		return c.name
	}
	for _, c := range s.code.calls("rename", "renameSync", "renames", "symlink", "symlinkSync", "symlink_to", "hardlink_to", "link_to", "linkSync",
		"ln_s", "ln_sf", "ln_sfn", "moveSync", "move_file", "file.rename", "file.symlink", "file.link", "file.copy") {
		if c.called && (c.name != "file.copy" || strings.Contains(c.argText(), "link")) {
			s.relinkFound(named(c))
			if c.name != "rename" && c.name != "renameSync" && c.name != "renames" && c.name != "moveSync" && c.name != "move_file" && c.name != "file.rename" && c.name != "file.copy" && namesGitFiles(c.argText()) {
				// A link to git's hooks or configuration (FINDINGS-10
				// G2): writes through it change what git runs.
				s.add(Finding{Kind: Opaque, Rule: "interp.git-link", Message: s.who + " code makes a link to git's own files (" + Clip(named(c)) + "): a later write through it changes the hooks or configuration every git command runs"})
			}
			return
		}
	}
	movers := map[string]bool{"shutil": true, "FileUtils": true, "FU": true, "fs": true, "fse": true, "File::Copy": true, "os": true}
	for _, c := range s.code.calls("move", "mv", "ln", "link", "replace") {
		ok := movers[c.recv]
		switch c.name {
		case "replace":
			ok = c.recv == "os"
		case "move", "mv":
			ok = ok || c.recv == "" && (strings.Contains(m, "shutil") || strings.Contains(m, "File::Copy") || strings.Contains(m, "FileUtils"))
		case "link":
			ok = ok || c.recv == "File" || c.recv == "" && (s.code.lang == Perl || s.code.lang == PHP)
		}
		if ok && c.called {
			s.relinkFound(named(c))
			return
		}
	}
}

func (s *interpScan) relinkFound(fn string) {
	s.add(Finding{Kind: Relink, Rule: "interp.relink", Message: s.who + " code moves files or makes links (" + Clip(fn) + ")"})
}

// namesGitFiles reports code text naming git's directory (a path with a
// .git component) or the human's git configuration.
func namesGitFiles(text string) bool {
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return strings.ContainsRune("\"'`, ()", r) }) {
		for _, part := range strings.Split(f, "/") {
			if part == ".git" {
				return true
			}
		}
		if strings.Contains(f, ".config/git") || strings.HasSuffix(f, ".gitconfig") {
			return true
		}
	}
	return false
}
