package pipeline_test

import (
	"context"
	"path/filepath"
	"testing"

	"sudokubank/grid"
	"sudokubank/pipeline"
	"sudokubank/store"
)

// TestSizedGenerate25 runs the pipeline for two 25x25 families at every
// level the size lists: each dig's checks are held to a node budget, so
// the run ends however sparse its digs get (a minimal 25x25 dig without
// one did not end in minutes).
func TestSizedGenerate25(t *testing.T) {
	if testing.Short() {
		t.Skip("digs and grades 25x25 puzzles: a few seconds")
	}
	ctx := context.Background()
	s, err := grid.ShapeOf(25)
	if err != nil {
		t.Fatal(err)
	}
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "25.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sum, err := pipeline.Generate(ctx, db, pipeline.GenerateConfig{
		BuildOptions: pipeline.BuildOptions{Shape: s, Seen: pipeline.NewSeen(nil)},
		Seed:         26, Target: pipeline.Count(2, nil), Log: quiet(),
	})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Families != 2 || sum.Failed != 0 {
		t.Errorf("%d families, %d failed; want 2 and 0", sum.Families, sum.Failed)
	}
}
