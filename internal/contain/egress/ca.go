package egress

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// CAFile is the certificate authority's file under airlock's state
// directory: its certificate and private key, mode 0600 in the 0700
// secrets directory, which containment keeps out of the sandbox.
const CAFile = "secrets/egress-ca.pem"

// caValidity is how long the authority made on first use is valid;
// leafValidity how long a minted host certificate is.
const (
	caValidity   = 10 * 365 * 24 * time.Hour
	leafValidity = 7 * 24 * time.Hour
)

// authority is the per-installation certificate authority and the leaf
// certificates minted with it, one per host, cached.
type authority struct {
	cert    *x509.Certificate
	certPEM []byte
	key     *ecdsa.PrivateKey
	// leafKey is the one key of every leaf: a key per host would cost a
	// key generation per new host and buy nothing, since the leaves live
	// only in this process's memory. It is made with the first leaf, not
	// when the authority is loaded: "airlock run" loads it on every start,
	// and a command that makes no HTTPS request needs none (mu guards it).
	leafKey *ecdsa.PrivateKey

	mu     sync.Mutex
	leaves map[string]*tls.Certificate
}

// loadAuthority reads the authority from stateDir, making it on first
// use. Two processes that make it at once agree on the first one written
// (the file is linked into place, never overwritten).
func loadAuthority(stateDir string) (*authority, error) {
	if stateDir == "" {
		return nil, errors.New("egress: no state directory for the certificate authority")
	}
	path := filepath.Join(stateDir, filepath.FromSlash(CAFile))
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		data, err = makeAuthority(path)
	}
	if err != nil {
		return nil, fmt.Errorf("egress: certificate authority %s: %w", path, err)
	}
	a, err := parseAuthority(data)
	if err != nil {
		return nil, fmt.Errorf("egress: certificate authority %s: %w", path, err)
	}
	return a, nil
}

// makeAuthority generates a P-256 authority and writes it to path
// (0600), unless another process wrote one first: the file then wins.
func makeAuthority(path string) ([]byte, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return nil, err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	host, _ := os.Hostname()
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "airlock egress CA (" + host + ")", Organization: []string{"airlock"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(caValidity),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return nil, err
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, err
	}
	data := append(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder})...)
	tmp, err := os.CreateTemp(dir, ".egress-ca-*")
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.Write(data)
	serr := tmp.Sync()
	cerr := tmp.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		return nil, err
	}
	if err := os.Link(tmp.Name(), path); errors.Is(err, fs.ErrExist) {
		return os.ReadFile(path)
	} else if err != nil {
		return nil, err
	}
	return data, nil
}

func parseAuthority(data []byte) (*authority, error) {
	a := &authority{leaves: map[string]*tls.Certificate{}}
	for {
		var b *pem.Block
		b, data = pem.Decode(data)
		if b == nil {
			break
		}
		switch b.Type {
		case "CERTIFICATE":
			c, err := x509.ParseCertificate(b.Bytes)
			if err != nil {
				return nil, err
			}
			a.cert, a.certPEM = c, pem.EncodeToMemory(b)
		case "EC PRIVATE KEY":
			k, err := x509.ParseECPrivateKey(b.Bytes)
			if err != nil {
				return nil, err
			}
			a.key = k
		}
	}
	if a.cert == nil || a.key == nil || !a.cert.IsCA {
		return nil, errors.New("the file does not hold a CA certificate and its key; remove it and airlock makes a new one (clients inside must then trust the new one)")
	}
	if !a.key.PublicKey.Equal(a.cert.PublicKey) {
		return nil, errors.New("the key does not match the certificate")
	}
	return a, nil
}

// leaf is the certificate for host, minted on first use and cached
// until it is half-way through its validity.
func (a *authority) leaf(host string) (*tls.Certificate, error) {
	host = strings.ToLower(strings.Trim(host, "[]"))
	now := time.Now()
	a.mu.Lock()
	defer a.mu.Unlock()
	if c := a.leaves[host]; c != nil && now.Before(c.Leaf.NotAfter.Add(-leafValidity/2)) {
		return c, nil
	}
	if a.leafKey == nil {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return nil, err
		}
		a.leafKey = k
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: host, Organization: []string{"airlock egress proxy"}},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(leafValidity),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	if ip := net.ParseIP(host); ip != nil {
		tmpl.IPAddresses = []net.IP{ip}
	} else {
		tmpl.DNSNames = []string{host}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, a.cert, &a.leafKey.PublicKey, a.key)
	if err != nil {
		return nil, err
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	c := &tls.Certificate{Certificate: [][]byte{der, a.cert.Raw}, PrivateKey: a.leafKey, Leaf: leaf}
	a.leaves[host] = c
	return c, nil
}

func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		// crypto/rand does not fail on Linux; a fixed serial would still
		// be a valid certificate.
		return big.NewInt(time.Now().UnixNano())
	}
	return n
}

// systemBundles are where Linux distributions and macOS keep the
// system's roots as one PEM file (as crypto/x509 looks for them).
var systemBundles = []string{
	"/etc/ssl/certs/ca-certificates.crt",                // Debian, Ubuntu, Gentoo, Arch
	"/etc/pki/tls/certs/ca-bundle.crt",                  // Fedora, RHEL 6
	"/etc/ssl/ca-bundle.pem",                            // OpenSUSE
	"/etc/pki/tls/cacert.pem",                           // OpenELEC
	"/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem", // CentOS, RHEL 7
	"/etc/ssl/cert.pem",                                 // Alpine, macOS
}

// CABundlePEM is what clients inside should trust: airlock's authority
// (for every inspected host) followed by the system's roots (for the
// passthrough hosts, whose own certificates reach the client). A client
// whose SSL_CERT_FILE names only airlock's certificate would fail on
// every passthrough host. sslCertFile is the proxy's own SSL_CERT_FILE,
// tried first; when no system bundle is found the bundle is airlock's
// certificate alone.
func (p *Proxy) CABundlePEM(sslCertFile string) []byte {
	out := p.CACertPEM()
	for _, f := range append([]string{sslCertFile}, systemBundles...) {
		if f == "" {
			continue
		}
		if b, err := os.ReadFile(f); err == nil && len(b) > 0 {
			if out[len(out)-1] != '\n' {
				out = append(out, '\n')
			}
			return append(out, b...)
		}
	}
	return out
}
