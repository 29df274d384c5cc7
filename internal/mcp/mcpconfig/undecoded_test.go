package mcpconfig

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestNoOneReadsTheSectionUndecoded: the layers' "mcp:" nodes that policy
// keeps (policy.MCPSections) are read here and nowhere else, so every
// reader of the MCP configuration goes through Of, which decodes them
// strictly and fails on a mistake. A reader of the raw nodes would be a
// second, lenient decoder of the firewall's trust root.
func TestNoOneReadsTheSectionUndecoded(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Skip("not in the module's tree")
	}
	raw := regexp.MustCompile(`\.MCP\.(Layers|Schema)\b|policy\.MCPLayer\b`)
	allowed := map[string]bool{
		filepath.Join("internal", "policy"):           true, // keeps them
		filepath.Join("internal", "mcp", "mcpconfig"): true, // decodes them
	}
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		if allowed[filepath.Dir(rel)] {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		if loc := raw.FindIndex(data); loc != nil {
			t.Errorf("%s reads the mcp: section as written (%q): use mcpconfig.Of", rel, data[loc[0]:loc[1]])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("checked %d files: the walk did not see the module", checked)
	}
}
