package store

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"time"

	"github.com/airlock-dev/airlock/internal/team/wire"
	"github.com/jackc/pgx/v5"
)

// Errors of items.
var (
	ErrNotFound = errors.New("team store: no such item")
	ErrSettled  = errors.New("team store: the item is already settled")
	ErrInvalid  = errors.New("team store: invalid")
)

// idRE bounds a machine's queue id: it appears in keys, URLs and pages.
var idRE = regexp.MustCompile(`^[A-Za-z0-9._-]{1,128}$`)

// machineStatuses are the settlements a machine may report. "refused"
// (wire.StatusRefused) reports a team decision the machine refused, with
// Refused set: it is kept, and moves no status.
var machineStatuses = map[string]bool{"approved": true, "rejected": true, "ran": true, "used": true, "expired": true, "acknowledged": true, "dismissed": true, "refused": true}

// open is the SQL test of an item a reviewer may still settle: nobody
// has (pending), or its time ran out on the machine unsettled (expired).
const openSQL = "status IN ('pending', 'expired')"

// CheckPush refuses a push with a malformed row, naming it, before
// anything is written.
func CheckPush(p wire.Push) error {
	for i, it := range p.Items {
		if !idRE.MatchString(it.ID) {
			return fmt.Errorf("%w: items[%d]: id %q (letters, digits, '.', '_', '-'; at most 128)", ErrInvalid, i, truncate(it.ID, 40))
		}
		if it.HeldHash == "" || len(it.HeldHash) > 200 {
			return fmt.Errorf("%w: items[%d] (%s): held_hash is empty or longer than 200", ErrInvalid, i, it.ID)
		}
		if len(it.Repo) > 1000 {
			return fmt.Errorf("%w: items[%d] (%s): repo is longer than 1000", ErrInvalid, i, it.ID)
		}
	}
	for i, st := range p.Settlements {
		if !idRE.MatchString(st.ID) {
			return fmt.Errorf("%w: settlements[%d]: id %q", ErrInvalid, i, truncate(st.ID, 40))
		}
		if !machineStatuses[st.Status] {
			return fmt.Errorf("%w: settlements[%d] (%s): status %q is not one a machine reports", ErrInvalid, i, st.ID, truncate(st.Status, 40))
		}
	}
	return nil
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// Push stores a machine's batch: rows the server has (or has archived)
// are left as they are, so a push may be repeated. machine comes from
// the token, never from the body. A push is two statements over arrays
// (unnest), whatever its size, in one transaction.
func (s *Store) Push(ctx context.Context, machine string, p wire.Push) (wire.PushResult, error) {
	var res wire.PushResult
	if err := CheckPush(p); err != nil {
		return res, err
	}
	now := s.now().UTC()
	n := len(p.Items)
	ids, hashes, repos, bodies := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	held := make([]time.Time, n)
	for i, it := range p.Items {
		b, err := json.Marshal(it)
		if err != nil {
			return res, err
		}
		ids[i], hashes[i], repos[i], held[i], bodies[i] = it.ID, it.HeldHash, it.Repo, it.Time.UTC(), string(b)
	}
	m := len(p.Settlements)
	sids, statuses, sbodies, refused := make([]string, m), make([]string, m), make([]string, m), make([]string, m)
	stimes := make([]time.Time, m)
	for i, st := range p.Settlements {
		b, err := json.Marshal(st)
		if err != nil {
			return res, err
		}
		sids[i], statuses[i], stimes[i], sbodies[i], refused[i] = st.ID, st.Status, st.Time.UTC(), string(b), st.Refused
	}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if n > 0 {
			tag, err := tx.Exec(ctx, `INSERT INTO items (machine, id, held_hash, repo, held_at, item, received)
SELECT $1, t.id, t.hash, t.repo, t.held, t.body::json, $7
FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::text[]) AS t(id, hash, repo, held, body)
WHERE NOT EXISTS (SELECT 1 FROM archive a WHERE a.machine = $1 AND a.id = t.id)
ON CONFLICT DO NOTHING`, machine, ids, hashes, repos, held, bodies, now)
			if err != nil {
				return err
			}
			res.NewItems = int(tag.RowsAffected())
		}
		if m > 0 {
			// A new settlement moves its item's status (the latest by the
			// machine's time, if a push carries several), unless it
			// reports a refused team decision, or a later one already
			// did. settled_at is when the item left the open states:
			// retention counts from it.
			err := tx.QueryRow(ctx, `WITH ins AS (
	INSERT INTO settlements (machine, id, status, time, body, received)
	SELECT $1, t.id, t.status, t.time, t.body::json, $6
	FROM unnest($2::text[], $3::text[], $4::timestamptz[], $5::text[], $7::text[]) AS t(id, status, time, body, refused)
	WHERE NOT EXISTS (SELECT 1 FROM archive a WHERE a.machine = $1 AND a.id = t.id)
	ON CONFLICT DO NOTHING
	RETURNING id, status, time, body
), latest AS (
	SELECT DISTINCT ON (id) id, status, time FROM ins
	WHERE status <> 'refused' AND coalesce(body->>'refused', '') = ''
	ORDER BY id, time DESC
), upd AS (
	UPDATE items i SET status = l.status, status_at = l.time,
		settled_at = CASE WHEN l.status = 'expired' THEN i.settled_at ELSE coalesce(i.settled_at, $6) END
	FROM latest l
	WHERE i.machine = $1 AND i.id = l.id AND (i.status_at IS NULL OR i.status_at <= l.time)
	RETURNING 1
)
SELECT count(*) FROM ins`, machine, sids, statuses, stimes, sbodies, now, refused).Scan(&res.NewSettlements)
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return wire.PushResult{}, fmt.Errorf("team store: push: %w", err)
	}
	return res, nil
}

// Decisions returns the machine's decisions after the cursor, oldest
// first.
func (s *Store) Decisions(ctx context.Context, machine string, after int64, limit int) (wire.Decisions, error) {
	out := wire.Decisions{Decisions: []wire.Decision{}, Next: after}
	rows, err := s.pool.Query(ctx, "SELECT seq, body FROM decisions WHERE machine = $1 AND seq > $2 ORDER BY seq LIMIT $3", machine, after, limit)
	if err != nil {
		return out, err
	}
	defer rows.Close()
	for rows.Next() {
		var seq int64
		var body []byte
		if err := rows.Scan(&seq, &body); err != nil {
			return out, err
		}
		var d wire.Decision
		if err := json.Unmarshal(body, &d); err != nil {
			return out, fmt.Errorf("team store: decision %d: %w", seq, err)
		}
		d.Seq = seq
		out.Decisions = append(out.Decisions, d)
		out.Next = seq
	}
	return out, rows.Err()
}

// Filter selects items of the team queue.
type Filter struct {
	Machine string
	Repo    string
	// MinAge keeps items held at least this long ago.
	MinAge time.Duration
	// Status is "" for the open items (pending or expired), "all", or one
	// status.
	Status        string
	Limit, Offset int
}

const itemSelect = `SELECT i.machine, i.id, i.item, i.status, i.received, d.seq, d.body, s.body
FROM items i
LEFT JOIN decisions d ON d.machine = i.machine AND d.item_id = i.id
LEFT JOIN LATERAL (SELECT body FROM settlements WHERE machine = i.machine AND id = i.id ORDER BY time DESC, received DESC LIMIT 1) s ON true
`

func scanItem(row pgx.Row) (wire.TeamItem, error) {
	var ti wire.TeamItem
	var item []byte
	var dseq *int64
	var dbody, sbody []byte
	if err := row.Scan(&ti.Machine, &ti.Item.ID, &item, &ti.Status, &ti.Received, &dseq, &dbody, &sbody); err != nil {
		return ti, err
	}
	id := ti.Item.ID
	if err := json.Unmarshal(item, &ti.Item); err != nil {
		return ti, fmt.Errorf("team store: item %s: %w", id, err)
	}
	ti.Item.ID = id
	ti.Key = wire.ItemKey(ti.Machine, id)
	if dseq != nil {
		var d wire.Decision
		if err := json.Unmarshal(dbody, &d); err != nil {
			return ti, err
		}
		d.Seq = *dseq
		ti.Decision = &d
	}
	if sbody != nil {
		var st wire.Settlement
		if err := json.Unmarshal(sbody, &st); err != nil {
			return ti, err
		}
		ti.Settlement = &st
	}
	return ti, nil
}

// Queue returns one page of the filtered queue, newest held first, and
// how many items the filter matches in all.
func (s *Store) Queue(ctx context.Context, f Filter) ([]wire.TeamItem, int, error) {
	where := "WHERE true"
	args := []any{}
	arg := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	if f.Machine != "" {
		where += " AND i.machine = " + arg(f.Machine)
	}
	if f.Repo != "" {
		where += " AND i.repo = " + arg(f.Repo)
	}
	if f.MinAge > 0 {
		where += " AND i.held_at <= " + arg(s.now().UTC().Add(-f.MinAge))
	}
	switch f.Status {
	case "":
		where += " AND i." + openSQL
	case "all":
	default:
		where += " AND i.status = " + arg(f.Status)
	}
	var total int
	if err := s.pool.QueryRow(ctx, "SELECT count(*) FROM items i "+where, args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	q := itemSelect + where + " ORDER BY i.held_at DESC, i.machine, i.id LIMIT " + arg(f.Limit) + " OFFSET " + arg(f.Offset)
	rows, err := s.pool.Query(ctx, q, args...)
	if err != nil {
		return nil, 0, err
	}
	items, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (wire.TeamItem, error) { return scanItem(r) })
	if err != nil {
		return nil, 0, err
	}
	if items == nil {
		items = []wire.TeamItem{}
	}
	return items, total, nil
}

// Item returns one item.
func (s *Store) Item(ctx context.Context, machine, id string) (wire.TeamItem, error) {
	ti, err := scanItem(s.pool.QueryRow(ctx, itemSelect+"WHERE i.machine = $1 AND i.id = $2", machine, id))
	if errors.Is(err, pgx.ErrNoRows) {
		var archived bool
		if s.pool.QueryRow(ctx, "SELECT true FROM archive WHERE machine = $1 AND id = $2", machine, id).Scan(&archived) == nil {
			return ti, fmt.Errorf("%w: %s was settled and archived", ErrNotFound, wire.ItemKey(machine, id))
		}
		return ti, fmt.Errorf("%w: %s", ErrNotFound, wire.ItemKey(machine, id))
	}
	return ti, err
}

// Settle records reviewer's verdict on one machine's item, signed by
// sign, exactly once: the item's row is locked (SELECT … FOR UPDATE) in
// the transaction that checks it is open and writes the decision, so a
// second reviewer waits for the first and then finds it settled
// (ErrSettled). The decisions table's unique (machine, item_id) is the
// last word.
func (s *Store) Settle(ctx context.Context, machine, id, verdict, reviewer string, v wire.Verdict, sign func(*wire.Decision)) (wire.TeamItem, error) {
	if verdict != wire.Approve && verdict != wire.Reject {
		return wire.TeamItem{}, fmt.Errorf("%w: verdict %q", ErrInvalid, verdict)
	}
	now := s.now().UTC()
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var held, status string
		err := tx.QueryRow(ctx, "SELECT held_hash, status FROM items WHERE machine = $1 AND id = $2 FOR UPDATE", machine, id).Scan(&held, &status)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("%w: %s", ErrNotFound, wire.ItemKey(machine, id))
		}
		if err != nil {
			return err
		}
		if status != "pending" && status != "expired" {
			return fmt.Errorf("%w: %s is %s", ErrSettled, wire.ItemKey(machine, id), status)
		}
		// Decisions of one machine commit in the order of their seq:
		// without this lock, a decision numbered 5 could commit after 6,
		// and a machine that had pulled up to 6 would never see it.
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtext('airlock-team-decisions:' || $1))", machine); err != nil {
			return err
		}
		var rb [16]byte
		if _, err := rand.Read(rb[:]); err != nil {
			return err
		}
		d := wire.Decision{DecisionID: hex.EncodeToString(rb[:]), Machine: machine, ItemID: id, HeldHash: held,
			Verdict: verdict, Reviewer: reviewer, Note: v.Note, Time: now.Format(time.RFC3339Nano)}
		if verdict == wire.Approve {
			d.TTLSeconds = v.TTLSeconds
		}
		sign(&d)
		body, err := json.Marshal(d)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO decisions (decision_id, machine, item_id, reviewer, verdict, body, created)
VALUES ($1, $2, $3, $4, $5, $6, $7)`, d.DecisionID, machine, id, reviewer, verdict, string(body), now); err != nil {
			if isUnique(err) {
				return fmt.Errorf("%w: %s has a decision", ErrSettled, wire.ItemKey(machine, id))
			}
			return err
		}
		_, err = tx.Exec(ctx, "UPDATE items SET status = $3, settled_at = $4 WHERE machine = $1 AND id = $2", machine, id, StatusOf(verdict), now)
		return err
	})
	if err != nil {
		return wire.TeamItem{}, err
	}
	return s.Item(ctx, machine, id)
}

// StatusOf is an item's status once a reviewer gave verdict.
func StatusOf(verdict string) string {
	if verdict == wire.Approve {
		return "approved"
	}
	return "rejected"
}

// Archive moves the items settled before cutoff, with their
// settlements, to the archive, and returns how many it moved. Their
// decisions stay: they are the signed record a machine may still pull.
func (s *Store) Archive(ctx context.Context, cutoff time.Time) (int, error) {
	var n int
	err := s.pool.QueryRow(ctx, `WITH moved AS (
	DELETE FROM items WHERE settled_at IS NOT NULL AND settled_at < $1 AND NOT (`+openSQL+`)
	RETURNING machine, id, item, status, received, settled_at
), ins AS (
	INSERT INTO archive (machine, id, item, status, received, settled_at, settlements, archived)
	SELECT m.machine, m.id, m.item, m.status, m.received, m.settled_at,
		coalesce((SELECT json_agg(s.body ORDER BY s.time) FROM settlements s WHERE s.machine = m.machine AND s.id = m.id), '[]'::json), $2
	FROM moved m
	ON CONFLICT DO NOTHING
), dels AS (
	DELETE FROM settlements s USING moved m WHERE s.machine = m.machine AND s.id = m.id
)
SELECT count(*) FROM moved`, cutoff.UTC(), s.now().UTC()).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("team store: archive: %w", err)
	}
	return n, nil
}

// Stamp changes whenever the queue may have: an item or a settlement
// arrived, or a decision was made. Three index lookups, so a dashboard
// can poll it.
func (s *Store) Stamp(ctx context.Context) (string, error) {
	var items, settlements *time.Time
	var seq int64
	err := s.pool.QueryRow(ctx, `SELECT (SELECT max(received) FROM items), (SELECT max(received) FROM settlements),
	(SELECT coalesce(max(seq), 0) FROM decisions)`).Scan(&items, &settlements, &seq)
	if err != nil {
		return "", err
	}
	stamp := fmt.Sprint(seq)
	for _, t := range []*time.Time{items, settlements} {
		if t != nil {
			stamp += "/" + t.Format(time.RFC3339Nano)
		} else {
			stamp += "/-"
		}
	}
	return stamp, nil
}

// Live reports whether the identity of kind named name exists and is not
// revoked: a dashboard session checks it on each request, so that a
// revoke ends it.
func (s *Store) Live(ctx context.Context, kind, name string) (bool, error) {
	var live bool
	err := s.pool.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM "+table(kind)+" WHERE name = $1 AND revoked IS NULL)", name).Scan(&live)
	return live, err
}
