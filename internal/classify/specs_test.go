package classify

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// specSources reads the package's non-test files: the table's tests
// check what the files define against what specs.go lists.
func specSources(t *testing.T) (*token.FileSet, []*ast.File) {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		src, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, n, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return fset, files
}

// isSpecLit reports whether e is a Spec composite literal, or the
// address of one.
func isSpecLit(e ast.Expr) bool {
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	c, ok := e.(*ast.CompositeLit)
	if !ok {
		return false
	}
	id, ok := c.Type.(*ast.Ident)
	return ok && id.Name == "Spec"
}

// returnsSpecs reports whether fn's only result is []*Spec: a function
// that builds a file's specs (the verb tables).
func returnsSpecs(fn *ast.FuncDecl) bool {
	r := fn.Type.Results
	if r == nil || len(r.List) != 1 {
		return false
	}
	a, ok := r.List[0].Type.(*ast.ArrayType)
	if !ok || a.Len != nil {
		return false
	}
	s, ok := a.Elt.(*ast.StarExpr)
	if !ok {
		return false
	}
	id, ok := s.X.(*ast.Ident)
	return ok && id.Name == "Spec"
}

// TestSpecTableComplete fails when a file defines a spec that specTable
// does not list, defines one where the table cannot name it, or adds an
// init function: a spec left out of the table would silently rate its
// programs as unknown, and an init registration would bring back a second
// list the table does not show.
//
// A spec is defined in one of two places: a package variable holding a
// Spec literal, or a function returning []*Spec (a file's verb tables:
// verbSpecs over a package-level [...]verbTable array). specTable must
// name every one of them.
func TestSpecTableComplete(t *testing.T) {
	fset, files := specSources(t)
	defined := map[string]string{} // name -> position
	verbSpecs := 0                 // verb tables ([...]verbTable elements)
	tables := map[string]string{}  // verb table arrays -> position
	madeFrom := map[string]bool{}  // arrays a []*Spec function hands to verbSpecs
	var table *ast.FuncDecl
	for _, f := range files {
		allowed := map[ast.Node]bool{} // spec literals and calls in an allowed place
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, s := range d.Specs {
					vs, ok := s.(*ast.ValueSpec)
					if !ok {
						continue
					}
					for i, v := range vs.Values {
						if n, ok := verbTableArray(v); ok {
							// A file's verb tables: each element is a spec,
							// made by verbSpecs in a []*Spec function.
							verbSpecs += n
							tables[vs.Names[i].Name] = fset.Position(vs.Names[i].Pos()).String()
							continue
						}
						if isSpecLit(v) {
							defined[vs.Names[i].Name] = fset.Position(vs.Names[i].Pos()).String()
							allowed[v] = true
						}
					}
				}
			case *ast.FuncDecl:
				switch {
				case d.Recv == nil && d.Name.Name == "init":
					if pos := fset.Position(d.Pos()); filepath.Base(pos.Filename) != "specs.go" {
						t.Errorf("%s: an init function: list specs in specTable (specs.go) and build tables on first use, not at start-up", pos)
					}
				case d.Name.Name == "specTable":
					table = d
				case d.Name.Name == "verbSpec" || d.Name.Name == "verbSpecs":
					ast.Inspect(d.Body, func(n ast.Node) bool {
						if e, ok := n.(ast.Expr); ok && isSpecLit(e) {
							allowed[e] = true
						}
						return true
					})
				case d.Name.Name == "Specs":
					// The accessor, which returns the table's specs.
				case returnsSpecs(d):
					defined[d.Name.Name+"()"] = fset.Position(d.Pos()).String()
					ast.Inspect(d.Body, func(n ast.Node) bool {
						if c, ok := n.(*ast.CallExpr); ok {
							if isCall(c, "verbSpec") {
								verbSpecs++
								allowed[c] = true
							}
							if isCall(c, "verbSpecs") && len(c.Args) == 1 {
								if sl, ok := c.Args[0].(*ast.SliceExpr); ok {
									if id, ok := sl.X.(*ast.Ident); ok {
										madeFrom[id.Name] = true
									}
								}
							}
						}
						return true
					})
				}
			}
		}
		// A Spec literal or verbSpec call anywhere else makes a spec the
		// table cannot name.
		ast.Inspect(f, func(n ast.Node) bool {
			switch {
			case n == nil || allowed[n]:
				return false
			case isSpecLitNode(n):
				t.Errorf("%s: a Spec defined outside a package variable: specTable cannot list it", fset.Position(n.Pos()))
				return false
			case isCall(n, "verbSpec"):
				t.Errorf("%s: verbSpec called outside a []*Spec function: specTable cannot list it", fset.Position(n.Pos()))
			}
			return true
		})
	}
	if table == nil {
		t.Fatal("no specTable function")
	}
	for name, pos := range tables {
		if !madeFrom[name] {
			t.Errorf("%s: verb tables %s are not made into specs by a []*Spec function (return verbSpecs(%s[:])): specTable cannot list them", pos, name, name)
		}
	}
	listed := map[string]int{}
	ast.Inspect(table.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); ok {
				listed[id.Name+"()"]++
			}
		case *ast.Ident:
			listed[n.Name]++
		}
		return true
	})
	var missing []string
	vars := 0
	for name, pos := range defined {
		if !strings.HasSuffix(name, "()") {
			vars++
		}
		switch listed[name] {
		case 0:
			missing = append(missing, pos+": "+name)
		case 1:
		default:
			t.Errorf("specTable lists %s %d times", name, listed[name])
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("%s is a spec that specTable (specs.go) does not list: its programs would be rated as unknown", m)
	}
	// What the table builds is exactly what the files define.
	if got, want := len(specTable()), vars+verbSpecs; got != want {
		t.Errorf("specTable builds %d specs; the files define %d (%d variables, %d verb tables)", got, want, vars, verbSpecs)
	}
}

// isCall reports whether n calls the package function name.
func isCall(n ast.Node, name string) bool {
	c, ok := n.(*ast.CallExpr)
	if !ok {
		return false
	}
	id, ok := c.Fun.(*ast.Ident)
	return ok && id.Name == name
}

// verbTableArray reports whether e is a [...]verbTable literal, and how
// many tables it holds.
func verbTableArray(e ast.Expr) (int, bool) {
	c, ok := e.(*ast.CompositeLit)
	if !ok {
		return 0, false
	}
	a, ok := c.Type.(*ast.ArrayType)
	if !ok || a.Len == nil {
		return 0, false
	}
	id, ok := a.Elt.(*ast.Ident)
	if !ok || id.Name != "verbTable" {
		return 0, false
	}
	return len(c.Elts), true
}

// isSpecLitNode is isSpecLit for any node.
func isSpecLitNode(n ast.Node) bool {
	e, ok := n.(ast.Expr)
	return ok && isSpecLit(e)
}

// TestSpecTableClaims fails when two specs claim one program name, or one
// spec is listed twice: specIndex (spec_index.go, generated from the
// table) would send the name to one of them and silently drop the other's
// rating; its generator refuses the table too.
func TestSpecTableClaims(t *testing.T) {
	owner := map[string]*Spec{}
	seen := map[*Spec]bool{}
	for _, s := range specTable() {
		if seen[s] {
			t.Errorf("spec %v is listed twice", s.Programs)
		}
		seen[s] = true
		if len(s.Programs) == 0 {
			t.Errorf("a spec with examples %v claims no program", s.Examples)
		}
		for _, p := range s.Programs {
			if o := owner[p]; o != nil && o != s {
				t.Errorf("program %q is claimed by two specs: %v and %v", p, o.Programs, s.Programs)
			}
			owner[p] = s
		}
	}
}
