package store

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"
)

// deferIndexes drops the puzzles table's secondary indexes and the
// families' sampling index (families_sample), keeping their definitions
// in deferred_indexes in the same transaction. If the table
// is empty it drops the key index too and puts the writer in bulk mode
// for puzzles; if the bank has no families, likewise the families' unique
// index of keys (families_canon_key), and bulk mode for families.
func (db *DB) deferIndexes(ctx context.Context) error {
	tx, err := db.db.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("defer indexes: %w", err)
	}
	defer tx.Rollback()
	var empty struct {
		Puzzles  bool `db:"puzzles"`
		Families bool `db:"families"`
	}
	if err := tx.GetContext(ctx, &empty, `SELECT NOT EXISTS (SELECT 1 FROM puzzles) AS puzzles,
		NOT EXISTS (SELECT 1 FROM families) AS families`); err != nil {
		return fmt.Errorf("defer indexes: %w", err)
	}
	var idx []struct {
		Name string `db:"name"`
		SQL  string `db:"sql"`
	}
	err = tx.SelectContext(ctx, &idx, `SELECT name, sql FROM sqlite_schema
		WHERE type = 'index' AND sql IS NOT NULL
		AND (tbl_name = 'puzzles' AND (name <> 'puzzles_key' OR ?) OR name = 'families_canon_key' AND ?
			OR name = 'families_sample')
		ORDER BY name`, empty.Puzzles, empty.Families)
	if err != nil {
		return fmt.Errorf("defer indexes: %w", err)
	}
	for _, i := range idx {
		if _, err := tx.ExecContext(ctx, "INSERT INTO deferred_indexes (name, sql) VALUES (?, ?)", i.Name, i.SQL); err != nil {
			return fmt.Errorf("defer index %s: %w", i.Name, err)
		}
		// The name comes from sqlite_schema, not from a user; quoted.
		if _, err := tx.ExecContext(ctx, `DROP INDEX "`+i.Name+`"`); err != nil {
			return fmt.Errorf("defer index %s: %w", i.Name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("defer indexes: %w", err)
	}
	db.deferred = true
	if empty.Puzzles {
		db.bulk = &keySet{nextID: 1}
	}
	if empty.Families {
		db.canons = newFamSet()
	}
	return nil
}

// IndexesDeferred reports whether this writer was opened with
// Options.DeferIndexes and has not built the indexes it deferred yet,
// which BuildIndexes or Close will build. It holds them on any bank, not
// only a fresh one: deferIndexes defers the puzzles' secondary indexes
// whatever the bank holds, and a unique index only while its table is
// empty.
func (db *DB) IndexesDeferred() bool {
	db.bulkMu.Lock()
	defer db.bulkMu.Unlock()
	return db.deferred
}

// BuildIndexes builds the indexes this writer deferred
// (Options.DeferIndexes), now rather than at Close, so that a caller can
// time it and report it as part of its run, and checkpoints the WAL; it
// does nothing when none are deferred. The checkpoint keeps the build's
// pages from stalling the next commit, a run's last, on an automatic one.
func (db *DB) BuildIndexes(ctx context.Context) error {
	db.bulkMu.Lock()
	defer db.bulkMu.Unlock()
	if !db.deferred {
		return nil
	}
	if err := db.rebuildIndexes(ctx); err != nil {
		return err
	}
	// PASSIVE never waits for a reader; a checkpoint it leaves short is
	// finished by a later one, or by Close.
	if _, err := db.db.ExecContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)"); err != nil {
		return fmt.Errorf("checkpoint after building indexes: %w", err)
	}
	return nil
}

// rebuildIndexes recreates the indexes deferIndexes dropped, in one
// transaction, and ends bulk mode; with none deferred it does nothing.
// Past Open, the caller holds db.bulkMu.
func (db *DB) rebuildIndexes(ctx context.Context) error {
	tx, err := db.db.BeginTxx(ctx, nil)
	if err != nil {
		return fmt.Errorf("rebuild indexes: %w", err)
	}
	defer tx.Rollback()
	if err := buildAllDeferredIndexes(ctx, tx); err != nil {
		return fmt.Errorf("rebuild indexes: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("rebuild indexes: %w", err)
	}
	db.deferred, db.bulk, db.canons = false, nil, nil
	return nil
}

// deferSecondaryIndexes drops the puzzles table's live secondary indexes
// and families_sample in tx, keeping their definitions in deferred_indexes for the writer's
// close (or the next writer) to build, as deferIndexes does at open.
func deferSecondaryIndexes(ctx context.Context, tx *sqlx.Tx) error {
	var idx []struct {
		Name string `db:"name"`
		SQL  string `db:"sql"`
	}
	if err := tx.SelectContext(ctx, &idx, `SELECT name, sql FROM main.sqlite_schema
		WHERE type = 'index' AND sql IS NOT NULL
		AND (tbl_name = 'puzzles' AND name <> 'puzzles_key' OR name = 'families_sample')
		ORDER BY name`); err != nil {
		return fmt.Errorf("defer indexes: %w", err)
	}
	for _, i := range idx {
		if _, err := tx.ExecContext(ctx, "INSERT INTO main.deferred_indexes (name, sql) VALUES (?, ?)", i.Name, i.SQL); err != nil {
			return fmt.Errorf("defer index %s: %w", i.Name, err)
		}
		// The name comes from sqlite_schema, not from a user; quoted.
		if _, err := tx.ExecContext(ctx, `DROP INDEX main."`+i.Name+`"`); err != nil {
			return fmt.Errorf("defer index %s: %w", i.Name, err)
		}
	}
	return nil
}
