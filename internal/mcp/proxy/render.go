package proxy

import (
	"encoding/json"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/airlock-dev/airlock/internal/mcp/mcpconfig"
	"github.com/airlock-dev/airlock/internal/mcp/sanitize"
)

// NotInContacts is the provenance label of a message whose sender is not
// in the contact book.
const NotInContacts = "message from a sender not in contacts"

// render sanitises a source tool's result. With items configured (a list
// of messages in structuredContent, each with a sender and a text), the
// text content is airlock's own rendering: one quotation per message,
// labelled with the sender's contact name or "not in contacts", whatever
// the server's own text said. Otherwise each text item is quoted with the
// tool's label. Embedded resources are quoted too, resource links and
// every string of structuredContent are sanitised, _meta is dropped, and
// media is replaced by a note unless the tool passes it.
//
// untrusted reports content from someone not in the contacts or of
// unknown sender; writers are the contacts whose messages it held.
func render(m *mcpconfig.Config, server, tool string, cfg *mcpconfig.Tool, res *sdk.CallToolResult) (out *sdk.CallToolResult, untrusted bool, writers []string) {
	label := "untrusted content from " + server + "/" + tool
	keepMedia := false
	if cfg != nil {
		if cfg.Label != "" {
			label = "untrusted content from " + cfg.Label
		}
		keepMedia = cfg.KeepMedia
	}
	out = &sdk.CallToolResult{IsError: res.IsError}
	if res.StructuredContent != nil {
		out.StructuredContent = sanitize.Value(normalize(res.StructuredContent))
	}
	if cfg != nil && cfg.Items != "" {
		if lines, u, w, ok := renderItems(m, cfg, res.StructuredContent); ok {
			text := strings.Join(lines, "\n")
			if len(lines) == 0 {
				text = "(no messages)"
			}
			out.Content = []sdk.Content{&sdk.TextContent{Text: text}}
			return out, u, w
		}
	}
	for _, c := range res.Content {
		switch x := c.(type) {
		case *sdk.TextContent:
			out.Content = append(out.Content, &sdk.TextContent{Text: sanitize.Wrap(label, x.Text), Annotations: x.Annotations})
			untrusted = true
		case *sdk.EmbeddedResource:
			r := &sdk.ResourceContents{URI: sanitize.Text(x.Resource.URI), MIMEType: sanitize.Text(x.Resource.MIMEType)}
			switch {
			case x.Resource.Text != "":
				r.Text = sanitize.Wrap(label, x.Resource.Text)
				untrusted = true
			case len(x.Resource.Blob) > 0 && keepMedia:
				r.Blob = x.Resource.Blob
				untrusted = true
			case len(x.Resource.Blob) > 0:
				out.Content = append(out.Content, mediaNote("a binary resource", label))
				continue
			}
			out.Content = append(out.Content, &sdk.EmbeddedResource{Resource: r, Annotations: x.Annotations})
		case *sdk.ResourceLink:
			out.Content = append(out.Content, &sdk.ResourceLink{URI: sanitize.Text(x.URI), Name: sanitize.Text(x.Name), Title: sanitize.Text(x.Title),
				Description: sanitize.Text(x.Description), MIMEType: sanitize.Text(x.MIMEType), Size: x.Size, Annotations: x.Annotations})
			untrusted = true
		case *sdk.ImageContent:
			if keepMedia {
				out.Content = append(out.Content, &sdk.ImageContent{Data: x.Data, MIMEType: x.MIMEType, Annotations: x.Annotations})
				untrusted = true
			} else {
				out.Content = append(out.Content, mediaNote("an image", label))
			}
		case *sdk.AudioContent:
			if keepMedia {
				out.Content = append(out.Content, &sdk.AudioContent{Data: x.Data, MIMEType: x.MIMEType, Annotations: x.Annotations})
				untrusted = true
			} else {
				out.Content = append(out.Content, mediaNote("audio", label))
			}
		default:
			out.Content = append(out.Content, mediaNote("content of a kind airlock does not know", label))
		}
	}
	if out.StructuredContent != nil {
		untrusted = true
	}
	return out, untrusted, nil
}

func mediaNote(what, label string) sdk.Content {
	return &sdk.TextContent{Text: "[airlock removed " + what + " (" + sanitize.Label(label) + "); the policy's media: pass keeps it]"}
}

// renderItems renders the configured list of messages. ok is false when
// the structured content does not have that shape.
func renderItems(m *mcpconfig.Config, cfg *mcpconfig.Tool, sc any) (lines []string, untrusted bool, writers []string, ok bool) {
	obj, isObj := normalize(sc).(map[string]any)
	if !isObj {
		return nil, false, nil, false
	}
	items, isList := obj[cfg.Items].([]any)
	if !isList {
		return nil, false, nil, false
	}
	seen := map[string]bool{}
	for _, it := range items {
		item, isItem := it.(map[string]any)
		if !isItem {
			return nil, false, nil, false
		}
		label := NotInContacts
		sender, _ := item[cfg.Sender].(string)
		if c, known := m.ContactByAddress(sender); cfg.Sender != "" && known {
			label = "message from " + c.Name
			if !seen[c.Name] {
				seen[c.Name] = true
				writers = append(writers, c.Name)
			}
		} else {
			untrusted = true
		}
		var text string
		switch v := item[cfg.Text].(type) {
		case string:
			text = v
		case nil:
		default:
			b, _ := json.Marshal(v)
			text = string(b)
		}
		lines = append(lines, sanitize.Wrap(label, text))
	}
	return lines, untrusted, writers, true
}

// normalize turns structured content given as Go values or raw JSON into
// plain decoded JSON.
func normalize(v any) any {
	switch v.(type) {
	case map[string]any, []any, string, float64, bool, nil:
		return v
	}
	var b []byte
	if raw, ok := v.(json.RawMessage); ok {
		b = raw
	} else {
		var err error
		if b, err = json.Marshal(v); err != nil {
			return nil
		}
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil
	}
	return out
}
