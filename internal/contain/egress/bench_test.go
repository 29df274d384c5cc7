package egress

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"
)

// The proxy's cost, measured on loopback in one run, direct and proxied
// requests alternating so that both see the same machine (docs/BENCHMARKS.md):
//
//	go test -run '^$' -bench Latency -benchtime 2000x ./internal/contain/egress/
//	go test -run '^$' -bench Download -benchtime 5x ./internal/contain/egress/
//
// Every proxied request is decided by the pipeline (the policy loaded
// for the project, the decision journaled), as in service.

// BenchmarkLatency: a small GET, over HTTP and over inspected HTTPS.
func BenchmarkLatency(b *testing.B) {
	for _, useTLS := range []bool{false, true} {
		name := "http"
		if useTLS {
			name = "https-inspected"
		}
		b.Run(name, func(b *testing.B) {
			e := newEnv(b, "")
			var srv *httptest.Server
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })
			if useTLS {
				srv = httptest.NewTLSServer(h)
				e.trust(srv.Certificate())
			} else {
				srv = httptest.NewServer(h)
			}
			defer srv.Close()
			direct := &http.Client{Transport: &http.Transport{TLSClientConfig: tlsRoots(e.upstream)}}
			proxied := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(e.proxyURL), TLSClientConfig: tlsRoots(e.caPool)}}
			get := func(c *http.Client) time.Duration {
				start := time.Now()
				resp, err := c.Get(srv.URL + "/x")
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					b.Fatalf("status %s", resp.Status)
				}
				return time.Since(start)
			}
			get(direct) // connections and the leaf certificate, made once
			get(proxied)
			var d, p time.Duration
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				d += get(direct)
				p += get(proxied)
			}
			b.ReportMetric(float64(d.Nanoseconds())/float64(b.N), "ns-direct/op")
			b.ReportMetric(float64(p.Nanoseconds())/float64(b.N), "ns-proxy/op")
			b.ReportMetric(float64(p)/float64(d), "ratio")
		})
	}
}

// BenchmarkDownload: a 100 MB body, direct and through the proxy.
func BenchmarkDownload(b *testing.B) {
	const size = 100 << 20
	chunk := bytes.Repeat([]byte("0123456789abcdef"), 4096)
	for _, useTLS := range []bool{false, true} {
		name := "http"
		if useTLS {
			name = "https-inspected"
		}
		b.Run(name, func(b *testing.B) {
			e := newEnv(b, "")
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Length", strconv.Itoa(size))
				for n := 0; n < size; n += len(chunk) {
					w.Write(chunk[:min(len(chunk), size-n)])
				}
			})
			var srv *httptest.Server
			if useTLS {
				srv = httptest.NewTLSServer(h)
				e.trust(srv.Certificate())
			} else {
				srv = httptest.NewServer(h)
			}
			defer srv.Close()
			direct := &http.Client{Transport: &http.Transport{TLSClientConfig: tlsRoots(e.upstream), DisableCompression: true}}
			proxied := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(e.proxyURL), TLSClientConfig: tlsRoots(e.caPool), DisableCompression: true}}
			var cpuD, cpuP time.Duration
			get := func(c *http.Client) time.Duration {
				start := time.Now()
				resp, err := c.Get(srv.URL + "/big")
				if err != nil {
					b.Fatal(err)
				}
				n, err := io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if err != nil || n != size {
					b.Fatalf("read %d bytes: %v", n, err)
				}
				return time.Since(start)
			}
			var d, p time.Duration
			b.SetBytes(size)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				c0 := cpuTime()
				d += get(direct)
				c1 := cpuTime()
				p += get(proxied)
				cpuD, cpuP = cpuD+c1-c0, cpuP+cpuTime()-c1
			}
			mb := float64(size) / (1 << 20) * float64(b.N)
			b.ReportMetric(mb/d.Seconds(), "MiB/s-direct")
			b.ReportMetric(mb/p.Seconds(), "MiB/s-proxy")
			b.ReportMetric(d.Seconds()/p.Seconds(), "rate-ratio")
			// The CPU the process spent (client, server and, proxied, the
			// proxy): on a loaded machine the wall clock swings with the
			// other jobs, while this is the work each way costs. Their
			// ratio is the rate ratio a CPU-bound machine would see.
			b.ReportMetric(float64(cpuD.Milliseconds())/float64(b.N), "cpu-ms-direct/op")
			b.ReportMetric(float64(cpuP.Milliseconds())/float64(b.N), "cpu-ms-proxy/op")
			b.ReportMetric(cpuD.Seconds()/cpuP.Seconds(), "cpu-ratio")
		})
	}
}
