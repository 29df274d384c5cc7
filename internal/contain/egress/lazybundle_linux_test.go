//go:build linux

package egress_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/airlock-dev/airlock/internal/contain/egress"
	"github.com/airlock-dev/airlock/internal/contain/run/runner"
	"github.com/airlock-dev/airlock/internal/pipeline"
)

// TestLazyBundleIsTheDoors: airlock-run writes the sandbox's CA bundle
// without starting the proxy (runner.LazyBundle, from the authority's
// file): it must be the bundle the proxy itself gives (CABundlePEM),
// with the system's roots and with a SSL_CERT_FILE of the caller's, and
// hold no private key. Before the authority exists there is none.
func TestLazyBundleIsTheDoors(t *testing.T) {
	state := t.TempDir()
	if _, ok := runner.LazyBundle(state, ""); ok {
		t.Fatal("a bundle before the authority exists")
	}
	p, err := egress.New(egress.Options{StateDir: state, Decide: func(*pipeline.Request) pipeline.Outcome { return pipeline.Outcome{} }})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	own := filepath.Join(t.TempDir(), "roots.pem")
	if err := os.WriteFile(own, []byte("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, ssl := range []string{"", own, "/nonexistent/roots.pem"} {
		got, ok := runner.LazyBundle(state, ssl)
		want := p.CABundlePEM(ssl)
		if !ok || !bytes.Equal(got, want) {
			t.Errorf("SSL_CERT_FILE=%q: the runner's bundle (%d bytes, %v) is not the proxy's (%d bytes)", ssl, len(got), ok, len(want))
		}
		if bytes.Contains(got, []byte("PRIVATE KEY")) {
			t.Errorf("SSL_CERT_FILE=%q: the bundle holds the authority's private key", ssl)
		}
	}
	if _, err := os.Stat(filepath.Join(state, filepath.FromSlash(egress.CAFile))); err != nil {
		t.Errorf("the authority is not at egress.CAFile: %v", err)
	}
}
