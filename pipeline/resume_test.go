package pipeline_test

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"sudokubank/grade"
	"sudokubank/grid"
	"sudokubank/pipeline"
	"sudokubank/store"
)

// job is a generating job's settings, as a test runs it.
type job struct {
	seed  uint64
	shard pipeline.Shard
	build pipeline.BuildOptions
}

// runJob runs j into db as one run of count families, counting what the
// runs earlier stored (none for a first run), and returns the run's ID
// and summary.
func runJob(tb testing.TB, db *store.DB, j job, count int, earlier []int64) (int64, pipeline.Summary) {
	tb.Helper()
	ctx := context.Background()
	seen, _, err := pipeline.LoadBank(ctx, db, grid.Nine)
	if err != nil {
		tb.Fatal(err)
	}
	id, err := db.StartRun(ctx, store.Run{Seed: j.seed})
	if err != nil {
		tb.Fatal(err)
	}
	var resume *pipeline.Resume
	if len(earlier) > 0 {
		if resume, err = pipeline.LoadResume(ctx, db, j.seed, earlier); err != nil {
			tb.Fatal(err)
		}
	}
	o := j.build
	o.Seen, o.RunID = seen, id
	sum, err := pipeline.Generate(ctx, db, pipeline.GenerateConfig{
		BuildOptions: o, Seed: j.seed, Shard: j.shard, Target: pipeline.Count(count, nil),
		Workers: 2, Log: quiet(), FromBank: true, Resume: resume,
	})
	if err != nil {
		tb.Fatal(err)
	}
	return id, sum
}

// contents returns every puzzle of the bank with its family's form and
// grade, sorted.
func contents(tb testing.TB, db *store.DB) []string {
	tb.Helper()
	var out []string
	err := db.Query(context.Background(), store.Filter{}, store.QueryOptions{}, func(r store.Row) error {
		out = append(out, fmt.Sprintf("%s %d %d %d %d %s %s", r.Puzzle, r.Level, r.ER, r.EP, r.ED, r.Hardest, r.Symmetry))
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// mustOpenBank opens a new bank in the test's directory.
func mustOpenBank(tb testing.TB, name string) *store.DB {
	tb.Helper()
	db, err := store.Open(context.Background(), filepath.Join(tb.TempDir(), name), store.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// TestResumeMakesTheUninterruptedRun checks that a job's run that
// stopped after its first families, run again with Resume, leaves the
// families, puzzles and grades one run of the job makes. The stopped run
// is a run of fewer families, which stores a prefix of the job's in item
// order as a stopped run does, and ends within a searching item's
// families as a stopped run may. A rerun starts at the last item the
// earlier run reached, except where it must judge its give-up budget
// within the prefix (a givens range, or a search), and then makes every
// item again.
func TestResumeMakesTheUninterruptedRun(t *testing.T) {
	xwing := pipeline.BuildOptions{Hardest: []grade.Technique{grade.XWing}, Variants: 1}
	for _, tt := range []struct {
		name        string
		job         job
		first, all  int
		skipsPrefix bool // the rerun counts the items before the last without making them
	}{
		{"Whole", job{seed: 11, build: pipeline.BuildOptions{Variants: 2}}, 70, 150, true},
		{"Shard", job{seed: 12, shard: pipeline.Shard{I: 1, N: 3}}, 40, 100, true},
		{"Givens", job{seed: 13, shard: pipeline.Shard{I: 0, N: 2}, build: pipeline.BuildOptions{MinGivens: 24, MaxGivens: 27}}, 30, 80, false},
		{"Search", job{seed: 14, shard: pipeline.Shard{I: 2, N: 4}, build: xwing}, 25, 60, false},
		{"Twice", job{seed: 15, shard: pipeline.Shard{I: 3, N: 4}}, 0, 90, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			one := mustOpenBank(t, "one.db")
			_, whole := runJob(t, one, tt.job, tt.all, nil)
			want := contents(t, one)

			db := mustOpenBank(t, "resumed.db")
			var earlier []int64
			if tt.first > 0 {
				id, _ := runJob(t, db, tt.job, tt.first, nil)
				earlier = append(earlier, id)
			} else {
				// Stopped twice: the second run resumed the first.
				id, _ := runJob(t, db, tt.job, 20, nil)
				earlier = append(earlier, id)
				id, _ = runJob(t, db, tt.job, 45, earlier)
				earlier = append(earlier, id)
			}
			stored := len(contents(t, db))
			id, sum := runJob(t, db, tt.job, tt.all, earlier)
			if got := contents(t, db); !slices.Equal(got, want) {
				t.Errorf("after the rerun the bank holds %d puzzles, one run %d; other puzzles or grades", len(got), len(want))
			}
			if sum.Resumed == 0 || stored == 0 || sum.Puzzles+int64(stored) != int64(len(want)) {
				t.Errorf("the rerun counted %d families again and stored %d puzzles, on %d; want %d in all", sum.Resumed, sum.Puzzles, stored, len(want))
			}
			if skipped := sum.Items < whole.Items; skipped != tt.skipsPrefix {
				t.Errorf("the rerun made %d items, one run %d; want it to skip the prefix: %v", sum.Items, whole.Items, tt.skipsPrefix)
			}
			_, again := runJob(t, db, tt.job, tt.all, append(earlier, id))
			if again.Families != 0 || len(contents(t, db)) != len(want) {
				t.Errorf("a run of the job its earlier runs finished stored %d families", again.Families)
			}
		})
	}
}
