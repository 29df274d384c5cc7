package wire

import (
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"testing"
	"time"
)

func signed(t *testing.T) (ed25519.PublicKey, ed25519.PrivateKey, Decision) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	d := Decision{Seq: 7, DecisionID: "d1", Machine: "laptop-a", ItemID: "abcd1234", HeldHash: "h",
		Verdict: Approve, Reviewer: "alice", Time: time.Date(2026, 12, 2, 3, 4, 5, 0, time.UTC).Format(time.RFC3339Nano), TTLSeconds: 600}
	Sign(priv, &d)
	return pub, priv, d
}

func TestVerify(t *testing.T) {
	pub, _, d := signed(t)
	if err := Verify(pub, d, "laptop-a"); err != nil {
		t.Fatalf("a good decision: %v", err)
	}
	// Seq is a cursor, not signed: a server may renumber.
	d2 := d
	d2.Seq = 99
	if err := Verify(pub, d2, "laptop-a"); err != nil {
		t.Fatalf("seq changed: %v", err)
	}
	if err := Verify(pub, d, "laptop-b"); !errors.Is(err, ErrWrongMachine) {
		t.Fatalf("another machine: %v", err)
	}
	for name, edit := range map[string]func(*Decision){
		"verdict":  func(d *Decision) { d.Verdict = Reject },
		"item":     func(d *Decision) { d.ItemID = "other" },
		"machine":  func(d *Decision) { d.Machine = "laptop-b" },
		"hash":     func(d *Decision) { d.HeldHash = "h2" },
		"ttl":      func(d *Decision) { d.TTLSeconds = 86400 },
		"reviewer": func(d *Decision) { d.Reviewer = "mallory" },
		"sig":      func(d *Decision) { d.Sig = "AAAA" },
	} {
		e := d
		edit(&e)
		if err := Verify(pub, e, e.Machine); !errors.Is(err, ErrBadSignature) {
			t.Errorf("%s edited: got %v, want a bad signature", name, err)
		}
	}
	other, _, _ := ed25519.GenerateKey(rand.Reader)
	if err := Verify(other, d, "laptop-a"); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("another key: %v", err)
	}
	if err := Verify(nil, d, "laptop-a"); !errors.Is(err, ErrBadSignature) {
		t.Fatalf("no key: %v", err)
	}
}

func TestVerifyMalformedEvenWhenSigned(t *testing.T) {
	_, priv, d := signed(t)
	pub := priv.Public().(ed25519.PublicKey)
	d.Verdict = "maybe"
	Sign(priv, &d)
	if err := Verify(pub, d, "laptop-a"); !errors.Is(err, ErrMalformed) {
		t.Fatalf("verdict maybe: %v", err)
	}
}

func TestNamesAndKeys(t *testing.T) {
	for _, ok := range []string{"laptop-a", "ci.runner_3", "0"} {
		if CheckName(ok) != nil {
			t.Errorf("%q refused", ok)
		}
	}
	for _, bad := range []string{"", "Laptop", "a:b", "a/b", "-a", "a b", string(make([]byte, 64))} {
		if CheckName(bad) == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	m, id, err := SplitKey(ItemKey("ci-1", "abc"))
	if err != nil || m != "ci-1" || id != "abc" {
		t.Fatalf("split: %q %q %v", m, id, err)
	}
	if _, _, err := SplitKey("nocolon"); err == nil {
		t.Fatal("a key without a colon was accepted")
	}
	pub, _, _ := signed(t)
	back, err := DecodeKey(EncodeKey(pub))
	if err != nil || !back.Equal(pub) {
		t.Fatalf("key round trip: %v", err)
	}
	if _, err := DecodeKey("AAAA"); err == nil {
		t.Fatal("a short key was accepted")
	}
	if f := Fingerprint(pub); len(f) < 20 || f[:7] != "SHA256:" {
		t.Fatalf("fingerprint %q", f)
	}
}
