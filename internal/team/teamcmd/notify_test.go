package teamcmd

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlock-dev/airlock/internal/notify/ntfytest"
	"github.com/airlock-dev/airlock/internal/team/pgtest"
	"github.com/airlock-dev/airlock/internal/team/server"
	"github.com/airlock-dev/airlock/internal/team/wire"
)

// TestNotifyCommand runs "airlock team notify --once" against a real
// team server on PostgreSQL and a loopback ntfy: the first run sends
// machine A's held item, the second settles the phone's Approve as the
// token's reviewer; once that reviewer is revoked, the command fails.
func TestNotifyCommand(t *testing.T) {
	db := pgtest.DB(t)
	_, key, _ := ed25519.GenerateKey(rand.Reader)
	srv, err := server.Open(context.Background(), db, server.Options{Key: key})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	api := httptest.NewServer(srv.Handler())
	defer api.Close()
	ntfy := ntfytest.New()
	defer ntfy.Close()
	env := map[string]string{DBEnv: db}
	_, mtok, _ := run(t, env, "add-machine", "laptop-a")
	_, ptok, _ := run(t, env, "add-reviewer", "alice-phone")
	if _, err := srv.Store().Push(context.Background(), "laptop-a", wire.Push{Items: []wire.HeldItem{{ID: "q1", HeldHash: "h1", Time: time.Now(),
		Kind: "shell", Command: "git push origin main", Effect: "external"}}}); err != nil || mtok == "" {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "team-notify.yaml")
	os.WriteFile(cfg, []byte("notify:\n  ntfy:\n    server: "+ntfy.URL+"\n"), 0o600)
	renv := map[string]string{ServerEnv: api.URL, TokenEnv: strings.TrimSpace(ptok), "AIRLOCK_HOME": filepath.Join(dir, "state")}

	st, out, errText := run(t, renv, "notify", "--once", "--json", "--config", cfg)
	if st != 0 || !strings.Contains(out, `"event":"sent","channel":"ntfy","item":"laptop-a:q1"`) {
		t.Fatalf("first run: %d %q %q", st, out, errText)
	}
	if err := ntfy.Press("Approve"); err != nil {
		t.Fatal(err)
	}
	st, out, errText = run(t, renv, "notify", "--once", "--config", cfg)
	if st != 0 || !strings.Contains(out, "approved ntfy laptop-a:q1: a human pressed approve on the phone (settled as reviewer alice-phone)") {
		t.Fatalf("second run: %d %q %q", st, out, errText)
	}
	ds, err := srv.Store().Decisions(context.Background(), "laptop-a", 0, 10)
	if err != nil || len(ds.Decisions) != 1 || ds.Decisions[0].Reviewer != "alice-phone" {
		t.Fatalf("decisions %+v %v", ds, err)
	}
	if st, _, _ := run(t, env, "revoke", "alice-phone"); st != 0 {
		t.Fatal("revoke")
	}
	st, _, errText = run(t, renv, "notify", "--once", "--config", cfg)
	if st == 0 || !strings.Contains(errText, "401") || !strings.Contains(errText, "revoked") || !strings.HasPrefix(errText, "airlock: error: ") {
		t.Fatalf("after revoke: %d %q", st, errText)
	}
}
