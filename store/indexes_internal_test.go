package store

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func puzzleIndexes(t *testing.T, db *DB) []string {
	t.Helper()
	var names []string
	if err := db.db.SelectContext(context.Background(), &names, "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'puzzles' AND sql IS NOT NULL ORDER BY name"); err != nil {
		t.Fatal(err)
	}
	return names
}

func oneFamily(n int) []NewFamily {
	s := strings.Repeat(".", 80)
	return []NewFamily{{
		Family:  Family{Canon: string(rune('1'+n)) + s, ER: 20, Level: 2, Givens: 25, Source: "gen"},
		Puzzles: []Puzzle{{Puzzle: string(rune('1'+n)) + s, Solution: strings.Repeat("1", 81)}},
	}}
}

func TestDeferIndexes(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "bank.db")
	db, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	all := puzzleIndexes(t, db)
	db.Close()

	tests := []struct {
		name  string
		close func(db *DB) error
	}{
		{"Close", func(db *DB) error { return db.Close() }},
		// BuildIndexes builds them early; Close then has nothing to do.
		{"BuildIndexes", func(db *DB) error {
			if err := db.BuildIndexes(ctx); err != nil {
				return err
			}
			if got := puzzleIndexes(t, db); !slices.Equal(got, all) {
				t.Errorf("indexes after BuildIndexes = %v, want %v", got, all)
			}
			if db.deferred {
				t.Error("still deferred after BuildIndexes")
			}
			return db.Close()
		}},
		// A writer that dies leaves the definitions behind; the next
		// writer rebuilds them.
		{"Crash", func(db *DB) error { return db.db.Close() }},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db, err := Open(ctx, path, Options{DeferIndexes: true})
			if err != nil {
				t.Fatal(err)
			}
			// The first writer finds no puzzles: in bulk mode it defers
			// the key index too.
			want := []string{"puzzles_key"}
			if i == 0 {
				want = nil
			}
			if got := puzzleIndexes(t, db); !slices.Equal(got, want) {
				t.Errorf("indexes while deferred = %v, want %v", got, want)
			}
			if _, err := db.WriteBatch(ctx, oneFamily(i)); err != nil {
				t.Fatal(err)
			}
			// Readers still query, without the indexes.
			r, err := OpenReadOnly(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			if err := r.Query(ctx, Filter{Levels: []int{2}}, QueryOptions{Order: OrderRandom, Limit: 5}, func(Row) error { n++; return nil }); err != nil {
				t.Errorf("reader query while deferred: %v", err)
			}
			if n != i+1 {
				t.Errorf("reader saw %d rows, want %d", n, i+1)
			}
			r.Close()
			if err := tt.close(db); err != nil {
				t.Fatal(err)
			}
			db, err = Open(ctx, path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if got := puzzleIndexes(t, db); !slices.Equal(got, all) {
				t.Errorf("indexes after %s = %v, want %v", tt.name, got, all)
			}
			if err := db.IntegrityCheck(ctx); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestIndexesDeferred: a writer opened with DeferIndexes reports its
// indexes deferred, on a fresh bank or not, until it builds them; a
// writer without it never does. pipeline.Generate builds early only
// while they are.
func TestIndexesDeferred(t *testing.T) {
	ctx := context.Background()
	db := openTempBank(t, Options{DeferIndexes: true})
	if !db.IndexesDeferred() {
		t.Error("a fresh bank's writer with DeferIndexes reports no deferred indexes")
	}
	mustWriteBatch(t, db, WriteResult{Families: 1, Puzzles: 1}, oneFamily(0)...)
	if err := db.BuildIndexes(ctx); err != nil {
		t.Fatal(err)
	}
	if db.IndexesDeferred() {
		t.Error("indexes still deferred after BuildIndexes")
	}
	if db = reopen(t, db, Options{DeferIndexes: true}); !db.IndexesDeferred() {
		t.Error("a writer with DeferIndexes on a bank with puzzles reports no deferred indexes")
	}
	if db = reopen(t, db, Options{}); db.IndexesDeferred() {
		t.Error("a writer without DeferIndexes reports deferred indexes")
	}
}

// TestBuildDeferredIndexesNoNames: an empty list of names builds no
// index, as beginBatch passes one when a writer is in bulk mode for both
// tables; only buildAllDeferredIndexes builds them all.
func TestBuildDeferredIndexesNoNames(t *testing.T) {
	ctx := context.Background()
	db := openTempBank(t, Options{DeferIndexes: true})
	tx, err := db.db.BeginTxx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	deferred := func() int {
		t.Helper()
		var n int
		if err := tx.GetContext(ctx, &n, "SELECT COUNT(*) FROM deferred_indexes"); err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := deferred()
	if before == 0 {
		t.Fatal("no deferred indexes on a fresh bank in bulk mode: the test covers nothing")
	}
	if err := buildDeferredIndexes(ctx, tx); err != nil {
		t.Fatal(err)
	}
	if got := deferred(); got != before {
		t.Errorf("deferred indexes after buildDeferredIndexes() = %d, want %d", got, before)
	}
	if err := buildAllDeferredIndexes(ctx, tx); err != nil {
		t.Fatal(err)
	}
	if got := deferred(); got != 0 {
		t.Errorf("deferred indexes after buildAllDeferredIndexes = %d, want 0", got)
	}
}
