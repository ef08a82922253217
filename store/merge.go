package store

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
)

// Errors Merge returns for a shard it refuses.
var (
	// ErrShardPacks means the shard holds packs, which a merge does not
	// copy unless told to leave them behind (MergeOptions.DropPacks).
	ErrShardPacks = errors.New("shard holds packs")
	// ErrShardBusy means a run is still writing the shard.
	ErrShardBusy = errors.New("shard is being written")
)

// The columns Merge copies as they are, by table, in the one place a
// column added to a table must be added for merges to copy it. The
// families' id, run_id and canon_key and the puzzles' id, family_id and
// sort_key are not here: Merge maps them. The counter tables are added
// up by their keys.
const (
	mergeFamilyColumns = `size, canon, er, ep, ed, level, score, search_nodes, givens, min_row_col,
		hardest, path, minimal, symmetry, source, seed, created_at, solution`
	mergePuzzleColumns       = `size, code, level, givens, er, puzzle, solution, transform`
	mergeTechniqueColumns    = `technique, uses`        // family_techniques, with family_id mapped
	mergeBucketKey           = `size, level, givens`    // buckets, counting families and puzzles
	mergeTechniqueCountKey   = `size, level, technique` // technique_counts, likewise
	mergeDupsTable           = `temp.merge_dups`
	mergeShardSchema         = `shard`
	mergeFamiliesNotDup      = `id NOT IN (SELECT id FROM ` + mergeDupsTable + `)`
	mergePuzzlesOfFamsNotDup = `family_id NOT IN (SELECT id FROM ` + mergeDupsTable + `)`
)

// MergeOptions say how Merge records a shard and what it does with one
// that holds packs.
type MergeOptions struct {
	// Args is the merging command's line after the program name, kept
	// with the merge's run.
	Args        []string
	CodeVersion string
	// DropPacks merges a shard that holds packs, leaving its packs,
	// reservations and their counts behind; without it such a shard is
	// refused (ErrShardPacks).
	DropPacks bool
}

// MergeResult is what Merge did with one shard.
type MergeResult struct {
	RunID       int64 // the merge's run in the bank
	Families    int64 // families added
	Puzzles     int64 // their puzzles
	DupFamilies int64 // the shard's families the bank held already
	DupPuzzles  int64 // their puzzles, left out with them
	// ShardRuns are the shard's own runs, which the merge's run records.
	ShardRuns []Run
}

// shardRun is one of a shard's runs as a merge's run records it, in its
// message.
type shardRun struct {
	ID       int64    `json:"id"`
	Kind     string   `json:"kind"`
	Seed     uint64   `json:"seed"`
	Args     []string `json:"args"`
	Status   string   `json:"status"`
	Families int64    `json:"families"`
	Puzzles  int64    `json:"puzzles"`
	// CodeVersion is the code that made the run's families, which the
	// bank has nowhere else once the shard is gone.
	CodeVersion string `json:"code_version"`
}

// Merge adds to the bank every family of the bank at shard whose
// canonical form it lacks, with its puzzles, grades and technique
// counts, in one transaction: a merge that fails or is cancelled leaves
// the bank as it was, and merging a shard again adds nothing. The
// merge is recorded as a run of kind merge whose message lists the
// shard's own runs (their seeds, arguments and code versions) as JSON,
// and the added families belong to it.
//
// The shard is opened as a writer first (Open), which refuses a file
// that is not a bank, a newer bank or a damaged one, and migrates an
// older one in place; a shard whose run is still going is refused
// (ErrShardBusy), as is one that holds packs unless o.DropPacks.
//
// The rows are copied in SQL, a statement a table, not a row at a time:
// the new families take IDs past the bank's largest, and a family or
// puzzle whose key the bank holds for another form or string (a hash
// collision) takes the next free key of its window.
func (db *DB) Merge(ctx context.Context, shard string, o MergeOptions) (MergeResult, error) {
	s, err := db.CheckShard(ctx, shard, o.DropPacks)
	if err != nil {
		return MergeResult{}, err
	}
	return db.MergeShard(ctx, s, o)
}

// CheckedShard is a shard that CheckShard found fit to merge, or that
// PrepareShard found fit but for its quick check and the check of its
// rows (checkRows), which are then owed.
type CheckedShard struct {
	path      string
	runs      []Run
	unchecked bool // the quick check is owed (PrepareShard)
	rowsOwed  bool // the check of the rows is owed (PrepareShard)
}

// CheckShard does Merge's checks of the bank at shard (and its
// migration) without merging it. It does not use db's connection, so a
// caller may check the next shard while db merges one (MergeShard), if
// it is another file: a merge holds its shard's write lock, which the
// check waits for (Options.BusyTimeout).
func (db *DB) CheckShard(ctx context.Context, shard string, dropPacks bool) (*CheckedShard, error) {
	if err := db.canMerge(shard); err != nil {
		return nil, err
	}
	return CheckShard(ctx, shard, dropPacks)
}

// CheckShard is DB.CheckShard for a bank not open yet, such as one
// MergeNew is to make: MergeShard refuses the shard if it turns out to
// be the bank merged into.
//
// Besides the quick check, which reads every page, it checks every
// stored grid and key (checkRows): a byte of a packed grid changed
// passes SQLite's checks, and a merge would copy it.
func CheckShard(ctx context.Context, shard string, dropPacks bool) (*CheckedShard, error) {
	return prepareShard(ctx, shard, dropPacks, true)
}

// PrepareShard is CheckShard less the shard's quick check and the check
// of its rows, which read all of it, for MergeNew to run beside its copy
// of the shard's pages: a damaged shard then fails MergeNew, which leaves
// no bank. MergeShard runs the checks first. A shard that an open would
// write to (to migrate it, rebuild its deferred indexes or end its dead
// runs) is checked here, before it is written.
func PrepareShard(ctx context.Context, shard string, dropPacks bool) (*CheckedShard, error) {
	return prepareShard(ctx, shard, dropPacks, false)
}

// prepareShard is CheckShard, with the quick check left owed unless
// quick or the shard needs it before it is written.
func prepareShard(ctx context.Context, shard string, dropPacks, quick bool) (*CheckedShard, error) {
	runs, checked, err := checkShard(ctx, shard, dropPacks, quick)
	if err != nil {
		// checkShard's errors name the shard (shardErr), once.
		return nil, err
	}
	return &CheckedShard{path: shard, runs: runs, unchecked: !checked, rowsOwed: !quick}, nil
}

// checkQuick runs the checks s owes, if any, each on a connection of its
// own; a shard that passes owes none.
func (s *CheckedShard) checkQuick(ctx context.Context) error {
	if s.unchecked {
		if err := checkPages(ctx, s.path); err != nil {
			return err
		}
		s.unchecked = false
	}
	return s.checkRows(ctx)
}

// checkRows runs the check of the rows s owes, if any (checkRows), on a
// connection of its own that writes nothing.
func (s *CheckedShard) checkRows(ctx context.Context) error {
	if !s.rowsOwed || !rowCheck {
		return nil
	}
	x, err := openShardReader(s.path)
	if err != nil {
		return err
	}
	defer x.Close()
	conn, err := x.Connx(ctx)
	if err != nil {
		return fmt.Errorf("open bank %s: %w", s.path, err)
	}
	defer conn.Close()
	if err := checkRows(ctx, conn, s.path); err != nil {
		return err
	}
	s.rowsOwed = false
	if err := conn.Close(); err != nil {
		return fmt.Errorf("open bank %s: %w", s.path, err)
	}
	return x.Close()
}

// openShardReader opens the bank at path on one connection that writes
// nothing to it, for a check.
func openShardReader(path string) (*sqlx.DB, error) {
	// Read-write, as copyPages opens it, so that the last connection to
	// close removes the -wal and -shm files.
	x, err := sqlx.Open("sqlite", dsn(path, []string{"mode=rw", "_pragma=busy_timeout(10000)",
		"_pragma=cache_size(-" + strconv.Itoa(defaultCacheKB) + ")", "_pragma=temp_store(FILE)", "_pragma=mmap_size(2147418112)"}))
	if err != nil {
		return nil, fmt.Errorf("open bank %s: %w", path, err)
	}
	x.SetMaxOpenConns(1)
	return x, nil
}

// checkPages runs the quick check of the bank at path, as Open does, on
// a connection of its own that writes nothing.
func checkPages(ctx context.Context, path string) error {
	x, err := openShardReader(path)
	if err != nil {
		return err
	}
	defer x.Close()
	if err := quickCheck(ctx, x, path); err != nil {
		return err
	}
	if err := x.Close(); err != nil {
		return fmt.Errorf("open bank %s: %w", path, err)
	}
	return nil
}

// canMerge refuses to merge shard into db if db is open read-only or
// shard is db's own file.
func (db *DB) canMerge(shard string) error {
	if db.readOnly {
		return fmt.Errorf("merge %s: the bank is open read-only: %w", shard, ErrInvalid)
	}
	if realPath(shard) == db.real {
		return fmt.Errorf("merge %s: it is the bank merged into: %w", shard, ErrInvalid)
	}
	return nil
}

// MergeShard merges a shard CheckShard checked, as Merge does;
// o.DropPacks is CheckShard's to judge, and ignored here.
func (db *DB) MergeShard(ctx context.Context, s *CheckedShard, o MergeOptions) (MergeResult, error) {
	if err := db.canMerge(s.path); err != nil {
		return MergeResult{}, err
	}
	if err := s.checkQuick(ctx); err != nil {
		return MergeResult{}, fmt.Errorf("merge %s: %w", s.path, err)
	}
	res, err := db.merge(ctx, s.path, s.runs, o)
	if err != nil {
		return MergeResult{}, fmt.Errorf("merge %s: %w", s.path, db.blameDamage(ctx, s.path, err))
	}
	return res, nil
}

// blameDamage returns err, met inside a merge of shard into db, which
// reads both files, as a DamagedError of the one whose quick check now
// finds damage, if err is SQLite's word of damage; where neither's does,
// an error that names both. Any other err is returned as it is.
func (db *DB) blameDamage(ctx context.Context, shard string, err error) error {
	var d *DamagedError
	if !isCorrupt(err) || errors.As(err, &d) || ctx.Err() != nil {
		return err
	}
	// The shard first: the bank passed its own check when opened, and
	// the shard was last read.
	if errors.As(checkPages(ctx, shard), &d) {
		return &DamagedError{Path: shard, Err: fmt.Errorf("%w; %v", err, d.Err)}
	}
	if errors.As(quickCheck(ctx, db.db, db.path), &d) {
		return &DamagedError{Path: db.path, Err: fmt.Errorf("%w; %v", err, d.Err)}
	}
	return fmt.Errorf("%w (%w) in %s or %s, though neither's quick check finds it: run %s and %s", ErrDamaged, err,
		db.path, shard, (&DamagedError{Path: db.path}).Check(), (&DamagedError{Path: shard}).Check())
}

// checkShard opens the shard as a writer, which checks it and migrates
// it (Open), refuses it if a run is writing it or if it holds packs
// that are not to be dropped, and returns its runs. Without quick it
// leaves out the quick check where nothing is written to the shard
// (checked says whether it ran).
func checkShard(ctx context.Context, shard string, dropPacks, quick bool) (runs []Run, checked bool, err error) {
	if err := sidecarsPossible(shard); err != nil {
		return nil, false, fmt.Errorf("open bank %s: %w (copy the shard to a directory this process may write)", shard, err)
	}
	s, err := open(ctx, shard, Options{MustExist: true}, !quick)
	if err != nil {
		return nil, false, err
	}
	defer s.Close()
	checked = s.checked
	check := func() error {
		if checked {
			return nil
		}
		if err := quickCheck(ctx, s.db, shard); err != nil {
			return err
		}
		checked = true
		return nil
	}
	defer func() {
		// A shard that fails unchecked is refused as the check finds it,
		// as if checked first: damaged, if it is.
		if err != nil && ctx.Err() == nil {
			if cerr := check(); cerr != nil {
				err = cerr
			}
		}
	}()
	var running bool
	if err := s.db.GetContext(ctx, &running, "SELECT EXISTS (SELECT 1 FROM runs WHERE status = 'running')"); err != nil {
		return nil, false, shardErr(shard, fmt.Errorf("runs: %w", err))
	}
	if running {
		// EndDeadRuns writes to the shard if it ends one.
		if err := check(); err != nil {
			return nil, false, err
		}
	}
	if _, err := s.EndDeadRuns(ctx); err != nil {
		return nil, false, shardErr(shard, err)
	}
	if runs, err = s.Runs(ctx); err != nil {
		return nil, false, shardErr(shard, err)
	}
	for _, r := range runs {
		if r.Status == RunRunning {
			return nil, false, shardErr(shard, fmt.Errorf("run %d is still going; merge the shard once it has ended: %w", r.ID, ErrShardBusy))
		}
	}
	var packs int64
	if err := s.db.GetContext(ctx, &packs, "SELECT count(*) FROM packs"); err != nil {
		return nil, false, shardErr(shard, fmt.Errorf("count packs: %w", err))
	}
	if packs > 0 && !dropPacks {
		return nil, false, shardErr(shard, fmt.Errorf("%d packs: a merge copies families and puzzles, not packs (bankgen merge -packs drop leaves them behind): %w", packs, ErrShardPacks))
	}
	if quick && rowCheck {
		if err := check(); err != nil {
			return nil, false, err
		}
		conn, err := s.db.Connx(ctx)
		if err != nil {
			return nil, false, shardErr(shard, err)
		}
		err = checkRows(ctx, conn, shard)
		conn.Close()
		if err != nil {
			return nil, false, err
		}
	}
	if err := s.Close(); err != nil {
		return nil, false, shardErr(shard, err)
	}
	return runs, checked, nil
}

// shardErr names shard in err, met merging it, unless err names it
// already: a DamagedError does, as do open's errors and the checks' (the
// callers pass those on as they are).
func shardErr(shard string, err error) error {
	var d *DamagedError
	if errors.As(err, &d) && d.Path == shard {
		return err
	}
	return fmt.Errorf("merge %s: %w", shard, err)
}

// rowCheck says whether a shard's rows are checked (checkRows); only
// tests whose shards hold placeholder grids, which are not sudoku, turn
// it off.
var rowCheck = true

// mergeHook, if set by a test, runs inside a merge's transaction after
// the rows are copied and before the commit; an error from it fails the
// merge.
var mergeHook func() error

// merge copies the checked shard into db in one transaction.
func (db *DB) merge(ctx context.Context, shard string, runs []Run, o MergeOptions) (_ MergeResult, err error) {
	res := MergeResult{ShardRuns: runs}
	db.bulkMu.Lock()
	defer db.bulkMu.Unlock()
	defer func() {
		if err == nil {
			db.checkpointBeside()
		}
	}()
	// The copy needs the unique indexes of keys live, which a bulk
	// writer defers (its keys in memory would miss the copied rows): it
	// leaves bulk mode, and the indexes are built in the merge's
	// transaction. The secondary indexes a writer deferred stay so, to
	// be built once, sorted, at its Close.
	db.bulk, db.canons = nil, nil
	// The references are made here, and the shard's rows passed its
	// quick check (checkShard), which tests every CHECK constraint: both
	// checks are off, a third of the copy's CPU.
	conn, err := openUnchecked(ctx, db.db, skipChecks)
	if err != nil {
		return res, err
	}
	defer conn.release()
	// The commit's pages are copied into the bank by a checkpoint on
	// another connection (checkpointBeside), while the next shard is
	// merged, not by an automatic one on this connection's time.
	if _, err := conn.ExecContext(ctx, "PRAGMA wal_autocheckpoint = 0"); err != nil {
		return res, fmt.Errorf("checkpoints: %w", err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA wal_autocheckpoint = "+strconv.Itoa(walAutoCheckpoint))
	// Attached read-write, though nothing writes it: SQLite copies a table
	// into an empty one page by page, its indexes too, only from a source
	// it could write (copyIntoEmpty). checkShard opened the shard as a
	// writer already, so this asks for nothing more of its file.
	if _, err := conn.ExecContext(ctx, "ATTACH DATABASE ? AS "+mergeShardSchema, dsn(shard, []string{"mode=rw"})); err != nil {
		return res, fmt.Errorf("attach: %w", err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "DETACH DATABASE "+mergeShardSchema)
	// The file could have changed since checkShard: its version is
	// checked again under the attach.
	var app, ver, mainVer int64
	for _, v := range []struct {
		dst *int64
		q   string
	}{{&app, "PRAGMA " + mergeShardSchema + ".application_id"}, {&ver, "PRAGMA " + mergeShardSchema + ".user_version"}, {&mainVer, "PRAGMA main.user_version"}} {
		if err := conn.QueryRowContext(ctx, v.q).Scan(v.dst); err != nil {
			return res, fmt.Errorf("read the shard's version: %w", err)
		}
	}
	if app != AppID || ver != mainVer {
		return res, fmt.Errorf("the shard changed under the merge (application_id %#x, schema version %d): %w", app, ver, ErrInvalid)
	}
	if _, err := conn.ExecContext(ctx, "CREATE TEMP TABLE IF NOT EXISTS merge_dups (id INTEGER PRIMARY KEY)"); err != nil {
		return res, fmt.Errorf("dedup table: %w", err)
	}
	tx, err := conn.BeginTxx(ctx, nil)
	if err != nil {
		return res, fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback()
	exec := func(what, q string, args ...any) (int64, error) {
		return execCount(ctx, tx, what, q, args...)
	}
	count := func(what, q string) (int64, error) {
		var n int64
		if err := tx.GetContext(ctx, &n, q); err != nil {
			return 0, fmt.Errorf("%s: %w", what, err)
		}
		return n, nil
	}

	empty, err := count("is the bank empty", `SELECT NOT EXISTS (SELECT 1 FROM main.families)
		AND NOT EXISTS (SELECT 1 FROM main.puzzles) AND NOT EXISTS (SELECT 1 FROM main.family_techniques)`)
	if err != nil {
		return res, err
	}
	if empty == 1 {
		// Every index is built now, on empty tables, for the copy to fill
		// it from the shard's in order, which costs less than a sort.
		if err := buildAllDeferredIndexes(ctx, tx); err != nil {
			return res, err
		}
	} else {
		if err := buildDeferredIndexes(ctx, tx, "puzzles_key", "families_canon_key"); err != nil {
			return res, err
		}
		// An index of the puzzles costs more kept live through a copy
		// than built once, sorted: a writer that defers them drops them
		// again (an empty bank's merge filled them).
		if db.deferred {
			if err := deferSecondaryIndexes(ctx, tx); err != nil {
				return res, err
			}
		}
	}
	runID, err := insertMergeRun(ctx, tx, shard, runs, o)
	if err != nil {
		return res, err
	}
	res.RunID = runID
	if empty == 1 {
		if res, err = copyIntoEmpty(ctx, tx, res); err != nil {
			return res, err
		}
		if err := addMergedCounts(ctx, tx, false); err != nil {
			return res, err
		}
		return commitMerge(ctx, tx, res)
	}
	off, err := count("family IDs", "SELECT COALESCE(MAX(id), 0) FROM main.families")
	if err != nil {
		return res, err
	}
	// The shard's families whose form the bank holds: that family is in
	// the key window of the form's hash, and so is the shard's (window).
	if _, err := exec("dedup", "DELETE FROM "+mergeDupsTable); err != nil {
		return res, err
	}
	if off > 0 {
		res.DupFamilies, err = exec("dedup", `INSERT INTO `+mergeDupsTable+` (id)
			SELECT s.id FROM shard.families s WHERE EXISTS (SELECT 1 FROM main.families m
				WHERE m.canon_key BETWEEN s.canon_key - ? AND s.canon_key + ? AND m.canon = s.canon)`,
			probeWindow-1, probeWindow-1)
		if err != nil {
			return res, err
		}
	}
	// A family keeps its shard ID plus off, and its key unless the bank
	// holds that key for another form.
	var skipped bool
	res.Families, skipped, err = copyAll(exec, "copy families", mergeFamiliesSQL("s.canon_key", ""), " ON CONFLICT (canon_key) DO NOTHING", off, runID)
	if err != nil {
		return res, err
	}
	if skipped {
		total, err := count("count the shard's families", "SELECT count(*) FROM shard.families")
		if err != nil {
			return res, err
		}
		want := total - res.DupFamilies
		n, err := moveMergedFamilies(ctx, tx, off, runID)
		if err != nil {
			return res, err
		}
		if res.Families += n; res.Families != want {
			return res, fmt.Errorf("copied %d families, want %d", res.Families, want)
		}
	}
	if _, err := exec("copy technique rows", `INSERT INTO main.family_techniques (family_id, `+mergeTechniqueColumns+`)
		SELECT family_id + ?, `+mergeTechniqueColumns+` FROM shard.family_techniques WHERE `+mergePuzzlesOfFamsNotDup, off); err != nil {
		return res, err
	}

	// The puzzles of the new families, in the order of the bank's key
	// index, so that its writes are local, which is the order of the
	// shard's own key index: SQLite walks that and sorts nothing. A new
	// family's strings are new to the bank, and one whose key another
	// string holds there takes the next free key.
	res.Puzzles, skipped, err = copyAll(exec, "copy puzzles", mergePuzzlesSQL("p.sort_key", "")+" ORDER BY p.size, p.level, p.sort_key", " ON CONFLICT (size, level, sort_key) DO NOTHING", off)
	if err != nil {
		return res, err
	}
	if skipped {
		puzzles, err := count("count the shard's puzzles", "SELECT count(*) FROM shard.puzzles WHERE "+mergePuzzlesOfFamsNotDup)
		if err != nil {
			return res, err
		}
		n, dups, err := moveMergedPuzzles(ctx, tx, off)
		if err != nil {
			return res, err
		}
		res.Puzzles += n
		res.DupPuzzles += dups
		if res.Puzzles+dups != puzzles {
			return res, fmt.Errorf("copied %d puzzles and found %d stored, want %d", res.Puzzles, dups, puzzles)
		}
	}
	if res.DupFamilies > 0 {
		dupPuzzles, err := count("count the duplicates' puzzles", "SELECT count(*) FROM shard.puzzles WHERE family_id IN (SELECT id FROM "+mergeDupsTable+")")
		if err != nil {
			return res, err
		}
		res.DupPuzzles += dupPuzzles
	}
	if err := addMergedCounts(ctx, tx, res.DupFamilies > 0); err != nil {
		return res, err
	}
	return commitMerge(ctx, tx, res)
}

// commitMerge records the merge's counts in its run and commits it.
func commitMerge(ctx context.Context, tx *sqlx.Tx, res MergeResult) (MergeResult, error) {
	if _, err := tx.ExecContext(ctx, `UPDATE runs SET families = ?, puzzles = ?, dup_families = ?, dup_puzzles = ? WHERE id = ?`,
		res.Families, res.Puzzles, res.DupFamilies, res.DupPuzzles, res.RunID); err != nil {
		return res, fmt.Errorf("record the run: %w", err)
	}
	if mergeHook != nil {
		if err := mergeHook(); err != nil {
			return res, err
		}
	}
	if err := tx.Commit(); err != nil {
		return res, fmt.Errorf("commit: %w", err)
	}
	return res, nil
}

// copyIntoEmpty copies the shard into a bank that holds no families,
// puzzles or technique rows. A statement of the form INSERT INTO t
// SELECT * FROM shard.t is SQLite's transfer: it moves each row's record
// as it is, keeps its ID, and fills each index from the shard's
// matching index in order, with no sort, about three times cheaper than
// a copy that names the columns. The rows need no mapping here: the
// shard's IDs are free in an empty bank (an ID offset of 0), and so are
// its keys; only the families' run becomes the merge's. SQLite falls back
// to a plain copy, with the same rows, where it cannot transfer (a shard
// whose index the bank's has no match in).
func copyIntoEmpty(ctx context.Context, tx *sqlx.Tx, res MergeResult) (MergeResult, error) {
	exec := func(what, q string, args ...any) (int64, error) {
		return execCount(ctx, tx, what, q, args...)
	}
	var err error
	if res.Families, err = exec("copy families", "INSERT INTO main.families SELECT * FROM shard.families"); err != nil {
		return res, err
	}
	if _, err := exec("copy families", "UPDATE main.families SET run_id = ? WHERE run_id IS NOT NULL", res.RunID); err != nil {
		return res, err
	}
	if _, err := exec("copy technique rows", "INSERT INTO main.family_techniques SELECT * FROM shard.family_techniques"); err != nil {
		return res, err
	}
	if res.Puzzles, err = exec("copy puzzles", "INSERT INTO main.puzzles SELECT * FROM shard.puzzles"); err != nil {
		return res, err
	}
	return res, nil
}

// execCount runs q in tx and returns the rows it changed; an error names
// the step, what.
func execCount(ctx context.Context, tx *sqlx.Tx, what, q string, args ...any) (int64, error) {
	r, err := tx.ExecContext(ctx, q, args...)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	n, err := r.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	return n, nil
}

// copyAll runs the bulk copy q, and if a row of it meets a key the bank
// holds (a hash collision), which fails the statement and leaves the
// transaction as it was, runs it again with onConflict, which skips those
// rows for the caller to place (skipped). The plain statement takes a
// fifth less CPU than the upsert. Only after a skip need the caller count
// the rows q selects: otherwise it copied every one of them, n.
func copyAll(exec func(what, q string, args ...any) (int64, error), what, q, onConflict string, args ...any) (n int64, skipped bool, err error) {
	n, err = exec(what, q, args...)
	if err == nil || !isUniqueViolation(err) {
		return n, false, err
	}
	n, err = exec(what, q+onConflict, args...)
	return n, true, err
}

// mergeFamiliesSQL copies the shard's new families, with key as the
// canon_key and where as a further condition; its parameters are the
// ID offset and the merge's run, then those of where.
func mergeFamiliesSQL(key, where string) string {
	q := `INSERT INTO main.families (id, run_id, canon_key, ` + mergeFamilyColumns + `)
		SELECT s.id + ?1, CASE WHEN s.run_id IS NULL THEN NULL ELSE ?2 END, ` + key + `, ` + mergeFamilyColumns + `
		FROM shard.families s WHERE s.` + mergeFamiliesNotDup
	if where != "" {
		q += " AND " + where
	}
	return q + " ORDER BY s.id"
}

// mergePuzzlesSQL copies the puzzles of the shard's new families, with
// key as the sort_key and where as a further condition; its first
// parameter is the family ID offset.
func mergePuzzlesSQL(key, where string) string {
	q := `INSERT INTO main.puzzles (family_id, sort_key, ` + mergePuzzleColumns + `)
		SELECT p.family_id + ?1, ` + key + `, ` + mergePuzzleColumns + `
		FROM shard.puzzles p WHERE p.` + mergePuzzlesOfFamsNotDup
	if where != "" {
		q += " AND " + where
	}
	return q
}

// moveMergedFamilies inserts the shard's new families that the bulk copy
// left out because the bank holds their key for another form, each under
// the first free key of its form's window, and returns how many.
func moveMergedFamilies(ctx context.Context, tx interface {
	SelectContext(context.Context, any, string, ...any) error
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}, off, runID int64) (int64, error) {
	var left []struct {
		ID    int64  `db:"id"`
		Canon string `db:"canon"`
	}
	if err := tx.SelectContext(ctx, &left, `SELECT s.id, s.canon FROM shard.families s
		WHERE s.`+mergeFamiliesNotDup+` AND NOT EXISTS (SELECT 1 FROM main.families m WHERE m.id = s.id + ?) ORDER BY s.id`, off); err != nil {
		return 0, fmt.Errorf("families left out: %w", err)
	}
	var n int64
	for _, f := range left {
		lo, hi := window(canonKey(f.Canon))
		var taken []int64
		if err := tx.SelectContext(ctx, &taken, "SELECT canon_key FROM main.families WHERE canon_key BETWEEN ? AND ?", lo, hi); err != nil {
			return 0, fmt.Errorf("family %s: keys: %w", f.Canon, err)
		}
		k, _, ok := probe(lo, hi, func(k int64) (bool, bool) {
			for _, t := range taken {
				if t == k {
					return true, false
				}
			}
			return false, false
		})
		if !ok {
			return 0, fmt.Errorf("family %s: no free canon key in %d..%d", f.Canon, lo, hi)
		}
		if _, err := tx.ExecContext(ctx, mergeFamiliesSQL("?3", "s.id = ?4"), off, runID, k, f.ID); err != nil {
			return 0, fmt.Errorf("family %s: %w", f.Canon, err)
		}
		n++
	}
	return n, nil
}

// moveMergedPuzzles inserts the puzzles of the shard's new families that
// the bulk copy left out because the bank holds their key for another
// string, each under the first free key of its string's window; a
// string the bank holds already (only a bank whose rows break the
// family rule could) is counted in dups, not stored.
func moveMergedPuzzles(ctx context.Context, tx interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}, off int64) (n, dups int64, err error) {
	type row struct {
		id          int64
		size, level int
		puzzle      []byte
	}
	var left []row
	rows, err := tx.QueryContext(ctx, `SELECT p.id, p.size, p.level, `+puzzleExpr+` FROM shard.puzzles p
		JOIN shard.families f ON f.id = p.family_id
		WHERE p.`+mergePuzzlesOfFamsNotDup+` AND EXISTS (SELECT 1 FROM main.puzzles m
			WHERE m.size = p.size AND m.level = p.level AND m.sort_key = p.sort_key AND m.family_id <> p.family_id + ?)`, off)
	if err != nil {
		return 0, 0, fmt.Errorf("puzzles left out: %w", err)
	}
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.id, &r.size, &r.level, &r.puzzle); err != nil {
			rows.Close()
			return 0, 0, fmt.Errorf("puzzles left out: %w", err)
		}
		left = append(left, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, 0, fmt.Errorf("puzzles left out: %w", err)
	}
	for _, r := range left {
		text := unpackGridSize(r.puzzle, r.size)
		lo, hi := window(SortKeyOf(text))
		taken := map[int64][]byte{}
		q, err := tx.QueryContext(ctx, `SELECT p.sort_key, `+puzzleExpr+` FROM main.puzzles p JOIN main.families f ON f.id = p.family_id
			WHERE p.size = ? AND p.level = ? AND p.sort_key BETWEEN ? AND ?`, r.size, r.level, lo, hi)
		if err != nil {
			return 0, 0, fmt.Errorf("stored puzzles: %w", err)
		}
		for q.Next() {
			var k int64
			var b []byte
			if err := q.Scan(&k, &b); err != nil {
				q.Close()
				return 0, 0, fmt.Errorf("stored puzzles: %w", err)
			}
			taken[k] = b
		}
		q.Close()
		if err := q.Err(); err != nil {
			return 0, 0, fmt.Errorf("stored puzzles: %w", err)
		}
		k, dup, ok := probe(lo, hi, func(k int64) (bool, bool) {
			b, ok := taken[k]
			return ok, ok && bytes.Equal(b, r.puzzle)
		})
		switch {
		case dup:
			dups++
			continue
		case !ok:
			return 0, 0, fmt.Errorf("puzzle %s: no free sort key in %d..%d", text, lo, hi)
		}
		if _, err := tx.ExecContext(ctx, mergePuzzlesSQL("?2", "p.id = ?3"), off, k, r.id); err != nil {
			return 0, 0, fmt.Errorf("puzzle %s: %w", text, err)
		}
		n++
	}
	return n, dups, nil
}

// addMergedCounts adds the shard's buckets and technique counts to the
// bank's, less those of its families the bank held already (dups).
func addMergedCounts(ctx context.Context, tx interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, dups bool) error {
	add := func(table, key, sel string) error {
		// The WHERE clause lets SQLite parse the upsert after a SELECT.
		if _, err := tx.ExecContext(ctx, `INSERT INTO main.`+table+` (`+key+`, families, puzzles)
			SELECT * FROM (`+sel+`) WHERE true
			ON CONFLICT (`+key+`) DO UPDATE SET
				families = families + excluded.families,
				puzzles = puzzles + excluded.puzzles`); err != nil {
			return fmt.Errorf("%s: %w", table, err)
		}
		return nil
	}
	if err := add("buckets", mergeBucketKey, `SELECT `+mergeBucketKey+`, families, puzzles FROM shard.buckets`); err != nil {
		return err
	}
	if err := add("technique_counts", mergeTechniqueCountKey, `SELECT `+mergeTechniqueCountKey+`, families, puzzles FROM shard.technique_counts`); err != nil {
		return err
	}
	if !dups {
		return nil
	}
	// The families left out, and their puzzles, come off again.
	if err := add("buckets", mergeBucketKey, `SELECT `+mergeBucketKey+`, -count(*), 0 FROM shard.families
		WHERE id IN (SELECT id FROM `+mergeDupsTable+`) GROUP BY `+mergeBucketKey); err != nil {
		return err
	}
	if err := add("buckets", mergeBucketKey, `SELECT `+mergeBucketKey+`, 0, -count(*) FROM shard.puzzles
		WHERE family_id IN (SELECT id FROM `+mergeDupsTable+`) GROUP BY `+mergeBucketKey); err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, mergeDupTechniquesSQL)
	if err != nil {
		return fmt.Errorf("technique counts of the duplicates: %w", err)
	}
	counts := map[techKey][2]int64{}
	for rows.Next() {
		var (
			size, level int
			path, techs string
			fams, n     int64
		)
		if err := rows.Scan(&size, &level, &path, &techs, &fams, &n); err != nil {
			rows.Close()
			return fmt.Errorf("technique counts of the duplicates: %w", err)
		}
		sub := func(t string) {
			c := counts[techKey{size, level, t}]
			counts[techKey{size, level, t}] = [2]int64{c[0] - fams, c[1] - n}
		}
		if pathHasCounts(path) {
			pathTechniques(path, sub)
		} else {
			for _, t := range strings.Fields(techs) {
				sub(t)
			}
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("technique counts of the duplicates: %w", err)
	}
	for k, c := range counts {
		if _, err := tx.ExecContext(ctx, `UPDATE main.technique_counts SET families = families + ?, puzzles = puzzles + ?
			WHERE size = ? AND level = ? AND technique = ?`, c[0], c[1], k.size, k.level, k.technique); err != nil {
			return fmt.Errorf("technique counts: %w", err)
		}
	}
	return nil
}

// mergeDupTechniquesSQL reads what the technique counts of the shard's
// families the bank held already (temp.merge_dups) come to: a row of
// each such family (one family, no puzzles), then a row of each one's
// puzzles (no family, their number), each with the family's size, level,
// path and, for a path without the technique counts, its technique rows.
// The puzzles are counted in one pass over the shard's puzzles, grouped
// by family, and only then joined to their families (CROSS JOIN keeps
// that order): a shard's puzzles_family may be deferred (dropped by its
// bulk load), and then a count for each family would read every puzzle of
// the shard once a duplicate, minutes for a shard of 20,000 families
// merged a second time.
const mergeDupTechniquesSQL = `SELECT f.size, f.level, f.path, ` + mergeDupTechniques + `, 1, 0
		FROM shard.families f WHERE f.id IN (SELECT id FROM ` + mergeDupsTable + `)
	UNION ALL
	SELECT f.size, f.level, f.path, ` + mergeDupTechniques + `, 0, c.n
		FROM (SELECT family_id, count(*) AS n FROM shard.puzzles
			WHERE family_id IN (SELECT id FROM ` + mergeDupsTable + `) GROUP BY family_id) c
		CROSS JOIN shard.families f ON f.id = c.family_id`

// mergeDupTechniques is the techniques column of mergeDupTechniquesSQL.
const mergeDupTechniques = `CASE WHEN substr(f.path, 1, 1) = ',' THEN '' ELSE
			(SELECT COALESCE(group_concat(technique, ' '), '') FROM shard.family_techniques WHERE family_id = f.id)
		END`

// insertMergeRun records the merge of shard as a completed run of kind
// merge, in the merge's transaction, so that a merge that does not
// commit leaves no run behind. Its seed is the shard's first generating
// run's, its message the shard's runs as JSON.
func insertMergeRun(ctx context.Context, tx interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}, shard string, runs []Run, o MergeOptions) (int64, error) {
	var seed uint64
	srs := make([]shardRun, 0, len(runs))
	for _, r := range runs {
		if r.Kind == RunGenerate && seed == 0 {
			seed = r.Seed
		}
		args := r.Args
		if len(args) == 0 && r.Params != "" {
			args = strings.Fields(r.Params) // a run from before args were kept
		}
		srs = append(srs, shardRun{ID: r.ID, Kind: r.Kind, Seed: r.Seed, Args: args, Status: r.Status, Families: r.Families, Puzzles: r.Puzzles, CodeVersion: r.CodeVersion})
	}
	msg, err := json.Marshal(struct {
		Shard string     `json:"shard"`
		Runs  []shardRun `json:"runs"`
	}{filepath.Base(shard), srs})
	if err != nil {
		return 0, fmt.Errorf("record the run: %w", err)
	}
	args := o.Args
	if args == nil {
		args = []string{}
	}
	argsJSON, err := json.Marshal(args)
	if err != nil {
		return 0, fmt.Errorf("record the run: %w", err)
	}
	now := time.Now().Unix()
	r, err := tx.ExecContext(ctx, `INSERT INTO runs (kind, source, args, params, seed, code_version, started_at, ended_at, status, message)
		VALUES (?, '', ?, ?, ?, ?, ?, ?, ?, ?)`, RunMerge, string(argsJSON), strings.Join(args, " "), int64(seed), o.CodeVersion, now, now, RunCompleted, string(msg))
	if err != nil {
		return 0, fmt.Errorf("record the run: %w", err)
	}
	id, err := r.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("record the run: %w", err)
	}
	return id, nil
}
