package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"sudokubank/internal/plural"
	"sudokubank/migrations"
)

// migrationFS is where Open finds the schema; tests swap in their own.
var migrationFS fs.FS = migrations.FS

// migration is one numbered SQL file.
type migration struct {
	version int
	name    string
	sql     string
}

// loadMigrations reads NNNN_name.sql files from fsys and checks that they
// are numbered 1, 2, 3... without gaps or repeats.
func loadMigrations(fsys fs.FS) ([]migration, error) {
	names, err := fs.Glob(fsys, "*.sql")
	if err != nil {
		return nil, fmt.Errorf("list migrations: %w", err)
	}
	var ms []migration
	for _, name := range names {
		num, _, ok := strings.Cut(path.Base(name), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s: name is not NNNN_name.sql", name)
		}
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("read migration %s: %w", name, err)
		}
		ms = append(ms, migration{version: v, name: name, sql: string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i, m := range ms {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration %s: numbered %d, want %d (no gaps or repeats)", m.name, m.version, i+1)
		}
	}
	if len(ms) == 0 {
		return nil, fmt.Errorf("no migrations found")
	}
	return ms, nil
}

// latestVersion returns the schema version the migrations in fsys reach.
func latestVersion(fsys fs.FS) (int, error) {
	ms, err := loadMigrations(fsys)
	if err != nil {
		return 0, err
	}
	return len(ms), nil
}

// bankVersion returns the schema version of an open database, 0 for an
// empty database, and ErrNotBank for a database that is not a bank.
func bankVersion(ctx context.Context, q sqlx.QueryerContext) (int, error) {
	var app, ver int64
	if err := sqlx.GetContext(ctx, q, &app, "PRAGMA application_id"); err != nil {
		return 0, fmt.Errorf("read application_id: %w", err)
	}
	if err := sqlx.GetContext(ctx, q, &ver, "PRAGMA user_version"); err != nil {
		return 0, fmt.Errorf("read user_version: %w", err)
	}
	switch app {
	case AppID:
		return int(ver), nil
	case 0:
		var n int
		if err := sqlx.GetContext(ctx, q, &n, "SELECT count(*) FROM sqlite_schema"); err != nil {
			return 0, fmt.Errorf("read schema: %w", err)
		}
		if n > 0 || ver != 0 {
			return 0, fmt.Errorf("SQLite file with %s and no bank application_id: %w", plural.Count(int64(n), "schema object"), ErrNotBank)
		}
		return 0, nil
	default:
		return 0, fmt.Errorf("application_id %#x is not a bank's (%#x): %w", app, AppID, ErrNotBank)
	}
}

// checkNotEmpty refuses a database that is not yet a bank (version 0),
// which migrate would make one.
func checkNotEmpty(ctx context.Context, q sqlx.QueryerContext) error {
	v, err := bankVersion(ctx, q)
	if err != nil {
		return err
	}
	if v == 0 {
		return fmt.Errorf("SQLite file with nothing in it: %w", ErrNotBank)
	}
	return nil
}

// migrate brings the database to the latest version in fsys. Each
// migration runs in its own transaction together with the user_version
// and application_id it sets, so a failure leaves the previous version
// intact. A database newer than fsys is refused before anything changes.
// onMigrate, if not nil, is called with true as the migration of a bank
// with data begins and with false as it ends (Options.OnMigrate).
func migrate(ctx context.Context, x *sqlx.DB, fsys fs.FS, log *slog.Logger, onMigrate func(bool)) error {
	ms, err := loadMigrations(fsys)
	if err != nil {
		return err
	}
	v, err := bankVersion(ctx, x)
	if err != nil {
		return err
	}
	if v > len(ms) {
		return fmt.Errorf("schema version %d, this program knows up to %d: %w", v, len(ms), ErrNewerBank)
	}
	// A fresh bank (version 0) is created, not migrated: nothing to say.
	due := v > 0 && v < len(ms)
	announce := log != nil && due
	if due && onMigrate != nil {
		onMigrate(true)
		defer onMigrate(false)
	}
	if announce {
		log.Info("migrating the bank to a newer schema; a big bank takes a while", "from", v, "to", len(ms))
	}
	start := time.Now()
	applied := 0
	for _, m := range ms[v:] {
		if migrateHook != nil {
			migrateHook(m.version)
		}
		did, err := applyMigration(ctx, x, m)
		if did {
			applied++
		}
		if err != nil {
			if announce && ctx.Err() != nil {
				// The command stops quietly on an interrupt; this is
				// the one line that says where the bank stands.
				log.Warn("migration interrupted; the bank is whole at the last schema it reached, and the next writer migrates the rest",
					"schema", m.version-1, "to", len(ms))
			}
			return err
		}
	}
	switch {
	case announce && applied == 0:
		// Two writers opened the bank at once (bankgen -count 0 run
		// twice): this one waited for the other's migration, which is
		// not its own to time.
		log.Info("another writer migrated the bank meanwhile", "schema", len(ms), "waited", time.Since(start).Round(time.Millisecond))
	case announce:
		log.Info("migrated the bank", "schema", len(ms), "took", time.Since(start).Round(time.Millisecond))
	}
	return nil
}

// migrateHook, if set by a test, runs in migrate before each migration
// is applied, with its version.
var migrateHook func(version int)

// migrateLockPath is the lock file a writer holds while it opens and
// migrates the bank at real (its realPath): a reader that finds the bank
// at an older schema can then tell a migration under way, which it only
// has to wait out, from a bank no one migrates.
func migrateLockPath(real string) string { return real + "-migrate.lock" }

// lockMigration takes the migration lock of the bank at real, at schema
// version v, when a migration is due (v is past 0, a new bank's, and
// behind the migrations). It returns nil when none is due or the lock
// cannot be had: another writer holds it, and migrates first (SQLite's
// write lock orders the two), or the file cannot be made. The lock only
// informs readers, so a migration goes on without it.
func lockMigration(real string, v int) *runLock {
	latest, err := latestVersion(migrationFS)
	if !runLocksWork || err != nil || v == 0 || v >= latest {
		return nil
	}
	lk, err := lockRun(migrateLockPath(real))
	if err != nil {
		return nil
	}
	return lk
}

// migrationAlive reports whether a writer holds the migration lock of the
// bank at real (lockMigration), for a reader.
func migrationAlive(real string) bool {
	return runLocksWork && runAlive(migrateLockPath(real))
}

// checkNoLiveRuns refuses to migrate the bank at real (its realPath),
// at schema version v, while a run of an older program still writes to
// it: the migration would change the tables under that run, which then
// fails on its next batch with an SQL error that says nothing of why.
// Only a bank older than fsys needs the question; a run whose lock file
// no process holds (or that left none) is not live.
func checkNoLiveRuns(ctx context.Context, q sqlx.QueryerContext, real string, v int, fsys fs.FS) error {
	latest, err := latestVersion(fsys)
	if err != nil {
		return err
	}
	if !runLocksWork || v == 0 || v >= latest {
		return nil
	}
	var running []int64
	if err := sqlx.SelectContext(ctx, q, &running, "SELECT id FROM runs WHERE status = 'running' ORDER BY id"); err != nil {
		return fmt.Errorf("read runs: %w", err)
	}
	var live []string
	for _, id := range running {
		if runAlive(runLockPath(real, id)) {
			live = append(live, strconv.FormatInt(id, 10))
		}
	}
	if len(live) == 0 {
		return nil
	}
	which, them := "run "+live[0]+" of an older bankgen still writes", "it"
	if len(live) > 1 {
		which, them = "runs "+strings.Join(live, ", ")+" of an older bankgen still write", "them"
	}
	return liveRunsError(fmt.Sprintf("schema version %d needs migrating to %d, but %s to it: let %s finish or stop %s, then run again", v, latest, which, them, them))
}

// ErrLiveOlderRun means a bank (or a shard) was not migrated because a
// run of an older bankgen still writes to it: it is not damaged, and
// needs no mending, only that run's end.
var ErrLiveOlderRun = errors.New("an older bankgen still writes the bank")

// liveRunsError is checkNoLiveRuns' refusal: its message says which runs,
// and it is ErrLiveOlderRun, so that a caller can say what to do about it.
type liveRunsError string

func (e liveRunsError) Error() string { return string(e) }

func (e liveRunsError) Is(target error) bool { return target == ErrLiveOlderRun }

// uncheckedMigrations names the migrations that run with foreign keys
// off, and with PRAGMA foreign_key_check in their place before they
// commit (see applyMigration). A migration that rebuilds a table other
// tables refer to belongs here; every other one runs with foreign keys
// on, as the connection has them, so that the whole-database check (a
// parent lookup for every row of every referring table) is paid only
// where it is needed, and a dangling reference a migration did not make
// cannot fail it.
//
// The list is kept here, not as a mark in the files, because the files
// are append-only (migrations/testdata/sums.txt): 0006 cannot take a mark
// without changing under the banks that already ran it.
var uncheckedMigrations = map[string]bool{
	"0006_families_canon_index.sql": true, // rebuilds families
	"0010_puzzles_variants.sql":     true, // rebuilds puzzles, which pack_items refers to
	"0013_grid_sizes.sql":           true, // rebuilds families and puzzles
}

// migrationSteps holds the work in Go that a migration needs after its
// SQL, in its transaction, by the migration's name. 0008 has no table
// rebuild, so it runs with foreign keys on, as the connection has them.
var migrationSteps = map[string]func(context.Context, *sqlx.Tx) error{
	"0008_families_canon_key.sql": settleCanonKeys,
}

// settleCanonKeys builds families_canon_key, which migration 0008 left
// deferred over the keys it filled in. Two stored forms with one key
// (about once in 10^5 banks of 10M families) would fail the unique
// index; then each family that shares its key with a lower ID takes the
// first key of its window that no family holds, and the build runs
// again. That need not be the key a writer would have given it (a writer
// places each family against the keys taken before it, and a key the
// migration leaves in place may be one a writer would have taken): it
// does not matter, because a lookup searches the whole window (probe
// checks every key for the form before it takes a free one). The first
// try costs nothing more than the build itself. A failed CREATE INDEX
// undoes only itself, and the transaction goes on (as writePuzzles
// relies on too), so no savepoint is needed around it.
func settleCanonKeys(ctx context.Context, tx *sqlx.Tx) error {
	err := buildDeferredIndexes(ctx, tx, "families_canon_key")
	if err == nil || !isUniqueViolation(err) {
		return err
	}
	if err := moveSharedCanonKeys(ctx, tx); err != nil {
		return fmt.Errorf("settle canon keys: %w", err)
	}
	return buildDeferredIndexes(ctx, tx, "families_canon_key")
}

// moveSharedCanonKeys gives each family that shares its key with a lower
// ID the first key of its window that no family holds, in the order of
// their IDs. A key that such a family leaves keeps its lowest holder, so
// every key from a family's hash to its own stays taken: a writer that
// finds a form's own key free counts the form as new without searching
// its window (resolveFamilies, famSet.resolve). It indexes the keys for
// the while, not uniquely: the path runs only when the unique index
// failed, so its cost does not matter, and without an index each window
// would be a scan.
func moveSharedCanonKeys(ctx context.Context, tx *sqlx.Tx) error {
	if _, err := tx.ExecContext(ctx, "CREATE INDEX families_canon_key_settle ON families (canon_key)"); err != nil {
		return err
	}
	var movers []struct {
		ID  int64 `db:"id"`
		Key int64 `db:"canon_key"`
	}
	err := tx.SelectContext(ctx, &movers, `SELECT f.id, f.canon_key FROM families f
		WHERE EXISTS (SELECT 1 FROM families g WHERE g.canon_key = f.canon_key AND g.id < f.id)
		ORDER BY f.id`)
	if err != nil {
		return fmt.Errorf("find shared keys: %w", err)
	}
	for _, m := range movers {
		lo, hi := window(m.Key)
		var taken []int64
		if err := tx.SelectContext(ctx, &taken, "SELECT canon_key FROM families WHERE canon_key BETWEEN ? AND ?", lo, hi); err != nil {
			return fmt.Errorf("family %d: %w", m.ID, err)
		}
		free, _, ok := probe(lo, hi, func(k int64) (bool, bool) { return slices.Contains(taken, k), false })
		if !ok {
			return fmt.Errorf("family %d: no free canon key in %d..%d", m.ID, lo, hi)
		}
		if _, err := tx.ExecContext(ctx, "UPDATE families SET canon_key = ? WHERE id = ?", free, m.ID); err != nil {
			return fmt.Errorf("family %d: %w", m.ID, err)
		}
	}
	_, err = tx.ExecContext(ctx, "DROP INDEX families_canon_key_settle")
	return err
}

// applyMigration runs m in a transaction and sets the version it reaches.
//
// A migration that changes a table's columns or constraints rebuilds it
// the way SQLite documents (ALTER TABLE, "other kinds of table schema
// changes"): a new table, the rows copied, the old table dropped, the new
// one renamed. With foreign keys on, dropping a table that other tables
// refer to deletes its rows as far as the references go, which fails or
// leaves violations behind; and PRAGMA foreign_keys does nothing inside
// a transaction. So for the migrations uncheckedMigrations names they
// are off, on a connection of their own, from before BEGIN to after the
// commit, and PRAGMA foreign_key_check stands in for them: a migration
// that leaves a reference dangling is rolled back.
func applyMigration(ctx context.Context, x *sqlx.DB, m migration) (applied bool, err error) {
	var tx *sqlx.Tx
	unchecked := uncheckedMigrations[m.name]
	if unchecked {
		// The connection goes back to the pool with the checks on, or
		// is discarded.
		var conn uncheckedConn
		if conn, err = openUnchecked(ctx, x, keepChecks); err != nil {
			return false, fmt.Errorf("migration %s: %w", m.name, err)
		}
		defer conn.release()
		tx, err = conn.BeginTxx(ctx, nil)
	} else {
		tx, err = x.BeginTxx(ctx, nil)
	}
	if err != nil {
		return false, fmt.Errorf("migration %s: %w", m.name, err)
	}
	defer tx.Rollback()
	// Another process may have migrated between our check and our lock
	// (the writer's transactions take the write lock at BEGIN).
	v, err := bankVersion(ctx, tx)
	if err != nil {
		return false, fmt.Errorf("migration %s: %w", m.name, err)
	}
	if v >= m.version {
		return false, nil
	}
	if v != m.version-1 {
		return false, fmt.Errorf("migration %s: bank is at version %d", m.name, v)
	}
	q, err := migrationSQL(ctx, tx, m)
	if err != nil {
		return false, fmt.Errorf("migration %s: %w", m.name, err)
	}
	if _, err := tx.ExecContext(ctx, q); err != nil {
		return false, fmt.Errorf("migration %s: %w", m.name, err)
	}
	if step := migrationSteps[m.name]; step != nil {
		if err := step(ctx, tx); err != nil {
			return false, fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	if unchecked {
		if err := checkForeignKeys(ctx, tx); err != nil {
			return false, fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	// PRAGMA arguments cannot be bound; these are our own integers.
	set := fmt.Sprintf("PRAGMA user_version = %d; PRAGMA application_id = %d", m.version, AppID)
	if _, err := tx.ExecContext(ctx, set); err != nil {
		return false, fmt.Errorf("migration %s: set version: %w", m.name, err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("migration %s: commit: %w", m.name, err)
	}
	return true, nil
}

// checkForeignKeys returns an error naming the first few rows whose
// references PRAGMA foreign_key_check finds dangling, if any.
func checkForeignKeys(ctx context.Context, tx *sqlx.Tx) error {
	var bad []string
	n := 0
	err := eachForeignKeyViolation(ctx, tx, func(v string) {
		if n++; len(bad) < 5 {
			bad = append(bad, v)
		}
	})
	if err != nil {
		return fmt.Errorf("check foreign keys: %w", err)
	}
	if n > 0 {
		return fmt.Errorf("%d foreign key violations: %s", n, strings.Join(bad, "; "))
	}
	return nil
}

// eachForeignKeyViolation calls fn with a sentence for each row whose
// reference PRAGMA foreign_key_check finds dangling.
func eachForeignKeyViolation(ctx context.Context, q sqlx.QueryerContext, fn func(string)) error {
	rows, err := q.QueryContext(ctx, "PRAGMA foreign_key_check")
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			table, parent string
			rowid         sql.NullInt64
			fkid          int64
		)
		if err := rows.Scan(&table, &rowid, &parent, &fkid); err != nil {
			return err
		}
		fn(fmt.Sprintf("%s row %d refers to a missing %s row", table, rowid.Int64, parent))
	}
	return rows.Err()
}

// editedInitTables are the tables, as sqlite_schema keeps their
// statements, that 0001_init.sql made while it was edited in place on 21
// November 2026 (commits c6e96f9 to dbb998c; the file's SHA-256 was
// ddf17ef9c379287549185fd38858e4365a44d066e1bf08d4480e9ad5f2673196):
// the pack counts that 0004_pack_counts.sql makes since, with the same
// statements, in place of the pack_items_family index.
var editedInitTables = map[string]string{
	"client_families": "CREATE TABLE client_families (\n    family_id  INTEGER NOT NULL REFERENCES families (id),\n    client     TEXT    NOT NULL CHECK (client <> ''),\n    packs      INTEGER NOT NULL CHECK (packs >= 0),\n    PRIMARY KEY (family_id, client)\n) WITHOUT ROWID",
	"packed_families": "CREATE TABLE packed_families (\n    family_id  INTEGER PRIMARY KEY REFERENCES families (id),\n    packs      INTEGER NOT NULL CHECK (packs >= 0)\n)",
}

// packCountsOnEditedInit is 0004_pack_counts.sql for a bank the edited
// 0001 made (editedInitTables): its tables are there already, so their
// counts are made again from the packs, as 0004 makes them, and the rest
// of 0004 runs as it is.
const packCountsOnEditedInit = `DELETE FROM packed_families;
DELETE FROM client_families;
INSERT INTO packed_families (family_id, packs)
    SELECT family_id, count(*) FROM pack_items GROUP BY family_id;
INSERT INTO client_families (family_id, client, packs)
    SELECT i.family_id, k.client, count(*)
    FROM pack_items i JOIN packs k ON k.id = i.pack_id
    WHERE k.client <> ''
    GROUP BY i.family_id, k.client;
DROP INDEX IF EXISTS pack_items_family;
DELETE FROM deferred_indexes WHERE name = 'pack_items_family';`

// migrationSQL returns the statements that apply m to the bank tx is on:
// m's own, but for 0004 on a bank whose edited 0001 made its tables
// already (editedInitTables), which would fail 0004 with "table
// packed_families already exists".
func migrationSQL(ctx context.Context, tx *sqlx.Tx, m migration) (string, error) {
	if m.name != "0004_pack_counts.sql" {
		return m.sql, nil
	}
	var tables []struct {
		Name string `db:"name"`
		SQL  string `db:"sql"`
	}
	if err := tx.SelectContext(ctx, &tables, "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name IN ('packed_families', 'client_families')"); err != nil {
		return "", err
	}
	if len(tables) == 0 {
		return m.sql, nil
	}
	for _, t := range tables {
		if len(tables) != len(editedInitTables) || editedInitTables[t.Name] != t.SQL {
			return "", fmt.Errorf("table %s is there already, and not as the edited 0001_init.sql of 21 November 2026 made it", t.Name)
		}
	}
	return packCountsOnEditedInit, nil
}
