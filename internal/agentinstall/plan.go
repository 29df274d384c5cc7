package agentinstall

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Plan is what an install or uninstall writes: every file it creates,
// changes or removes, with the bytes before and after.
type Plan struct {
	Agent string `json:"agent"`
	Scope Scope  `json:"scope"`
	// Files holds the files the change touches; an unchanged install
	// has none.
	Files []FileChange `json:"files"`
	// Notes are what the person should know (a trust entry written, an
	// agent setting that must be on).
	Notes []string `json:"notes,omitempty"`
}

// FileChange is one file of a Plan.
type FileChange struct {
	Path string `json:"path"`
	// Action is "create", "change" or "remove".
	Action string `json:"action"`
	// Old is the file's content before; nil when it did not exist.
	Old []byte `json:"-"`
	// New is the file's content after; nil when it is removed.
	New []byte `json:"-"`
	// Mode is the permission a created file gets.
	Mode fs.FileMode `json:"-"`
}

// Changed reports whether the plan writes anything.
func (p *Plan) Changed() bool { return len(p.Files) > 0 }

// add records a file's new content, when it differs from the old. A nil
// new content removes the file.
func (p *Plan) add(path string, old []byte, existed bool, new []byte, mode fs.FileMode) {
	switch {
	case new == nil && !existed:
		return
	case new == nil:
		p.Files = append(p.Files, FileChange{Path: path, Action: "remove", Old: old})
	case !existed:
		p.Files = append(p.Files, FileChange{Path: path, Action: "create", New: new, Mode: mode})
	case !bytes.Equal(old, new):
		p.Files = append(p.Files, FileChange{Path: path, Action: "change", Old: old, New: new, Mode: mode})
	}
}

// Apply writes the plan's files. Each file is replaced atomically, so an
// agent reading it at the same moment sees the old or the new file, never
// half of one; a changed file keeps its permissions.
func (p *Plan) Apply() error {
	for _, f := range p.Files {
		var err error
		if f.New == nil {
			err = os.Remove(f.Path)
			if errors.Is(err, fs.ErrNotExist) {
				err = nil
			}
		} else {
			err = writeFile(f.Path, f.New, f.Mode)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// reader reads the files an installer merges into; tests read from
// a directory like any other.
type reader interface {
	read(path string) (data []byte, existed bool, err error)
	list(dir, suffix string) ([]string, error)
}

type osReader struct{}

func (osReader) read(path string) ([]byte, bool, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return data, true, nil
}

func (osReader) list(dir, suffix string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() && filepath.Ext(e.Name()) == suffix {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out, nil
}

func writeFile(file string, data []byte, mode fs.FileMode) error {
	if mode == 0 {
		mode = 0o644
	}
	if st, err := os.Stat(file); err == nil {
		mode = st.Mode().Perm()
	}
	dir := filepath.Dir(file)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".airlock-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}

// Status is what the doctor learns about one agent in one scope.
type Status struct {
	Agent string `json:"agent"`
	Scope Scope  `json:"scope"`
	// Files are the configuration files looked at.
	Files []string `json:"files"`
	// Installed is whether airlock's pre-tool hook is there.
	Installed bool `json:"installed"`
	// Commands are the hook command lines of airlock's that were found.
	Commands []string `json:"commands,omitempty"`
	// Trusted is "yes", "no" or "" when the agent has no trust step.
	Trusted string `json:"trusted,omitempty"`
	// Problems say what is wrong, each with how to fix it.
	Problems []Problem `json:"problems,omitempty"`
}

// Problem is one thing wrong with an installation and how to fix it.
type Problem struct {
	Msg  string `json:"problem"`
	Hint string `json:"hint"`
}

func (s *Status) problem(hint, format string, args ...any) {
	s.Problems = append(s.Problems, Problem{Msg: sprintf(format, args...), Hint: hint})
}
