package policy

import (
	"os"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/airlock-dev/airlock/internal/strictyaml"
)

// countSchema is a section schema that counts its decodes and merges, and
// refuses a section whose value is the word "bad" when strict.
type countSchema struct {
	strict          bool
	decodes, merges int
}

func (s *countSchema) Decode(n *yaml.Node) (func(string, bool) error, error) {
	s.decodes++
	if s.strict && n.Value == "bad" {
		return nil, strictyaml.At(n.Line, ErrBadValue, "bad section")
	}
	return func(string, bool) error { s.merges++; return nil }, nil
}

const cachedPolicy = `version: 1
mode: supervised
gate:
  enabled: true
rules:
  - id: fork
    match:
      command: ["git push personal"]
      tool: [Bash]
    decision: allow
  - id: env
    match:
      path: [".env"]
    decision: deny
mcp: {}
egress: {}
`

// Each Load of the same bytes gives the policy a fresh parse gives, and
// each Load's schemas decode and merge its sections again: the merges
// kept with a document would be another Load's.
func TestParseCacheSameAsParse(t *testing.T) {
	f := newFixture(t)
	f.userFile(cachedPolicy)
	var first *Policy
	for i := range 3 {
		mcp, eg := &countSchema{}, &countSchema{}
		o := f.options()
		o.MCP = func() MCPSchema { return mcp }
		o.Egress = func() EgressSchema { return eg }
		p, err := Load(o)
		if err != nil {
			t.Fatal(err)
		}
		if mcp.decodes != 1 || mcp.merges != 1 || eg.decodes != 1 || eg.merges != 1 {
			t.Fatalf("load %d: mcp %+v egress %+v, want one decode and one merge each", i, mcp, eg)
		}
		if p.Mode != Supervised || !p.Gate.Enabled {
			t.Fatalf("load %d: mode %v gate %+v", i, p.Mode, p.Gate)
		}
		if first == nil {
			first = p
			continue
		}
		if len(p.Rules) != len(first.Rules) {
			t.Fatalf("load %d: %d rules, the first load %d", i, len(p.Rules), len(first.Rules))
		}
		for k, r := range p.Rules {
			q := first.Rules[k]
			if r == q || r.ID != q.ID || r.Line != q.Line || r.Decision != q.Decision || strings.Join(r.m.paths, ",") != strings.Join(q.m.paths, ",") {
				t.Fatalf("load %d rule %d: %+v, the first load %+v", i, k, r, q)
			}
		}
		if p.Layers[1].Hash != first.Layers[1].Hash || p.Layers[1].Rules != 2 {
			t.Fatalf("load %d: layer %+v", i, p.Layers[1])
		}
	}
}

// A file rewritten with bytes of the same length and its old modification
// time is read as what it now says: the cache is keyed by the content.
func TestParseCacheSeesSameSizeRewrite(t *testing.T) {
	f := newFixture(t)
	file := f.userFile(cachedPolicy)
	st, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if p, err := Load(f.options()); err != nil || p.Mode != Supervised {
		t.Fatalf("%v %v", p, err)
	}
	changed := strings.Replace(cachedPolicy, "supervised", "unattended", 1)
	if len(changed) != len(cachedPolicy) {
		t.Fatal("the rewrite must keep the size")
	}
	if err := os.WriteFile(file, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(file, time.Time{}, st.ModTime()); err != nil {
		t.Fatal(err)
	}
	if p, err := Load(f.options()); err != nil || p.Mode != Unattended {
		t.Fatalf("after the rewrite: mode %v, %v", p.Mode, err)
	}
}

// A section kept from a load without a schema, refused by a later load's
// schema, fails that load with the error a fresh parse gives.
func TestParseCacheSchemaRefusal(t *testing.T) {
	f := newFixture(t)
	body := "version: 1\nmcp: bad\n"
	file := f.userFile(body)
	if _, err := Load(f.options()); err != nil {
		t.Fatalf("without a schema: %v", err)
	}
	o := f.options()
	o.MCP = func() MCPSchema { return &countSchema{strict: true} }
	_, err := Load(o)
	if err == nil {
		t.Fatal("a refused section loaded from the cache")
	}
	_, want := parseLayer(file, []byte(body), &countSchema{strict: true}, nil)
	if want == nil || !strings.Contains(err.Error(), want.Error()) {
		t.Fatalf("error %v, a fresh parse says %v", err, want)
	}
}

// A caller that appends to a compiled rule's lists does not change the
// next Load's rule (as for the built-in rules, compiledBuiltins).
func TestParseCacheRulesAreCopies(t *testing.T) {
	f := newFixture(t)
	f.userFile(cachedPolicy)
	for range 2 {
		p, err := Load(f.options())
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range p.Rules {
			if r.ID == "fork" {
				if len(r.m.tools) != 1 || r.m.tools[0] != "Bash" {
					t.Fatalf("tools %q", r.m.tools)
				}
				r.m.tools = append(r.m.tools, "Write")
			}
		}
	}
}

// BenchmarkLoadUserFile is the policy set-up of a hook call when the user
// has a policy file: read, hash and (before the cache) parse it.
func BenchmarkLoadUserFile(b *testing.B) {
	f := newFixture(b)
	f.userFile(cachedPolicy)
	o := f.options()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(o); err != nil {
			b.Fatal(err)
		}
	}
}

// Loads at once (the service decides requests in parallel) share the kept
// document and each decode its sections with their own schemas; run with
// -race.
func TestParseCacheConcurrentLoads(t *testing.T) {
	f := newFixture(t)
	f.userFile(cachedPolicy)
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			var err error
			for range 20 {
				mcp, eg := &countSchema{}, &countSchema{}
				o := f.options()
				o.MCP = func() MCPSchema { return mcp }
				o.Egress = func() EgressSchema { return eg }
				var p *Policy
				if p, err = Load(o); err != nil {
					break
				}
				if mcp.merges != 1 || eg.merges != 1 || len(p.Rules) == 0 || p.Mode != Supervised {
					err = &FileError{File: "load", Err: ErrBadValue}
					break
				}
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
