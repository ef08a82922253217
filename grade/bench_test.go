package grade_test

import (
	"os"
	"testing"

	"sudokubank/grade"
	"sudokubank/solve"
)

// BenchmarkGradeGroups grades each source group of dev_se.txt and reports
// puzzles/s per group. It skips when ../shared/data is absent.
func BenchmarkGradeGroups(b *testing.B) {
	path := "../../shared/data/rated/dev_se.txt"
	if _, err := os.Stat(path); err != nil {
		b.Skipf("no reference data: %v", err)
	}
	groups := map[string][]solve.Grid{}
	var order []string
	for _, rp := range MustReadRated(b, path) {
		if groups[rp.source] == nil {
			order = append(order, rp.source)
		}
		groups[rp.source] = append(groups[rp.source], rp.puzzle)
	}
	for _, src := range order {
		ps := groups[src]
		b.Run(src, func(b *testing.B) {
			var g grade.Grader
			n := 0
			for b.Loop() {
				if _, err := g.Grade(ps[n%len(ps)]); err != nil {
					b.Fatal(err)
				}
				n++
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "puzzles/s")
		})
	}
}

// BenchmarkSolveCount measures the search the grader runs first, per group.
func BenchmarkSolveCount(b *testing.B) {
	path := "../../shared/data/rated/dev_se.txt"
	if _, err := os.Stat(path); err != nil {
		b.Skipf("no reference data: %v", err)
	}
	var ps []solve.Grid
	for _, rp := range MustReadRated(b, path) {
		if rp.source == "17" {
			ps = append(ps, rp.puzzle)
		}
	}
	var s solve.Solver
	n := 0
	for b.Loop() {
		s.Count(ps[n%len(ps)], 2)
		n++
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "puzzles/s")
}
