package classify

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"testing"
)

// TestVerbListsUnique: every verbList and optList literal names each verb
// or option once, as the map literals they replaced had to (a second
// entry would never be read). It reads the package's source, where the
// lists are.
func TestVerbListsUnique(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	lists := map[string]int{}
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			id, ok := lit.Type.(*ast.Ident)
			if !ok || id.Name != "verbList" && id.Name != "optList" {
				return true
			}
			lists[id.Name]++
			seen := map[string]bool{}
			for _, el := range lit.Elts {
				pair, ok := el.(*ast.CompositeLit)
				if !ok || len(pair.Elts) != 2 {
					t.Errorf("%v: a %s entry is not a pair", fset.Position(el.Pos()), id.Name)
					continue
				}
				bl, ok := pair.Elts[0].(*ast.BasicLit)
				if !ok || bl.Kind != token.STRING {
					t.Errorf("%v: a %s key is not a string literal", fset.Position(el.Pos()), id.Name)
					continue
				}
				verb, _ := strconv.Unquote(bl.Value)
				if seen[verb] {
					t.Errorf("%v: %q listed twice in a %s", fset.Position(el.Pos()), verb, id.Name)
				}
				seen[verb] = true
			}
			return true
		})
	}
	if lists["verbList"] < 50 || lists["optList"] < 25 {
		t.Errorf("read %d verbList and %d optList literals, want the verb tables of registry.go, services.go and vcs.go (60) and the option tables of optcmds.go (29)", lists["verbList"], lists["optList"])
	}
}

func TestVerbListGet(t *testing.T) {
	l := verbList{{"", vWrite}, {"push", vWrite}, {"tag delete", vDelete}, {"ls", vRead}}
	for _, c := range []struct {
		verb string
		want verbEffect
		ok   bool
	}{{"", vWrite, true}, {"push", vWrite, true}, {"tag delete", vDelete, true}, {"ls", vRead, true}, {"tag", vLocal, false}, {"pus", vLocal, false}} {
		if got, ok := l.get(c.verb); got != c.want || ok != c.ok {
			t.Errorf("get(%q) = %v, %v; want %v, %v", c.verb, got, ok, c.want, c.ok)
		}
	}
	if got, ok := (verbList{}).get(""); got != vLocal || ok {
		t.Errorf("empty list: get(\"\") = %v, %v; want vLocal, false", got, ok)
	}
}
