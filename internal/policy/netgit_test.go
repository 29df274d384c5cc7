package policy

import (
	"fmt"
	"strings"
	"testing"
)

func pkt(lines ...string) string {
	var b strings.Builder
	for _, l := range lines {
		switch l {
		case "0000", "0001", "0002":
			b.WriteString(l)
		default:
			fmt.Fprintf(&b, "%04x%s", len(l)+4, l)
		}
	}
	return b.String()
}

// TestGitFetchBody: what git's fetch sends to git-upload-pack is read as
// a read; a file's bytes, or a negotiation past its bounds, is not.
func TestGitFetchBody(t *testing.T) {
	oid := strings.Repeat("ab", 20)
	good := []string{
		pkt("want "+oid+" multi_ack_detailed side-band-64k thin-pack ofs-delta deepen-since deepen-not agent=git/2.39.5\n", "want "+oid+"\n", "0000", "have "+oid+"\n", "done\n"),
		pkt("command=fetch", "agent=git/2.39.5", "object-format=sha1", "0001", "thin-pack", "ofs-delta", "want "+oid+"\n", "have "+oid+"\n", "done\n", "0000"),
		pkt("command=ls-refs\n", "agent=git/2.45.0\n", "0001", "peel\n", "symrefs\n", "unborn\n", "ref-prefix HEAD\n", "ref-prefix refs/heads/\n", "ref-prefix refs/tags/\n", "0000"),
		pkt("want "+oid+"\n", "shallow "+oid+"\n", "deepen 1\n", "filter blob:none\n", "0000", "done\n"),
		"",
	}
	for _, b := range good {
		if ok, why := GitFetchBody([]byte(b)); !ok {
			t.Errorf("%q: not a fetch (%s)", b, why)
		}
	}
	bad := map[string]string{
		"a file's bytes":            "AWS_SECRET_ACCESS_KEY=abc\nDB_PASSWORD=x\n",
		"base64 text":               strings.Repeat("QUFB", 250),
		"a made-up line":            pkt("command=fetch", "0001", "secret=hunter2\n"),
		"text after have":           pkt("have " + oid + " hunter2\n"),
		"an upper-case id":          pkt("want " + strings.ToUpper(oid) + "\n"),
		"a short id":                pkt("want abcdef\n"),
		"a torn line":               "0032want " + oid,
		"a length past the body":    "ffffwant",
		"binary in free text":       pkt("ref-prefix refs/\x01\n"),
		"free text past its bound":  pkt("command=ls-refs", "0001", "ref-prefix refs/heads/"+strings.Repeat("x", maxFetchText)+"\n"),
		"object ids past the bound": pkt(strings.Split(strings.TrimSuffix(strings.Repeat("have "+oid+"\n,", maxFetchObjects+1), ","), ",")...),
		"an unknown command":        pkt("command=push\n"),
	}
	atBound := pkt(strings.Split(strings.TrimSuffix(strings.Repeat("have "+oid+"\n,", maxFetchObjects), ","), ",")...)
	if ok, why := GitFetchBody([]byte(atBound)); !ok {
		t.Errorf("%d haves: not a fetch (%s)", maxFetchObjects, why)
	}
	for name, b := range bad {
		if ok, _ := GitFetchBody([]byte(b)); ok {
			t.Errorf("%s: read as a fetch", name)
		}
	}
}
