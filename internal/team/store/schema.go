// Package store is the team server's state in PostgreSQL (through pgx):
// the identities of machines and reviewers (tokens kept only as SHA-256
// hashes), every machine's held items and settlements, the team's
// signed decisions, and the archive retention moves settled items to.
//
// The schema is the store's own: Open migrates it in order from the
// table migrations, records each step in schema_version, and refuses a
// database it does not understand (a newer schema, or tables it did not
// create), so that a wrong --db URL is never written to.
//
// Files: schema.go (migrations, the refusal), identity.go (tokens),
// items.go (push, queue, settle, decisions, retention).
package store

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// migration is one step of the schema, applied once, in order.
type migration struct {
	version int
	why     string
	sql     string
	// tables are the tables the schema has once this step is applied
	// (schema_version aside): what Open expects to find, and nothing else.
	tables []string
}

// migrations is the schema's history. A step is never edited once
// released: a change is a new step at the end.
var migrations = []migration{
	{1, "identities, items, settlements, decisions, archive", `
CREATE TABLE machines (
	name       text PRIMARY KEY,
	token_hash bytea NOT NULL UNIQUE,
	created    timestamptz NOT NULL,
	revoked    timestamptz
);
CREATE TABLE reviewers (
	name       text PRIMARY KEY,
	token_hash bytea NOT NULL UNIQUE,
	created    timestamptz NOT NULL,
	revoked    timestamptz
);
-- item is the held item as the machine sent it (json keeps its text:
-- what a reviewer reads is what the machine shipped).
CREATE TABLE items (
	machine    text NOT NULL REFERENCES machines(name),
	id         text NOT NULL,
	held_hash  text NOT NULL,
	repo       text NOT NULL DEFAULT '',
	held_at    timestamptz NOT NULL,
	item       json NOT NULL,
	received   timestamptz NOT NULL,
	status     text NOT NULL DEFAULT 'pending',
	status_at  timestamptz,
	settled_at timestamptz,
	PRIMARY KEY (machine, id)
);
-- The open queue, newest held first, is read a page at a time.
CREATE INDEX items_open ON items (held_at DESC) WHERE status IN ('pending', 'expired');
CREATE INDEX items_status ON items (status, held_at DESC);
CREATE INDEX items_settled ON items (settled_at) WHERE settled_at IS NOT NULL;
CREATE INDEX items_received ON items (received);
CREATE TABLE settlements (
	machine    text NOT NULL,
	id         text NOT NULL,
	status     text NOT NULL,
	time       timestamptz NOT NULL,
	body       json NOT NULL,
	received   timestamptz NOT NULL,
	PRIMARY KEY (machine, id, status)
);
CREATE INDEX settlements_received ON settlements (received);
-- One decision per item, whatever the code above it does: the unique
-- index is the last word on "settled twice".
CREATE TABLE decisions (
	seq         bigserial PRIMARY KEY,
	decision_id text NOT NULL UNIQUE,
	machine     text NOT NULL,
	item_id     text NOT NULL,
	reviewer    text NOT NULL,
	verdict     text NOT NULL,
	body        json NOT NULL,
	created     timestamptz NOT NULL,
	UNIQUE (machine, item_id)
);
CREATE INDEX decisions_machine ON decisions (machine, seq);
CREATE TABLE archive (
	machine     text NOT NULL,
	id          text NOT NULL,
	item        json NOT NULL,
	status      text NOT NULL,
	received    timestamptz NOT NULL,
	settled_at  timestamptz,
	settlements json NOT NULL,
	archived    timestamptz NOT NULL,
	PRIMARY KEY (machine, id)
);`, []string{"archive", "decisions", "items", "machines", "reviewers", "settlements"}},
}

// Version is the schema version this build writes.
func Version() int { return migrations[len(migrations)-1].version }

// ErrForeign is the error of a database Open will not touch.
var ErrForeign = errors.New("team store: this database is not one airlock's team server understands")

// lockKey serialises migrations between servers started at once
// (pg_advisory_xact_lock): an arbitrary constant of this program.
const lockKey = 0x61697274_65616d31 // "airteam1"

// migrate brings the schema to Version, or refuses the database.
func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", int64(lockKey)); err != nil {
		return err
	}
	tables, err := tablesOf(ctx, tx)
	if err != nil {
		return err
	}
	have := 0
	if tables["schema_version"] {
		if err := tx.QueryRow(ctx, "SELECT coalesce(max(version), 0) FROM schema_version").Scan(&have); err != nil {
			return fmt.Errorf("team store: read schema_version: %w", err)
		}
	} else if len(tables) > 0 {
		return fmt.Errorf("%w: it has tables airlock did not create (%s); give the team server a database of its own (createdb airlock_team)", ErrForeign, list(tables))
	}
	if have > Version() {
		return fmt.Errorf("%w: its schema is version %d, written by a newer airlock; this one knows up to %d (upgrade airlock)", ErrForeign, have, Version())
	}
	// What is there must be exactly what the recorded version made.
	want := map[string]bool{}
	if have > 0 {
		for _, m := range migrations {
			if m.version == have {
				for _, t := range m.tables {
					want[t] = true
				}
			}
		}
		var extra, missing []string
		for t := range tables {
			if t != "schema_version" && !want[t] {
				extra = append(extra, t)
			}
		}
		for t := range want {
			if !tables[t] {
				missing = append(missing, t)
			}
		}
		sort.Strings(extra)
		sort.Strings(missing)
		if len(extra) > 0 {
			return fmt.Errorf("%w: it has tables airlock did not create (%s) beside its schema version %d", ErrForeign, strings.Join(extra, ", "), have)
		}
		if len(missing) > 0 {
			return fmt.Errorf("%w: tables of schema version %d are missing (%s)", ErrForeign, have, strings.Join(missing, ", "))
		}
	} else {
		if _, err := tx.Exec(ctx, `CREATE TABLE schema_version (
	version int PRIMARY KEY,
	why     text NOT NULL,
	applied timestamptz NOT NULL DEFAULT now()
)`); err != nil {
			return fmt.Errorf("team store: create schema_version: %w", err)
		}
	}
	for _, m := range migrations {
		if m.version <= have {
			continue
		}
		if _, err := tx.Exec(ctx, m.sql); err != nil {
			return fmt.Errorf("team store: migration %d (%s): %w", m.version, m.why, err)
		}
		if _, err := tx.Exec(ctx, "INSERT INTO schema_version (version, why) VALUES ($1, $2)", m.version, m.why); err != nil {
			return err
		}
	}
	return tx.Commit(ctx)
}

// tablesOf lists the tables of the connection's current schema.
func tablesOf(ctx context.Context, tx pgx.Tx) (map[string]bool, error) {
	rows, err := tx.Query(ctx, "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")
	if err != nil {
		return nil, fmt.Errorf("team store: list tables: %w", err)
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("team store: list tables: %w", err)
	}
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m, nil
}

func list(m map[string]bool) string {
	var s []string
	for k := range m {
		s = append(s, k)
	}
	sort.Strings(s)
	if len(s) > 5 {
		s = append(s[:5], "…")
	}
	return strings.Join(s, ", ")
}
