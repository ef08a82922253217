package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"

	"github.com/jmoiron/sqlx"
	sqlite "modernc.org/sqlite"
)

// MergeNew makes a new bank at path holding what Open and then Merge of
// the checked shard s would leave there, and returns it open as
// Open(ctx, path, opt) opens it, with what the merge did. It copies the
// shard's pages whole into a temporary file beside path, makes that the
// merge's bank (the shard's runs become the merge's one run, its packs
// are left behind), and only then gives it the name path: a process
// killed meanwhile leaves no bank at path, and the rerun starts again.
//
// If a bank is at path already, or another process puts one there
// meanwhile, MergeNew opens that one and merges s into it as MergeShard
// does; likewise, into a new empty bank, a shard whose pages are not of
// a new bank's size.
//
// The quick check a shard from PrepareShard owes runs on another
// connection while its pages are copied, and the check of its rows after
// the copy: the copy becomes the bank only once all are done, and a
// shard a check finds damaged leaves none.
func MergeNew(ctx context.Context, path string, s *CheckedShard, opt Options, o MergeOptions) (*DB, MergeResult, error) {
	fresh, err := checkHeader(path, false)
	if err != nil {
		return nil, MergeResult{}, fmt.Errorf("open bank %s: %w", path, err)
	}
	if fresh {
		empty := warnEmpty(path, opt.Log)
		res, placed, err := mergeNew(ctx, path, s, o)
		if err != nil {
			return nil, MergeResult{}, fmt.Errorf("merge %s: %w", s.path, err)
		}
		if placed {
			if !empty {
				logMade(path, opt.Log)
			}
			// The shard passed its quick check (CheckShard) and its pages
			// are the bank's: checking them again would double the cost.
			db, err := open(ctx, path, opt, true)
			return db, res, err
		}
	}
	db, err := Open(ctx, path, opt)
	if err != nil {
		return nil, MergeResult{}, err
	}
	res, err := db.MergeShard(ctx, s, o)
	if err != nil {
		db.Close()
		return nil, MergeResult{}, err
	}
	return db, res, nil
}

// mergeNew builds the merge of s into a new bank in a temporary file
// beside path, as create builds an empty one, and gives it the name path.
// It places nothing (placed is false) if a bank appeared there meanwhile
// or if the shard's pages are not a new bank's (copyPages).
func mergeNew(ctx context.Context, path string, s *CheckedShard, o MergeOptions) (res MergeResult, placed bool, err error) {
	if err := registerFuncs(); err != nil {
		return res, false, err
	}
	checked := s.checkBeside(ctx)
	defer func() {
		// A shard the check finds damaged is refused as such, whatever
		// its copy met meanwhile.
		if cerr := checked(); cerr != nil && (err == nil || errors.Is(cerr, ErrDamaged)) {
			res, placed, err = MergeResult{}, false, cerr
		}
	}()
	dir, tmp, lk, err := startCreation(path)
	if err != nil {
		return res, false, fmt.Errorf("create: %w", err)
	}
	defer func() {
		if !placed {
			removeSidecars(tmp)
		}
		lk.release()   // removes tmp, which is by now path's or discarded
		os.Remove(tmp) // where there are no lock files
	}()
	made, err := os.Stat(tmp)
	if err != nil {
		return res, false, fmt.Errorf("create: %w", err)
	}
	if copied, err := copyPages(ctx, s.path, tmp); err != nil || !copied {
		return res, false, err
	}
	if res, err = makeMerged(ctx, tmp, s, o); err != nil {
		return res, false, err
	}
	// The rows are checked here, while the quick check may still run
	// beside: the copy takes a fraction of its time.
	if err := s.checkRows(ctx); err != nil {
		return res, false, err
	}
	if err := checked(); err != nil {
		return res, false, err
	}
	if err := syncFile(tmp); err != nil {
		return res, false, fmt.Errorf("create: %w", err)
	}
	if err := placeBank(tmp, path); err != nil {
		return res, false, fmt.Errorf("create: %w", err)
	}
	if now, err := os.Stat(path); err != nil || !os.SameFile(made, now) {
		return res, false, nil // another process's bank: the caller merges into it
	}
	placed = true
	return res, true, syncDir(dir)
}

// checkBeside starts the quick check s owes, if any, on another
// goroutine, and returns a function that waits for its outcome (nil if
// none was owed), which the shard keeps: once passed, it is owed no
// more.
func (s *CheckedShard) checkBeside(ctx context.Context) func() error {
	if !s.unchecked {
		return func() error { return nil }
	}
	done := make(chan error, 1)
	go func() { done <- checkPages(ctx, s.path) }()
	var err error
	waited := false
	return func() error {
		if !waited {
			err, waited = <-done, true
			if err == nil {
				s.unchecked = false
			}
		}
		return err
	}
}

// copyStepPages is how many pages copyPages copies between looks at its
// context: 64 MiB of a new bank's pages.
const copyStepPages = 4096

// copyPages copies the database at shard page by page into the empty
// file at dst, as one snapshot of its last commit (SQLite's online
// backup), which costs a fraction of copying its rows: no record is
// decoded and no index is searched. A shard whose pages are not of a new
// bank's size (a bank made before pageSize) is not copied (copied is
// false): its rows are, into a new bank's pages.
func copyPages(ctx context.Context, shard, dst string) (copied bool, err error) {
	// Read-write, though nothing writes it, as the merge's attach: a
	// connection that only reads a bank in WAL mode leaves its -wal and
	// -shm files behind it, which the last writer to close removes.
	src, err := sqlx.Open("sqlite", dsn(shard, []string{"mode=rw", "_pragma=busy_timeout(10000)", "_pragma=mmap_size(2147418112)"}))
	if err != nil {
		return false, fmt.Errorf("copy pages: %w", err)
	}
	defer src.Close()
	conn, err := src.Conn(ctx)
	if err != nil {
		return false, fmt.Errorf("copy pages: %w", err)
	}
	defer conn.Close()
	var size int
	if err := conn.QueryRowContext(ctx, "PRAGMA page_size").Scan(&size); err != nil {
		return false, fmt.Errorf("copy pages: %w", err)
	}
	if size != pageSize {
		return false, nil
	}
	err = conn.Raw(func(dc any) error {
		bc, ok := dc.(interface {
			NewBackup(string) (*sqlite.Backup, error)
		})
		if !ok {
			return fmt.Errorf("the driver's connection %T has no backup", dc)
		}
		// The copy is thrown away unless it is finished and synced:
		// nothing in it needs a journal or an fsync of its own.
		b, err := bc.NewBackup(dsn(dst, []string{"_pragma=journal_mode(OFF)", "_pragma=synchronous(OFF)"}))
		if err != nil {
			return err
		}
		// In steps, so that a cancel is heard within one; a write to the
		// shard between steps restarts the copy, which ends on one
		// snapshot either way.
		for more := true; more; {
			if err := ctx.Err(); err != nil {
				b.Finish()
				return err
			}
			if more, err = b.Step(copyStepPages); err != nil {
				b.Finish()
				return err
			}
		}
		return b.Finish()
	})
	if err != nil {
		return false, fmt.Errorf("copy pages: %w", err)
	}
	return true, nil
}

// makeMerged makes the copy of the shard s at tmp the bank a merge of s
// into an empty bank makes, in one transaction: the merge's run in place
// of the shard's (the families' runs become it), no packs, and every
// index built. It checkpoints the copy's WAL into it and removes it, as
// buildBank does.
func makeMerged(ctx context.Context, tmp string, s *CheckedShard, o MergeOptions) (MergeResult, error) {
	res := MergeResult{ShardRuns: s.runs}
	x, err := sqlx.Open("sqlite", dsn(tmp, []string{"_pragma=foreign_keys(0)", "_pragma=synchronous(OFF)",
		"_pragma=cache_size(-" + strconv.Itoa(defaultCacheKB) + ")", "_txlock=immediate"}))
	if err != nil {
		return res, err
	}
	x.SetMaxOpenConns(1)
	defer x.Close()
	if err := setWAL(ctx, x); err != nil {
		return res, err
	}
	// The shard could have changed since CheckShard migrated it: the
	// copy must be a bank at this program's version.
	latest, err := latestVersion(migrationFS)
	if err != nil {
		return res, err
	}
	var app, ver int64
	if err := x.GetContext(ctx, &app, "PRAGMA application_id"); err != nil {
		return res, fmt.Errorf("read the shard's version: %w", err)
	}
	if err := x.GetContext(ctx, &ver, "PRAGMA user_version"); err != nil {
		return res, fmt.Errorf("read the shard's version: %w", err)
	}
	if app != AppID || ver != int64(latest) {
		return res, fmt.Errorf("the shard changed under the merge (application_id %#x, schema version %d): %w", app, ver, ErrInvalid)
	}
	tx, err := x.BeginTxx(ctx, nil)
	if err != nil {
		return res, fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback()
	exec := func(what, q string, args ...any) (int64, error) {
		return execCount(ctx, tx, what, q, args...)
	}
	// A merge copies families and puzzles, never packs or the runs of
	// the shard, which the merge's run lists instead.
	for _, table := range []string{"pack_items", "reservations", "client_families", "packed_families", "packs", "runs"} {
		if _, err := exec("leave "+table+" behind", "DELETE FROM "+table); err != nil {
			return res, err
		}
	}
	if err := buildAllDeferredIndexes(ctx, tx); err != nil {
		return res, err
	}
	if res.RunID, err = insertMergeRun(ctx, tx, s.path, s.runs, o); err != nil {
		return res, err
	}
	// The families of a shard one run made need no rewriting: that run's
	// ID is 1, as the merge's is in an empty bank.
	if _, err := exec("copy families", "UPDATE families SET run_id = ?1 WHERE run_id IS NOT NULL AND run_id <> ?1", res.RunID); err != nil {
		return res, err
	}
	for _, c := range []struct {
		n     *int64
		table string
	}{{&res.Families, "families"}, {&res.Puzzles, "puzzles"}} {
		if err := tx.GetContext(ctx, c.n, "SELECT count(*) FROM "+c.table); err != nil {
			return res, fmt.Errorf("count %s: %w", c.table, err)
		}
	}
	if res, err = commitMerge(ctx, tx, res); err != nil {
		return res, err
	}
	var busy, logPages, done int
	if err := x.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &logPages, &done); err != nil {
		return res, fmt.Errorf("checkpoint: %w", err)
	}
	if busy != 0 || logPages != done {
		return res, fmt.Errorf("checkpoint: %d of %d pages", done, logPages)
	}
	if err := x.Close(); err != nil {
		return res, err
	}
	if _, err := os.Stat(tmp + "-wal"); err == nil {
		return res, fmt.Errorf("%s-wal left after closing", tmp)
	}
	return res, nil
}
