package pipeline_test

import (
	"context"
	"path/filepath"
	"testing"

	"sudokubank/pipeline"
	"sudokubank/store"
)

// TestGenerateBuildsIndexesBeforeTheEnd runs a fresh bank's bulk load and
// checks that Generate itself built the indexes the load deferred, before
// it wrote its last families, which then went into the built indexes: the
// bank is whole before the caller's BuildIndexes or Close.
//
// Generate starts the build when the writer has received all but the
// last n/16 families, after writing every family it holds; with n/16
// more than a chunk (16), the collector's last message comes after that,
// so the build can overlap the last families. The writer starts it only
// if it has spent less than half the run writing (see
// pipeline.Config.Finish); Generate's batches of 4,000
// families and one second hold all of a run this small, so before the
// build the writer has written at most one small batch (a run slower
// than a second), and the condition holds however slow the machine.
func TestGenerateBuildsIndexesBeforeTheEnd(t *testing.T) {
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "b.db"), store.Options{DeferIndexes: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if !db.IndexesDeferred() {
		t.Fatal("a fresh bank's writer deferred no index")
	}
	// The writer calls Write only while the build is not running, so
	// IndexesDeferred does not wait for it here.
	write := pipeline.Writer(db)
	writes, built := 0, 0 // batches written, and families written into built indexes
	record := func(ctx context.Context, batch []store.NewFamily) (pipeline.Written, error) {
		writes++
		if !db.IndexesDeferred() {
			built += len(batch)
		}
		return write(ctx, batch)
	}
	const n = 544 // n/16 = 34 families after the build starts
	sum, err := pipeline.Generate(ctx, db, pipeline.GenerateConfig{
		Seed: 3, Target: pipeline.Count(n, nil), Workers: 2, Log: quiet(), Write: record,
	})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Families != n {
		t.Fatalf("wrote %d families, want %d", sum.Families, n)
	}
	if db.IndexesDeferred() {
		t.Error("indexes still deferred after Generate")
	}
	// The families after the chunk that started the build, n/16 less up
	// to a chunk, wait for it and are written after it; the writer wrote
	// every family it held before it.
	if built < n/16-15 || built > n/16 {
		t.Errorf("%d families of %d batches written after the indexes were built, want %d-%d", built, writes, n/16-15, n/16)
	}
	if err := db.IntegrityCheck(ctx); err != nil {
		t.Fatal(err)
	}
	got, err := db.CountFamilies(ctx, store.Filter{})
	if err != nil || got != n {
		t.Errorf("CountFamilies = %d, %v; want %d", got, err, n)
	}
}
