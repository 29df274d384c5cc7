package toolcall

import (
	"errors"
	"strings"
)

// ErrPatch is returned for a patch no file can be read from.
var ErrPatch = errors.New("patch names no file")

// ReadPatch reads the files a patch in the "*** Begin Patch" format
// (Codex's apply_patch, OpenCode's patch tool) touches: every Add, Update,
// Delete and Move target, and the lines it adds as the Write's content.
// Edits stay unknown: a patch's hunks are not whole-file replacements.
// A patch that names no file is an error, so the call is refused rather
// than judged as writing nothing.
func ReadPatch(text string, c *Call) error {
	c.Class = Write
	var added []string
	seen := map[string]bool{}
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimRight(line, "\r")
		for _, h := range [...]string{"*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:"} {
			if p, ok := strings.CutPrefix(line, h); ok {
				if p = strings.TrimSpace(p); p != "" && !seen[p] {
					seen[p] = true
					c.Paths = append(c.Paths, p)
				}
			}
		}
		if s, ok := strings.CutPrefix(line, "+"); ok {
			added = append(added, s)
		}
	}
	if len(c.Paths) == 0 {
		return ErrPatch
	}
	c.Content = strings.Join(added, "\n")
	return nil
}

// PatchSpec is the Spec of a tool whose input field holds such a patch.
func PatchSpec(fields ...string) Spec {
	return Spec{Class: Write, Read: func(in Input, c *Call) error {
		text, ok := in.Str(fields...)
		if !ok {
			return &FieldError{Tool: c.Tool, Field: fields[0]}
		}
		if err := ReadPatch(text, c); err != nil {
			return &FieldError{Tool: c.Tool, Field: fields[0], Detail: err.Error()}
		}
		return nil
	}}
}
