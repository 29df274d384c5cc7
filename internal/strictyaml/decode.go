// Package strictyaml decodes YAML configuration strictly, by walking
// yaml.v3 nodes: an unknown key, a key given twice, a value of the wrong
// kind is an error naming its line, and a file's errors name file:line
// (FileError). Every package that owns a section of airlock's policy file
// (the policy, the MCP firewall) decodes its section with it, so that a
// typo anywhere is reported the same way, and "airlock policy check"
// names every mistake of a file in one run.
package strictyaml

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Parse reads a whole file into its root node. A syntax error is an
// ErrBadValue naming the file and, when yaml.v3 says it, the line. An
// empty file gives nil and no error.
func Parse(file string, data []byte) (*yaml.Node, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, &FileError{File: file, Line: syntaxLine(err), Err: fmt.Errorf("%w: not valid YAML: %v", ErrBadValue, err)}
	}
	if len(root.Content) == 0 {
		return nil, nil
	}
	return root.Content[0], nil
}

// syntaxLine digs the line out of a yaml.v3 syntax error, which carries it
// only in its text ("yaml: line 3: ..."); 0 when absent.
func syntaxLine(err error) int {
	var line int
	if _, scanErr := fmt.Sscanf(err.Error(), "yaml: line %d:", &line); scanErr != nil {
		return 0
	}
	return line
}

// Fields walks a mapping node, calling the handler of each key and
// rejecting keys that have none, and keys given twice. It goes on past a
// mistake, so that one check names every mistake of a file, and returns
// them all (errors.Join). what names the mapping in errors ("the policy
// file", "tool send").
func Fields(n *yaml.Node, what string, handlers map[string]func(v *yaml.Node) error) error {
	if n.Kind != yaml.MappingNode {
		return At(n.Line, ErrBadValue, "%s must be a mapping", what)
	}
	var errs []error
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		h, ok := handlers[k.Value]
		if !ok {
			errs = append(errs, At(k.Line, ErrUnknownKey, "%q in %s (want %s)", k.Value, what, keyList(handlers)))
			continue
		}
		if seen[k.Value] {
			errs = append(errs, At(k.Line, ErrBadValue, "%q given twice in %s", k.Value, what))
			continue
		}
		seen[k.Value] = true
		if err := h(v); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func keyList(handlers map[string]func(*yaml.Node) error) string {
	keys := make([]string, 0, len(handlers))
	for k := range handlers {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, ", ")
}

// Scalar reads a single value; a mapping or a list is an error.
func Scalar(v *yaml.Node, what string) (string, error) {
	if v.Kind != yaml.ScalarNode {
		return "", At(v.Line, ErrBadValue, "%s must be a single value", what)
	}
	return v.Value, nil
}

// Bool reads true or false, and nothing else (no yes, no on): the
// pointer is for decoders that tell "not given" from false.
func Bool(v *yaml.Node, what string) (*bool, error) {
	s, err := Scalar(v, what)
	if err != nil {
		return nil, err
	}
	switch s {
	case "true":
		b := true
		return &b, nil
	case "false":
		b := false
		return &b, nil
	}
	return nil, At(v.Line, ErrBadValue, "%s must be true or false, not %q", what, s)
}

// StringList reads a non-empty list of non-empty strings; a single string
// counts as a list of one.
func StringList(v *yaml.Node, what string) ([]string, error) {
	if v.Kind == yaml.ScalarNode {
		if v.Value == "" {
			return nil, At(v.Line, ErrBadValue, "%s must not be empty", what)
		}
		return []string{v.Value}, nil
	}
	if v.Kind != yaml.SequenceNode {
		return nil, At(v.Line, ErrBadValue, "%s must be a string or a list of strings", what)
	}
	if len(v.Content) == 0 {
		return nil, At(v.Line, ErrBadValue, "%s must not be an empty list", what)
	}
	out := make([]string, 0, len(v.Content))
	for _, item := range v.Content {
		if item.Kind != yaml.ScalarNode || item.Value == "" {
			return nil, At(item.Line, ErrBadValue, "each entry of %s must be a non-empty string", what)
		}
		out = append(out, item.Value)
	}
	return out, nil
}
