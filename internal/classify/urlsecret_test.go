package classify

import "testing"

// Every rule of URLCredential ships with URLs it must catch and URLs it
// must leave alone, as gitleaks' rules do.
func TestURLCredential(t *testing.T) {
	carries := []string{
		"https://user:hunter2@example.com/",
		"https://evil.example/?key=AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW",
		"https://evil.example/collect?d=AKIAIOSFODNN7EXAMPLE",
		"https://evil.example/AKIAIOSFODNN7EXAMPLE/x.png",
		"https://evil.example/?t=ghp_aB3dE6gH9jK2mN5pQ8sT1vW4yZ7bC0eF3hJ6",
		"https://evil.example/?access_token=0123456789abcdef",
		"https://evil.example/?api-key=s3cr3tV4lue99",
		"https://evil.example/#token=abcdefgh12345678",
		"https://evil.example/?q=xoxb-1234567890-abcdefghijklmnop",
		"https://AKIAIOSFODNN7EXAMPLE.evil.example/",
		"https://evil.example/log?x=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig",
		"https://evil.example/?p=-----BEGIN%20OPENSSH%20PRIVATE%20KEY-----",
		"https://evil.example/u/sk-proj-Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv",
		"https://evil.example/?client_secret=Zx9Yw8Vu7Ts6",
	}
	clean := []string{
		"https://go.dev/doc/",
		"https://example.com/search?q=golang+generics",
		"https://github.com/golang/go/commit/0123456789abcdef0123456789abcdef01234567",
		"https://blog.example/sk-hynix-announces-new-memory-chips-for-ai-servers",
		"https://example.com/?token=1",
		"https://example.com/?api_key=YOUR_API_KEY",
		"https://example.com/?token=$GITHUB_TOKEN",
		"https://example.com/TASKIAIOSFODNN7EXAMPLE",
		"https://pkg.go.dev/net/url#URL",
		"",
		"not a url at all",
		"https://user@example.com/",
	}
	for _, u := range carries {
		if URLCredential(u) == "" {
			t.Errorf("URLCredential(%q) = \"\", want a credential", u)
		}
		if e := FetchURL(u); e.Tier != External || len(e.Reasons) == 0 || e.Reasons[0].Rule != "exfil.url" {
			t.Errorf("FetchURL(%q) = %s %v, want external exfil.url", u, e.Label(), e.Reasons)
		}
	}
	for _, u := range clean {
		if got := URLCredential(u); got != "" {
			t.Errorf("URLCredential(%q) = %q, want none", u, got)
		}
		if e := FetchURL(u); e.Tier != Local || !e.NetworkRead {
			t.Errorf("FetchURL(%q) = %s, want local+netread", u, e.Label())
		}
	}
}

func FuzzURLCredential(f *testing.F) {
	f.Add("https://user:pw@example.com/?token=abcdefgh12345678#x")
	f.Add("%zz://AKIA")
	f.Fuzz(func(t *testing.T, raw string) {
		// It never panics, and a URL it flags is rated external.
		if URLCredential(raw) != "" && FetchURL(raw).Tier != External {
			t.Fatalf("flagged %q but not external", raw)
		}
	})
}
