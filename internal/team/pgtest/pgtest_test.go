package pgtest

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestDBIsFreshAndEmpty checks that two calls give two databases, each
// empty, and that one test's table is not seen by the other.
func TestDBIsFreshAndEmpty(t *testing.T) {
	a, b := DB(t), DB(t)
	if a == b {
		t.Fatalf("two calls gave the same database %s", a)
	}
	ctx := context.Background()
	ca, err := pgx.Connect(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	defer ca.Close(ctx)
	if _, err := ca.Exec(ctx, "CREATE TABLE t (x int)"); err != nil {
		t.Fatal(err)
	}
	cb, err := pgx.Connect(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Close(ctx)
	var n int
	if err := cb.QueryRow(ctx, "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("a fresh database has %d tables in public", n)
	}
}
