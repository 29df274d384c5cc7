package run

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A submodule repository made inside airlock run (git init
// --separate-git-dir=.git/modules/x, git submodule add) is not fenced: its
// directory did not exist when the plan was made, and .git/modules stays
// writable so that submodules can be cloned and committed to inside. Its
// config and hooks run at the human's next git command outside
// (core.fsmonitor runs at git status in the superproject: FINDINGS-9
// C1). After the run, NewModuleFiles names what of such a repository
// must be set aside before the human's next git command: a config that
// holds a key git's own commands do not write there (core.fsmonitor,
// core.hooksPath, include.path, filters, aliases, …), and every hook
// that is not one of git's *.sample files. A config of only the keys
// git init, git clone and git submodule write stays: the submodule
// keeps working.

// NewModuleFiles returns the files of the submodule repositories under
// project's .git/modules that are not among before (the plan's
// GitModules) that run programs at a git command: a config with a key
// outside gitWrites, hooks other than *.sample.
func NewModuleFiles(project string, before []string) []string {
	if project == "" {
		return nil
	}
	var out []string
	for _, m := range gitModules(filepath.Join(project, ".git", "modules"), 0) {
		if slices.Contains(before, m) {
			continue
		}
		cfg := filepath.Join(m, "config")
		if !plainGitConfig(cfg) {
			out = append(out, cfg)
		}
		for _, name := range []string{"config.worktree"} {
			if _, err := os.Lstat(filepath.Join(m, name)); err == nil {
				out = append(out, filepath.Join(m, name))
			}
		}
		ents, _ := os.ReadDir(filepath.Join(m, "hooks"))
		for _, e := range ents {
			if !strings.HasSuffix(e.Name(), ".sample") {
				out = append(out, filepath.Join(m, "hooks", e.Name()))
			}
		}
	}
	return out
}

// plainGitConfig reports a git config file (not a link) whose every key
// is one git init, git clone or git submodule writes (gitWrites), and
// that it can read: one with any other key, an include, a line it does
// not parse, or a size past 64 KiB is not plain.
func plainGitConfig(path string) bool {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > 64<<10 {
		return err != nil && os.IsNotExist(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	section := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if strings.HasSuffix(line, "\\") {
			return false // a continued value: not read here
		}
		if line[0] == '[' {
			end := strings.IndexByte(line, ']')
			if end < 0 || strings.TrimSpace(line[end+1:]) != "" && !strings.HasPrefix(strings.TrimSpace(line[end+1:]), "#") {
				return false
			}
			head := line[1:end]
			name, _, _ := strings.Cut(head, " ")
			name, _, _ = strings.Cut(name, ".")
			section = strings.ToLower(strings.TrimSpace(name))
			continue
		}
		key, _, _ := strings.Cut(line, "=")
		key = strings.ToLower(strings.TrimSpace(key))
		if section == "" || !gitWrites(section, key) {
			return false
		}
	}
	return sc.Err() == nil
}

// gitWrites reports a config key that git init, git clone and git
// submodule write into a repository's config, none of which runs a
// program.
func gitWrites(section, key string) bool {
	switch section {
	case "core":
		switch key {
		case "repositoryformatversion", "filemode", "bare", "logallrefupdates", "worktree", "ignorecase",
			"precomposeunicode", "symlinks", "autocrlf", "eol", "sharedrepository":
			return true
		}
	case "remote":
		switch key {
		case "url", "fetch", "pushurl", "tagopt", "promisor", "partialclonefilter", "mirror":
			return true
		}
	case "branch":
		return key == "remote" || key == "merge" || key == "rebase"
	case "submodule":
		return key == "url" || key == "active" || key == "branch"
	case "extensions":
		return key == "objectformat"
	case "user":
		return key == "name" || key == "email"
	case "init":
		return key == "defaultbranch"
	}
	return false
}
