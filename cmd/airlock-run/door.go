//go:build linux

package main

import (
	"io"
	"os"

	"github.com/airlock-dev/airlock/internal/contain/egress"
	"github.com/airlock-dev/airlock/internal/contain/run/runner"
)

// The egress proxy of a run: airlock's own, deciding every request with
// the policy in effect for the working directory and recording it in the
// journal, where held requests join the review queue. It runs in this
// process, outside the sandbox; the sandbox reaches it only through the
// Unix socket the runner binds in.
func init() {
	runner.NewDoor = func(getenv func(string) string, _ io.Writer) (runner.Door, error) {
		cwd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		o, _, err := egress.Wired(getenv, cwd)
		if err != nil {
			return nil, err
		}
		p, err := egress.New(o)
		if err != nil {
			return nil, err
		}
		return bundleDoor{p, getenv("SSL_CERT_FILE")}, nil
	}
}

// bundleDoor hands the sandbox airlock's certificate authority together
// with the system's roots: the variables that point clients at it
// (SSL_CERT_FILE, REQUESTS_CA_BUNDLE, ...) replace the system's roots,
// and the passthrough hosts (the agent's own model API) reach the client
// with their own certificates. The runner writes CABundle as it is
// (CACertPEM stays the authority alone).
type bundleDoor struct {
	*egress.Proxy
	sslCertFile string
}

func (d bundleDoor) CABundle() []byte { return d.CABundlePEM(d.sslCertFile) }
