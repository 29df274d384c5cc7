package toolcall

import (
	"errors"
	"fmt"
	"strings"
)

// ErrPatch is returned for a patch no file can be read from.
var ErrPatch = errors.New("patch names no file")

// ErrPatchLine is returned for a "***" line the reader does not know.
var ErrPatchLine = errors.New("patch has a *** line airlock does not read")

// ReadPatch reads the files a patch in the "*** Begin Patch" format
// (Codex's apply_patch, OpenCode's patch tool) touches: every Add, Update,
// Delete and Move target, and the lines it adds as the Write's content.
// Edits stay unknown: a patch's hunks are not whole-file replacements.
// A patch that names no file is an error, so the call is refused rather
// than judged as writing nothing.
//
// Lines are read the way Codex's parser reads them: a marker is matched
// on the line with its surrounding white space trimmed, so an indented
// "  *** Add File:" header names a file here as it does there. Any other
// line that starts with "***" once trimmed is one this reader does not
// know (a marker of a later patch format, a misspelt one a lenient
// parser accepts): the patch is refused, never read as writing fewer
// files than it may.
func ReadPatch(text string, c *Call) error {
	c.Class = Write
	var added []string
	seen := map[string]bool{}
	for raw := range strings.SplitSeq(text, "\n") {
		line := strings.TrimSpace(raw)
		if strings.HasPrefix(line, "***") {
			p, ok := patchHeader(line)
			if !ok {
				return fmt.Errorf("%w: %q", ErrPatchLine, line)
			}
			if p != "" && !seen[p] {
				seen[p] = true
				c.Paths = append(c.Paths, p)
			}
			continue
		}
		if s, ok := strings.CutPrefix(strings.TrimLeft(raw, " \t"), "+"); ok {
			added = append(added, strings.TrimRight(s, "\r"))
		}
	}
	if len(c.Paths) == 0 {
		return ErrPatch
	}
	c.Content = strings.Join(added, "\n")
	return nil
}

// patchHeader reads one trimmed "***" line: the file it names (empty for
// the markers that name none), and whether it is a marker at all.
func patchHeader(line string) (string, bool) {
	switch line {
	case "*** Begin Patch", "*** End Patch", "*** End of File":
		return "", true
	}
	for _, h := range [...]string{"*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:"} {
		if p, ok := strings.CutPrefix(line, h); ok {
			if p = strings.TrimSpace(p); p != "" {
				return p, true
			}
			return "", false // a header with no file: not read
		}
	}
	return "", false
}

// PatchSpec is the Spec of a tool whose input field holds such a patch.
func PatchSpec(fields ...string) Spec {
	return Spec{Class: Write, Fields: fields, Read: func(in Input, c *Call) error {
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
