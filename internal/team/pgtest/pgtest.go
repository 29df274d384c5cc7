// Package pgtest gives a test a fresh, empty PostgreSQL database of its
// own. The team server's tests run against a real PostgreSQL, never a
// mock: .ci/run starts one (initdb and pg_ctl on a loopback port) and
// names it in AIRLOCK_TEST_PG, a URL whose user may CREATE DATABASE.
//
// Without AIRLOCK_TEST_PG a test skips, except under CI=true, where it
// fails: there the database is part of the tier, and a skip would pass
// silently.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Env names the server the tests create their databases in.
const Env = "AIRLOCK_TEST_PG"

// Admin returns AIRLOCK_TEST_PG, skipping the test when it is unset (and
// failing it under CI=true).
func Admin(t testing.TB) string {
	t.Helper()
	admin := os.Getenv(Env)
	if admin == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not set under CI=true: .ci/run starts PostgreSQL 15 (initdb, pg_ctl) and exports it; the team tests need a real database", Env)
		}
		t.Skipf("%s is not set: these tests need a PostgreSQL URL whose user may CREATE DATABASE (.ci/run starts one; see docs/TEAM.md)", Env)
	}
	return admin
}

// DB creates an empty database for this test in the server named by
// AIRLOCK_TEST_PG, drops it when the test ends, and returns its URL.
func DB(t testing.TB) string {
	t.Helper()
	admin := Admin(t)
	u, err := url.Parse(admin)
	if err != nil {
		t.Fatalf("%s=%q is not a URL: %v", Env, admin, err)
	}
	var b [6]byte
	rand.Read(b[:])
	name := "airlock_test_" + hex.EncodeToString(b[:])

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		t.Fatalf("connect to %s (%s): %v", Env, redact(u), err)
	}
	defer conn.Close(context.Background())
	// The name is ours (hex), so it needs no quoting beyond the
	// identifier's; template0 makes the database empty whatever the
	// server's template1 holds.
	if _, err := conn.Exec(ctx, fmt.Sprintf("CREATE DATABASE %s TEMPLATE template0", pgx.Identifier{name}.Sanitize())); err != nil {
		t.Fatalf("CREATE DATABASE %s in %s: %v (the URL's user needs CREATEDB)", name, redact(u), err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		c, err := pgx.Connect(ctx, admin)
		if err != nil {
			t.Errorf("drop test database %s: %v", name, err)
			return
		}
		defer c.Close(context.Background())
		// WITH (FORCE) ends connections a pool the test forgot to
		// close still holds (PostgreSQL 13+).
		if _, err := c.Exec(ctx, fmt.Sprintf("DROP DATABASE IF EXISTS %s WITH (FORCE)", pgx.Identifier{name}.Sanitize())); err != nil {
			t.Errorf("drop test database %s: %v", name, err)
		}
	})
	db := *u
	db.Path = "/" + name
	return db.String()
}

// redact hides a password in a URL shown in a failure.
func redact(u *url.URL) string {
	s := u.Redacted()
	return strings.TrimSpace(s)
}
