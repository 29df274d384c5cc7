package loop

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Story is one unit of work for a fresh agent process.
type Story struct {
	// ID names the story in the journal, the queue and the report.
	ID string `json:"id"`
	// Title is a few words for people.
	Title string `json:"title"`
	// Prompt is what the agent is asked to do.
	Prompt string `json:"prompt"`
}

// ErrStories is wrapped by every problem with a stories file.
var ErrStories = errors.New("bad stories file")

// StoriesError is a problem at a place in a stories file.
type StoriesError struct {
	File string
	Line int
	Msg  string
}

func (e *StoriesError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	}
	return e.File + ": " + e.Msg
}

// Unwrap makes errors.Is(err, ErrStories) hold.
func (e *StoriesError) Unwrap() error { return ErrStories }

// LoadStories reads a JSON or YAML list of {id, title, prompt}. It is
// strict: unknown keys, a missing id or prompt, and a repeated id are
// errors naming file:line. (JSON is read by the YAML decoder, which gives
// it lines too.)
func LoadStories(file string) ([]Story, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return ParseStories(filepath.Base(file), data)
}

// ParseStories is LoadStories on content already read; name is used in
// errors.
func ParseStories(name string, data []byte) ([]Story, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, &StoriesError{File: name, Msg: "not valid JSON or YAML: " + err.Error()}
	}
	if len(root.Content) == 0 {
		return nil, &StoriesError{File: name, Msg: "no stories"}
	}
	list := root.Content[0]
	if list.Kind == yaml.MappingNode {
		// Also accept {"stories": [...]}.
		if len(list.Content) == 2 && list.Content[0].Value == "stories" {
			list = list.Content[1]
		}
	}
	if list.Kind != yaml.SequenceNode {
		return nil, &StoriesError{File: name, Line: list.Line, Msg: "want a list of stories, each {id, title, prompt}"}
	}
	if len(list.Content) == 0 {
		return nil, &StoriesError{File: name, Line: list.Line, Msg: "no stories"}
	}
	seen := map[string]int{}
	var out []Story
	for _, n := range list.Content {
		if n.Kind != yaml.MappingNode {
			return nil, &StoriesError{File: name, Line: n.Line, Msg: "a story must be a mapping {id, title, prompt}"}
		}
		var s Story
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if v.Kind != yaml.ScalarNode {
				return nil, &StoriesError{File: name, Line: v.Line, Msg: fmt.Sprintf("%q must be a string", k.Value)}
			}
			switch k.Value {
			case "id":
				s.ID = strings.TrimSpace(v.Value)
			case "title":
				s.Title = v.Value
			case "prompt":
				s.Prompt = v.Value
			default:
				return nil, &StoriesError{File: name, Line: k.Line, Msg: fmt.Sprintf("unknown key %q (want id, title, prompt)", k.Value)}
			}
		}
		switch {
		case s.ID == "":
			return nil, &StoriesError{File: name, Line: n.Line, Msg: "a story needs an id"}
		case strings.ContainsAny(s.ID, " \t\n/\\"):
			return nil, &StoriesError{File: name, Line: n.Line, Msg: fmt.Sprintf("story id %q must not contain spaces or slashes", s.ID)}
		case strings.TrimSpace(s.Prompt) == "":
			return nil, &StoriesError{File: name, Line: n.Line, Msg: fmt.Sprintf("story %q needs a prompt", s.ID)}
		}
		if first, dup := seen[s.ID]; dup {
			return nil, &StoriesError{File: name, Line: n.Line, Msg: fmt.Sprintf("story id %q is used twice (first at line %d)", s.ID, first)}
		}
		seen[s.ID] = n.Line
		out = append(out, s)
	}
	return out, nil
}
