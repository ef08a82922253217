package pipeline_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"sudokubank/grade"
	"sudokubank/grid"
	"sudokubank/internal/cputime"
	"sudokubank/pipeline"
)

// BenchmarkGenerateSized runs bankgen's pipeline for each size other than
// 9x9 into a fresh bank, with the default workers, and reports families
// written per second of wall time and of CPU: issue 26's targets are
// 5,000/s for 4x4 and 6x6, 1,000/s for 8x8, 100/s for 12x12 and 20/s for
// 16x16 at levels 1-4, on two cores.
func BenchmarkGenerateSized(b *testing.B) {
	for _, c := range []struct {
		n, count int
		levels   []grade.Level
		name     string
	}{
		{4, 1000, nil, "N=4"},
		{6, 3000, nil, "N=6"},
		{8, 1000, nil, "N=8"},
		{12, 100, nil, "N=12"},
		{12, 100, []grade.Level{1, 2, 3, 4}, "N=12/Level=1-4"},
		{12, 20, []grade.Level{grade.Evil}, "N=12/Level=evil"},
		{16, 20, []grade.Level{1, 2, 3, 4}, "N=16/Level=1-4"},
		{16, 3, []grade.Level{grade.Evil}, "N=16/Level=evil"},
	} {
		b.Run(c.name, func(b *testing.B) {
			defer bankgenGC()()
			shape, err := grid.ShapeOf(c.n)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			dir := b.TempDir()
			var fams int64
			var took, cpu time.Duration
			for i := 0; b.Loop(); i++ {
				db, err := openFresh(ctx, filepath.Join(dir, fmt.Sprintf("%d.db", i)))
				if err != nil {
					b.Fatal(err)
				}
				cpu0 := cputime.Process()
				sum, err := pipeline.Generate(ctx, db, pipeline.GenerateConfig{
					BuildOptions: pipeline.BuildOptions{Shape: shape, Seen: pipeline.NewSeen(nil)},
					Seed:         uint64(i), Target: pipeline.Count(c.count, c.levels), Log: quiet(),
				})
				if err != nil {
					b.Fatal(err)
				}
				if err := db.BuildIndexes(ctx); err != nil {
					b.Fatal(err)
				}
				cpu += cputime.Process() - cpu0
				fams, took = fams+sum.Families, took+sum.Elapsed
				if err := db.Close(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(fams)/took.Seconds(), "families/s")
			b.ReportMetric(float64(fams)/cpu.Seconds(), "families/cpu-s")
		})
	}
}
