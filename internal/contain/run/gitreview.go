package run

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The review of git's own configuration after the run (FINDINGS-10 C4,
// the second layer under the anchors of anchor.go). What git runs at the
// human's next command outside is resolved as that git would resolve it:
// the project's .git (a directory, a link, or a file whose "gitdir:"
// line names the repository), the commondir file, the common directory's
// config, config.worktree, every file they include (include.path,
// includeIf.*.path), and the hooks in core.hooksPath or the common
// directory's hooks; the same for each submodule repository under
// .git/modules. That set and every file's bytes are taken when the plan
// is made; after the run, a file of it that changed or appeared is set
// aside and what it held is put back, a .git directory that was replaced
// is put back from where it was moved, and a file that the resolution
// reaches only now (a redirection that could not be undone) is set aside.
// Nothing inside can race it: the sandbox's processes ended with it.

// WhyGit is the review's reason for each file it acts on.
const WhyGit = "git reads it as the repository's configuration or hooks (resolved as the human's git would: the .git file's gitdir, commondir, config.worktree, includes, core.hooksPath): a program it names runs at the human's next git command outside the sandbox"

// gitEntry is the table entry the review's findings carry.
var gitEntry = CodeFile{Pattern: ".git", Handling: Repo, Reason: WhyGit}

// GitState is git's resolved configuration and hooks at one time.
type GitState struct {
	project, home string
	modules       []string
	// dotgit is the project's .git as lstat found it (nil: none).
	dotgit fs.FileInfo
	// common is the project repository's common directory then: a
	// linked worktree made during the run names it in its commondir.
	common string
	// files are the resolved files, each as it was (Missing when it did
	// not exist).
	files map[string]fileState
}

// fileState is one file's content or, past maxKept, its identity.
type fileState struct {
	Missing bool
	Link    string
	Kept    *KeptFile
	Size    int64
	Ctime   int64
}

// TakeGit resolves git's configuration in project (and its submodule
// repositories, modules) and keeps each file's bytes.
func TakeGit(project, home string, modules []string) *GitState {
	g := &GitState{project: project, home: home, modules: modules, files: map[string]fileState{}}
	g.dotgit, _ = os.Lstat(filepath.Join(project, ".git"))
	if g.dotgit != nil && g.dotgit.IsDir() {
		g.common = commonDirOf(filepath.Join(project, ".git"))
	}
	for _, f := range gitResolve(project, home, modules) {
		g.files[f] = stateOf(f)
	}
	return g
}

func stateOf(p string) fileState {
	st, err := os.Lstat(p)
	if err != nil {
		return fileState{Missing: true}
	}
	s := fileState{Size: st.Size(), Ctime: changeTime(st).UnixNano()}
	switch {
	case st.Mode()&fs.ModeSymlink != 0:
		s.Link, _ = os.Readlink(p)
	case st.Mode().IsRegular() && st.Size() <= maxKept:
		if data, err := os.ReadFile(p); err == nil {
			s.Kept = &KeptFile{Data: data, Mode: st.Mode().Perm()}
		}
	}
	return s
}

func (s fileState) same(t fileState) bool {
	switch {
	case s.Missing || t.Missing:
		return s.Missing == t.Missing
	case s.Kept != nil && t.Kept != nil:
		return s.Kept.Mode == t.Kept.Mode && bytes.Equal(s.Kept.Data, t.Kept.Data)
	case s.Kept != nil || t.Kept != nil:
		return false
	}
	return s.Link == t.Link && s.Size == t.Size && s.Ctime == t.Ctime
}

// maxGitFiles bounds the files one resolution follows (includes, hooks).
const maxGitFiles = 256

// gitResolve lists the files git reads as code in project's repository
// and in each of modules: the .git file or link, commondir, config,
// config.worktree, the included files, and the hooks (not *.sample).
func gitResolve(project, home string, modules []string) []string {
	var out []string
	addf := func(p string) {
		if len(out) < maxGitFiles && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	dotgit := filepath.Join(project, ".git")
	var repos []string
	if st, err := os.Lstat(dotgit); err == nil {
		gd := dotgit
		if st.Mode()&fs.ModeSymlink != 0 {
			addf(dotgit)
			if r, err := filepath.EvalSymlinks(dotgit); err == nil {
				gd = r
			}
			if st2, err := os.Stat(gd); err == nil && !st2.IsDir() {
				gd = gitdirOf(gd)
			}
		} else if !st.IsDir() {
			addf(dotgit)
			gd = gitdirOf(dotgit)
		}
		if gd != "" {
			repos = append(repos, gd)
		}
	}
	// The linked worktrees of the project's repository (git worktree
	// add), wherever they are checked out, read their commondir and
	// config.worktree from its worktrees directory, which is writable
	// inside.
	var linked []string
	if len(repos) == 1 {
		ents, _ := os.ReadDir(filepath.Join(repos[0], "worktrees"))
		for _, e := range ents {
			if e.IsDir() && len(linked) < maxGitModules {
				linked = append(linked, filepath.Join(repos[0], "worktrees", e.Name()))
			}
		}
	}
	for i, gd := range slices.Concat(repos, modules, linked) {
		worktree := project
		if i >= len(repos) {
			worktree = gd
		}
		addf(filepath.Join(gd, "commondir"))
		cd := commonDirOf(gd)
		hooksPath := ""
		var visit func(cfg string, depth int)
		visit = func(cfg string, depth int) {
			addf(cfg)
			incs, hp := configRefs(cfg)
			if hp != "" {
				hooksPath = hp
			}
			for _, inc := range incs {
				if p := expandGitPath(inc, filepath.Dir(cfg), home); p != "" && depth < 10 && !slices.Contains(out, p) {
					visit(p, depth+1)
				}
			}
		}
		visit(filepath.Join(cd, "config"), 0)
		visit(filepath.Join(gd, "config.worktree"), 0)
		hooks := filepath.Join(cd, "hooks")
		if hooksPath != "" {
			hooks = expandGitPath(hooksPath, worktree, home)
		}
		ents, _ := os.ReadDir(hooks)
		for _, e := range ents {
			if n := e.Name(); !strings.HasSuffix(n, ".sample") && !strings.Contains(n, SetAsideSuffix) {
				addf(filepath.Join(hooks, n))
			}
		}
	}
	return out
}

// expandGitPath is a path from a config value: ~/ is the home directory,
// a relative path is relative to base.
func expandGitPath(v, base, home string) string {
	switch {
	case v == "":
		return ""
	case strings.HasPrefix(v, "~/"):
		if home == "" {
			return ""
		}
		return filepath.Join(home, v[2:])
	case filepath.IsAbs(v):
		return filepath.Clean(v)
	}
	return filepath.Join(base, v)
}

// configRefs reads a git config file for the files it includes
// (include.path, includeIf.*.path, every one: git's condition is not
// evaluated, a file that might be read is watched) and the last
// core.hooksPath.
func configRefs(path string) (includes []string, hooksPath string) {
	data, err := readSmall(path)
	if err != nil {
		return nil, ""
	}
	section := ""
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				continue
			}
			name, _, _ := strings.Cut(strings.TrimSpace(line[1:end]), " ")
			name, _, _ = strings.Cut(name, "\"")
			section = strings.ToLower(strings.TrimSpace(name))
			if line = strings.TrimSpace(line[end+1:]); line == "" || line[0] == '#' || line[0] == ';' {
				continue
			}
		}
		k, v, _ := strings.Cut(line, "=")
		key := strings.ToLower(strings.TrimSpace(k))
		v = strings.Trim(strings.TrimSpace(v), "\"")
		switch {
		case (section == "include" || section == "includeif") && key == "path":
			includes = append(includes, v)
		case section == "core" && key == "hookspath":
			hooksPath = v
		}
	}
	return includes, hooksPath
}

// GitReview undoes what the run changed of git's resolved configuration
// and hooks in the project, and returns what it acted on.
func GitReview(g *GitState) []Found {
	if g == nil || g.project == "" {
		return nil
	}
	var out []Found
	dotgit := filepath.Join(g.project, ".git")
	if g.dotgit != nil && g.dotgit.IsDir() {
		now, err := os.Lstat(dotgit)
		if err != nil || !os.SameFile(now, g.dotgit) {
			if f := g.putBackDotGit(dotgit, err == nil); f.AsideAs != "" || f.Restored || f.Err != nil {
				out = append(out, f)
			}
		}
	}
	paths := make([]string, 0, len(g.files))
	for p := range g.files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		was := g.files[p]
		now := stateOf(p)
		if now.Missing || was.same(now) {
			// A file deleted runs nothing; a redirection it makes is
			// found by the resolution below.
			continue
		}
		out = append(out, setAsideRestore(p, gitEntry, was.Kept))
	}
	newRepo := g.dotgit == nil
	for _, p := range gitResolve(g.project, g.home, g.modules) {
		if _, ok := g.files[p]; ok {
			continue
		}
		if st, err := os.Lstat(p); err != nil || newRepo && filepath.Base(p) == "config" && st.Mode().IsRegular() && plainGitConfig(p) {
			// Nothing there, or a repository git init made during the
			// run with only the keys git writes.
			continue
		}
		if filepath.Base(p) == "commondir" && g.common != "" && commonDirOf(filepath.Dir(p)) == g.common {
			// A worktree git worktree add made during the run: its
			// commondir names the repository's own common directory.
			continue
		}
		if slices.ContainsFunc(out, func(f Found) bool { return f.Path == p }) {
			continue
		}
		out = append(out, setAsideRestore(p, gitEntry, nil))
	}
	return out
}

// putBackDotGit puts the project's .git directory back when the run moved
// it (mv .git .git.bak) and made another in its place: what stands at
// .git now is set aside, and the directory with the same identity at the
// project's top is renamed back. Inside airlock run the anchor makes the
// rename fail; this is the layer under it.
func (g *GitState) putBackDotGit(dotgit string, present bool) Found {
	f := Found{Path: dotgit, Why: WhyGit, Handling: Repo}
	var orig string
	ents, _ := os.ReadDir(g.project)
	for _, e := range ents {
		p := filepath.Join(g.project, e.Name())
		if st, err := os.Lstat(p); err == nil && os.SameFile(st, g.dotgit) {
			orig = p
			break
		}
	}
	if present {
		to, err := SetAsideName(dotgit)
		if err == nil {
			err = os.Rename(dotgit, to)
		}
		if err != nil {
			f.Err = err
			return f
		}
		f.AsideAs = to
	}
	if orig == "" {
		// Not at the top any more (or deleted): what stood at .git is set
		// aside, and git finds no repository here until the human looks.
		return f
	}
	if err := os.Rename(orig, dotgit); err != nil {
		f.Err = err
		return f
	}
	f.Restored = true
	return f
}
