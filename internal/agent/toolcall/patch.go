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
	var ops []patchOp
	removes := false
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
			switch h, _, _ := strings.Cut(line, ":"); h {
			case "*** Add File", "*** Update File", "*** Delete File":
				ops = append(ops, patchOp{header: h, path: p})
				removes = removes || h == "*** Delete File"
			case "*** Move to":
				if n := len(ops); n > 0 && ops[n-1].header == "*** Update File" && ops[n-1].to == "" {
					ops[n-1].to = p
					removes = true
				} else {
					ops = append(ops, patchOp{header: h, path: p})
				}
			}
			continue
		}
		if s, ok := strings.CutPrefix(strings.TrimLeft(raw, " \t"), "+"); ok {
			s = strings.TrimRight(s, "\r")
			added = append(added, s)
			if n := len(ops); n > 0 {
				ops[n-1].lines = append(ops[n-1].lines, s)
			}
		}
	}
	if len(c.Paths) == 0 {
		return ErrPatch
	}
	c.Content = strings.Join(added, "\n")
	if removes {
		// A patch that deletes or moves a file away is a deletion where
		// the file is (FINDINGS-10 X2): it is read as the shell steps it
		// takes, rm and mv, with its added lines written by heredocs, so
		// that destruction is graded where it lands (a file outside the
		// project is held, one inside is snapshotted) and what it writes
		// is read as the same text written by a command.
		c.Class, c.Command = Shell, patchScript(ops)
	}
	return nil
}

// patchOp is one file section of a patch.
type patchOp struct {
	header   string // "*** Add File", "*** Update File", "*** Delete File", "*** Move to"
	path, to string
	lines    []string // the lines it adds
}

// patchScript spells a patch's sections as shell steps: a deletion is
// rm, an update moved elsewhere a copy and rm of the old path, and the
// lines a section adds are written (an added file) or appended (an
// update) by a heredoc.
func patchScript(ops []patchOp) string {
	var b strings.Builder
	step := func(s string) {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString(s)
	}
	for _, o := range ops {
		target, redir := o.path, ">>"
		switch o.header {
		case "*** Delete File":
			step("rm -f -- " + ShellJoin([]string{o.path}))
			continue
		case "*** Add File":
			redir = ">"
		case "*** Update File":
			if o.to != "" {
				// apply_patch writes the new file and removes the old
				// one: the old path is deleted where it is, which mv
				// is not graded as.
				step("cp -- " + ShellJoin([]string{o.path, o.to}))
				target = o.to
			}
		}
		if len(o.lines) > 0 || o.header == "*** Add File" {
			body := strings.Join(o.lines, "\n")
			delim := "AIRLOCK_PATCH_EOF"
			for strings.Contains("\n"+body+"\n", "\n"+delim+"\n") {
				delim += "_"
			}
			step("cat " + redir + " " + ShellJoin([]string{target}) + " <<'" + delim + "'\n" + body + "\n" + delim)
		}
		if o.to != "" {
			step("rm -f -- " + ShellJoin([]string{o.path}))
		}
	}
	return b.String()
}

// DeleteSpec is the Spec of a tool that deletes the files its fields
// name (Cursor's Delete, Auggie's remove-files): it is read as rm of
// them, so that the deletion is graded where it lands, as a shell
// command's would be (FINDINGS-10 X2), not as a write, which outside
// the project is local.
func DeleteSpec(fields ...string) Spec {
	return Spec{Class: Shell, Fields: fields, Read: func(in Input, c *Call) error {
		paths, err := in.Union(c.Tool, fields...)
		if err != nil {
			return err
		}
		if len(paths) == 0 {
			return &FieldError{Tool: c.Tool, Field: fields[0]}
		}
		c.Paths = paths
		c.Command = "rm -f -- " + ShellJoin(paths)
		return nil
	}}
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
