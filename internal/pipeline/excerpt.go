package pipeline

import (
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// ExcerptMax is how much of a held write's content the journal keeps for
// a reviewer.
const ExcerptMax = 2000

// writeExcerpt is the journal detail of a held write: the first
// ExcerptMax bytes of what it would write and how long that is. It reads
// the tool input's "content" (a whole file), "new_string" (a
// replacement), "new_source" (a notebook cell) or "edits[].new_string"
// (several replacements), the first present. It is rendered when shown
// (internal/journal), never here.
func writeExcerpt(input json.RawMessage) json.RawMessage {
	var ti struct {
		Content   *string `json:"content"`
		NewString *string `json:"new_string"`
		NewSource *string `json:"new_source"`
		Edits     []struct {
			NewString string `json:"new_string"`
		} `json:"edits"`
	}
	if json.Unmarshal(input, &ti) != nil {
		return nil
	}
	var text string
	switch {
	case ti.Content != nil:
		text = *ti.Content
	case ti.NewString != nil:
		text = *ti.NewString
	case ti.NewSource != nil:
		text = *ti.NewSource
	case len(ti.Edits) > 0:
		parts := make([]string, len(ti.Edits))
		for i, e := range ti.Edits {
			parts[i] = e.NewString
		}
		text = strings.Join(parts, "\n")
	default:
		return nil
	}
	n := len(text)
	if len(text) > ExcerptMax {
		cut := ExcerptMax
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut]
	}
	b, err := json.Marshal(struct {
		Excerpt string `json:"excerpt"`
		Bytes   int    `json:"bytes"`
	}{text, n})
	if err != nil {
		return nil
	}
	return b
}
