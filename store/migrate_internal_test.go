package store

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/jmoiron/sqlx"

	"sudokubank/migrations"
)

// withMigrations returns an FS of the real migrations plus extra files.
func withMigrations(t *testing.T, extra map[string]string) fs.FS {
	t.Helper()
	m := fstest.MapFS{}
	names, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		b, err := fs.ReadFile(migrations.FS, n)
		if err != nil {
			t.Fatal(err)
		}
		m[n] = &fstest.MapFile{Data: b}
	}
	for n, s := range extra {
		m[n] = &fstest.MapFile{Data: []byte(s)}
	}
	return m
}

func setMigrations(t *testing.T, fsys fs.FS) {
	old := migrationFS
	migrationFS = fsys
	t.Cleanup(func() { migrationFS = old })
}

func TestFailingMigrationKeepsPreviousVersion(t *testing.T) {
	ctx := context.Background()
	latest, err := latestVersion(migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "bank.db")
	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()

	next := latest + 1
	bad := map[string]string{
		fmtName(next, "bad"): "CREATE TABLE half (x); INSERT INTO no_such_table VALUES (1);",
	}
	setMigrations(t, withMigrations(t, bad))
	if _, err := Open(ctx, path, Options{}); err == nil {
		t.Fatal("Open with a failing migration succeeded")
	}
	// The bank is still at the previous version, without the half table,
	// and still opens with the real migrations.
	setMigrations(t, migrations.FS)
	db, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatalf("reopen after failed migration: %v", err)
	}
	defer db.Close()
	var v, half int
	if err := db.db.GetContext(ctx, &v, "PRAGMA user_version"); err != nil {
		t.Fatal(err)
	}
	if got, want := v, latest; got != want {
		t.Errorf("user_version = %d, want %d", got, want)
	}
	if err := db.db.GetContext(ctx, &half, "SELECT count(*) FROM sqlite_schema WHERE name = 'half'"); err != nil {
		t.Fatal(err)
	}
	if half != 0 {
		t.Errorf("failed migration left table half behind")
	}
}

func TestMigrationAppliesNextVersion(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "bank.db")
	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	latest, _ := latestVersion(migrations.FS)
	fsys := withMigrations(t, map[string]string{fmtName(latest+1, "more"): "CREATE TABLE more (x);"})
	setMigrations(t, fsys)

	// A reader refuses a bank that needs migrating; the writer migrates.
	if _, err := OpenReadOnly(ctx, path); !errors.Is(err, ErrOldBank) {
		t.Errorf("OpenReadOnly(old bank) error = %v, want ErrOldBank", err)
	}
	db, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var v int
	if err := db.db.GetContext(ctx, &v, "PRAGMA user_version"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if got, want := v, latest+1; got != want {
		t.Errorf("user_version = %d, want %d", got, want)
	}
	r, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatalf("OpenReadOnly after migration: %v", err)
	}
	r.Close()
}

func TestLoadMigrationsRejectsGaps(t *testing.T) {
	tests := []struct {
		name  string
		files []string
	}{
		{"Gap", []string{"0001_a.sql", "0003_c.sql"}},
		{"Repeat", []string{"0001_a.sql", "0001_b.sql"}},
		{"BadName", []string{"init.sql"}},
		{"Empty", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := fstest.MapFS{}
			for _, f := range tt.files {
				m[f] = &fstest.MapFile{Data: []byte("SELECT 1;")}
			}
			if _, err := loadMigrations(m); err == nil {
				t.Errorf("loadMigrations(%v) succeeded", tt.files)
			}
		})
	}
}

func fmtName(v int, name string) string { return fmt.Sprintf("%04d_%s.sql", v, name) }

// TestPuzzleKeyMigration opens a bank of schema 2, with a bulk load's
// deferred indexes pending, under 0003: the puzzles keep their keys, a
// stored string is still a duplicate, and only the indexes 0003 keeps
// come back.
func TestPuzzleKeyMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "bank.db")
	v2 := fstest.MapFS{}
	for _, n := range []string{"0001_init.sql", "0002_deferred_indexes.sql"} {
		b, err := fs.ReadFile(migrations.FS, n)
		if err != nil {
			t.Fatal(err)
		}
		v2[n] = &fstest.MapFile{Data: b}
	}
	setMigrations(t, v2)
	old, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	canon := "1" + strings.Repeat(".", 80)
	stored := strings.Repeat(".", 80) + "1"
	pz, err := packGrid(stored)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO families (id, canon, er, ep, ed, level, score, givens, min_row_col, source, created_at)
			VALUES (1, '` + canon + `', 30, 10, 10, 2, 1, 25, 1, 'gen', 0)`,
		// What a writer of schema 2 that died in a bulk load left.
		`DROP INDEX puzzles_level_key`,
		`DROP INDEX puzzles_er`,
		`INSERT INTO deferred_indexes (name, sql) SELECT name, sql FROM sqlite_schema WHERE name = 'puzzles_level_giv'`,
		`INSERT INTO deferred_indexes (name, sql) VALUES
			('puzzles_level_key', 'CREATE INDEX puzzles_level_key ON puzzles (level, sort_key)'),
			('puzzles_er', 'CREATE INDEX puzzles_er ON puzzles (er)')`,
		`DROP INDEX puzzles_level_giv`,
	} {
		if _, err := old.db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if _, err := old.db.ExecContext(ctx, `INSERT INTO puzzles (family_id, puzzle, solution, sort_key, level, givens, er)
		VALUES (1, ?, ?, ?, 2, 25, 30)`, pz, pz, SortKeyOf(stored)); err != nil {
		t.Fatal(err)
	}
	// Two packs of schema 2 hold family 1, one of them for a client: the
	// migration to per-family pack counts must start from them.
	for _, q := range []string{
		`INSERT INTO packs (id, name, client, size, created_at) VALUES (1, 'a', 'acme', 1, 0), (2, 'b', '', 1, 0)`,
		`INSERT INTO pack_items (pack_id, position, puzzle_id, family_id) VALUES (1, 0, 1, 1), (2, 0, 1, 1)`,
	} {
		if _, err := old.db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	old.db.Close()

	setMigrations(t, migrations.FS)
	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// 0009 replaced puzzles_level_giv, which the bank had deferred.
	if got, want := puzzleIndexes(t, db), []string{"puzzles_bucket", "puzzles_er", "puzzles_family", "puzzles_key"}; !slices.Equal(got, want) {
		t.Errorf("indexes after the migration = %v, want %v", got, want)
	}
	for _, c := range []struct{ q, want string }{
		{"SELECT group_concat(family_id || ' ' || packs) FROM packed_families", "1 2"},
		{"SELECT group_concat(family_id || ' ' || client || ' ' || packs) FROM client_families", "1 acme 1"},
	} {
		var got string
		if err := db.db.GetContext(ctx, &got, c.q); err != nil || got != c.want {
			t.Errorf("%s = %q, %v; want %q", c.q, got, err, c.want)
		}
	}
	if n, err := db.Count(ctx, Filter{Fresh: true}); err != nil || n != 0 {
		t.Errorf("fresh puzzles after the migration = %d, %v; want 0 (family 1 is packed)", n, err)
	}
	res, err := db.WriteBatch(ctx, []NewFamily{{
		Family:  Family{Canon: canon, Level: 2, Givens: 25, ER: 30, Source: "gen"},
		Puzzles: []Puzzle{{Puzzle: stored, Solution: stored}, {Puzzle: canon, Solution: canon}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if want := (WriteResult{Puzzles: 1, DupFamilies: 1, DupPuzzles: 1}); res != want {
		t.Errorf("WriteBatch after the migration = %+v, want %+v", res, want)
	}
	if err := db.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
}

// migrationsUpTo returns an FS of the real migrations numbered up to v.
func migrationsUpTo(t *testing.T, v int) fs.FS {
	t.Helper()
	m := fstest.MapFS{}
	names, err := fs.Glob(migrations.FS, "*.sql")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names[:v] {
		b, err := fs.ReadFile(migrations.FS, n)
		if err != nil {
			t.Fatal(err)
		}
		m[n] = &fstest.MapFile{Data: b}
	}
	return m
}

// dumpBank returns every row of every table, one string a row, sorted
// within each table.
func dumpBank(t *testing.T, db *DB) map[string][]string {
	t.Helper()
	ctx := context.Background()
	var tables []string
	if err := db.db.SelectContext(ctx, &tables, "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, tbl := range tables {
		out[tbl] = dumpQuery(t, db, `SELECT * FROM "`+tbl+`"`)
		slices.Sort(out[tbl])
	}
	return out
}

// TestFamiliesCanonMigration writes a bank with the schema-5 tables (the
// families' canon UNIQUE), through the store: a run, generated families
// with both forms of path, an import, variants, a pack for a client. 0006
// must keep every row of every table, the references to families whole,
// canon unique and the CHECKs, under a named index the queries use.
func TestFamiliesCanonMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "bank.db")
	setMigrations(t, migrationsUpTo(t, 5))
	old, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// A run as a schema-5 writer recorded it: StartRun writes the
	// columns of 0011.
	res, err := old.db.ExecContext(ctx, `INSERT INTO runs (params, seed, started_at) VALUES ('-count 6', 9, 1)`)
	if err != nil {
		t.Fatal(err)
	}
	run, err := res.LastInsertId()
	if err != nil {
		t.Fatal(err)
	}
	runsPath, err := EncodePath([]string{"naked-single", "hidden-single", "naked-single"})
	if err != nil {
		t.Fatal(err)
	}
	// Today's writer also keeps technique_counts (0007); the schema-5 bank
	// has that table only while the test writes through it.
	if _, err := old.db.ExecContext(ctx, `CREATE TABLE technique_counts (
		level INTEGER NOT NULL, technique TEXT NOT NULL,
		families INTEGER NOT NULL DEFAULT 0, puzzles INTEGER NOT NULL DEFAULT 0,
		PRIMARY KEY (level, technique)) WITHOUT ROWID`); err != nil {
		t.Fatal(err)
	}
	// And it writes canon_key (0008), unique. 0006 copies the families
	// without the column and 0008 adds it back at the end of the row, so
	// the dumps compare the writer's keys with the ones 0008 fills in.
	if _, err := old.db.ExecContext(ctx, `ALTER TABLE families ADD COLUMN canon_key INTEGER NOT NULL DEFAULT 0;
		CREATE UNIQUE INDEX families_canon_key ON families (canon_key)`); err != nil {
		t.Fatal(err)
	}
	var batch []NewFamily
	for i := range 6 {
		f := bulkFamily(i, 10*i, 10*i+1)
		f.RunID, f.Seed, f.Level, f.Givens = run, uint64(100+i), 1+i%5, 20+i
		if i%2 == 0 {
			f.Techniques = map[string]int{"naked-single": 3, "x-wing": i}
		} else {
			f.Path = runsPath
		}
		batch = append(batch, f)
	}
	imp := bulkFamily(6, 61)
	imp.Source = "collection"
	batch = append(batch, imp)
	addVariantColumns(t, old)
	mustWriteBatch(t, old, WriteResult{Families: 7, Puzzles: 13}, batch...)
	if _, _, err := old.CreatePack(ctx, PackSpec{Name: "p", Client: "acme"}, Filter{}, QueryOptions{}, 3); err != nil {
		t.Fatal(err)
	}
	if err := old.FinishRun(ctx, run, RunEnd{Status: RunCompleted, Families: 6, Puzzles: 12}); err != nil {
		t.Fatal(err)
	}
	dropVariantColumns(t, old)
	if _, err := old.db.ExecContext(ctx, "DROP TABLE technique_counts"); err != nil {
		t.Fatal(err)
	}
	before := dumpBank(t, old)
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}

	// The rows are compared at schema 9: 0010 adds columns, and
	// TestPuzzlesVariantsMigration compares its rows itself.
	setMigrations(t, migrationsUpTo(t, 9))
	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	after := dumpBank(t, db)
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	setMigrations(t, migrations.FS)
	db, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for tbl, rows := range before {
		if len(rows) == 0 && tbl != "deferred_indexes" {
			t.Errorf("table %s has no rows before the migration: the test does not cover it", tbl)
		}
		if !slices.Equal(after[tbl], rows) {
			t.Errorf("table %s after the migration:\n%s\nwant\n%s", tbl, strings.Join(after[tbl], "\n"), strings.Join(rows, "\n"))
		}
	}
	// 0007 adds technique_counts.
	if len(after) != len(before)+1 {
		t.Errorf("tables after the migration: %d, want %d", len(after), len(before)+1)
	}

	var schema []struct {
		Type string `db:"type"`
		Name string `db:"name"`
		SQL  string `db:"sql"`
	}
	if err := db.db.SelectContext(ctx, &schema, "SELECT type, name, COALESCE(sql, '') AS sql FROM sqlite_schema WHERE tbl_name = 'families' ORDER BY name"); err != nil {
		t.Fatal(err)
	}
	// 0008 replaced 0006's families_canon with families_canon_key.
	// 0014 adds families_sample after them.
	if len(schema) != 3 || schema[0].Name != "families" || schema[1].Name != "families_canon_key" || schema[2].Name != "families_sample" ||
		strings.Contains(strings.ToUpper(schema[0].SQL), "UNIQUE") || !strings.HasPrefix(schema[1].SQL, "CREATE UNIQUE INDEX") {
		t.Errorf("families' schema after the migration: %+v\nwant the table without UNIQUE and the unique index families_canon_key", schema)
	}
	var fk int
	if err := db.db.GetContext(ctx, &fk, "PRAGMA foreign_keys"); err != nil || fk != 1 {
		t.Errorf("PRAGMA foreign_keys after the migration = %d, %v; want 1", fk, err)
	}
	if err := db.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}

	// The constraints hold: canon's key is unique (since 0008 the store
	// compares the forms), canon 81 characters, the level in range,
	// run_id a run's.
	canon := bulkFamily(3).Canon
	for _, q := range []string{
		`INSERT INTO families (canon, er, ep, ed, level, score, givens, min_row_col, source, created_at, canon_key)
			VALUES ('` + canon + `', 1, 1, 1, 1, 1, 1, 1, 'x', 0, ` + fmt.Sprint(canonKey(canon)) + `)`,
		`INSERT INTO families (canon, er, ep, ed, level, score, givens, min_row_col, source, created_at)
			VALUES ('` + canon[1:] + `', 1, 1, 1, 1, 1, 1, 1, 'x', 0)`,
		`INSERT INTO families (canon, er, ep, ed, level, score, givens, min_row_col, source, created_at)
			VALUES ('` + bulkFamily(99).Canon + `', 1, 1, 1, 6, 1, 1, 1, 'x', 0)`,
		`INSERT INTO families (canon, er, ep, ed, level, score, givens, min_row_col, source, run_id, created_at)
			VALUES ('` + bulkFamily(99).Canon + `', 1, 1, 1, 1, 1, 1, 1, 'x', 77, 0)`,
		`DELETE FROM families WHERE id = 1`,
	} {
		if _, err := db.db.ExecContext(ctx, q); err == nil {
			t.Errorf("%s: succeeded after the migration", q)
		}
	}
	// A stored form is a duplicate; its new variant joins it.
	mustWriteBatch(t, db, WriteResult{Puzzles: 1, DupFamilies: 1, DupPuzzles: 1}, bulkFamily(3, 30, 32))
	// The writer's lookup of stored forms (TestWritePlans' on a fresh
	// bank) searches the migrated bank's index of keys too.
	if _, err := db.db.ExecContext(ctx, "CREATE VIRTUAL TABLE IF NOT EXISTS "+rowsTable+" USING "+rowsModule); err != nil {
		t.Fatal(err)
	}
	checkPlan(t, db, "SEARCH f USING INDEX families_canon_key (canon_key>? AND canon_key<?)", "SCAN f", findFamiliesSQL, int64(1))
}

// TestPuzzlesBucketMigration opens banks of schema 8 under 0009: one
// with its indexes live, one whose bulk load died with them deferred,
// puzzles_level_giv among them. Either way puzzles_level_giv is gone,
// from the schema and from deferred_indexes, so that no writer builds it
// again; puzzles_bucket holds every row, and the queries that read a
// (level, givens) bucket search it and find its rows. A writer that
// defers indexes afterwards defers it with the others and builds it
// again.
func TestPuzzlesBucketMigration(t *testing.T) {
	for _, died := range []bool{false, true} {
		t.Run(map[bool]string{false: "Live", true: "Deferred"}[died], func(t *testing.T) {
			ctx := context.Background()
			path := filepath.Join(t.TempDir(), "bank.db")
			setMigrations(t, migrationsUpTo(t, 8))
			old, err := Open(ctx, path, Options{DeferIndexes: died})
			if err != nil {
				t.Fatal(err)
			}
			// Ten families over five levels and givens 20..24, with one
			// to three puzzles each.
			var batch []NewFamily
			want := map[bucketKey]int64{}
			puzzles := 0
			for i := range 10 {
				var ns []int
				for range 1 + i%3 {
					puzzles++
					ns = append(ns, puzzles)
				}
				f := bulkFamily(i, ns...)
				f.Level, f.Givens = 1+i%5, 20+i/2
				want[bucketKey{9, f.Level, f.Givens}] += int64(len(ns))
				batch = append(batch, f)
			}
			addVariantColumns(t, old)
			mustWriteBatch(t, old, WriteResult{Families: 10, Puzzles: puzzles}, batch...)
			dropVariantColumns(t, old)
			if died {
				var n int
				if err := old.db.GetContext(ctx, &n, "SELECT count(*) FROM deferred_indexes WHERE name = 'puzzles_level_giv'"); err != nil || n != 1 {
					t.Fatalf("puzzles_level_giv deferred by the schema-8 bulk load: %d, %v; want 1", n, err)
				}
				old.db.Close() // the writer dies: its deferred indexes stay deferred
			} else if err := old.Close(); err != nil {
				t.Fatal(err)
			}

			setMigrations(t, migrations.FS)
			check := func(db *DB) {
				t.Helper()
				if got, want := puzzleIndexes(t, db), []string{"puzzles_bucket", "puzzles_er", "puzzles_family", "puzzles_key"}; !slices.Equal(got, want) {
					t.Errorf("indexes = %v, want %v", got, want)
				}
				var deferred []string
				if err := db.db.SelectContext(ctx, &deferred, "SELECT name FROM deferred_indexes"); err != nil || len(deferred) != 0 {
					t.Errorf("deferred indexes = %v, %v; want none", deferred, err)
				}
				var def string
				if err := db.db.GetContext(ctx, &def, "SELECT sql FROM sqlite_schema WHERE name = 'puzzles_bucket'"); err != nil ||
					def != "CREATE INDEX puzzles_bucket ON puzzles (size * 10000 + level * 1000 + givens)" {
					t.Errorf("puzzles_bucket's definition = %q, %v", def, err)
				}
				if err := db.IntegrityCheck(ctx); err != nil {
					t.Error(err)
				}
				// A rating bound keeps the counts off the buckets table,
				// on puzzles_bucket.
				for k, n := range want {
					f := Filter{Levels: []int{k.level}, GivensMin: k.givens, GivensMax: k.givens, RatingMin: 1}
					if got, err := db.Count(ctx, f); err != nil || got != n {
						t.Errorf("count of level %d, %d givens = %d, %v; want %d", k.level, k.givens, got, err, n)
					}
					var ids []int64
					if err := db.Query(ctx, f, QueryOptions{}, func(r Row) error {
						if r.Level != k.level || r.Givens != k.givens {
							t.Errorf("level %d, %d givens: got a puzzle of level %d, %d givens", k.level, k.givens, r.Level, r.Givens)
						}
						ids = append(ids, r.ID)
						return nil
					}); err != nil || int64(len(ids)) != n || !slices.IsSorted(ids) {
						t.Errorf("list of level %d, %d givens = %v, %v; want %d puzzles by ID", k.level, k.givens, ids, err, n)
					}
					q, args, err := listSQL(f, QueryOptions{})
					if err != nil {
						t.Fatal(err)
					}
					checkPlan(t, db, "SEARCH p USING INDEX puzzles_bucket (<expr>=?)", "SCAN p", q, args...)
				}
				if idx, _, _, _, err := rareCounts(ctx, db.db, Filter{}); err != nil || idx == rareNoIndex {
					t.Errorf("rare-technique plan: index %v, %v; want it possible", idx, err)
				}
			}
			db, err := Open(ctx, path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var v int
			if latest, _ := latestVersion(migrations.FS); db.db.GetContext(ctx, &v, "PRAGMA user_version") != nil || v != latest {
				t.Errorf("user_version = %d, want %d", v, latest)
			}
			check(db)
			db = reopen(t, db, Options{DeferIndexes: true})
			var deferred []string
			if err := db.db.SelectContext(ctx, &deferred, "SELECT name FROM deferred_indexes ORDER BY name"); err != nil ||
				!slices.Equal(deferred, []string{"families_sample", "puzzles_bucket", "puzzles_er", "puzzles_family"}) {
				t.Errorf("deferred by a writer after the migration = %v, %v; want families_sample, puzzles_bucket, puzzles_er and puzzles_family", deferred, err)
			}
			check(reopen(t, db, Options{}))
		})
	}
}

// markUnchecked runs the migration name with foreign keys off, as
// uncheckedMigrations says, for the test.
func markUnchecked(t *testing.T, name string) {
	old := uncheckedMigrations
	uncheckedMigrations = maps.Clone(old)
	uncheckedMigrations[name] = true
	t.Cleanup(func() { uncheckedMigrations = old })
}

// TestMigrationForeignKeyCheck: a migration uncheckedMigrations names
// runs with foreign keys off, so one that leaves a reference dangling
// must fail on the check instead, and leave the bank as it was.
func TestMigrationForeignKeyCheck(t *testing.T) {
	ctx := context.Background()
	db := openTempBank(t, Options{})
	path := db.path
	mustWriteBatch(t, db, WriteResult{Families: 1, Puzzles: 1}, bulkFamily(1, 1))
	db.Close()
	latest, _ := latestVersion(migrations.FS)
	dangle := fmtName(latest+1, "dangle")
	setMigrations(t, withMigrations(t, map[string]string{dangle: "DELETE FROM families;"}))
	markUnchecked(t, dangle)
	_, err := Open(ctx, path, Options{})
	if err == nil || !strings.Contains(err.Error(), "puzzles row 1 refers to a missing families row") {
		t.Fatalf("Open with a migration that leaves a puzzle without its family: %v", err)
	}
	setMigrations(t, migrations.FS)
	db, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if st, err := db.Stats(ctx); err != nil || st.Families != 1 {
		t.Errorf("families after the failed migration = %+v, %v; want 1", st, err)
	}
}

// TestMigrationForeignKeysOn: a migration uncheckedMigrations does not
// name runs with foreign keys on, so one that would leave a reference
// dangling fails on the statement itself and leaves the bank as it was;
// and a dangling reference it did not make (here one a writer with the
// checks off left) does not fail it, while the whole-database check of a
// named migration finds it.
func TestMigrationForeignKeysOn(t *testing.T) {
	ctx := context.Background()
	db := openTempBank(t, Options{})
	path := db.path
	mustWriteBatch(t, db, WriteResult{Families: 1, Puzzles: 1}, bulkFamily(1, 1))
	conn, err := openUnchecked(ctx, db.db, keepChecks)
	if err != nil {
		t.Fatal(err)
	}
	// family_techniques has no row IDs: the check names its row 0.
	_, err = conn.ExecContext(ctx, "INSERT INTO family_techniques (family_id, technique, uses) VALUES (99, 'x-wing', 1)")
	conn.release()
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	latest, _ := latestVersion(migrations.FS)

	dangle := fmtName(latest+1, "dangle")
	setMigrations(t, withMigrations(t, map[string]string{dangle: "DELETE FROM families;"}))
	_, err = Open(ctx, path, Options{})
	if err == nil || !strings.Contains(err.Error(), "FOREIGN KEY constraint failed") {
		t.Fatalf("Open with a migration that deletes a puzzle's family: %v; want the foreign key constraint to fail it", err)
	}

	more := fmtName(latest+1, "more")
	fsys := withMigrations(t, map[string]string{more: "CREATE TABLE more (x);"})
	setMigrations(t, fsys)
	// A subtest, so that markUnchecked's cleanup unmarks the migration
	// before the Open below runs it with foreign keys on.
	t.Run("Checked", func(t *testing.T) {
		markUnchecked(t, more)
		_, err := Open(ctx, path, Options{})
		if err == nil || !strings.Contains(err.Error(), "family_techniques row 0 refers to a missing families row") {
			t.Fatalf("Open with a checked migration on a bank with a dangling reference: %v; want the check to find it", err)
		}
	})
	db, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatalf("Open with a migration that leaves the references alone, on a bank with a dangling one: %v", err)
	}
	defer db.Close()
	var v int
	if err := db.db.GetContext(ctx, &v, "PRAGMA user_version"); err != nil || v != latest+1 {
		t.Errorf("user_version = %d, %v; want %d", v, err, latest+1)
	}
	if st, err := db.Stats(ctx); err != nil || st.Families != 1 || st.Puzzles != 1 {
		t.Errorf("bank after the migrations = %+v, %v; want its family and puzzle", st, err)
	}
}

// TestUncheckedMigrationsExist: every name in uncheckedMigrations is a
// migration's, so that a typo cannot leave a table's rebuild to run with
// foreign keys on.
func TestUncheckedMigrationsExist(t *testing.T) {
	ms, err := loadMigrations(migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	for name := range uncheckedMigrations {
		if !slices.ContainsFunc(ms, func(m migration) bool { return m.name == name }) {
			t.Errorf("uncheckedMigrations names %s, which is no migration", name)
		}
	}
}

// addVariantColumns adds to an old bank the columns that today's writer
// names (0010), so that a test can fill the bank through it. The test's
// families have no transforms, so every row is explicit and
// dropVariantColumns loses nothing: it gives the bank back its old schema
// before the migrations under test run.
func addVariantColumns(t *testing.T, db *DB) {
	t.Helper()
	if _, err := db.db.Exec(`ALTER TABLE families ADD COLUMN solution BLOB;
		ALTER TABLE puzzles ADD COLUMN code INTEGER`); err != nil {
		t.Fatal(err)
	}
	addSizeColumns(t, db)
}

// addSizeColumns gives an old bank the size columns and the size keys
// of its counts (0013) that today's writer writes; dropSizeColumns undoes
// it, and fails t if the writer stored a size but 9x9.
func addSizeColumns(t *testing.T, db *DB) {
	t.Helper()
	if _, err := db.db.Exec(`ALTER TABLE families ADD COLUMN size INTEGER NOT NULL DEFAULT 9;
		ALTER TABLE puzzles ADD COLUMN size INTEGER NOT NULL DEFAULT 9`); err != nil {
		t.Fatal(err)
	}
	resizeCounts(t, db, "buckets", "givens INTEGER NOT NULL", "givens", true)
	resizeCounts(t, db, "technique_counts", "technique TEXT NOT NULL", "technique", true)
}

func dropSizeColumns(t *testing.T, db *DB) {
	t.Helper()
	var n int
	if err := db.db.Get(&n, "SELECT (SELECT count(*) FROM families WHERE size <> 9) + (SELECT count(*) FROM puzzles WHERE size <> 9)"); err != nil || n != 0 {
		t.Fatalf("rows of other sizes in an old bank: %d, %v", n, err)
	}
	if _, err := db.db.Exec(`ALTER TABLE families DROP COLUMN size;
		ALTER TABLE puzzles DROP COLUMN size`); err != nil {
		t.Fatal(err)
	}
	resizeCounts(t, db, "buckets", "givens INTEGER NOT NULL", "givens", false)
	resizeCounts(t, db, "technique_counts", "technique TEXT NOT NULL", "technique", false)
}

// resizeCounts rebuilds a counts table, if the bank has it, keyed by
// (size, level, key) with sized, else by (level, key), keeping its 9x9
// counts.
func resizeCounts(t *testing.T, db *DB, table, keyCol, key string, sized bool) {
	t.Helper()
	var n int
	if err := db.db.Get(&n, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?", table); err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		return
	}
	cols, pk, sel := "", "level, "+key, "level, "+key
	if sized {
		cols, pk, sel = "size INTEGER NOT NULL, ", "size, level, "+key, "9, level, "+key
	}
	q := `CREATE TABLE resized (` + cols + `level INTEGER NOT NULL, ` + keyCol + `,
		families INTEGER NOT NULL DEFAULT 0, puzzles INTEGER NOT NULL DEFAULT 0,
		PRIMARY KEY (` + pk + `)) WITHOUT ROWID;
		INSERT INTO resized SELECT ` + sel + `, families, puzzles FROM ` + table + `;
		DROP TABLE ` + table + `;
		ALTER TABLE resized RENAME TO ` + table
	if _, err := db.db.Exec(q); err != nil {
		t.Fatal(err)
	}
}

// dropVariantColumns undoes addVariantColumns, and fails t if the writer
// stored a derived row, which the old schema cannot hold.
func dropVariantColumns(t *testing.T, db *DB) {
	t.Helper()
	var n int
	if err := db.db.Get(&n, "SELECT count(*) FROM puzzles WHERE code IS NOT NULL"); err != nil || n != 0 {
		t.Fatalf("derived rows in an old bank: %d, %v", n, err)
	}
	if _, err := db.db.Exec(`ALTER TABLE families DROP COLUMN solution;
		ALTER TABLE puzzles DROP COLUMN code`); err != nil {
		t.Fatal(err)
	}
	dropSizeColumns(t, db)
}

// TestRunsKindMigration migrates the runs a schema-10 writer recorded:
// 0011 tells an import from its params, gives a generating run the
// source "gen", and an empty argument list to each.
func TestRunsKindMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "bank.db")
	setMigrations(t, migrationsUpTo(t, 10))
	old, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := old.db.ExecContext(ctx, `INSERT INTO runs (params, seed, started_at, status) VALUES
		('-count 5 -seed 1', 1, 1, 'completed'), ('import -source top top.txt', 0, 2, 'completed'), ('', 3, 3, 'failed')`); err != nil {
		t.Fatal(err)
	}
	old.Close()
	setMigrations(t, migrations.FS)
	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rs, err := db.Runs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rs {
		got = append(got, fmt.Sprintf("%s/%s/%d", r.Kind, r.Source, len(r.Args)))
	}
	if want := []string{"generate/gen/0", "import//0", "generate/gen/0"}; !slices.Equal(got, want) {
		t.Errorf("runs after 0011 = %q, want %q", got, want)
	}
}

// TestInterruptedMigrationSaysWhereTheBankStands: an interrupt during
// the second of two migrations keeps the first, and the log (the only
// thing bankgen prints for an interrupt while it opens the bank) says the
// schema the bank stopped at; the next writer finishes.
func TestInterruptedMigrationSaysWhereTheBankStands(t *testing.T) {
	latest, err := latestVersion(migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "bank.db")
	db, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()

	one, two := fmtName(latest+1, "one"), fmtName(latest+2, "two")
	setMigrations(t, withMigrations(t, map[string]string{one: "CREATE TABLE one (x);", two: "CREATE TABLE two (x);"}))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	migrationSteps[two] = func(context.Context, *sqlx.Tx) error { cancel(); return nil }
	t.Cleanup(func() { delete(migrationSteps, two) })

	var logged strings.Builder
	log := slog.New(slog.NewTextHandler(&logged, nil))
	if _, err := Open(ctx, path, Options{Log: log}); !errors.Is(err, context.Canceled) {
		t.Fatalf("Open interrupted during a migration: error %v, want context.Canceled", err)
	}
	want := fmt.Sprintf("migration interrupted; the bank is whole at the last schema it reached, and the next writer migrates the rest\" schema=%d to=%d", latest+1, latest+2)
	if !strings.Contains(logged.String(), want) {
		t.Errorf("log does not say where the bank stands (%s):\n%s", want, logged.String())
	}

	delete(migrationSteps, two)
	db, err = Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatalf("reopen after an interrupted migration: %v", err)
	}
	defer db.Close()
	var v int
	if err := db.db.GetContext(context.Background(), &v, "PRAGMA user_version"); err != nil {
		t.Fatal(err)
	}
	if got, want := v, latest+2; got != want {
		t.Errorf("user_version after the rerun = %d, want %d", got, want)
	}
}

// TestMigrationWaitsForLiveOlderRun: a writer that would migrate a bank
// while a run of an older program still writes to it refuses, naming the
// run, and leaves the bank at its version; once the run has ended the
// migration goes ahead. (Migrating under the run made its next batch
// fail with "ON CONFLICT clause does not match any PRIMARY KEY".)
func TestMigrationWaitsForLiveOlderRun(t *testing.T) {
	if !runLocksWork {
		t.Skip("no run locks: a live run cannot be told from a dead one")
	}
	ctx := context.Background()
	latest, err := latestVersion(migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "bank.db")
	older, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer older.Close()
	runID, err := older.StartRun(ctx, Run{Params: "-count 1000000", Seed: 1})
	if err != nil {
		t.Fatal(err)
	}

	setMigrations(t, withMigrations(t, map[string]string{fmtName(latest+1, "more"): "CREATE TABLE more (x);"}))
	_, err = Open(ctx, path, Options{})
	want := fmt.Sprintf("schema version %d needs migrating to %d, but run %d of an older bankgen still writes to it", latest, latest+1, runID)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("Open while an older run writes: error %v, want one saying %q", err, want)
	}
	if !errors.Is(err, ErrLiveOlderRun) {
		t.Errorf("Open while an older run writes: error %v is not ErrLiveOlderRun", err)
	}
	var v int
	if err := older.db.GetContext(ctx, &v, "PRAGMA user_version"); err != nil {
		t.Fatal(err)
	}
	if v != latest {
		t.Errorf("user_version = %d after the refusal, want %d", v, latest)
	}

	if err := older.FinishRun(ctx, runID, RunEnd{Status: RunCompleted}); err != nil {
		t.Fatal(err)
	}
	if err := older.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatalf("Open once the run ended: %v", err)
	}
	defer db.Close()
	if err := db.db.GetContext(ctx, &v, "PRAGMA user_version"); err != nil {
		t.Fatal(err)
	}
	if v != latest+1 {
		t.Errorf("user_version = %d once the run ended, want %d", v, latest+1)
	}
}

// TestMigrateEditedInit opens a bank of schema 2 that the 0001 edited in
// place on 21 November 2026 made (testdata holds that text; its hash is
// the one sums.txt pinned then): 0004, whose tables that 0001 made
// already, recounts them from the packs instead of failing on them, and
// the bank migrates whole.
func TestMigrateEditedInit(t *testing.T) {
	ctx := context.Background()
	edited, err := os.ReadFile("testdata/0001_init_c6e96f9.sql")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprintf("%x", sha256.Sum256(edited)), "ddf17ef9c379287549185fd38858e4365a44d066e1bf08d4480e9ad5f2673196"; got != want {
		t.Fatalf("testdata/0001_init_c6e96f9.sql has SHA-256 %s, want the edited 0001's %s", got, want)
	}
	v2 := fstest.MapFS{"0001_init.sql": &fstest.MapFile{Data: edited}}
	b, err := fs.ReadFile(migrations.FS, "0002_deferred_indexes.sql")
	if err != nil {
		t.Fatal(err)
	}
	v2["0002_deferred_indexes.sql"] = &fstest.MapFile{Data: b}
	setMigrations(t, v2)
	path := filepath.Join(t.TempDir(), "bank.db")
	old, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var tables []struct {
		Name string `db:"name"`
		SQL  string `db:"sql"`
	}
	if err := old.db.SelectContext(ctx, &tables, "SELECT name, sql FROM sqlite_schema WHERE name IN ('packed_families', 'client_families')"); err != nil {
		t.Fatal(err)
	}
	if len(tables) != len(editedInitTables) {
		t.Fatalf("the edited 0001 made %d of the tables, want %d", len(tables), len(editedInitTables))
	}
	for _, tb := range tables {
		if editedInitTables[tb.Name] != tb.SQL {
			t.Errorf("the edited 0001 made %s as %q, editedInitTables says %q", tb.Name, tb.SQL, editedInitTables[tb.Name])
		}
	}
	canon := "1" + strings.Repeat(".", 80)
	pz, err := packGrid(canon)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO families (id, canon, er, ep, ed, level, score, givens, min_row_col, source, created_at)
			VALUES (1, '` + canon + `', 30, 10, 10, 2, 1, 25, 1, 'gen', 0)`,
		`INSERT INTO buckets (level, givens, families, puzzles) VALUES (2, 25, 1, 1)`,
		`INSERT INTO packs (id, name, client, size, created_at) VALUES (1, 'a', 'acme', 1, 0), (2, 'b', '', 1, 0)`,
		// The counts as that code kept them, one short: the migration
		// counts them again from the packs.
		`INSERT INTO packed_families (family_id, packs) VALUES (1, 1)`,
	} {
		if _, err := old.db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if _, err := old.db.ExecContext(ctx, `INSERT INTO puzzles (id, family_id, puzzle, solution, sort_key, level, givens, er) VALUES (1, 1, ?, ?, ?, 2, 25, 30)`, pz, pz, SortKeyOf(canon)); err != nil {
		t.Fatal(err)
	}
	if _, err := old.db.ExecContext(ctx, `INSERT INTO pack_items (pack_id, position, puzzle_id, family_id) VALUES (1, 0, 1, 1), (2, 0, 1, 1)`); err != nil {
		t.Fatal(err)
	}
	old.db.Close()

	setMigrations(t, migrations.FS)
	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatalf("migrating a bank of the edited 0001: %v", err)
	}
	defer db.Close()
	for _, c := range []struct{ q, want string }{
		{"SELECT group_concat(family_id || ' ' || packs) FROM packed_families", "1 2"},
		{"SELECT group_concat(family_id || ' ' || client || ' ' || packs) FROM client_families", "1 acme 1"},
	} {
		var got string
		if err := db.db.GetContext(ctx, &got, c.q); err != nil || got != c.want {
			t.Errorf("%s = %q, %v; want %q", c.q, got, err, c.want)
		}
	}
	if r := mustCheck(t, db, true); !r.OK() {
		t.Errorf("the migrated bank's quick check: %q", r.Problems)
	}
}

// TestMigrateRefusesOtherPackTables: a bank of schema 3 that holds a
// table named as 0004's, but not as the edited 0001 made it, is refused
// with its name, not taken for one.
func TestMigrateRefusesOtherPackTables(t *testing.T) {
	ctx := context.Background()
	v3 := fstest.MapFS{}
	for _, n := range []string{"0001_init.sql", "0002_deferred_indexes.sql", "0003_puzzle_key.sql"} {
		b, err := fs.ReadFile(migrations.FS, n)
		if err != nil {
			t.Fatal(err)
		}
		v3[n] = &fstest.MapFile{Data: b}
	}
	setMigrations(t, v3)
	path := filepath.Join(t.TempDir(), "bank.db")
	old, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := old.db.ExecContext(ctx, "CREATE TABLE packed_families (family_id INTEGER PRIMARY KEY, packs INTEGER)"); err != nil {
		t.Fatal(err)
	}
	old.db.Close()
	setMigrations(t, migrations.FS)
	db, err := Open(ctx, path, Options{})
	if err == nil {
		db.Close()
		t.Fatal("a bank with a packed_families of its own migrated")
	}
	if !strings.Contains(err.Error(), "table packed_families is there already") {
		t.Errorf("error %q, want the table named", err)
	}
}

// TestReaderSaysMigrationUnderWay opens a bank that needs migrating for
// reading while a writer migrates it, from inside the migration: the
// reader says a migration is under way, to be waited out, not to run one
// (ErrOldBank either way). Before and after, with a migration lock left
// by a writer that died, it says to migrate; the writer removes its lock.
func TestReaderSaysMigrationUnderWay(t *testing.T) {
	if !runLocksWork {
		t.Skip("no run locks: a live writer cannot be told from a dead one")
	}
	ctx := context.Background()
	latest, err := latestVersion(migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "bank.db")
	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	setMigrations(t, withMigrations(t, map[string]string{fmtName(latest+1, "more"): "CREATE TABLE more (x);"}))
	under, once := "; a writer is migrating it now: retry once the migration has ended", "; migrate it once with "+migrateCommand(path)
	says := func(when string, err error, want, not string) {
		t.Helper()
		// What to do ends the message: after it, the sentinel's "bank
		// needs migrating" would undo the advice to wait.
		if !errors.Is(err, ErrOldBank) || !strings.HasSuffix(err.Error(), want) || strings.Contains(err.Error(), not) {
			t.Errorf("OpenReadOnly %s: %v, want ErrOldBank saying %q", when, err, want)
		}
	}
	_, err = OpenReadOnly(ctx, path)
	says("before the migration", err, once, under)

	// A dead writer's lock file, which no process holds.
	lock := migrateLockPath(realPath(path))
	if err := os.WriteFile(lock, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = OpenReadOnly(ctx, path)
	says("with a dead writer's lock file", err, once, under)

	var during error
	asked := false
	migrateHook = func(v int) {
		if v == latest+1 {
			_, during = OpenReadOnly(ctx, path)
			asked = true
		}
	}
	t.Cleanup(func() { migrateHook = nil })
	db, err = Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if !asked {
		t.Fatal("the writer did not migrate")
	}
	says("during the migration", during, under, once)
	if _, err := os.Stat(lock); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the migration lock is left after the migration: %v", err)
	}
	r, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatalf("OpenReadOnly after the migration: %v", err)
	}
	r.Close()
}

// TestMigrationDoneByAnotherWriter: two writers open an older bank at
// once (the reader's advice, bankgen -count 0, run twice); the one that
// waits finds the bank migrated when it gets the write lock, and must not
// log that it migrated it, with the time it waited as the migration's.
func TestMigrationDoneByAnotherWriter(t *testing.T) {
	ctx := context.Background()
	latest, err := latestVersion(migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "bank.db")
	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	setMigrations(t, withMigrations(t, map[string]string{fmtName(latest+1, "more"): "CREATE TABLE more (x);"}))
	// The other writer migrates the bank between this one's look at its
	// version and its first migration's transaction.
	var otherLog strings.Builder
	other := false
	migrateHook = func(v int) {
		if other {
			return
		}
		other = true
		db, err := Open(ctx, path, Options{Log: slog.New(slog.NewTextHandler(&otherLog, nil))})
		if err != nil {
			t.Errorf("the other writer: %v", err)
			return
		}
		db.Close()
	}
	t.Cleanup(func() { migrateHook = nil })
	var logged strings.Builder
	db, err = Open(ctx, path, Options{Log: slog.New(slog.NewTextHandler(&logged, nil))})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	if !other {
		t.Fatal("no migration was due")
	}
	if !strings.Contains(otherLog.String(), `msg="migrated the bank"`) {
		t.Errorf("the writer that migrated does not say so:\n%s", otherLog.String())
	}
	if strings.Contains(logged.String(), `msg="migrated the bank"`) || !strings.Contains(logged.String(), `msg="another writer migrated the bank meanwhile"`) {
		t.Errorf("the writer that found the bank migrated logs:\n%s\nwant that another writer migrated it", logged.String())
	}
}

// TestOnMigrate: Options.OnMigrate hears of a migration of a bank with
// data, true as it begins and false as it ends, and of nothing when Open
// makes a new bank or finds one up to date.
func TestOnMigrate(t *testing.T) {
	ctx := context.Background()
	latest, err := latestVersion(migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	var heard []bool
	opt := Options{OnMigrate: func(on bool) { heard = append(heard, on) }}
	path := filepath.Join(t.TempDir(), "bank.db")
	open := func(when string, want ...bool) {
		t.Helper()
		heard = nil
		db, err := Open(ctx, path, opt)
		if err != nil {
			t.Fatal(err)
		}
		db.Close()
		if !slices.Equal(heard, want) {
			t.Errorf("%s: OnMigrate heard %v, want %v", when, heard, want)
		}
	}
	open("a new bank")
	open("a bank up to date")
	setMigrations(t, withMigrations(t, map[string]string{fmtName(latest+1, "more"): "CREATE TABLE more (x);"}))
	open("a bank to migrate", true, false)
	open("the migrated bank")
}
