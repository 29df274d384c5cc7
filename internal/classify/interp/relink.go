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
