package pipeline_test

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"

	"sudokubank/grade"
	"sudokubank/grid"
	"sudokubank/pipeline"
	"sudokubank/store"
)

// TestSizedLevelsReachable makes one family of every level each size
// lists (SizedLevels) with the pipeline's own digs: a level a size
// claims must come out in bounded time, and be the level stored.
func TestSizedLevelsReachable(t *testing.T) {
	if testing.Short() {
		t.Skip("digs every level of five sizes")
	}
	ctx := context.Background()
	for _, n := range []int{4, 6, 8, 12, 16} {
		shape, err := grid.ShapeOf(n)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range pipeline.SizedLevels(shape) {
			t.Run(strconv.Itoa(n)+"/"+l.String(), func(t *testing.T) {
				db, err := store.Open(ctx, filepath.Join(t.TempDir(), "b.db"), store.Options{})
				if err != nil {
					t.Fatal(err)
				}
				defer db.Close()
				sum, err := pipeline.Generate(ctx, db, pipeline.GenerateConfig{
					BuildOptions: pipeline.BuildOptions{Shape: shape, Seen: pipeline.NewSeen(nil)},
					Seed:         uint64(n), Target: pipeline.Count(1, []grade.Level{l}), Log: quiet(),
				})
				if err != nil || sum.Families != 1 || sum.Levels[l] != 1 {
					t.Fatalf("one %v family of %v: %d made (levels %v), %v", l, shape, sum.Families, sum.Levels, err)
				}
			})
		}
	}
	if ls := pipeline.SizedLevels(grid.Shapes[0]); len(ls) != 1 || ls[0] != grade.ExtremelyEasy {
		t.Errorf("4x4 levels %v, want extremely-easy alone", ls)
	}
}
