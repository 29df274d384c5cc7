package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/airlock-dev/airlock/internal/team/wire"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Store is an open team database.
type Store struct {
	pool *pgxpool.Pool
	now  func() time.Time
}

// Open connects to the database at url, migrates its schema to Version,
// and refuses it (ErrForeign) when it is not airlock's.
func Open(ctx context.Context, url string) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("team store: --db: %w", err)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("team store: %w", err)
	}
	if err := migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, err
	}
	return &Store{pool: pool, now: time.Now}, nil
}

// SetClock replaces the store's clock (tests of retention and age).
func (s *Store) SetClock(now func() time.Time) { s.now = now }

// Close closes the pool.
func (s *Store) Close() { s.pool.Close() }

// Kinds of identity.
const (
	Machine  = "machine"
	Reviewer = "reviewer"
)

// Token prefixes say what a token is when a human pastes it in the wrong
// place; the server never trusts them (the hash's table does).
const (
	machinePrefix  = "altm_"
	reviewerPrefix = "altr_"
)

// Errors of identities.
var (
	ErrNameTaken   = errors.New("team store: the name is taken")
	ErrNoSuchName  = errors.New("team store: no machine or reviewer has that name")
	ErrBadToken    = errors.New("team store: the token is unknown or revoked")
	ErrWrongTokens = errors.New("team store: this is not a token of that kind")
)

// HashToken is how a token is stored and looked up: its SHA-256. A
// token is 256 random bits, so a plain hash is enough.
func HashToken(tok string) []byte {
	h := sha256.Sum256([]byte(tok))
	return h[:]
}

func table(kind string) string {
	if kind == Machine {
		return "machines"
	}
	return "reviewers"
}

// Add makes a machine or a reviewer named name and returns its token,
// the only time the token is seen: the database keeps its hash. A name
// names one identity, machine or reviewer, ever (revoked ones included),
// so "revoke NAME" is never ambiguous and a decision's reviewer is never
// another's.
func (s *Store) Add(ctx context.Context, kind, name string) (string, error) {
	if kind != Machine && kind != Reviewer {
		return "", fmt.Errorf("team store: unknown kind %q", kind)
	}
	if err := wire.CheckName(name); err != nil {
		return "", err
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	prefix := machinePrefix
	if kind == Reviewer {
		prefix = reviewerPrefix
	}
	tok := prefix + base64.RawURLEncoding.EncodeToString(b[:])
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		// Both tables are locked so that two admins adding one name as a
		// machine and as a reviewer at once cannot both succeed.
		if _, err := tx.Exec(ctx, "LOCK TABLE machines, reviewers IN SHARE ROW EXCLUSIVE MODE"); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRow(ctx, "SELECT (SELECT count(*) FROM machines WHERE name = $1) + (SELECT count(*) FROM reviewers WHERE name = $1)", name).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return fmt.Errorf("%w: %q already names a machine or a reviewer (revoked ones keep their names, so that history stays unambiguous)", ErrNameTaken, name)
		}
		_, err := tx.Exec(ctx, "INSERT INTO "+table(kind)+" (name, token_hash, created) VALUES ($1, $2, $3)", name, HashToken(tok), s.now().UTC())
		return err
	})
	if err != nil {
		return "", err
	}
	return tok, nil
}

// Revoke revokes the machine or reviewer named name and says which it
// was. Its token stops working at once; what it did stays.
func (s *Store) Revoke(ctx context.Context, name string) (string, error) {
	for _, kind := range []string{Machine, Reviewer} {
		tag, err := s.pool.Exec(ctx, "UPDATE "+table(kind)+" SET revoked = coalesce(revoked, $2) WHERE name = $1", name, s.now().UTC())
		if err != nil {
			return "", err
		}
		if tag.RowsAffected() > 0 {
			return kind, nil
		}
	}
	return "", fmt.Errorf("%w: %q", ErrNoSuchName, name)
}

// Authenticate returns the name of the live identity of kind whose
// token is tok.
func (s *Store) Authenticate(ctx context.Context, kind, tok string) (string, error) {
	want := machinePrefix
	if kind == Reviewer {
		want = reviewerPrefix
	}
	if !strings.HasPrefix(tok, want) {
		return "", ErrWrongTokens
	}
	var name string
	err := s.pool.QueryRow(ctx, "SELECT name FROM "+table(kind)+" WHERE token_hash = $1 AND revoked IS NULL", HashToken(tok)).Scan(&name)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", ErrBadToken
	}
	return name, err
}

// Identity is one machine or reviewer as the admin lists them.
type Identity struct {
	Kind, Name string
	Created    time.Time
	Revoked    *time.Time
}

// Identities lists every machine and reviewer, by kind then name.
func (s *Store) Identities(ctx context.Context) ([]Identity, error) {
	rows, err := s.pool.Query(ctx, `SELECT 'machine', name, created, revoked FROM machines
UNION ALL SELECT 'reviewer', name, created, revoked FROM reviewers ORDER BY 1, 2`)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Identity, error) {
		var id Identity
		err := r.Scan(&id.Kind, &id.Name, &id.Created, &id.Revoked)
		return id, err
	})
}

// isUnique reports a unique-constraint violation.
func isUnique(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505"
}
