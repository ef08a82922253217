package banktest

import (
	"context"
	"testing"
	"time"

	"sudokubank/grade"
	"sudokubank/grid"
	"sudokubank/pipeline"
	"sudokubank/store"
)

// MustSizedBuilt returns count families of size n built as bankgen -size
// n builds them, at the given levels, from seed 1: dug, graded with
// grade.SizedGrader, with one variant each.
func MustSizedBuilt(tb testing.TB, n int, levels []grade.Level, count int) []store.NewFamily {
	tb.Helper()
	sh, err := grid.ShapeOf(n)
	if err != nil {
		tb.Fatal(err)
	}
	at := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	b := pipeline.NewSizedBuilder(pipeline.BuildOptions{Shape: sh, Levels: levels, Variants: 1, Now: func() time.Time { return at }})
	var out []store.NewFamily
	for i := uint64(0); len(out) < count && i < 100; i++ {
		if res := b.Build(context.Background(), pipeline.Item{Seed: 1, Index: i}); res.Reason == pipeline.Kept {
			out = append(out, res.Value)
		}
	}
	if len(out) < count {
		tb.Fatalf("%d of %d %s families built", len(out), count, sh)
	}
	return out
}
