package policy

import (
	"strings"
	"testing"
)

// TestOpaqueBudget checks the whole-request budget at its edge: pieces
// adding up to MaxOpaqueBytes are a read, one byte more is held; words,
// numbers and versions weigh nothing; hex weighs half; one credential is
// allowed MaxCredential first.
func TestOpaqueBudget(t *testing.T) {
	data := func(n int) string { // letters and digits mixed: data-shaped
		return strings.Repeat("a1B2c3D4e5", n/10+1)[:n]
	}
	get := func(path, query string, carried ...string) string {
		return exfilShape(&NetRequest{Method: "GET", Host: "example.com", Path: path, Query: query, Carried: carried})
	}
	for _, c := range []struct {
		name string
		why  string
	}{
		{"at the budget", get("/"+data(MaxOpaqueBytes/2), "x="+data(MaxOpaqueBytes/2))},
		{"words and versions", get("/repos/octocat/Hello-World/releases/v1.2.3", "per_page=100", "User-Agent: curl/8.5.0", "Accept: application/vnd.github+json")},
		{"hex at half", get("/blobs/"+strings.Repeat("0a", MaxOpaqueBytes/2)+"/"+strings.Repeat("1b", MaxOpaqueBytes/2), "")},
		{"one credential", get("/x", "", "Authorization: Bearer "+data(MaxCredential))},
		{"short pieces", get("/"+strings.Repeat("ab12/", 40), "")},
	} {
		if c.why != "" {
			t.Errorf("%s: held (%s); want a read", c.name, c.why)
		}
	}
	for _, c := range []struct {
		name string
		why  string
	}{
		{"one byte over", get("/"+data(MaxOpaqueBytes/2), "x="+data(MaxOpaqueBytes/2+1))},
		{"split over segments", get("/"+data(MaxOpaqueBytes/4+1)+"/"+data(MaxOpaqueBytes/4+1)+"/"+data(MaxOpaqueBytes/4+1)+"/"+data(MaxOpaqueBytes/4+1), "")},
		{"in a cookie", get("/", "", "Cookie: s="+data(MaxOpaqueBytes+1))},
		{"a credential and more", get("/x", "", "Authorization: Bearer "+data(MaxCredential+MaxOpaqueBytes+1))},
		{"one long lower-case run", get("/"+strings.Repeat("qwertyuiopasdfgh", 4), "")},
	} {
		if c.why == "" {
			t.Errorf("%s: read; want held by the budget", c.name)
		} else if !strings.Contains(c.why, "MaxOpaqueBytes") && !strings.Contains(c.why, "opaque characters") {
			t.Errorf("%s: held for %q, not by the budget", c.name, c.why)
		}
	}
}
