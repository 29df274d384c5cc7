package policy

import "testing"

// BenchmarkLoadNoFiles is the policy set-up every hook call pays when the
// user has no policy files.
func BenchmarkLoadNoFiles(b *testing.B) {
	o := newFixture(b).options()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(o); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecideAllow decides an allowed command with the defaults.
func BenchmarkDecideAllow(b *testing.B) {
	p := Defaults()
	a := shell("go test ./... && git status")
	b.ReportAllocs()
	for b.Loop() {
		if p.Decide(a).Decision != Allow {
			b.Fatal("not allowed")
		}
	}
}
