package server

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// LoadKey reads the server's signing key from path (PKCS #8, PEM), or
// creates it there (mode 0600, its directory 0700) when there is none,
// and says whether it did. A key file others may read is refused: whoever
// reads it can sign decisions every joined machine will apply.
func LoadKey(path string) (ed25519.PrivateKey, bool, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return createKey(path)
	}
	if err != nil {
		return nil, false, fmt.Errorf("team server: signing key: %w", err)
	}
	if st, err := os.Stat(path); err == nil && st.Mode().Perm()&0o077 != 0 {
		return nil, false, fmt.Errorf("team server: signing key %s has mode %04o: others than its owner may read it (chmod 600 %s, and consider the key exposed)", path, st.Mode().Perm(), path)
	}
	blk, _ := pem.Decode(b)
	if blk == nil || blk.Type != "PRIVATE KEY" {
		return nil, false, fmt.Errorf("team server: signing key %s is not a PEM PRIVATE KEY", path)
	}
	k, err := x509.ParsePKCS8PrivateKey(blk.Bytes)
	if err != nil {
		return nil, false, fmt.Errorf("team server: signing key %s: %w", path, err)
	}
	priv, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, false, fmt.Errorf("team server: signing key %s is not an ed25519 key", path)
	}
	return priv, false, nil
}

func createKey(path string) (ed25519.PrivateKey, bool, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, false, err
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return nil, false, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, false, fmt.Errorf("team server: signing key: %w", err)
	}
	// O_EXCL: two servers started at once do not each write a key and
	// sign with different ones.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return LoadKey(path)
	}
	if err != nil {
		return nil, false, fmt.Errorf("team server: signing key: %w", err)
	}
	if err := pem.Encode(f, &pem.Block{Type: "PRIVATE KEY", Bytes: der}); err != nil {
		f.Close()
		os.Remove(path)
		return nil, false, fmt.Errorf("team server: signing key: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return nil, false, err
	}
	if err := f.Close(); err != nil {
		return nil, false, err
	}
	return priv, true, nil
}
