// Package store is the SQLite adapter of the bank: it opens and migrates
// bank files, writes graded puzzle families in batches, answers queries by
// difficulty, and records runs, packs and client reservations.
//
// It knows the bank's record types but nothing of how puzzles are made or
// graded: ratings arrive as integers in tenths of the Sudoku Explainer
// scale (23 means 2.3), levels as 1..5, techniques, symmetries, transforms
// and hint paths as text that other packages define.
//
// A bank has one writer at a time (Open) and any number of readers
// (OpenReadOnly); the file is in WAL mode, so readers see the last
// committed batch while a writer works.
package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jmoiron/sqlx"
	_ "modernc.org/sqlite" // the "sqlite" database/sql driver

	"sudokubank/internal/filekind"
)

// AppID is the SQLite application_id that marks a file as a bank
// ("SDKB" in ASCII).
const AppID = 0x53444B42

// Errors that callers tell apart with errors.Is.
var (
	// ErrNotBank means the file is not a bank: not SQLite at all, or an
	// SQLite file with another application_id or with tables of its own.
	ErrNotBank = errors.New("not a sudoku bank")
	// ErrNewerBank means the bank was written by a newer version of this
	// program; it is refused untouched.
	ErrNewerBank = errors.New("bank written by a newer version")
	// ErrOldBank means a reader found a bank that needs migrating; a
	// writer (bankgen -count 0 adds nothing) migrates it, or is
	// migrating it at that moment (the message says which).
	ErrOldBank = errors.New("bank needs migrating")
	// ErrNotFound means no record has the requested key.
	ErrNotFound = errors.New("not found")
	// ErrInvalid means a record or argument breaks the bank's rules.
	ErrInvalid = errors.New("invalid")
	// ErrNotEnough means fewer puzzles matched than a pack needs; the
	// error's text says how many did.
	ErrNotEnough = errors.New("not enough matching puzzles")
	// ErrReserved means a family is already reserved to another client.
	ErrReserved = errors.New("family reserved to another client")
)

// Options tune a writer's connection. The zero value is a sound default;
// BulkOptions suits a writer that adds many families.
type Options struct {
	// CacheSizeKB is SQLite's page cache in KiB (PRAGMA cache_size);
	// 0 means 64 MiB. Bulk loads of millions of rows gain from more:
	// the indexes a batch updates at random places should fit.
	CacheSizeKB int
	// BusyTimeout is how long a statement waits for another writer's lock
	// before failing; 0 means 10 seconds.
	BusyTimeout time.Duration
	// DeferIndexes is for loading many rows, above all into a fresh bank:
	// the puzzles' secondary indexes are dropped while this writer is
	// open and rebuilt, sorted, by BuildIndexes or Close; if the process
	// dies first, the next writer to open the bank rebuilds them.
	//
	// If the bank has no puzzles yet, the writer is in bulk mode: it
	// defers the unique (level, sort_key) index too, and finds duplicate
	// strings and taken keys in memory instead, 16 bytes a stored row.
	// It builds that index and goes on with it live once it holds 8M
	// rows (128 MiB of keys, at most 300 MiB while a slice grows), or
	// as soon as another writer stores puzzles. Likewise, if the bank
	// has no families, it defers the unique index of their keys
	// (canon_key) and finds stored forms by their keys in memory, 13 to
	// 19 bytes a family, until it holds 8M families (at most 145 MiB) or
	// another writer stores families. BulkKeyMemory bounds both.
	//
	// Queries keep working meanwhile, but are slow: listings by rating or
	// one bucket by ID scan the table, and in bulk mode so do random
	// samples and lookups by string (seconds at millions of rows).
	DeferIndexes bool
	// MustExist refuses to make a bank: a missing file, an empty one and
	// an SQLite file with no schema are refused unchanged, as a reader
	// refuses them, instead of becoming a bank. A command that only uses
	// banks (bankquery) sets it.
	MustExist bool
	// SyncFull makes every commit durable, at the cost of an fsync of
	// the WAL per commit (PRAGMA synchronous=FULL). By default
	// (synchronous=NORMAL) a commit is atomic and survives the process
	// being killed, but a power cut or an operating system crash may
	// undo the last commits before the next checkpoint; the bank stays
	// whole either way.
	SyncFull bool
	// Log, if not nil, is told when Open migrates a bank that has data
	// to a newer schema, and how long that took: a migration that
	// rebuilds a table (0010 rebuilds the puzzles) takes a minute or
	// more for ten million puzzles, which would otherwise look like a
	// hang. It is warned, too, when Open makes a new bank in an empty
	// file, which may be a bank that was truncated.
	Log *slog.Logger
	// OnMigrate, if not nil, is called with true as Open begins to
	// migrate a bank that has data to a newer schema, and with false as
	// the migration ends, however it ends: a command can then say, on an
	// interrupt meanwhile, that the migration stops and the bank stays
	// whole at the last schema it reached, not that it writes what is done.
	OnMigrate func(migrating bool)
}

// bulkCacheKB is the page cache of BulkOptions: it holds the indexes a
// writer not in bulk mode updates at random places (the families'
// canon_key and the puzzles' (level, sort_key), about 22 bytes a puzzle)
// up to about 10M puzzles.
const bulkCacheKB = 256 << 10

// BulkOptions returns the options for a writer that adds many families
// to the bank at path, in batches of 10,000 puzzle rows or more: a
// missing or empty file is a bulk load, whose indexes are built once at
// the end (DeferIndexes), while an existing bank keeps its indexes,
// which rebuilding whole would cost a top-up more than it saves.
func BulkOptions(path string) Options {
	fresh := true
	if st, err := os.Stat(path); err == nil && st.Size() > 0 {
		fresh = false
	}
	return Options{DeferIndexes: fresh, CacheSizeKB: bulkCacheKB}
}

// DB is an open bank. A DB from Open is the bank's writer and holds one
// connection; a DB from OpenReadOnly can only read. A DB is safe for
// concurrent use, but a callback passed to a streaming method (Query,
// ForEachCanon) must not use the same writer DB: its one connection is busy.
type DB struct {
	db       *sqlx.DB
	path     string
	real     string // path made absolute with symlinks resolved: one name per file, for the run locks
	readOnly bool
	deferred bool // indexes are deferred and Close rebuilds them
	checked  bool // the open ran the bank's quick check
	// bulk holds the stored keys while the key index is deferred (bulk
	// mode, see Options.DeferIndexes), and canons the stored families'
	// keys while their index is; nil otherwise. bulkMu guards
	// them and, held through a batch, keeps them in step with the bank.
	bulk   *keySet
	canons *famSet
	bulkMu sync.Mutex
	runs   runLocks
	// ckpt checkpoints the WAL beside a writer's merges (nil until one
	// commits); bulkMu guards it.
	ckpt *checkpointer
	// stmts keeps a reader's query statements prepared (nil on a
	// writer, whose single connection Query shares with its batches).
	stmts *stmtCache
}

// reader returns what a read runs on: the kept statements of a reader,
// else the pool.
func (db *DB) reader() sqlx.QueryerContext {
	if db.stmts != nil {
		return db.stmts
	}
	return db.db
}

const defaultCacheKB = 64 << 10

// registerFuncs registers the store's SQL functions and virtual table on
// the "sqlite" driver, for the connections opened after it. A reader
// needs them too: its queries derive a variant's grids (variant.go).
func registerFuncs() error {
	for _, reg := range []func() error{registerRows, registerCanonKey, registerVariants} {
		if err := reg(); err != nil {
			return err
		}
	}
	return nil
}

// Open opens the bank at path for writing, creating it if it does not
// exist and applying any migrations it lacks. It refuses a file that is
// not a bank and a bank written by a newer version, without changing
// either, and refuses a bank PRAGMA quick_check finds damaged
// (ErrDamaged). A new bank is built and migrated under a temporary name beside
// path and renamed into place, so that a process killed meanwhile leaves
// no half-built bank at path.
//
// A bank this process may not write (the file, or its directory where
// SQLite must make the -wal and -shm) is refused at once (ErrReadOnly).
func Open(ctx context.Context, path string, opt Options) (*DB, error) {
	if err := writable(path); err != nil {
		return nil, fmt.Errorf("open bank %s: %w", path, err)
	}
	return open(ctx, path, opt, false)
}

// ErrReadOnly means Open was given a bank this process may not write.
var ErrReadOnly = errors.New("bank is read-only")

// writable refuses an existing bank at path that this process may not
// write, naming what it may not write: SQLite would say only "attempt to
// write a readonly database", naming neither, and only at the first
// write, after the quick check has read the whole bank. A missing or
// empty file is left to the creation of a new bank.
func writable(path string) error {
	st, err := os.Stat(path)
	if err != nil || !st.Mode().IsRegular() || st.Size() == 0 {
		return nil
	}
	if !fileWritable(path) {
		return fmt.Errorf("%w: this process may not write the file", ErrReadOnly)
	}
	return sidecarsPossible(path)
}

// sidecarsPossible refuses a bank whose -wal or -shm is missing where
// this process may not make it: SQLite needs both to open a bank in WAL
// mode for writing.
func sidecarsPossible(path string) error {
	dir := filepath.Dir(path)
	for _, side := range []string{"-wal", "-shm"} {
		if _, err := os.Stat(path + side); err != nil && !dirWritable(dir) {
			return fmt.Errorf("%w: this process may not make files in %s, where SQLite keeps %s", ErrReadOnly, dir, filepath.Base(path)+side)
		}
	}
	return nil
}

// open is Open; checked skips the quick check of an existing bank that
// the open does not write to (one at the latest version, with no
// deferred indexes to rebuild): a bank this process just made from a
// checked one (MergeNew), or a shard whose check the merge runs beside
// its copy (PrepareShard). The DB says whether the check ran.
func open(ctx context.Context, path string, opt Options, checked bool) (*DB, error) {
	fresh, err := checkHeader(path, opt.MustExist)
	if err != nil {
		return nil, fmt.Errorf("open bank %s: %w", path, err)
	}
	if err := registerFuncs(); err != nil {
		return nil, fmt.Errorf("open bank %s: %w", path, err)
	}
	cache := opt.CacheSizeKB
	if cache <= 0 {
		cache = defaultCacheKB
	}
	busy := opt.BusyTimeout
	if busy <= 0 {
		busy = 10 * time.Second
	}
	sync := "NORMAL"
	if opt.SyncFull {
		sync = "FULL"
	}
	// journal_mode is not in the DSN: it changes the file, and a file
	// must be known to be a bank before anything changes it.
	q := []string{
		"_pragma=busy_timeout(" + strconv.FormatInt(busy.Milliseconds(), 10) + ")",
		"_pragma=foreign_keys(1)",
		"_pragma=synchronous(" + sync + ")",
		"_pragma=cache_size(-" + strconv.Itoa(cache) + ")",
		// Temporary data in files, as SQLite keeps it by default, rather
		// than in memory: only then does its sorter pack the records of an
		// index build into one growing buffer (and spill runs of
		// cache_size to a file), where with temp_store=MEMORY it
		// allocates each record on its own and merges scattered memory.
		// A deferred index of a million puzzles builds in about two
		// thirds of the CPU.
		"_pragma=temp_store(FILE)",
		// Reads map the file, as a reader's do: a pack's selection reads
		// thousands of random pages, and a read() and a cache copy of
		// each cost two to three times the CPU of a mapped page.
		"_pragma=mmap_size(2147418112)",
		"_txlock=immediate",
	}
	if fresh {
		empty := warnEmpty(path, opt.Log)
		made, err := create(ctx, path, q)
		if err != nil {
			return nil, fmt.Errorf("open bank %s: %w", path, err)
		}
		if made && !empty {
			logMade(path, opt.Log)
		}
	}

	x, err := sqlx.Open("sqlite", dsn(path, q))
	if err != nil {
		return nil, fmt.Errorf("open bank %s: %w", path, err)
	}
	// One connection: SQLite has one writer anyway, and the page cache
	// belongs to the connection.
	x.SetMaxOpenConns(1)
	x.SetMaxIdleConns(1)
	x.SetConnMaxLifetime(0)
	x.SetConnMaxIdleTime(0)
	// A writer changes some pages and would not notice damage in the
	// others: a bank it did not just create is checked first, once.
	quick := false
	// Held from here until the migration ends, so that a reader meanwhile
	// says the bank is being migrated, not that it needs migrating.
	var migrating *runLock
	defer func() {
		if migrating != nil {
			migrating.release()
		}
	}()
	if !fresh {
		v, err := bankVersion(ctx, x)
		if err != nil {
			x.Close()
			return nil, fmt.Errorf("open bank %s: %w", path, err)
		}
		migrating = lockMigration(realPath(path), v)
		if checked {
			// A bank is checked before anything writes to it.
			checked, err = opensUnchanged(ctx, x, v)
			if err != nil {
				x.Close()
				return nil, fmt.Errorf("open bank %s: %w", path, err)
			}
		}
		if !checked {
			if err := quickCheck(ctx, x, path); err != nil {
				x.Close()
				return nil, err
			}
			quick = true
		}
		if err := checkNoLiveRuns(ctx, x, realPath(path), v, migrationFS); err != nil {
			x.Close()
			return nil, fmt.Errorf("open bank %s: %w", path, err)
		}
	}
	if opt.MustExist {
		if err := checkNotEmpty(ctx, x); err != nil {
			x.Close()
			return nil, fmt.Errorf("open bank %s: %w", path, err)
		}
	}
	if err := migrate(ctx, x, migrationFS, opt.Log, opt.OnMigrate); err != nil {
		x.Close()
		return nil, fmt.Errorf("open bank %s: %w", path, err)
	}
	if migrating != nil {
		migrating.release()
		migrating = nil
	}
	if err := setWAL(ctx, x); err != nil {
		x.Close()
		return nil, fmt.Errorf("open bank %s: %w", path, err)
	}
	db := &DB{db: x, path: path, real: realPath(path), checked: quick}
	// A writer that died during a bulk load left indexes to rebuild.
	if err := db.rebuildIndexes(ctx); err != nil {
		x.Close()
		return nil, fmt.Errorf("open bank %s: %w", path, err)
	}
	if opt.DeferIndexes {
		if err := db.deferIndexes(ctx); err != nil {
			x.Close()
			return nil, fmt.Errorf("open bank %s: %w", path, err)
		}
	}
	return db, nil
}

// opensUnchanged reports whether an open of the bank at version v, on x,
// writes nothing to it: no migration is due, no deferred index is left
// to rebuild, and it is in WAL mode already.
func opensUnchanged(ctx context.Context, x *sqlx.DB, v int) (bool, error) {
	latest, err := latestVersion(migrationFS)
	if err != nil {
		return false, err
	}
	if v != latest {
		return false, nil
	}
	var deferred bool
	var mode string
	if err := x.GetContext(ctx, &deferred, "SELECT EXISTS (SELECT 1 FROM deferred_indexes)"); err != nil {
		return false, nil // the quick check says whether the bank is damaged
	}
	if err := x.GetContext(ctx, &mode, "PRAGMA journal_mode"); err != nil {
		return false, nil
	}
	return !deferred && strings.EqualFold(mode, "wal"), nil
}

// OpenReadOnly opens an existing bank for reading. A missing file is an
// error (it is never created), as is a bank that is not at this program's
// schema version; a refused bank is left as found, with no -wal or -shm
// made beside it. Queries work while a writer is writing. A bank in a
// directory this process cannot write, with no -wal beside it, is read
// immutable (SQLite's immutable=1), as on a read-only mount.
func OpenReadOnly(ctx context.Context, path string) (*DB, error) {
	if _, err := checkHeader(path, true); err != nil {
		return nil, fmt.Errorf("open bank %s: %w", path, err)
	}
	if err := registerFuncs(); err != nil {
		return nil, fmt.Errorf("open bank %s: %w", path, err)
	}
	latest, err := latestVersion(migrationFS)
	if err != nil {
		return nil, fmt.Errorf("open bank %s: %w", path, err)
	}
	q := []string{
		"mode=ro",
		"_pragma=busy_timeout(10000)",
		"_pragma=query_only(1)",
		"_pragma=cache_size(-" + strconv.Itoa(defaultCacheKB) + ")",
		"_pragma=mmap_size(2147418112)", // SQLite's default ceiling: the whole bank, up to 2 GiB
	}
	// A reader of a bank in WAL mode makes its -wal and -shm files, and
	// cannot remove them (only the last writer to close does). Without
	// a -wal the file holds the whole bank, so it is judged first from a
	// connection that makes nothing: a refused bank is left as found.
	// And a bank in a directory the reader cannot write, with no -wal,
	// is read immutable: no writer can be at work there (it would need
	// the -wal), and SQLite could not make the -shm ("attempt to write a
	// readonly database").
	_, werr := os.Stat(path + "-wal")
	noWAL := errors.Is(werr, os.ErrNotExist)
	if noWAL {
		if err := readerVersion(ctx, path, append(q, "immutable=1"), latest); err != nil {
			return nil, err
		}
		if !dirWritable(filepath.Dir(path)) {
			q = append(q, "immutable=1")
		}
	}
	x, err := sqlx.Open("sqlite", dsn(path, q))
	if err != nil {
		return nil, fmt.Errorf("open bank %s: %w", path, err)
	}
	x.SetMaxOpenConns(4)
	x.SetMaxIdleConns(4)
	if err := checkReaderVersion(ctx, x, path, latest); err != nil {
		x.Close()
		return nil, err
	}
	return &DB{db: x, path: path, real: realPath(path), readOnly: true, stmts: newStmtCache(x, path)}, nil
}

// readerVersion opens the bank at path with the DSN query q just to
// check its schema version (checkReaderVersion).
func readerVersion(ctx context.Context, path string, q []string, latest int) error {
	x, err := sqlx.Open("sqlite", dsn(path, q))
	if err != nil {
		return fmt.Errorf("open bank %s: %w", path, err)
	}
	defer x.Close()
	return checkReaderVersion(ctx, x, path, latest)
}

// checkReaderVersion refuses a bank a reader cannot read: not a bank, or
// at a schema version other than latest.
func checkReaderVersion(ctx context.Context, x *sqlx.DB, path string, latest int) error {
	v, err := bankVersion(ctx, x)
	if err != nil {
		return fmt.Errorf("open bank %s: %w", path, err)
	}
	switch {
	case v > latest:
		return fmt.Errorf("open bank %s: schema version %d, this program knows up to %d: %w", path, v, latest, ErrNewerBank)
	case v < latest && migrationAlive(realPath(path)):
		return oldBankError(fmt.Sprintf("open bank %s: schema version %d, this program needs %d; a writer is migrating it now: retry once the migration has ended", path, v, latest))
	case v < latest:
		return oldBankError(fmt.Sprintf("open bank %s: schema version %d, this program needs %d; migrate it once with %s", path, v, latest, migrateCommand(path)))
	}
	return nil
}

// oldBankError is a reader's refusal of an older bank: ErrOldBank to
// errors.Is, but its text ends with what to do. Wrapped with %w, the
// sentinel's words would follow the command to paste ("... -count 0: bank
// needs migrating", where a colon copied with it is a bad -count) and the
// advice to wait for a migration under way, which they contradict.
type oldBankError string

func (e oldBankError) Error() string { return string(e) }

// Unwrap makes errors.Is(err, ErrOldBank) true.
func (e oldBankError) Unwrap() error { return ErrOldBank }

// migrateCommand is the command that migrates the bank at path and adds
// nothing to it: a plain bankgen would also add its default 1000
// families, which someone who only meant to read the bank never asked for.
func migrateCommand(path string) string {
	return "bankgen -db " + shellQuote(path) + " -count 0"
}

// shellQuote quotes s for a POSIX shell: as it is when it holds only
// characters no shell treats specially, else in single quotes, so that
// a command a message suggests can be pasted as it stands.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,/=:+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Close closes the bank. A writer opened with DeferIndexes first
// rebuilds the indexes, which takes a while on a big bank; the close
// checkpoints the WAL.
func (db *DB) Close() error {
	db.runs.releaseAll()
	if db.stmts != nil {
		db.stmts.close()
	}
	db.bulkMu.Lock()
	defer db.bulkMu.Unlock()
	if err := db.closeCheckpointer(); err != nil {
		db.db.Close()
		return fmt.Errorf("close bank %s: %w", db.path, err)
	}
	if db.deferred {
		if err := db.rebuildIndexes(context.Background()); err != nil {
			db.db.Close()
			return fmt.Errorf("close bank %s: %w", db.path, err)
		}
	}
	if err := db.db.Close(); err != nil {
		return fmt.Errorf("close bank %s: %w", db.path, err)
	}
	return nil
}

// realPath returns path absolute with its symlinks resolved, so that two
// processes that name one bank differently (a relative path, a symlink)
// agree on the names of its run locks; on error it does what it can.
func realPath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	return abs
}

// Path returns the file name the bank was opened with.
func (db *DB) Path() string { return db.path }

// IntegrityCheck runs PRAGMA integrity_check and returns an error listing
// the problems it reports, if any.
func (db *DB) IntegrityCheck(ctx context.Context) error {
	var msgs []string
	if err := db.db.SelectContext(ctx, &msgs, "PRAGMA integrity_check"); err != nil {
		return fmt.Errorf("integrity check %s: %w", db.path, err)
	}
	if len(msgs) == 1 && msgs[0] == "ok" {
		return nil
	}
	return fmt.Errorf("integrity check %s: %s", db.path, strings.Join(msgs, "; "))
}

// pageSize is a new bank's page size, four times SQLite's default: a
// bulk write costs about one system call per WAL frame and per page
// checkpointed, whatever the page holds, while random reads of the
// mapped file cost the same; the page cache holds fewer, bigger pages.
// A bank made before keeps its size: a VACUUM changes it only after
// PRAGMA page_size and out of WAL mode (journal_mode DELETE, page_size,
// VACUUM, then journal_mode WAL again); a VACUUM alone keeps it.
const pageSize = 16384

// setPageSize sets the page size of a database that has no page yet.
func setPageSize(ctx context.Context, x *sqlx.DB) error {
	if _, err := x.ExecContext(ctx, "PRAGMA page_size = "+strconv.Itoa(pageSize)); err != nil {
		return fmt.Errorf("set page size: %w", err)
	}
	return nil
}

// setWAL puts the database in WAL mode, which a bank is always in once
// opened for writing: readers then go on while the writer commits.
func setWAL(ctx context.Context, x *sqlx.DB) error {
	var mode string
	if err := x.GetContext(ctx, &mode, "PRAGMA journal_mode = WAL"); err != nil {
		return fmt.Errorf("set WAL mode: %w", err)
	}
	if !strings.EqualFold(mode, "wal") {
		return fmt.Errorf("journal mode is %q, want wal", mode)
	}
	return nil
}

// dsn builds a modernc.org/sqlite file: URI. SQLite decodes %HH escapes
// in the path, so the characters that would end it are escaped.
func dsn(path string, query []string) string {
	esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")
	return "file:" + esc.Replace(path) + "?" + strings.Join(query, "&")
}

// warnEmpty tells log, when the file at path exists and is empty, that a
// new bank is made in it, and reports whether it did: SQLite takes a
// 0-byte file for an empty database, as Open takes it for the place of a
// new bank (a file made beforehand with its owner and mode), but it may
// be a bank that was truncated, and its owner should hear of that.
func warnEmpty(path string, log *slog.Logger) bool {
	if log == nil {
		return false
	}
	if st, err := os.Stat(path); err == nil && st.Size() == 0 {
		log.Warn("the bank file is empty (0 bytes): making a new bank in it; if it held a bank, that bank was lost before this run", "db", path)
		return true
	}
	return false
}

// logMade tells log that a new bank was made at path, where there was no
// file: a mistyped -db makes a new bank as readily as the right one
// opens the old, and a run that added nothing would otherwise not say
// which happened.
func logMade(path string, log *slog.Logger) {
	if log != nil {
		log.Info("made a new bank", "db", path)
	}
}

// checkHeader refuses a file that exists but is not SQLite, before the
// driver touches it. An empty file is a fresh database to SQLite, and
// fresh says the file is missing or empty. With mustExist, a missing
// file is an error too.
//
// Anything but a regular file is refused before it is opened: a FIFO
// would block the open for good, and a device such as /dev/null reads
// as empty, so that a new bank would be renamed over it.
func checkHeader(path string, mustExist bool) (fresh bool, err error) {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return false, fmt.Errorf("%s, not a regular file: %w", filekind.Of(st.Mode()), ErrNotBank)
	}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) && !mustExist {
		return true, nil
	}
	if err != nil {
		return false, reason(err)
	}
	defer f.Close()
	var head [16]byte
	n, err := io.ReadFull(f, head[:])
	if n == 0 && (err == io.EOF) {
		if mustExist {
			return false, fmt.Errorf("empty file (0 bytes), no bank yet: %w", ErrNotBank)
		}
		return true, nil
	}
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return false, reason(err)
	}
	if !bytes.Equal(head[:n], []byte("SQLite format 3\x00")) {
		return false, fmt.Errorf("not an SQLite file: %w", ErrNotBank)
	}
	return false, nil
}

// reason returns the reason of a file's error without the operation and
// path an *fs.PathError adds: its caller names the bank, and would name
// it twice ("open bank b.db: open b.db: no such file or directory").
func reason(err error) error {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return pe.Err
	}
	return err
}
