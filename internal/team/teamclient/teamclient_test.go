package teamclient

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/airlock-dev/airlock/internal/team/wire"
)

func TestDo(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok" {
			w.WriteHeader(http.StatusUnauthorized)
			json.NewEncoder(w).Encode(wire.Error{Error: "no token", Hint: strings.Repeat("h", 900)})
			return
		}
		switch r.URL.Path {
		case wire.PathPrefix + "/hello":
			json.NewEncoder(w).Encode(wire.Hello{Version: 1, Machine: "m1"})
		case wire.PathPrefix + "/big":
			w.Write([]byte(strings.Repeat("x", 2000)))
		default:
			w.Write([]byte("not json"))
		}
	}))
	defer srv.Close()
	ctx := context.Background()
	var h wire.Hello
	if err := New(srv.URL, "tok", nil, 1<<20).Do(ctx, http.MethodGet, "/hello", nil, &h); err != nil || h.Machine != "m1" {
		t.Fatalf("hello: %+v %v", h, err)
	}
	var se *ServerError
	if err := New(srv.URL, "bad", nil, 1<<20).Do(ctx, http.MethodGet, "/hello", nil, &h); !errors.As(err, &se) || se.Status != 401 || len(se.Body.Hint) != 500 {
		t.Fatalf("a refused token: %v", err)
	}
	if err := New(srv.URL, "tok", nil, 1000).Do(ctx, http.MethodGet, "/big", nil, nil); err == nil || !strings.Contains(err.Error(), "larger than 1000") {
		t.Fatalf("an answer over the bound: %v", err)
	}
	if err := New(srv.URL, "tok", nil, 1<<20).Do(ctx, http.MethodGet, "/other", nil, &h); err == nil || !strings.Contains(err.Error(), "not what the protocol says") {
		t.Fatalf("an answer that is not JSON: %v", err)
	}
	var te *TransportError
	if err := New("http://127.0.0.1:1", "tok", nil, 1<<20).Do(ctx, http.MethodGet, "/hello", nil, &h); !errors.As(err, &te) {
		t.Fatalf("no server: %v", err)
	}
}
