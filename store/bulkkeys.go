package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"

	"github.com/jmoiron/sqlx"
)

// A bulk load into an empty bank keeps the puzzles' unique (level,
// sort_key) index deferred too: with millions of rows, every batch of
// random keys dirties most of that index's leaf pages, and writing them
// through the WAL costs more than the rows themselves. The writer keeps
// the keys it stored in memory instead and checks each new row against
// them, as the index would; the index is built once, sorted, with the
// other deferred ones, or as soon as the writer leaves bulk mode.
//
// The memory holds a key and a row ID per row (16 bytes), so that a row
// whose key window holds a stored key can read the stored string by its
// ID and compare, exactly as resolveKeys does against the index.

// bulkKeyLimit is how many rows a writer keeps in memory before it builds
// the key index and goes on with it live: 8M rows, 128 MiB of keys.
var bulkKeyLimit = 8_000_000

// BulkKeyMemory bounds the memory a writer in bulk mode holds for its
// keys (see Options.DeferIndexes): 8M rows of 16 bytes, a quarter of
// spare capacity, and a level's old slice while it grows, when all the
// rows are of one level (with rows spread over the levels, about 190
// MiB). A caller that limits its heap (debug.SetMemoryLimit) leaves room
// for it.
const BulkKeyMemory = 300 << 20

// keySlot is one stored row of a level: its sort key and row ID.
type keySlot struct {
	key, id int64
}

// keySet is the bulk writer's copy of the stored (level, sort_key) pairs.
// It is only changed after a batch commits, so it never holds a key that
// is not in the bank.
type keySet struct {
	levels [6][]keySlot // by level (1..5), sorted by key
	n      int          // rows in all levels
	nextID int64        // the ID the next stored row takes
}

// inWindow returns the stored slots of level with keys in lo..hi, and the
// index of the first, which a caller walking keys in ascending order may
// pass back as from to start the next search there. The search gallops
// from from: a batch's keys of a level are spread over the stored ones,
// so the next is usually near, and a binary search over the whole rest
// would touch cold memory at each step.
func (s *keySet) inWindow(level int, lo, hi int64, from int) ([]keySlot, int) {
	l := s.levels[level]
	i := from
	if i < len(l) && l[i].key < lo {
		// l[i].key < lo; the first key >= lo is in (i, end].
		end := i + 1
		for step := 1; end < len(l) && l[end].key < lo; step *= 2 {
			i, end = end, end+step
		}
		end = min(end, len(l))
		k, _ := slices.BinarySearchFunc(l[i+1:end], lo, func(e keySlot, k int64) int { return cmp.Compare(e.key, k) })
		i += 1 + k
	}
	j := i
	for j < len(l) && l[j].key <= hi {
		j++
	}
	return l[i:j], i
}

// add merges stored rows, which a batch has just committed, into the set.
// rows are sorted by level and key, as writePuzzles leaves them.
func (s *keySet) add(rows []pending) {
	// assignKeys moves a row only to a later key than the row before
	// takes, so the order holds; the check costs little next to the merge.
	byKey := func(a, b pending) int {
		if c := cmp.Compare(a.level, b.level); c != 0 {
			return c
		}
		return cmp.Compare(a.key, b.key)
	}
	if !slices.IsSortedFunc(rows, byKey) {
		slices.SortFunc(rows, byKey)
	}
	for lo := 0; lo < len(rows); {
		level := rows[lo].level
		hi := lo
		for hi < len(rows) && rows[hi].level == level {
			hi++
		}
		s.levels[level] = mergeSlots(s.levels[level], rows[lo:hi])
		lo = hi
	}
	s.n += len(rows)
	for _, q := range rows {
		s.nextID = max(s.nextID, q.id+1)
	}
}

// mergeSlots merges the rows (sorted by key) into l from its end, in
// place, growing l by a quarter when it is full rather than doubling it,
// so that the set's memory stays close to 16 bytes a row.
func mergeSlots(l []keySlot, rows []pending) []keySlot {
	n := len(l) + len(rows)
	if n > cap(l) {
		grown := make([]keySlot, len(l), n+n/4)
		copy(grown, l)
		l = grown
	}
	l = l[:n]
	i, j := n-len(rows)-1, len(rows)-1
	for k := n - 1; j >= 0; k-- {
		if i >= 0 && l[i].key > rows[j].key {
			l[k] = l[i]
			i--
		} else {
			l[k] = keySlot{rows[j].key, rows[j].id}
			j--
		}
	}
	return l
}

// storedInWindows finds, for rows sorted by level and key, the stored
// rows whose keys are in their windows, and reads their strings by ID: the
// taken slots resolveKeys needs. hit says whether any window holds one.
func (s *keySet) storedInWindows(ctx context.Context, tx *sqlx.Tx, rows []pending) (map[slot][]byte, bool, error) {
	var (
		found []slot
		ids   []int64
		from  int
		level = -1
	)
	for _, q := range rows {
		if q.level != level {
			level, from = q.level, 0
		}
		lo, hi := window(q.key)
		var w []keySlot
		w, from = s.inWindow(level, lo, hi, from)
		for _, e := range w {
			found = append(found, slot{level, e.key})
			ids = append(ids, e.id)
		}
	}
	if len(found) == 0 {
		return nil, false, nil
	}
	taken := make(map[slot][]byte, len(found))
	byID := make(map[int64]slot, len(found))
	for i, id := range ids {
		byID[id] = found[i]
		// A slot whose row cannot be read stays taken, by no string: the
		// rows here never go away, but a taken key is the safe guess.
		taken[found[i]] = nil
	}
	err := queryRows(ctx, tx, `SELECT p.id, p.puzzle FROM `+rowsTable+` r CROSS JOIN puzzles p ON p.id = r.c0 WHERE r.handle = ?`,
		funcSource{len(ids), func(i, _ int) any { return ids[i] }},
		func(r *sql.Rows) error {
			var id int64
			var b []byte
			if err := r.Scan(&id, &b); err != nil {
				return err
			}
			taken[byID[id]] = b
			return nil
		})
	if err != nil {
		return nil, false, fmt.Errorf("read stored puzzles: %w", err)
	}
	return taken, true, nil
}

// beginBatch begins a batch's transaction and returns the key set the
// batch checks its rows against, or nil if the key index is live. The
// caller holds db.bulkMu.
//
// A bulk writer leaves bulk mode for good when its keys would pass
// bulkKeyLimit, and when another writer has stored puzzles since its last
// batch (the largest row ID is not its own last), since its keys no
// longer tell every stored row. A writer without a key set builds the key
// index first if another writer deferred it: every batch it writes is
// then checked by the index.
func (db *DB) beginBatch(ctx context.Context, conn *sqlx.Conn, rows int) (*sqlx.Tx, *keySet, error) {
	tx, err := conn.BeginTxx(ctx, nil)
	if err != nil {
		return nil, nil, err
	}
	if db.bulk != nil {
		if db.bulk.n+rows > bulkKeyLimit {
			db.bulk = nil
		} else {
			var last int64
			if err := tx.GetContext(ctx, &last, "SELECT COALESCE(MAX(id), 0) FROM puzzles"); err != nil {
				tx.Rollback()
				return nil, nil, fmt.Errorf("last puzzle ID: %w", err)
			}
			if last != db.bulk.nextID-1 {
				db.bulk = nil
			}
		}
	}
	if db.bulk == nil {
		if err := buildKeyIndex(ctx, tx); err != nil {
			tx.Rollback()
			return nil, nil, err
		}
	}
	return tx, db.bulk, nil
}

// buildKeyIndex builds the puzzles' key index in tx if a bulk writer
// deferred it, and takes it off the deferred list.
func buildKeyIndex(ctx context.Context, tx *sqlx.Tx) error {
	var q string
	err := tx.GetContext(ctx, &q, "SELECT sql FROM deferred_indexes WHERE name = 'puzzles_key'")
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("build index puzzles_key: %w", err)
	}
	if _, err := tx.ExecContext(ctx, q); err != nil {
		return fmt.Errorf("build index puzzles_key: %w", err)
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM deferred_indexes WHERE name = 'puzzles_key'"); err != nil {
		return fmt.Errorf("build index puzzles_key: %w", err)
	}
	return nil
}
