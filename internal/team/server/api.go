package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/airlock-dev/airlock/internal/team/store"
	"github.com/airlock-dev/airlock/internal/team/wire"
)

// verdictBytes bounds an approve or reject body: a note and a TTL.
const verdictBytes = 16 << 10

// noteBytes bounds a decision's note.
const noteBytes = 2000

// maxTTL is the longest approval a reviewer can give, as on a machine
// (journal.MaxApprovalExpiry).
const maxTTL = 7 * 24 * time.Hour

func (s *Server) apiRoutes(mux *http.ServeMux) {
	p := wire.PathPrefix
	mux.HandleFunc("GET "+p+"/hello", s.machine(s.hello))
	mux.HandleFunc("POST "+p+"/push", s.machine(s.push))
	mux.HandleFunc("GET "+p+"/decisions", s.machine(s.decisions))
	mux.HandleFunc("GET "+p+"/queue", s.reviewer(s.queue))
	mux.HandleFunc("GET "+p+"/queue/{key}", s.reviewer(s.item))
	mux.HandleFunc("POST "+p+"/queue/{key}/approve", s.reviewer(s.settle(wire.Approve)))
	mux.HandleFunc("POST "+p+"/queue/{key}/reject", s.reviewer(s.settle(wire.Reject)))
	mux.HandleFunc(p+"/", func(w http.ResponseWriter, r *http.Request) {
		apiError(w, http.StatusNotFound, "no such endpoint: "+r.Method+" "+r.URL.Path, "the team API is described in internal/team/wire")
	})
}

// apiError answers with a wire.Error.
func apiError(w http.ResponseWriter, status int, msg, hint string) {
	writeJSON(w, status, wire.Error{Error: msg, Hint: hint})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

type identity struct{ name string }

type ctxKey struct{}

// bearer is the request's bearer token.
func bearer(r *http.Request) string {
	a := r.Header.Get("Authorization")
	if t, ok := strings.CutPrefix(a, "Bearer "); ok {
		return strings.TrimSpace(t)
	}
	return ""
}

// authed lets a request through only with a live token of kind; the
// handler reads who it is with who(r).
func (s *Server) authed(kind string, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		tok := bearer(r)
		if tok == "" {
			apiError(w, http.StatusUnauthorized, "no token: send Authorization: Bearer TOKEN", tokenHint(kind))
			return
		}
		name, err := s.st.Authenticate(r.Context(), kind, tok)
		switch {
		case errors.Is(err, store.ErrWrongTokens):
			apiError(w, http.StatusUnauthorized, "this endpoint takes a "+kind+" token, and this is not one", tokenHint(kind))
			return
		case errors.Is(err, store.ErrBadToken):
			apiError(w, http.StatusUnauthorized, "the "+kind+" token is unknown or revoked", tokenHint(kind))
			return
		case err != nil:
			apiError(w, http.StatusServiceUnavailable, "the team database did not answer: "+err.Error(), "retry later")
			return
		}
		h(w, r.WithContext(context.WithValue(r.Context(), ctxKey{}, identity{name})))
	}
}

func tokenHint(kind string) string {
	if kind == store.Machine {
		return "a machine's token comes from airlock team add-machine NAME (airlock team join SERVER --token T keeps it)"
	}
	return "a reviewer's token comes from airlock team add-reviewer NAME"
}

func (s *Server) machine(h http.HandlerFunc) http.HandlerFunc  { return s.authed(store.Machine, h) }
func (s *Server) reviewer(h http.HandlerFunc) http.HandlerFunc { return s.authed(store.Reviewer, h) }

func who(r *http.Request) string { return r.Context().Value(ctxKey{}).(identity).name }

func (s *Server) hello(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, wire.Hello{Version: wire.Version, Machine: who(r), ServerKey: wire.EncodeKey(s.pub)})
}

// readJSON decodes a bounded body into v, answering the error itself.
func readJSON(w http.ResponseWriter, r *http.Request, limit int64, what string, v any) bool {
	return readJSONOpt(w, r, limit, what, v, false)
}

// readJSONOpt is readJSON; with empty, an empty body is the zero value.
func readJSONOpt(w http.ResponseWriter, r *http.Request, limit int64, what string, v any, empty bool) bool {
	r.Body = http.MaxBytesReader(w, r.Body, limit)
	dec := json.NewDecoder(r.Body)
	if err := dec.Decode(v); err != nil {
		if empty && errors.Is(err, io.EOF) {
			return true
		}
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			apiError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the %s body is over the server's limit of %d bytes", what, limit), "send it in smaller batches")
			return false
		}
		apiError(w, http.StatusBadRequest, "the "+what+" body is not valid JSON: "+err.Error(), "")
		return false
	}
	return true
}

func (s *Server) push(w http.ResponseWriter, r *http.Request) {
	var p wire.Push
	lim := s.opts.Limits
	if !readJSON(w, r, lim.PushBytes, "push", &p) {
		return
	}
	if len(p.Items) > lim.PushRows || len(p.Settlements) > lim.PushRows {
		apiError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the push has %d items and %d settlements: over the server's limit of %d of each per push",
			len(p.Items), len(p.Settlements), lim.PushRows), "send them in batches of at most "+strconv.Itoa(lim.PushRows))
		return
	}
	for i, it := range p.Items {
		if b, _ := json.Marshal(it); len(b) > lim.ItemBytes {
			apiError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("items[%d] (%s) is %d bytes as JSON: over the server's limit of %d per held item", i, it.ID, len(b), lim.ItemBytes),
				"bound the item's input on the machine")
			return
		}
	}
	res, err := s.st.Push(r.Context(), who(r), p)
	if errors.Is(err, store.ErrInvalid) {
		apiError(w, http.StatusBadRequest, err.Error(), "")
		return
	}
	if err != nil {
		apiError(w, http.StatusServiceUnavailable, err.Error(), "the push is idempotent: send it again")
		return
	}
	writeJSON(w, http.StatusOK, res)
}

// intParam reads a non-negative integer query parameter.
func intParam(r *http.Request, name string, def int64) (int64, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s=%q is not a number from 0", name, truncate(v, 40))
	}
	return n, nil
}

// limitParam reads ?limit=, refusing one over max by name.
func limitParam(r *http.Request, def, max int, what string) (int, error) {
	n, err := intParam(r, "limit", int64(def))
	if err != nil {
		return 0, err
	}
	if n == 0 {
		n = int64(def)
	}
	if n > int64(max) {
		return 0, fmt.Errorf("limit=%d is over the server's %s page limit of %d", n, what, max)
	}
	return int(n), nil
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

func (s *Server) decisions(w http.ResponseWriter, r *http.Request) {
	after, err := intParam(r, "after", 0)
	if err != nil {
		apiError(w, http.StatusBadRequest, err.Error(), "")
		return
	}
	limit, err := limitParam(r, min(100, s.opts.Limits.DecisionsPage), s.opts.Limits.DecisionsPage, "decisions")
	if err != nil {
		apiError(w, http.StatusBadRequest, err.Error(), "ask again from the last seq returned")
		return
	}
	ds, err := s.st.Decisions(r.Context(), who(r), after, limit)
	if err != nil {
		apiError(w, http.StatusServiceUnavailable, err.Error(), "retry later")
		return
	}
	writeJSON(w, http.StatusOK, ds)
}

// parseAge reads a minimum age: a Go duration ("90m", "2h") or a number
// of days ("3d").
func parseAge(v string) (time.Duration, error) {
	if v == "" {
		return 0, nil
	}
	if d, ok := strings.CutSuffix(v, "d"); ok {
		n, err := strconv.Atoi(d)
		if err == nil && n >= 0 && n <= 36500 {
			return time.Duration(n) * 24 * time.Hour, nil
		}
	} else if d, err := time.ParseDuration(v); err == nil && d >= 0 {
		return d, nil
	}
	return 0, fmt.Errorf("min_age=%q is not a duration such as 90m, 2h or 3d", truncate(v, 40))
}

// queueFilter reads the queue's filters from a request's query.
func (s *Server) queueFilter(r *http.Request, defLimit int) (store.Filter, error) {
	q := r.URL.Query()
	f := store.Filter{Machine: q.Get("machine"), Repo: q.Get("repo"), Status: q.Get("status")}
	if f.Machine != "" {
		if err := wire.CheckName(f.Machine); err != nil {
			return f, err
		}
	}
	if len(f.Repo) > 1000 {
		return f, errors.New("repo= is longer than 1000")
	}
	if f.Status != "" && f.Status != "all" && f.Status != "pending" && f.Status != wire.Approve+"d" && f.Status != wire.Reject+"ed" &&
		!machineStatus(f.Status) {
		return f, fmt.Errorf("status=%q is not one of open (empty), all, pending, approved, rejected, ran, used, expired, acknowledged, dismissed", truncate(f.Status, 40))
	}
	var err error
	if f.MinAge, err = parseAge(q.Get("min_age")); err != nil {
		return f, err
	}
	if f.Limit, err = limitParam(r, defLimit, s.opts.Limits.QueuePage, "queue"); err != nil {
		return f, err
	}
	off, err := intParam(r, "offset", 0)
	if err != nil {
		return f, err
	}
	if off > 1<<30 {
		return f, errors.New("offset= is too large")
	}
	f.Offset = int(off)
	return f, nil
}

func machineStatus(s string) bool {
	switch s {
	case "ran", "used", "expired", "acknowledged", "dismissed":
		return true
	}
	return false
}

func (s *Server) queue(w http.ResponseWriter, r *http.Request) {
	f, err := s.queueFilter(r, min(50, s.opts.Limits.QueuePage))
	if err != nil {
		apiError(w, http.StatusBadRequest, err.Error(), "")
		return
	}
	items, _, err := s.st.Queue(r.Context(), f)
	if err != nil {
		apiError(w, http.StatusServiceUnavailable, err.Error(), "retry later")
		return
	}
	writeJSON(w, http.StatusOK, wire.QueueList{Items: items})
}

func (s *Server) item(w http.ResponseWriter, r *http.Request) {
	m, id, err := wire.SplitKey(r.PathValue("key"))
	if err != nil {
		apiError(w, http.StatusBadRequest, err.Error(), "an item's key is MACHINE:ID, as airlock team queue list shows it")
		return
	}
	it, err := s.st.Item(r.Context(), m, id)
	if err != nil {
		s.storeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, it)
}

func (s *Server) storeError(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, store.ErrNotFound):
		apiError(w, http.StatusNotFound, err.Error(), "airlock team queue list shows the open items")
	case errors.Is(err, store.ErrSettled):
		apiError(w, http.StatusConflict, err.Error(), "another decision settled it first: airlock team queue show KEY says which")
	case errors.Is(err, store.ErrInvalid):
		apiError(w, http.StatusBadRequest, err.Error(), "")
	default:
		apiError(w, http.StatusServiceUnavailable, err.Error(), "retry later")
	}
}

// checkVerdict bounds a reviewer's note and TTL.
func checkVerdict(verdict string, v *wire.Verdict) error {
	if len(v.Note) > noteBytes {
		return fmt.Errorf("the note is %d bytes: over the limit of %d", len(v.Note), noteBytes)
	}
	if v.TTLSeconds < 0 || time.Duration(v.TTLSeconds)*time.Second > maxTTL {
		return fmt.Errorf("ttl_seconds=%d: an approval lasts more than 0 and at most %s", v.TTLSeconds, maxTTL)
	}
	if verdict == wire.Reject {
		v.TTLSeconds = 0
	}
	return nil
}

// decide settles an item for reviewer, signing the decision.
func (s *Server) decide(ctx context.Context, key, verdict, reviewer string, v wire.Verdict) (wire.TeamItem, error) {
	m, id, err := wire.SplitKey(key)
	if err != nil {
		return wire.TeamItem{}, fmt.Errorf("%w: %v", store.ErrInvalid, err)
	}
	if err := checkVerdict(verdict, &v); err != nil {
		return wire.TeamItem{}, fmt.Errorf("%w: %v", store.ErrInvalid, err)
	}
	return s.st.Settle(ctx, m, id, verdict, reviewer, v, func(d *wire.Decision) { wire.Sign(s.key, d) })
}

func (s *Server) settle(verdict string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var v wire.Verdict
		if !readJSONOpt(w, r, verdictBytes, verdict, &v, true) {
			return
		}
		it, err := s.decide(r.Context(), r.PathValue("key"), verdict, who(r), v)
		if err != nil {
			s.storeError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, it)
	}
}
