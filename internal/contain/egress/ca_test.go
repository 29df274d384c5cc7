package egress

import (
	"crypto/ecdsa"
	"testing"
)

// Loading the authority (every "airlock run" start) makes no key: the
// leaves' key is made with the first leaf, and every later leaf is signed
// for the same key, so one start pays at most one key generation.
func TestLeafKeyMadeWithFirstLeaf(t *testing.T) {
	e := newEnv(t, "")
	a, err := loadAuthority(e.state)
	if err != nil {
		t.Fatal(err)
	}
	if a.leafKey != nil {
		t.Fatal("loading the authority generated a leaf key; it is made with the first leaf")
	}
	one, err := a.leaf("one.example")
	if err != nil {
		t.Fatal(err)
	}
	two, err := a.leaf("two.example")
	if err != nil {
		t.Fatal(err)
	}
	k1, ok1 := one.PrivateKey.(*ecdsa.PrivateKey)
	k2, ok2 := two.PrivateKey.(*ecdsa.PrivateKey)
	if !ok1 || !ok2 || a.leafKey == nil || !k1.Equal(a.leafKey) || !k2.Equal(a.leafKey) {
		t.Fatal("the leaves do not share the one leaf key")
	}
	if err := one.Leaf.CheckSignatureFrom(a.cert); err != nil {
		t.Fatalf("the leaf is not signed by the authority: %v", err)
	}
	if !one.Leaf.PublicKey.(*ecdsa.PublicKey).Equal(&a.leafKey.PublicKey) {
		t.Fatal("the leaf certificate is not for the leaf key")
	}
}
