package policy

import (
	"go.yaml.in/yaml/v3"

	"github.com/airlock-dev/airlock/internal/strictyaml"
)

// This file holds where the "notify:" section may come from. Its schema
// belongs to internal/notify, which decodes Section; policy only decides
// which file may carry it.

// Section is a part of a policy file whose schema another package owns,
// as written, with the file it came from so that its decoder can name
// file and line in its errors.
type Section struct {
	// File is the policy file the section is in.
	File string
	// Node is the section's value.
	Node *yaml.Node
}

// mergeNotify keeps the notify section of a file with the user's
// authority (the user's file or AIRLOCK_POLICY). A project's file, even a
// trusted one, may not carry one: notifications carry the held commands
// and the buttons that approve them, so a repository that could name a
// server or a webhook could read what is held and collect the approvals.
// It is an error rather than a silent skip, so that the mistake is seen.
func (p *Policy) mergeNotify(n *yaml.Node, origin Origin, file string) error {
	if n == nil {
		return nil
	}
	if origin != User {
		return strictyaml.At(n.Line, ErrBadValue, "notify: is read from the user's policy file only (%s); a project's file may not say where held actions are sent", describeUserFile(p.Paths))
	}
	p.Notify = &Section{File: file, Node: n}
	return nil
}

// describeUserFile names the user's policy file for an error.
func describeUserFile(paths Paths) string {
	if paths.UserFile == "" {
		return "the user's policy.yaml"
	}
	return paths.UserFile
}
