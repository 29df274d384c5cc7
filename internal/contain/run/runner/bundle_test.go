//go:build linux

package runner

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// wholeBundleDoor is a door that knows the whole bundle, as airlock-run's
// egress door does (its authority followed by the roots it chose).
type wholeBundleDoor struct {
	door
	bundle []byte
}

func (d *wholeBundleDoor) CACertPEM() []byte { return []byte("AUTHORITY\n") }
func (d *wholeBundleDoor) CABundle() []byte  { return d.bundle }

// The bundle a door gives whole is written as it is: the system's roots
// are not added a second time (the file was twice the system's bundle,
// read and parsed by every TLS client inside on every run).
func TestOpenDoorWritesWholeBundleOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ca-bundle.pem")
	want := []byte("AUTHORITY\nROOTS\n")
	d, err := openDoor(Options{Door: &wholeBundleDoor{bundle: want}}, path)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("bundle = %q, want the door's own %q", got, want)
	}
}

// A door that gives only its authority gets the system's roots before
// it, once.
func TestOpenDoorAddsRootsToAuthority(t *testing.T) {
	var roots []byte
	for _, f := range systemRoots {
		if b, err := os.ReadFile(f); err == nil {
			roots = b
			break
		}
	}
	path := filepath.Join(t.TempDir(), "ca-bundle.pem")
	d, err := openDoor(Options{Door: &authorityDoor{}}, path)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(got, []byte("AUTHORITY\n")) {
		t.Fatalf("bundle does not end with the door's authority: %q", tail(got))
	}
	if n, want := bytes.Count(got, []byte("BEGIN CERTIFICATE")), bytes.Count(roots, []byte("BEGIN CERTIFICATE")); n != want {
		t.Fatalf("bundle holds %d certificates, want the system's %d once", n, want)
	}
}

type authorityDoor struct{ door }

func (d *authorityDoor) CACertPEM() []byte { return []byte("AUTHORITY\n") }

func tail(b []byte) []byte {
	if len(b) > 40 {
		return b[len(b)-40:]
	}
	return b
}
