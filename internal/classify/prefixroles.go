package classify

import "strings"

// A build's configuration step records where a later install step will
// put files; it writes nothing there (FINDINGS-10 B9: ./configure
// --prefix=$HOME/.local, cmake -DCMAKE_INSTALL_PREFIX=…, meson setup
// --prefix …). The prefix is given the role of a file written, not of a
// tree: a prefix inside airlock's files is still refused, a prefix above
// them (~/.local, above ~/.local/state/airlock) is not taken for a
// write of everything below it. The install step (make install, cmake
// --install, meson install) is judged on its own.

// prefixOption returns the value of an install-location option of a
// configuration step, and the index of the word that holds it (i, or
// i+1 when the value is the next word); ok is false for other words.
func prefixOption(name string, args []string, i int) (value string, at int, ok bool) {
	a := args[i]
	switch name {
	case "configure":
		// --prefix, --exec-prefix and the --*dir= options (bindir,
		// libdir, datarootdir …) of an autoconf script.
		k, v, eq := strings.Cut(a, "=")
		if eq && (k == "--prefix" || k == "--exec-prefix" || strings.HasPrefix(k, "--") && strings.HasSuffix(k, "dir") && k != "--srcdir") {
			return v, i, true
		}
	case "cmake":
		for _, p := range []string{"-DCMAKE_INSTALL_PREFIX=", "-DCMAKE_INSTALL_PREFIX:PATH=", "-DCMAKE_INSTALL_PREFIX:STRING=", "--install-prefix="} {
			if v, found := strings.CutPrefix(a, p); found {
				return v, i, true
			}
		}
		if a == "--install-prefix" && i+1 < len(args) {
			return args[i+1], i + 1, true
		}
	case "meson":
		for _, p := range []string{"--prefix=", "-Dprefix="} {
			if v, found := strings.CutPrefix(a, p); found {
				return v, i, true
			}
		}
		if a == "--prefix" && i+1 < len(args) {
			return args[i+1], i + 1, true
		}
	}
	return "", 0, false
}

// prefixRoles gives the install prefix of a configuration step its
// role; every other word keeps the reading of a word with no role.
func (b *roleBuilder) prefixRoles() bool {
	name, args := b.inv.Name(), b.inv.Args
	switch name {
	case "configure":
	case "cmake", "meson":
		if len(args) > 1 && (args[1] == "--install" || args[1] == "install" || args[1] == "--build" || args[1] == "compile") {
			return false
		}
	default:
		return false
	}
	found := false
	for i := 1; i < len(args); i++ {
		v, at, ok := prefixOption(name, args, i)
		if !ok || v == "" {
			continue
		}
		found = true
		b.ops = append(b.ops, Operand{Word: v, Role: RoleWrite, Arg: at, Dynamic: b.inv.IsDynamic(at)})
		i = at
	}
	if !found {
		return false
	}
	// The other words: as a program classify does not know.
	for i := 1; i < len(args); i++ {
		if _, at, ok := prefixOption(name, args, i); ok {
			i = at
			continue
		}
		if nameValue(b.inv, i) && !b.inv.IsDynamic(i) {
			b.add(i, RoleRead, false)
			continue
		}
		if a := args[i]; !strings.HasPrefix(a, "-") || a == "-" || b.inv.IsDynamic(i) {
			b.add(i, RoleUnknown, false)
		}
	}
	return true
}

// installSubdirs are the directories below a prefix an install step
// writes (autoconf's, CMake's GNUInstallDirs' and meson's defaults).
var installSubdirs = []string{"bin", "sbin", "lib", "lib64", "libexec", "include", "share", "etc", "var", "com"}

// installPrefixes gives an install step (make install, cmake --install,
// meson install, ninja install) of a command whose configuration step
// names a prefix what it writes below that prefix, everything in its
// bin, lib, share … directories: where airlock's binary may be
// (./configure --prefix=/opt/airlock && make install replaces
// /opt/airlock/bin/airlock).
func installPrefixes(runs []Invocation) {
	type prefix struct {
		word    string
		dynamic bool
	}
	var prefixes []prefix
	for _, r := range runs {
		name, args := r.Name(), r.Args
		if name != "configure" && name != "cmake" && name != "meson" {
			continue
		}
		for i := 1; i < len(args); i++ {
			if v, at, ok := prefixOption(name, args, i); ok && v != "" {
				prefixes = append(prefixes, prefix{v, r.IsDynamic(at)})
				i = at
			}
		}
	}
	// make install PREFIX=… alone is judged by the makefile's recipes
	// (makereads); after a configuration step in the same command the
	// makefile is the one it writes, not the one there now.
	for i := range runs {
		if len(prefixes) == 0 {
			break
		}
		if !installStep(runs[i].Args) {
			continue
		}
		for _, p := range prefixes {
			for _, sub := range installSubdirs {
				runs[i].Operands = append(runs[i].Operands, Operand{Word: strings.TrimSuffix(p.word, "/") + "/" + sub, Role: RoleWrite, Arg: -1, Dynamic: p.dynamic, Recursive: true})
			}
		}
	}
}

// installStep reports whether a run installs what a build made.
func installStep(args []string) bool {
	if len(args) < 2 {
		return false
	}
	switch progName(args[0]) {
	case "make", "gmake", "ninja", "samu":
		for _, a := range args[1:] {
			if a == "install" || strings.HasPrefix(a, "install-") {
				return true
			}
		}
	case "cmake":
		return args[1] == "--install"
	case "meson":
		return args[1] == "install"
	}
	return false
}
