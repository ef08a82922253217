package pipeline_test

import (
	"context"
	"path/filepath"
	"testing"

	"sudokubank/grid"
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

// openTwo opens two writers on one new bank, as two processes would.
func openTwo(t *testing.T) (a, b *store.DB) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "b.db")
	for _, db := range []**store.DB{&a, &b} {
		var err error
		if *db, err = store.Open(ctx, path, store.Options{}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { (*db).Close() })
	}
	return a, b
}

// TestOverlappingQuotaRunsStopOnTheQuota runs two quota runs that both
// loaded the bank before either wrote, as overlapping cron runs do: each
// sets out to add the whole quota, and the bank must still end on it.
func TestOverlappingQuotaRunsStopOnTheQuota(t *testing.T) {
	ctx := context.Background()
	a, b := openTwo(t)
	want := pipeline.LevelCounts{0, 40, 30, 0, 0, 0}
	caps := pipeline.QuotaCaps(want)
	type run struct {
		db    *store.DB
		seen  *pipeline.Seen
		have  pipeline.LevelCounts
		seed  uint64
		runID int64
	}
	runs := []*run{{db: a, seed: 1}, {db: b, seed: 2}}
	for _, r := range runs {
		var err error
		if r.seen, r.have, err = pipeline.LoadBank(ctx, r.db, grid.Nine); err != nil {
			t.Fatal(err)
		}
		if r.runID, err = r.db.StartRun(ctx, store.Run{Seed: r.seed}); err != nil {
			t.Fatal(err)
		}
	}
	var total pipeline.LevelCounts
	for _, r := range runs {
		sum, err := pipeline.Generate(ctx, r.db, pipeline.GenerateConfig{
			BuildOptions: pipeline.BuildOptions{Seen: r.seen, RunID: r.runID},
			Seed:         r.seed, Target: pipeline.Quota(want, r.have), Caps: &caps, Workers: 2, Log: quiet(),
		})
		if err != nil {
			t.Fatal(err)
		}
		if sum.Levels.Total() != int(sum.Families) {
			t.Errorf("run %d: summary counts %v per level, %d families in all", r.runID, sum.Levels, sum.Families)
		}
		for l, n := range sum.Levels {
			total[l] += n
		}
		all, err := r.db.Runs(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, got := range all {
			if got.ID == r.runID && got.Families != sum.Families {
				t.Errorf("run %d: summary says %d families, the runs table %d", r.runID, sum.Families, got.Families)
			}
		}
	}
	counts, err := a.LevelCounts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for l := range want {
		if counts[l] != int64(want[l]) {
			t.Errorf("level %d: the bank holds %d families, want the quota %d", l, counts[l], want[l])
		}
	}
	if total != want {
		t.Errorf("the runs' summaries add up to %v, want %v", total, want)
	}
}

// TestOverlappingRunsCountWhatTheyCommitted runs the same seed twice
// from one loaded bank, as two overlapping runs with -seed do: the
// second makes the first's families, which the store finds stored, and
// its summary must count none of them.
func TestOverlappingRunsCountWhatTheyCommitted(t *testing.T) {
	ctx := context.Background()
	a, b := openTwo(t)
	var seens []*pipeline.Seen
	for _, db := range []*store.DB{a, b} {
		seen, _, err := pipeline.LoadBank(ctx, db, grid.Nine)
		if err != nil {
			t.Fatal(err)
		}
		seens = append(seens, seen)
	}
	const n = 60
	var sums []pipeline.Summary
	for i, db := range []*store.DB{a, b} {
		sum, err := pipeline.Generate(ctx, db, pipeline.GenerateConfig{
			BuildOptions: pipeline.BuildOptions{Seen: seens[i]},
			Seed:         42, Target: pipeline.Count(n, nil), Workers: 2, Log: quiet(),
		})
		if err != nil {
			t.Fatal(err)
		}
		sums = append(sums, sum)
	}
	for i, sum := range sums {
		if sum.Levels.Total() != int(sum.Families) {
			t.Errorf("run %d: %d families per level (%v), %d committed", i+1, sum.Levels.Total(), sum.Levels, sum.Families)
		}
	}
	if got := sums[0].Families + sums[1].Families; got != n {
		t.Errorf("the runs committed %d families in all, want %d", got, n)
	}
	if sums[1].Duplicates != n {
		t.Errorf("second run: %d duplicates, want %d", sums[1].Duplicates, n)
	}
}
