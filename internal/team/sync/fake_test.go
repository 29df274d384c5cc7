package sync

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	gosync "sync"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/team/wire"
)

// fakeServer speaks wire on loopback the way the contract says, with its
// own signing key: the server of the unit tests, and, with another key,
// an impostor.
type fakeServer struct {
	t    *testing.T
	srv  *httptest.Server
	priv ed25519.PrivateKey
	pub  ed25519.PublicKey

	mu          gosync.Mutex
	tokens      map[string]string // token -> machine
	items       map[string]wire.HeldItem
	settlements map[string][]wire.Settlement // key -> in arrival order
	decisions   []row
	down        bool // every request answers 503
	version     int
	pushes      int
	// strict answers 400 to a push with a status it does not know (as
	// a server that predates StatusRefused would).
	strict bool
	// itemBytes, when set, answers 413 to a push holding a held item
	// larger than that as JSON, as the real server does (Limits.ItemBytes).
	itemBytes int
}

func newFake(t *testing.T) *fakeServer {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeServer{t: t, pub: pub, priv: priv, tokens: map[string]string{}, items: map[string]wire.HeldItem{},
		settlements: map[string][]wire.Settlement{}, version: wire.Version}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeServer) url() string { return f.srv.URL }

func (f *fakeServer) addMachine(name, token string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tokens[token] = name
}

func (f *fakeServer) setDown(down bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.down = down
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func (f *fakeServer) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down {
		writeJSON(w, http.StatusServiceUnavailable, wire.Error{Error: "down for the test"})
		return
	}
	tok, ok := bearer(r)
	machine := f.tokens[tok]
	if !ok || machine == "" {
		writeJSON(w, http.StatusUnauthorized, wire.Error{Error: "unknown token"})
		return
	}
	switch r.URL.Path {
	case wire.PathPrefix + "/hello":
		writeJSON(w, 200, wire.Hello{Version: f.version, Machine: machine, ServerKey: wire.EncodeKey(f.pub)})
	case wire.PathPrefix + "/push":
		var p wire.Push
		if err := json.NewDecoder(r.Body).Decode(&p); err != nil {
			writeJSON(w, 400, wire.Error{Error: err.Error()})
			return
		}
		f.pushes++
		for i, it := range p.Items {
			if b, _ := json.Marshal(it); f.itemBytes > 0 && len(b) > f.itemBytes {
				writeJSON(w, http.StatusRequestEntityTooLarge, wire.Error{Error: "items[" + strconv.Itoa(i) + "] (" + it.ID + ") is " + strconv.Itoa(len(b)) + " bytes as JSON: over the server's limit of " + strconv.Itoa(f.itemBytes) + " per held item"})
				return
			}
		}
		if f.strict {
			for _, st := range p.Settlements {
				if st.Status == wire.StatusRefused {
					writeJSON(w, 400, wire.Error{Error: "status refused is not one a machine reports"})
					return
				}
			}
		}
		var res wire.PushResult
		for _, it := range p.Items {
			k := wire.ItemKey(machine, it.ID)
			if _, ok := f.items[k]; !ok {
				f.items[k] = it
				res.NewItems++
			}
		}
	next:
		for _, s := range p.Settlements {
			k := wire.ItemKey(machine, s.ID)
			for _, old := range f.settlements[k] {
				if old.Status == s.Status {
					continue next
				}
			}
			f.settlements[k] = append(f.settlements[k], s)
			res.NewSettlements++
		}
		writeJSON(w, 200, res)
	case wire.PathPrefix + "/decisions":
		after, _ := strconv.ParseInt(r.URL.Query().Get("after"), 10, 64)
		limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
		out := wire.Decisions{Decisions: []wire.Decision{}, Next: after}
		for _, row := range f.decisions {
			if d := row.d; row.to == machine && d.Seq > after && (limit <= 0 || len(out.Decisions) < limit) {
				out.Decisions = append(out.Decisions, d)
				out.Next = d.Seq
			}
		}
		writeJSON(w, 200, out)
	default:
		writeJSON(w, 404, wire.Error{Error: "no such endpoint"})
	}
}

func bearer(r *http.Request) (string, bool) {
	const p = "Bearer "
	h := r.Header.Get("Authorization")
	if len(h) <= len(p) || h[:len(p)] != p {
		return "", false
	}
	return h[len(p):], true
}

// decide signs a decision for machine with the server's key and lists
// it to machine.
func (f *fakeServer) decide(machine, item, heldHash, verdict, reviewer string) wire.Decision {
	d := wire.Decision{Machine: machine, ItemID: item, HeldHash: heldHash, Verdict: verdict, Reviewer: reviewer,
		Time: time.Date(2026, 2, 23, 9, 0, 0, 0, time.UTC).Format(time.RFC3339Nano)}
	f.mu.Lock()
	d.DecisionID = "dec-" + strconv.Itoa(len(f.decisions)+1)
	f.mu.Unlock()
	wire.Sign(f.priv, &d)
	return f.deliver(machine, d)
}

// deliver lists d to machine as it is: its signature and the machine it
// names untouched (a forgery, or another machine's decision).
func (f *fakeServer) deliver(to string, d wire.Decision) wire.Decision {
	f.mu.Lock()
	defer f.mu.Unlock()
	d.Seq = int64(len(f.decisions) + 1)
	f.decisions = append(f.decisions, row{to: to, d: d})
	return d
}

// row is one listed decision and the machine it is listed to.
type row struct {
	to string
	d  wire.Decision
}

// settled returns what the machine reported of item.
func (f *fakeServer) settled(machine, item string) []wire.Settlement {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]wire.Settlement(nil), f.settlements[wire.ItemKey(machine, item)]...)
}

// item returns the held item the machine shipped, if any.
func (f *fakeServer) item(machine, id string) (wire.HeldItem, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	it, ok := f.items[wire.ItemKey(machine, id)]
	return it, ok
}

func (f *fakeServer) itemCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.items)
}
