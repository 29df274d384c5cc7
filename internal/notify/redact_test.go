package notify

import (
	"strings"
	"testing"
)

// Each secret is written the ways a command carries one: a named value
// in every syntax (environment, flag, header, JSON, YAML, query), a
// password in a URL or after curl -u, a token with a known shape, a long
// random word, and a value airlock itself holds.
func TestRedactHidesSecrets(t *testing.T) {
	gh := "ghp_" + strings.Repeat("Ab3d", 9)
	cases := []struct{ text, secret string }{
		{"GITHUB_TOKEN=" + "plainvalue123 gh pr create", "plainvalue123"},
		{"export AWS_SECRET_ACCESS_KEY='wJalrXUtnFEMI/K7MDENG'", "wJalrXUtnFEMI/K7MDENG"},
		{"mytool --password hunter2 --user bob", "hunter2"},
		{"mytool --api-key=abc123def push", "abc123def"},
		{`curl -H "Authorization: Bearer opaque-value-9" https://x.example`, "opaque-value-9"},
		{`curl -H 'X-Api-Key: k-771-zz' https://x.example`, "k-771-zz"},
		{`curl -d '{"password": "correct horse battery"}' https://x.example`, "correct horse battery"},
		{"curl https://x.example/hook?access_token=qq11ww22&x=1", "qq11ww22"},
		{"git push https://bob:pa55word@github.com/o/r.git", "pa55word"},
		{"curl -u bob:s3cret https://x.example", "s3cret"},
		{"echo " + gh + " | gh auth login --with-token", gh},
		{"aws configure set aws_access_key_id AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"},
		{"curl -H 'x: sk-ant-api03-" + strings.Repeat("x", 30) + "'", "sk-ant-api03-" + strings.Repeat("x", 30)},
		{"deploy --key eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "eyJhbGciOiJIUzI1NiJ9"},
		{"send 9fK2mQ7xLp4Zt8Rw1Vb6Nc3Hy5Jd0Gs2 now", "9fK2mQ7xLp4Zt8Rw1Vb6Nc3Hy5Jd0Gs2"},
		{"printf '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE\n-----END OPENSSH PRIVATE KEY-----' > k", "b3BlbnNzaC1rZXktdjE"},
		{"curl -H 'Title: x' https://ntfy.example/tk_configuredtoken", "tk_configuredtoken"},
	}
	r := newRedactor("tk_configuredtoken")
	for _, c := range cases {
		got := r.Line(c.text, 0)
		if strings.Contains(got, c.secret) {
			t.Errorf("%q\n  shows %q: %s", c.text, c.secret, got)
		}
		if !strings.Contains(got, Marker) {
			t.Errorf("%q: no marker in %s", c.text, got)
		}
	}
}

// What a reviewer needs stays visible: commit ids, paths, hosts, the name
// of a variable that holds a secret, prose about tokens.
func TestRedactKeepsOrdinaryText(t *testing.T) {
	r := newRedactor()
	for _, s := range []string{
		"git push origin 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39",
		"git commit -m 'refresh the token cache before use'",
		"curl -H \"Authorization: Bearer $GITHUB_TOKEN\" https://api.github.com/repos/o/r/pulls",
		"rsync -a ./internal/notify/ntfytest/ host:/srv/app/releases/2026-12-01/",
		"mytool --token-file /home/me/.config/tool/token push",
		"npm publish --access public",
	} {
		if got := r.Line(s, 0); got != s {
			t.Errorf("changed:\n  %s\n  %s", s, got)
		}
	}
}

// The marker cannot be forged: the text's own ⟨ is escaped by rendering,
// and the placeholder that becomes the marker is random.
func TestRedactMarkerUnforgeable(t *testing.T) {
	r := newRedactor()
	got := r.Line("echo "+Marker+" AIRLOCKREDACTED", 0)
	if strings.Contains(got, Marker) {
		t.Fatalf("forged marker shown: %s", got)
	}
}

// Rendering still applies: a control sequence in a redacted command is
// escaped, and a long command is cut without leaving half a secret.
func TestRedactThenRender(t *testing.T) {
	r := newRedactor()
	secret := "ghp_" + strings.Repeat("Zz9y", 10)
	got := r.Line("\x1b[2Jgit push "+strings.Repeat("a ", 200)+secret, 120)
	if strings.Contains(got, "\x1b") || strings.Contains(got, "Zz9y") {
		t.Fatalf("%q", got)
	}
}
