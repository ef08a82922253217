package pipeline_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"sudokubank/pipeline"
	"sudokubank/store"
)

// TestGenerateBuildsIndexesBeforeTheEnd runs a fresh bank's bulk load and
// checks that Generate itself built the indexes the load deferred, before
// its last families, which then went into the built indexes: the bank is
// whole before the caller's BuildIndexes or Close.
func TestGenerateBuildsIndexesBeforeTheEnd(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "b.db")
	db, err := store.Open(ctx, path, store.Options{DeferIndexes: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	deferred := func() int {
		t.Helper()
		r, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		var n int
		if err := r.QueryRow("SELECT COUNT(*) FROM deferred_indexes").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if deferred() == 0 {
		t.Fatal("a fresh bank's writer deferred no index")
	}
	const n = 64
	sum, err := pipeline.Generate(ctx, db, pipeline.GenerateConfig{
		Seed: 3, Target: pipeline.Count(n, nil), Workers: 2, Log: quiet(),
	})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Families != n {
		t.Fatalf("wrote %d families, want %d", sum.Families, n)
	}
	if got := deferred(); got != 0 {
		t.Errorf("%d indexes still deferred after Generate, want 0", got)
	}
	if err := db.IntegrityCheck(ctx); err != nil {
		t.Fatal(err)
	}
	got, err := db.CountFamilies(ctx, store.Filter{})
	if err != nil || got != n {
		t.Errorf("CountFamilies = %d, %v; want %d", got, err, n)
	}
}
