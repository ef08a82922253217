package store

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sudokubank/migrations"
)

// keysByForm swaps canonKey for one that gives the listed forms the listed
// keys and any other form its real key.
func keysByForm(t *testing.T, keys map[string]int64) {
	real := canonKey
	withCanonKey(t, func(s string) int64 {
		if k, ok := keys[s]; ok {
			return k
		}
		return real(s)
	})
}

// storedCanonKeys returns canon_key by canonical form.
func storedCanonKeys(t *testing.T, db *DB) map[string]int64 {
	t.Helper()
	var rows []struct {
		Canon string `db:"canon"`
		Key   int64  `db:"canon_key"`
	}
	if err := db.db.SelectContext(context.Background(), &rows, "SELECT canon, canon_key FROM families"); err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, r := range rows {
		out[r.Canon] = r.Key
	}
	return out
}

// TestCanonKeyCollisions gives forms keys that collide: 1, 2 and 4 hash
// to 42, 3 to 43. Each family must be stored under its own key when no
// other form has it, and otherwise under the first free key of its
// window in the order they came (1 at 42, 3 at 43, 2 at 44, 4 at 45),
// and each be found by its form: a repeat of any is a duplicate,
// its new variant joins it. With the index of keys live, in bulk mode,
// and with all four in one batch, where the batch's own keys collide.
func TestCanonKeyCollisions(t *testing.T) {
	ctx := context.Background()
	form := func(n int) string { return bulkFamily(n).Canon }
	for _, tt := range []struct {
		name    string
		opt     Options
		batches [][]int // the forms of each batch, in order
	}{
		{"Live", Options{}, [][]int{{1}, {3}, {2}, {4}}},
		{"Bulk", Options{DeferIndexes: true}, [][]int{{1}, {3}, {2}, {4}}},
		{"LiveOneBatch", Options{}, [][]int{{1, 3, 2, 4}}},
		{"BulkOneBatch", Options{DeferIndexes: true}, [][]int{{1, 3, 2, 4}}},
		// The stored 1 and 3 fill the window's start for 2 and 4.
		{"BulkThenBatch", Options{DeferIndexes: true}, [][]int{{1, 3}, {2, 4}}},
		// 3 keeps its own key, which no other form of the batch has,
		// though 2 comes before it: live and bulk writers agree.
		{"LiveOneBatchInOrder", Options{}, [][]int{{1, 2, 3, 4}}},
		{"BulkOneBatchInOrder", Options{DeferIndexes: true}, [][]int{{1, 2, 3, 4}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			keysByForm(t, map[string]int64{form(1): 42, form(2): 42, form(3): 43, form(4): 42})
			db := openTempBank(t, tt.opt)
			if got, want := db.canons != nil, tt.opt.DeferIndexes; got != want {
				t.Fatalf("bulk mode for families = %v, want %v", got, want)
			}
			for _, b := range tt.batches {
				var batch []NewFamily
				for _, n := range b {
					batch = append(batch, bulkFamily(n, 10*n))
				}
				mustWriteBatch(t, db, WriteResult{Families: len(b), Puzzles: len(b)}, batch...)
			}
			if got, want := db.canons != nil, tt.opt.DeferIndexes; got != want {
				t.Errorf("bulk mode for families after the batches = %v, want %v", got, want)
			}
			want := map[string]int64{form(1): 42, form(3): 43, form(2): 44, form(4): 45}
			if got := storedCanonKeys(t, db); !maps.Equal(got, want) {
				t.Errorf("keys = %v, want %v", got, want)
			}
			testCanonKeyRepeats(t, db, form)
			if err := db.BuildIndexes(ctx); err != nil {
				t.Fatal(err)
			}
			if err := db.IntegrityCheck(ctx); err != nil {
				t.Error(err)
			}
			// With the index live, the forms are still told apart.
			mustWriteBatch(t, db, WriteResult{Puzzles: 1, DupFamilies: 4},
				bulkFamily(4), bulkFamily(2, 22), bulkFamily(3), bulkFamily(1))
		})
	}
}

// testCanonKeyRepeats writes repeats of forms 1 to 4 with new variants:
// each is a duplicate, and each variant is stored in its form's family.
func testCanonKeyRepeats(t *testing.T, db *DB, form func(int) string) {
	t.Helper()
	ctx := context.Background()
	mustWriteBatch(t, db, WriteResult{Puzzles: 4, DupFamilies: 4},
		bulkFamily(4, 41), bulkFamily(3, 31), bulkFamily(2, 21), bulkFamily(1, 11))
	for _, n := range []int{1, 2, 3, 4} {
		for _, p := range []int{10 * n, 10*n + 1} {
			r, err := db.PuzzleByString(ctx, bulkFamily(0, p).Puzzles[0].Puzzle)
			if err != nil {
				t.Fatalf("puzzle %d: %v", p, err)
			}
			f, err := db.Family(ctx, r.FamilyID)
			if err != nil {
				t.Fatal(err)
			}
			if f.Canon != form(n) {
				t.Errorf("puzzle %d is in family %s, want %s", p, f.Canon, form(n))
			}
		}
	}
	if st, err := db.Stats(ctx); err != nil || st.Families != 4 || st.Puzzles != 8 {
		t.Errorf("Stats = %d families, %d puzzles, %v; want 4, 8", st.Families, st.Puzzles, err)
	}
}

// TestCanonKeyWindowFull: with the window of a key full, a batch with
// one more form fails and writes nothing, live and in bulk mode.
func TestCanonKeyWindowFull(t *testing.T) {
	ctx := context.Background()
	for _, opt := range []Options{{}, {DeferIndexes: true}} {
		withCanonKey(t, func(string) int64 { return 42 })
		db := openTempBank(t, opt)
		var batch []NewFamily
		for n := range probeWindow {
			batch = append(batch, bulkFamily(n, n))
		}
		mustWriteBatch(t, db, WriteResult{Families: probeWindow, Puzzles: probeWindow}, batch...)
		if _, err := db.WriteBatch(ctx, []NewFamily{bulkFamily(100, 100)}); err == nil || !strings.Contains(err.Error(), "no free canon key") {
			t.Errorf("DeferIndexes %v: WriteBatch into a full window: %v, want no free key", opt.DeferIndexes, err)
		}
		if st, err := db.Stats(ctx); err != nil || st.Families != probeWindow {
			t.Errorf("DeferIndexes %v: %d families after the failed batch, %v; want %d", opt.DeferIndexes, st.Families, err, probeWindow)
		}
		mustWriteBatch(t, db, WriteResult{DupFamilies: 1, DupPuzzles: 1}, bulkFamily(7, 7))
	}
}

// schema7Bank writes a bank of schema 7 with the families of the forms
// bulkFamily(ns[i]), IDs 1, 2..., each with a puzzle, the way a bulk load
// that died leaves it: families_canon and puzzles_er deferred.
func schema7Bank(t *testing.T, path string, ns ...int) {
	t.Helper()
	ctx := context.Background()
	setMigrations(t, migrationsUpTo(t, 7))
	defer setMigrations(t, migrations.FS)
	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.db.Close()
	for i, n := range ns {
		f := bulkFamily(n, 10*n)
		pz, err := packGrid(f.Puzzles[0].Puzzle)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.db.ExecContext(ctx, `INSERT INTO families (id, canon, er, ep, ed, level, score, givens, min_row_col, source, seed, created_at)
			VALUES (?, ?, 20, 10, 10, 2, 1.5, 25, 1, 'gen', ?, 0)`, i+1, f.Canon, 100+n); err != nil {
			t.Fatal(err)
		}
		if _, err := db.db.ExecContext(ctx, `INSERT INTO puzzles (family_id, puzzle, solution, sort_key, level, givens, er)
			VALUES (?, ?, ?, ?, 2, 25, 20)`, i+1, pz, pz, SortKeyOf(f.Puzzles[0].Puzzle)); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []string{
		`INSERT INTO deferred_indexes (name, sql) SELECT name, sql FROM sqlite_schema WHERE name IN ('families_canon', 'puzzles_er')`,
		`DROP INDEX families_canon`,
		`DROP INDEX puzzles_er`,
	} {
		if _, err := db.db.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// TestCanonKeyMigration migrates a bank of schema 7 whose bulk load died:
// 0008 must fill every family's key, the later of two families with one
// key taking the next free key of its window (forms 1, 2 and 4 hash to
// 42, form 3 to 43, form 5 to its real key; new form 6 to 42), replace families_canon by
// the unique families_canon_key, among the deferred indexes too, and keep
// every row. The writer then finds each family by its form.
func TestCanonKeyMigration(t *testing.T) {
	ctx := context.Background()
	form := func(n int) string { return bulkFamily(n).Canon }
	keysByForm(t, map[string]int64{form(1): 42, form(2): 42, form(3): 43, form(4): 42, form(6): 42})
	path := filepath.Join(t.TempDir(), "bank.db")
	schema7Bank(t, path, 1, 2, 3, 4, 5)
	old, err := OpenReadOnly(ctx, path)
	if err == nil {
		old.Close()
		t.Fatal("OpenReadOnly of a schema-7 bank succeeded")
	}
	x, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	want := map[string]int64{form(1): 42, form(2): 44, form(3): 43, form(4): 45, form(5): canonKeyOf(form(5))}
	if got := storedCanonKeys(t, x); !maps.Equal(got, want) {
		t.Errorf("keys after the migration = %v, want %v", got, want)
	}
	var rows []string
	if err := x.db.SelectContext(ctx, &rows, `SELECT id || ' ' || canon || ' ' || seed || ' ' || score FROM families ORDER BY id`); err != nil {
		t.Fatal(err)
	}
	for i, n := range []int{1, 2, 3, 4, 5} {
		if w := fmt.Sprintf("%d %s %d 1.5", i+1, form(n), 100+n); i >= len(rows) || rows[i] != w {
			t.Errorf("family %d after the migration: %v, want %q", i+1, rows, w)
		}
	}
	if got := familyIndexes(t, x); !slices.Equal(got, []string{"families_canon_key", "families_sample"}) {
		t.Errorf("families' indexes after the migration = %v, want [families_canon_key families_sample]", got)
	}
	var sql string
	if err := x.db.GetContext(ctx, &sql, "SELECT sql FROM sqlite_schema WHERE name = 'families_canon_key'"); err != nil || !strings.HasPrefix(sql, "CREATE UNIQUE INDEX") {
		t.Errorf("families_canon_key = %q, %v; want a unique index", sql, err)
	}
	var deferred []string
	if err := x.db.SelectContext(ctx, &deferred, "SELECT name FROM deferred_indexes"); err != nil || len(deferred) != 0 {
		t.Errorf("deferred indexes after Open = %v, %v; want none", deferred, err)
	}
	if got := puzzleIndexes(t, x); !slices.Contains(got, "puzzles_er") {
		t.Errorf("puzzles' indexes after Open = %v, want puzzles_er rebuilt", got)
	}
	if err := x.IntegrityCheck(ctx); err != nil {
		t.Error(err)
	}
	// Repeats are duplicates, whichever key their family took; a new
	// form of key 42 takes the next free one.
	mustWriteBatch(t, x, WriteResult{Families: 1, Puzzles: 6, DupFamilies: 5},
		bulkFamily(4, 41), bulkFamily(2, 21), bulkFamily(6, 60), bulkFamily(5, 51), bulkFamily(3, 31), bulkFamily(1, 11))
	if got := storedCanonKeys(t, x)[form(6)]; got != 46 {
		t.Errorf("key of a new form of key 42 = %d, want 46", got)
	}
	mustWriteBatch(t, x, WriteResult{DupFamilies: 2, DupPuzzles: 1}, bulkFamily(6, 60), bulkFamily(4))
}

// TestCanonKeyMigrationWindowFull: when a key's window cannot take every
// stored form of that key, 0008 fails and leaves the bank at schema 7.
func TestCanonKeyMigrationWindowFull(t *testing.T) {
	ctx := context.Background()
	withCanonKey(t, func(string) int64 { return 42 })
	path := filepath.Join(t.TempDir(), "bank.db")
	var ns []int
	for n := range probeWindow + 1 {
		ns = append(ns, n)
	}
	schema7Bank(t, path, ns...)
	if _, err := Open(ctx, path, Options{}); err == nil || !strings.Contains(err.Error(), "no free canon key") {
		t.Fatalf("Open with %d forms of one key: %v, want no free key", len(ns), err)
	}
	setMigrations(t, migrationsUpTo(t, 7))
	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v int
	if err := db.db.GetContext(ctx, &v, "PRAGMA user_version"); err != nil || v != 7 {
		t.Errorf("user_version after the failed migration = %d, %v; want 7", v, err)
	}
}
