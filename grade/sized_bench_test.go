package grade_test

import (
	"context"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"sudokubank/gen"
	"sudokubank/grade"
	"sudokubank/grid"
)

// BenchmarkSizedGrade grades the fixture puzzles of each shape
// (testdata/sized/puzzles.txt: minimal puzzles dug from random grids) in
// turn and reports puzzles per second.
func BenchmarkSizedGrade(b *testing.B) {
	data, err := os.ReadFile("testdata/sized/puzzles.txt")
	if err != nil {
		b.Fatal(err)
	}
	bySize := map[int][]grid.Grid{}
	for _, l := range strings.Split(string(data), "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		p, err := grid.Parse(l)
		if err != nil {
			b.Fatal(err)
		}
		bySize[p.Shape.N] = append(bySize[p.Shape.N], p)
	}
	for _, s := range grid.Shapes {
		ps := bySize[s.N]
		if len(ps) == 0 {
			continue
		}
		b.Run("N="+strconv.Itoa(s.N), func(b *testing.B) {
			g := grade.NewSized()
			ctx := context.Background()
			i := 0
			for b.Loop() {
				if _, err := g.GradeContext(ctx, ps[i%len(ps)]); err != nil {
					b.Fatal(err)
				}
				i++
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "puzzles/s")
		})
	}
}

// BenchmarkSizedUnfinished digs minimal puzzles without symmetry from
// fixed seeds (rand.NewPCG(seed, N), seed 1, 2, ..., as
// testdata/sized/grades.golden does) and grades them, reporting the
// share of puzzles no implemented technique finishes and the grades per
// second. Run it with -benchtime 1x: each iteration grades the whole
// sample (N=25 takes minutes).
func BenchmarkSizedUnfinished(b *testing.B) {
	for _, set := range []struct{ n, count int }{{12, 100}, {16, 30}, {25, 4}} {
		b.Run("N="+strconv.Itoa(set.n), func(b *testing.B) {
			s, err := grid.ShapeOf(set.n)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			var d gen.SizedDigger
			ps := make([]grid.Grid, set.count)
			for i := range ps {
				pz, err := d.GenerateContext(ctx, s, gen.MinimalProfile(gen.NoSymmetry), rand.New(rand.NewPCG(uint64(i+1), uint64(set.n))))
				if err != nil {
					b.Fatal(err)
				}
				ps[i] = pz.Grid
			}
			g := grade.NewSized()
			unfinished := 0
			b.ResetTimer()
			for b.Loop() {
				unfinished = 0
				for _, p := range ps {
					gr, err := g.GradeContext(ctx, p)
					if err != nil {
						b.Fatal(err)
					}
					if gr.Unfinished {
						unfinished++
					}
				}
			}
			b.ReportMetric(100*float64(unfinished)/float64(len(ps)), "unfinished-%")
			b.ReportMetric(float64(b.N*len(ps))/b.Elapsed().Seconds(), "puzzles/s")
		})
	}
}
