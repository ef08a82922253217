package grade_test

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

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
